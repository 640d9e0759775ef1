#pragma STDC FP_CONTRACT OFF
// Kernels that each write a different, overlapping part of one array inside
// a target data region, so that after a few split launches the valid
// copies of different byte ranges of the same buffer live on different
// pool members: [0, n/3), [n/4, 3n/4), [n/2, n), the whole array, then a
// read of everything; repeated with the ranges shifted, and with one
// unsplit kernel (an indirect write) in the middle. Compared bit for bit
// with serial host loops.
// RUN: %clang-hetero %s -o %t
// RUN: env HETERO_STATS=1 HETERO_CHUNKS=4 %compare-fallback %t 2>%t.cpu | %FileCheck %s
// RUN: %FileCheck %s --check-prefix=STATS < %t.cpu
// RUN: env HETERO_STATS=1 HETERO_SIMULATE=3 %compare-fallback %t 2>%t.sim | %FileCheck %s
// RUN: %FileCheck %s --check-prefix=STATS < %t.sim
// CHECK: array: hash=f712560676130616 ok
// CHECK: pair sums: hash=fd5c58585bdae87a ok
// CHECK: done failures=0
#include <stdlib.h>

#include "Inputs/split.h"

#define N 240000

#define PHASES(A, SUM, R, SHIFT, IDX)                                          \
  for (int i = 0; i < n / 3; ++i)                                              \
    A[i] = A[i] * 3 + R;                                                       \
  for (int i = n / 4 + SHIFT; i < 3 * n / 4; ++i)                              \
    A[i] = A[i] - i;                                                           \
  for (int i = 0; i < n; ++i)                                                  \
    A[IDX[i]] = A[IDX[i]] ^ 0x55;                                              \
  for (int i = n / 2 - SHIFT; i < n; ++i)                                      \
    A[i] = A[i] / 2 + A[(n - 1 - i) / 2];                                      \
  for (int i = 0; i < n; ++i)                                                  \
    SUM[i] = A[i] + (i > 0 ? A[i - 1] : 0);

int main(void) {
  const int n = N;
  long *a = malloc(n * sizeof(long)), *sum = malloc(n * sizeof(long));
  long *ra = malloc(n * sizeof(long)), *rsum = malloc(n * sizeof(long));
  int *idx = malloc(n * sizeof(int));
  for (int i = 0; i < n; ++i) {
    a[i] = ra[i] = (long)(i % 10007);
    idx[i] = (int)(((unsigned)i * 7u + 3u) % (unsigned)n); // a permutation
  }
#pragma omp target data map(tofrom : a[0 : n]) map(from : sum[0 : n])          \
    map(to : idx[0 : n])
  for (int r = 0; r < 3; ++r) {
    const int shift = 1000 * r;
// STATS-DAG: hetero-stats kernel={{.*}}_l[[@LINE+1]] launches=3 split=yes
#pragma omp target teams distribute parallel for
    for (int i = 0; i < n / 3; ++i)
      a[i] = a[i] * 3 + r;
// STATS-DAG: hetero-stats kernel={{.*}}_l[[@LINE+1]] launches=3 split=yes
#pragma omp target teams distribute parallel for
    for (int i = n / 4 + shift; i < 3 * n / 4; ++i)
      a[i] = a[i] - i;
// STATS-DAG: hetero-stats kernel={{.*}}_l[[@LINE+1]] launches=3 split=no(
#pragma omp target teams distribute parallel for
    for (int i = 0; i < n; ++i)
      a[idx[i]] = a[idx[i]] ^ 0x55;
// STATS-DAG: hetero-stats kernel={{.*}}_l[[@LINE+1]] launches=3 split=yes
#pragma omp target teams distribute parallel for
    for (int i = n / 2 - shift; i < n; ++i)
      a[i] = a[i] / 2 + a[(n - 1 - i) / 2];
// STATS-DAG: hetero-stats kernel={{.*}}_l[[@LINE+1]] launches=3 split=yes
#pragma omp target teams distribute parallel for
    for (int i = 0; i < n; ++i)
      sum[i] = a[i] + (i > 0 ? a[i - 1] : 0);
  }
  for (int r = 0; r < 3; ++r) {
    const int shift = 1000 * r;
    PHASES(ra, rsum, r, shift, idx)
  }
  check_bytes("array", a, ra, n * sizeof(long));
  check_bytes("pair sums", sum, rsum, n * sizeof(long));
  free(a);
  free(sum);
  free(ra);
  free(rsum);
  free(idx);
  return done();
}
// STATS: hetero-stats total

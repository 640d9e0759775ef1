#pragma STDC FP_CONTRACT OFF
// An integer power iteration with a CSR matrix, entirely on the device
// inside one target data region: y = A x mod P (indirect reads x[col[k]]),
// x = (3 y + i) mod P, and a checksum of x with a long + reduction (exact),
// 5 rounds, then a last kernel writing the per-row degree. The sparsity
// pattern is a banded matrix with pseudo-random extra entries. Compared with
// serial host loops.
// RUN: %clang-hetero %s -o %t
// RUN: env HETERO_STATS=1 HETERO_CHUNKS=4 %compare-fallback %t 2>%t.cpu | %FileCheck %s
// RUN: %FileCheck %s --check-prefix=STATS < %t.cpu
// RUN: env HETERO_STATS=1 HETERO_SIMULATE=3 %compare-fallback %t 2>%t.sim | %FileCheck %s
// RUN: %FileCheck %s --check-prefix=STATS < %t.sim
// CHECK: nnz=389994 sums: 2031204009 31926040012 30041524987 30043220830 30018369124
// CHECK: sums: hash=ef779421035d8d36 ok
// CHECK: x: hash=abf0c135b22f0e7b ok
// CHECK: degrees: hash=2ecba04ee416eabf ok
// CHECK: done failures=0
#include <stdlib.h>

#include "Inputs/split.h"

#define P 1000003L
#define ROUNDS 5

int main(void) {
  const int n = 60000;
  int *rowptr = malloc((n + 1) * sizeof(int));
  int *col = malloc(n * 8 * sizeof(int));
  long *val = malloc(n * 8 * sizeof(long));
  int nnz = 0;
  for (int i = 0; i < n; ++i) {
    rowptr[i] = nnz;
    for (int d = -2; d <= 2; ++d)
      if (i + d >= 0 && i + d < n) {
        col[nnz] = i + d;
        val[nnz++] = d == 0 ? 4 : -1;
      }
    for (int e = 0; e < i % 4; ++e) {
      col[nnz] = (int)(((long)i * 7919 + e * 104729) % n);
      val[nnz++] = 1 + e;
    }
  }
  rowptr[n] = nnz;
  long *x = malloc(n * sizeof(long)), *y = malloc(n * sizeof(long));
  long *rx = malloc(n * sizeof(long)), *ry = malloc(n * sizeof(long));
  int *deg = malloc(n * sizeof(int)), *rdeg = malloc(n * sizeof(int));
  for (int i = 0; i < n; ++i)
    x[i] = rx[i] = i % 1000;
  long sums[ROUNDS], rsums[ROUNDS];

#pragma omp target data map(to : rowptr[0 : n + 1], col[0 : nnz],              \
                                val[0 : nnz]) map(tofrom : x[0 : n])           \
    map(alloc : y[0 : n]) map(from : deg[0 : n])
  {
    for (int r = 0; r < ROUNDS; ++r) {
// STATS-DAG: hetero-stats kernel={{.*}}_l[[@LINE+1]] launches=5 split=yes
#pragma omp target teams distribute parallel for
      for (int i = 0; i < n; ++i) {
        long s = 0;
        for (int k = rowptr[i]; k < rowptr[i + 1]; ++k)
          s += val[k] * x[col[k]];
        y[i] = ((s % P) + P) % P;
      }
      long sum = 0;
// STATS-DAG: hetero-stats kernel={{.*}}_l[[@LINE+1]] launches=5 split=yes
#pragma omp target teams distribute parallel for reduction(+ : sum)
      for (int i = 0; i < n; ++i) {
        x[i] = (3 * y[i] + i) % P;
        sum += x[i];
      }
      sums[r] = sum;
    }
// STATS-DAG: hetero-stats kernel={{.*}}_l[[@LINE+1]] launches=1 split=yes
#pragma omp target teams distribute parallel for
    for (int i = 0; i < n; ++i)
      deg[i] = rowptr[i + 1] - rowptr[i];
  }
  for (int r = 0; r < ROUNDS; ++r) {
    for (int i = 0; i < n; ++i) {
      long s = 0;
      for (int k = rowptr[i]; k < rowptr[i + 1]; ++k)
        s += val[k] * rx[col[k]];
      ry[i] = ((s % P) + P) % P;
    }
    long sum = 0;
    for (int i = 0; i < n; ++i) {
      rx[i] = (3 * ry[i] + i) % P;
      sum += rx[i];
    }
    rsums[r] = sum;
  }
  for (int i = 0; i < n; ++i)
    rdeg[i] = rowptr[i + 1] - rowptr[i];
  printf("nnz=%d sums: %ld %ld %ld %ld %ld\n", nnz, sums[0], sums[1], sums[2],
         sums[3], sums[4]);
  check_bytes("sums", sums, rsums, sizeof sums);
  check_bytes("x", x, rx, n * sizeof(long));
  check_bytes("degrees", deg, rdeg, n * sizeof(int));
  free(rowptr);
  free(col);
  free(val);
  free(x);
  free(y);
  free(rx);
  free(ry);
  free(deg);
  free(rdeg);
  return done();
}
// STATS: hetero-stats total

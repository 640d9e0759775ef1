#pragma STDC FP_CONTRACT OFF
// A chain of four kernels per round inside one target data region, with the
// intermediates mapped alloc (they never exist on the host): t1 = f(in),
// t2 = 3-point stencil of t1 (reads neighbours another chunk wrote), t3 =
// t2 combined with in and the reversed t1 (reads the far end of t1), out +=
// t3; 3 rounds, then one last kernel folding out into a smaller array
// (reads 4 elements per iteration). No host round trip between the
// kernels. Compared bit for bit with serial host loops.
// RUN: %clang-hetero %s -o %t
// RUN: env HETERO_STATS=1 HETERO_CHUNKS=4 %compare-fallback %t 2>%t.cpu | %FileCheck %s
// RUN: %FileCheck %s --check-prefix=STATS < %t.cpu
// RUN: env HETERO_STATS=1 HETERO_SIMULATE=3 %compare-fallback %t 2>%t.sim | %FileCheck %s
// RUN: %FileCheck %s --check-prefix=STATS < %t.sim
// CHECK: out: hash=aa23948911b111e2 ok
// CHECK: fold: hash=27692f62e4d7e71d ok
// CHECK: done failures=0
#include <stdlib.h>

#include "Inputs/split.h"

#define N 240000
#define ROUNDS 3

int main(void) {
  const int n = N, q = N / 4;
  double *in = malloc(n * sizeof(double)), *out = malloc(n * sizeof(double));
  double *t1 = malloc(n * sizeof(double)), *t2 = malloc(n * sizeof(double));
  double *t3 = malloc(n * sizeof(double)), *fold = malloc(q * sizeof(double));
  double *rt1 = malloc(n * sizeof(double)), *rt2 = malloc(n * sizeof(double));
  double *rt3 = malloc(n * sizeof(double)), *rout = malloc(n * sizeof(double));
  double *rfold = malloc(q * sizeof(double));
  for (int i = 0; i < n; ++i) {
    in[i] = (double)((i * 53) % 211) / 16.0 - 6.0;
    out[i] = rout[i] = 0.0;
  }

#pragma omp target data map(to : in[0 : n])                                    \
    map(alloc : t1[0 : n], t2[0 : n], t3[0 : n]) map(tofrom : out[0 : n])      \
    map(from : fold[0 : q])
  {
    for (int r = 0; r < ROUNDS; ++r) {
// STATS-DAG: hetero-stats kernel={{.*}}_l[[@LINE+1]] launches=3 split=yes
#pragma omp target teams distribute parallel for
      for (int i = 0; i < n; ++i)
        t1[i] = in[i] * (double)(r + 1) + out[i] * 0.5;
// STATS-DAG: hetero-stats kernel={{.*}}_l[[@LINE+1]] launches=3 split=yes
#pragma omp target teams distribute parallel for
      for (int i = 0; i < n; ++i)
        t2[i] =
            (i > 0 ? t1[i - 1] : 0.0) + t1[i] + (i < n - 1 ? t1[i + 1] : 0.0);
// STATS-DAG: hetero-stats kernel={{.*}}_l[[@LINE+1]] launches=3 split=yes
#pragma omp target teams distribute parallel for
      for (int i = 0; i < n; ++i)
        t3[i] = t2[i] - in[i] * t1[n - 1 - i] * 0.125;
// STATS-DAG: hetero-stats kernel={{.*}}_l[[@LINE+1]] launches=3 split=yes
#pragma omp target teams distribute parallel for
      for (int i = 0; i < n; ++i)
        out[i] = out[i] + t3[i];
    }
// STATS-DAG: hetero-stats kernel={{.*}}_l[[@LINE+1]] launches=1 split=yes
#pragma omp target teams distribute parallel for
    for (int j = 0; j < q; ++j)
      fold[j] = out[4 * j] + out[4 * j + 1] - out[4 * j + 2] - out[4 * j + 3];
  }
  for (int r = 0; r < ROUNDS; ++r) {
    for (int i = 0; i < n; ++i)
      rt1[i] = in[i] * (double)(r + 1) + rout[i] * 0.5;
    for (int i = 0; i < n; ++i)
      rt2[i] =
          (i > 0 ? rt1[i - 1] : 0.0) + rt1[i] + (i < n - 1 ? rt1[i + 1] : 0.0);
    for (int i = 0; i < n; ++i)
      rt3[i] = rt2[i] - in[i] * rt1[n - 1 - i] * 0.125;
    for (int i = 0; i < n; ++i)
      rout[i] = rout[i] + rt3[i];
  }
  for (int j = 0; j < q; ++j)
    rfold[j] =
        rout[4 * j] + rout[4 * j + 1] - rout[4 * j + 2] - rout[4 * j + 3];
  check_bytes("out", out, rout, n * sizeof(double));
  check_bytes("fold", fold, rfold, q * sizeof(double));
  free(in);
  free(out);
  free(t1);
  free(t2);
  free(t3);
  free(fold);
  free(rt1);
  free(rt2);
  free(rt3);
  free(rout);
  free(rfold);
  return done();
}
// STATS: hetero-stats total

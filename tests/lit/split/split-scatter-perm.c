#pragma STDC FP_CONTRACT OFF
// Indirect writes through a permutation, y[perm[i]] = f(x[i]) (a scatter):
// the written elements are not known before the kernel runs, so the runtime
// must run it unsplit. It alternates, inside one target data region, with a
// gather z[i] = y[perm[i]] (indirect reads only: may split) and an affine
// update, 3 rounds, so data written by unsplit and split launches must stay
// coherent. Compared bit for bit with serial host loops.
// RUN: %clang-hetero %s -o %t
// RUN: env HETERO_STATS=1 HETERO_CHUNKS=4 %compare-fallback %t 2>%t.cpu | %FileCheck %s
// RUN: %FileCheck %s --check-prefix=STATS < %t.cpu
// RUN: env HETERO_STATS=1 HETERO_SIMULATE=3 %compare-fallback %t 2>%t.sim | %FileCheck %s
// RUN: %FileCheck %s --check-prefix=STATS < %t.sim
// CHECK: scattered y: hash=83d53e7c9d2cec5b ok
// CHECK: gathered z: hash=e59d3e935d412252 ok
// CHECK: x: hash=4bd36e0006078451 ok
// CHECK: done failures=0
#include <stdlib.h>

#include "Inputs/split.h"

#define N 262144
#define ROUNDS 3

int main(void) {
  const int n = N;
  int *perm = malloc(n * sizeof(int));
  double *x = malloc(n * sizeof(double)), *y = malloc(n * sizeof(double));
  double *z = malloc(n * sizeof(double));
  double *rx = malloc(n * sizeof(double)), *ry = malloc(n * sizeof(double));
  double *rz = malloc(n * sizeof(double));
  // An odd multiplier modulo a power of two is a permutation.
  for (int i = 0; i < n; ++i) {
    perm[i] = (int)(((unsigned)i * 40503u + 17u) & (unsigned)(n - 1));
    x[i] = rx[i] = (double)(i % 1021) / 32.0;
    y[i] = ry[i] = z[i] = rz[i] = 0.0;
  }

#pragma omp target data map(to : perm[0 : n])                                  \
    map(tofrom : x[0 : n], y[0 : n], z[0 : n])
  for (int r = 0; r < ROUNDS; ++r) {
// STATS-DAG: hetero-stats kernel={{.*}}_l[[@LINE+1]] launches=3 split=no(
#pragma omp target teams distribute parallel for
    for (int i = 0; i < n; ++i)
      y[perm[i]] = x[i] * 3.0 - (double)r;
// STATS-DAG: hetero-stats kernel={{.*}}_l[[@LINE+1]] launches=3 split=yes
#pragma omp target teams distribute parallel for
    for (int i = 0; i < n; ++i)
      z[i] = y[perm[i]] + z[i] * 0.5;
// STATS-DAG: hetero-stats kernel={{.*}}_l[[@LINE+1]] launches=3 split=yes
#pragma omp target teams distribute parallel for
    for (int i = 0; i < n; ++i)
      x[i] = z[i] - y[i];
  }
  for (int r = 0; r < ROUNDS; ++r) {
    for (int i = 0; i < n; ++i)
      ry[perm[i]] = rx[i] * 3.0 - (double)r;
    for (int i = 0; i < n; ++i)
      rz[i] = ry[perm[i]] + rz[i] * 0.5;
    for (int i = 0; i < n; ++i)
      rx[i] = rz[i] - ry[i];
  }
  check_bytes("scattered y", y, ry, n * sizeof(double));
  check_bytes("gathered z", z, rz, n * sizeof(double));
  check_bytes("x", x, rx, n * sizeof(double));
  free(perm);
  free(x);
  free(y);
  free(z);
  free(rx);
  free(ry);
  free(rz);
  return done();
}
// STATS: hetero-stats total

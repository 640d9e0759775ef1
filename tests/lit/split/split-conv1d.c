#pragma STDC FP_CONTRACT OFF
// 1-D convolutions with wide halos: a 31-tap FIR filter y[i] = sum_k
// h[k] x[i + k - 15] over the interior (each chunk reads 15 elements beyond
// both ends of its window), applied twice in a target data region (the
// second pass filters the first pass's output), and an integer moving sum
// over a window of 64 with an inner loop. Each output sums in a fixed
// order, so the results are bit-exact. Compared with serial host loops.
// RUN: %clang-hetero %s -o %t
// RUN: env HETERO_STATS=1 HETERO_CHUNKS=4 %compare-fallback %t 2>%t.cpu | %FileCheck %s
// RUN: %FileCheck %s --check-prefix=STATS < %t.cpu
// RUN: env HETERO_STATS=1 HETERO_SIMULATE=3 %compare-fallback %t 2>%t.sim | %FileCheck %s
// RUN: %FileCheck %s --check-prefix=STATS < %t.sim
// CHECK: first pass: hash=abbaf134f08250fc ok
// CHECK: second pass: hash=726376d418b4f86c ok
// CHECK: moving sums: hash=06bfb5186897b3fa ok
// CHECK: done failures=0
#include <stdlib.h>

#include "Inputs/split.h"

#define N 200000
#define TAPS 31
#define R 15
#define WIN 64

int main(void) {
  const int n = N;
  double h[TAPS];
  for (int k = 0; k < TAPS; ++k)
    h[k] = (double)(R + 1 - (k < R ? R - k : k - R)) / 256.0;
  double *x = malloc(n * sizeof(double)), *y = malloc(n * sizeof(double));
  double *z = malloc(n * sizeof(double));
  double *ry = malloc(n * sizeof(double)), *rz = malloc(n * sizeof(double));
  for (int i = 0; i < n; ++i) {
    x[i] = (double)((i * 7919) % 2003) / 100.0 - 10.0;
    y[i] = z[i] = ry[i] = rz[i] = 0.0;
  }

#pragma omp target data map(to : x[0 : n], h) map(tofrom : y[0 : n], z[0 : n])
  {
// STATS-DAG: hetero-stats kernel={{.*}}_l[[@LINE+1]] launches=1 split=yes
#pragma omp target teams distribute parallel for
    for (int i = R; i < n - R; ++i) {
      double s = 0.0;
      for (int k = 0; k < TAPS; ++k)
        s += h[k] * x[i + k - R];
      y[i] = s;
    }
// STATS-DAG: hetero-stats kernel={{.*}}_l[[@LINE+1]] launches=1 split=yes
#pragma omp target teams distribute parallel for
    for (int i = 2 * R; i < n - 2 * R; ++i) {
      double s = 0.0;
      for (int k = 0; k < TAPS; ++k)
        s += h[k] * y[i + k - R];
      z[i] = s;
    }
  }
  for (int i = R; i < n - R; ++i) {
    double s = 0.0;
    for (int k = 0; k < TAPS; ++k)
      s += h[k] * x[i + k - R];
    ry[i] = s;
  }
  for (int i = 2 * R; i < n - 2 * R; ++i) {
    double s = 0.0;
    for (int k = 0; k < TAPS; ++k)
      s += h[k] * ry[i + k - R];
    rz[i] = s;
  }
  check_bytes("first pass", y, ry, n * sizeof(double));
  check_bytes("second pass", z, rz, n * sizeof(double));

  int *v = malloc(n * sizeof(int)), *ms = malloc(n * sizeof(int)),
      *rms = malloc(n * sizeof(int));
  for (int i = 0; i < n; ++i) {
    v[i] = (i * 37) % 101 - 50;
    ms[i] = rms[i] = 0;
  }
// STATS-DAG: hetero-stats kernel={{.*}}_l[[@LINE+1]] launches=1 split=yes
#pragma omp target teams distribute parallel for map(to : v[0 : n])            \
    map(tofrom : ms[0 : n])
  for (int i = WIN - 1; i < n; ++i) {
    int s = 0;
    for (int k = i - WIN + 1; k <= i; ++k)
      s += v[k];
    ms[i] = s;
  }
  for (int i = WIN - 1; i < n; ++i) {
    int s = 0;
    for (int k = i - WIN + 1; k <= i; ++k)
      s += v[k];
    rms[i] = s;
  }
  check_bytes("moving sums", ms, rms, n * sizeof(int));
  free(x);
  free(y);
  free(z);
  free(ry);
  free(rz);
  free(v);
  free(ms);
  free(rms);
  return done();
}
// STATS: hetero-stats total

#pragma STDC FP_CONTRACT OFF
// Dense matrix-vector products with a sequential inner k loop: y = A x
// (row access) and x' = A^T y / 1024 (column access, stride n), 3 rounds of
// a power-iteration-like sequence inside one target data region, plus a
// float matrix times several right-hand sides stored row-major. Each output
// element sums in a fixed order, so results are bit-exact. Compared with
// serial host loops.
// RUN: %clang-hetero %s -o %t
// RUN: env HETERO_STATS=1 HETERO_CHUNKS=4 %compare-fallback %t 2>%t.cpu | %FileCheck %s
// RUN: %FileCheck %s --check-prefix=STATS < %t.cpu
// RUN: env HETERO_STATS=1 HETERO_SIMULATE=3 %compare-fallback %t 2>%t.sim | %FileCheck %s
// RUN: %FileCheck %s --check-prefix=STATS < %t.sim
// CHECK: power rounds: hash=28f0752e0fd1c251 ok
// CHECK: float multi-rhs: hash=cec2aa7c054a062f ok
// CHECK: done failures=0
#include <stdlib.h>

#include "Inputs/split.h"

#define ROUNDS 3

int main(void) {
  const int m = 600, n = 500;
  double *A = malloc(m * n * sizeof(double));
  double *x = malloc(n * sizeof(double)), *y = malloc(m * sizeof(double));
  double *rx = malloc(n * sizeof(double)), *ry = malloc(m * sizeof(double));
  for (int i = 0; i < m * n; ++i)
    A[i] = (double)((i * 7 + i / n) % 29) / 7.0 - 2.0;
  for (int j = 0; j < n; ++j)
    x[j] = rx[j] = 1.0 + (double)(j % 5) / 3.0;

#pragma omp target data map(to : A[0 : m * n]) map(tofrom : x[0 : n])          \
    map(alloc : y[0 : m])
  for (int r = 0; r < ROUNDS; ++r) {
// STATS-DAG: hetero-stats kernel={{.*}}_l[[@LINE+1]] launches=3 split=yes
#pragma omp target teams distribute parallel for
    for (int i = 0; i < m; ++i) {
      double s = 0.0;
      for (int k = 0; k < n; ++k)
        s += A[i * n + k] * x[k];
      y[i] = s;
    }
// STATS-DAG: hetero-stats kernel={{.*}}_l[[@LINE+1]] launches=3 split=yes
#pragma omp target teams distribute parallel for
    for (int j = 0; j < n; ++j) {
      double s = 0.0;
      for (int k = 0; k < m; ++k)
        s += A[k * n + j] * y[k];
      x[j] = s / 1024.0;
    }
  }
  for (int r = 0; r < ROUNDS; ++r) {
    for (int i = 0; i < m; ++i) {
      double s = 0.0;
      for (int k = 0; k < n; ++k)
        s += A[i * n + k] * rx[k];
      ry[i] = s;
    }
    for (int j = 0; j < n; ++j) {
      double s = 0.0;
      for (int k = 0; k < m; ++k)
        s += A[k * n + j] * ry[k];
      rx[j] = s / 1024.0;
    }
  }
  check_bytes("power rounds", x, rx, n * sizeof(double));

  // float matrix (rows x cols) times nrhs right-hand sides B (cols x nrhs).
  const int rows = 1000, cols = 256, nrhs = 8;
  float *F = malloc(rows * cols * sizeof(float)),
        *B = malloc(cols * nrhs * sizeof(float));
  float *C = malloc(rows * nrhs * sizeof(float)),
        *rC = malloc(rows * nrhs * sizeof(float));
  for (int i = 0; i < rows * cols; ++i)
    F[i] = (float)((i * 3) % 19) * 0.125f - 1.0f;
  for (int i = 0; i < cols * nrhs; ++i)
    B[i] = (float)(i % 11) - 5.0f;
// STATS-DAG: hetero-stats kernel={{.*}}_l[[@LINE+1]] launches=1 split=yes
#pragma omp target teams distribute parallel for map(to : F[0 : rows * cols],  \
                                                         B[0 : cols * nrhs])   \
    map(from : C[0 : rows * nrhs])
  for (int i = 0; i < rows; ++i)
    for (int r = 0; r < nrhs; ++r) {
      float s = 0.0f;
      for (int k = 0; k < cols; ++k)
        s += F[i * cols + k] * B[k * nrhs + r];
      C[i * nrhs + r] = s;
    }
  for (int i = 0; i < rows; ++i)
    for (int r = 0; r < nrhs; ++r) {
      float s = 0.0f;
      for (int k = 0; k < cols; ++k)
        s += F[i * cols + k] * B[k * nrhs + r];
      rC[i * nrhs + r] = s;
    }
  check_bytes("float multi-rhs", C, rC, rows * nrhs * sizeof(float));
  free(A);
  free(x);
  free(y);
  free(rx);
  free(ry);
  free(F);
  free(B);
  free(C);
  free(rC);
  return done();
}
// STATS: hetero-stats total

#pragma STDC FP_CONTRACT OFF
// Triangular inner loops under a distributed outer loop: (1) lower
// triangular matrix-vector product, inner j <= i; (2) upper triangular
// product, inner j from i to n - 1; (3) filling only the lower triangle of a
// matrix (inner j <= i writes; the upper triangle keeps its values); (4) row
// prefix sums over the strictly upper part (j from i + 1). The work per
// iteration grows or shrinks with i, so equal-size chunks are unbalanced.
// Compared bit for bit with serial host loops (each row is summed in the
// same order everywhere).
// RUN: %clang-hetero %s -o %t
// RUN: env HETERO_STATS=1 HETERO_CHUNKS=4 %compare-fallback %t 2>%t.cpu | %FileCheck %s
// RUN: %FileCheck %s --check-prefix=STATS < %t.cpu
// RUN: env HETERO_STATS=1 HETERO_SIMULATE=3 %compare-fallback %t 2>%t.sim | %FileCheck %s
// RUN: %FileCheck %s --check-prefix=STATS < %t.sim
// CHECK: lower product: hash=066cd5362fc5b5ca ok
// CHECK: upper product: hash=56c52e5abdbb460b ok
// CHECK: triangles: hash=76123a87afc0f011 ok
// CHECK: done failures=0
#include <stdlib.h>

#include "Inputs/split.h"

#define N 700

int main(void) {
  const int n = N;
  double *L = malloc(n * n * sizeof(double)), *x = malloc(n * sizeof(double));
  double *y = malloc(n * sizeof(double)), *z = malloc(n * sizeof(double));
  double *ry = malloc(n * sizeof(double)), *rz = malloc(n * sizeof(double));
  for (int i = 0; i < n * n; ++i)
    L[i] = (double)((i * 31) % 113) / 32.0 - 1.0;
  for (int i = 0; i < n; ++i)
    x[i] = (double)(i % 17) * 0.75 + 0.1;

#pragma omp target data map(to : L[0 : n * n], x[0 : n])                       \
    map(from : y[0 : n], z[0 : n])
  {
// STATS-DAG: hetero-stats kernel={{.*}}_l[[@LINE+1]] launches=1 split=yes
#pragma omp target teams distribute parallel for
    for (int i = 0; i < n; ++i) {
      double s = 0.0;
      for (int j = 0; j <= i; ++j)
        s += L[i * n + j] * x[j];
      y[i] = s;
    }
// STATS-DAG: hetero-stats kernel={{.*}}_l[[@LINE+1]] launches=1 split=yes
#pragma omp target teams distribute parallel for
    for (int i = 0; i < n; ++i) {
      double s = 0.0;
      for (int j = i; j < n; ++j)
        s += L[i * n + j] * y[j];
      z[i] = s;
    }
  }
  for (int i = 0; i < n; ++i) {
    double s = 0.0;
    for (int j = 0; j <= i; ++j)
      s += L[i * n + j] * x[j];
    ry[i] = s;
  }
  for (int i = 0; i < n; ++i) {
    double s = 0.0;
    for (int j = i; j < n; ++j)
      s += L[i * n + j] * ry[j];
    rz[i] = s;
  }
  check_bytes("lower product", y, ry, n * sizeof(double));
  check_bytes("upper product", z, rz, n * sizeof(double));

  int *T = malloc(n * n * sizeof(int)), *rT = malloc(n * n * sizeof(int));
  for (int i = 0; i < n * n; ++i)
    T[i] = rT[i] = -1;
#pragma omp target data map(tofrom : T[0 : n * n])
  {
// STATS-DAG: hetero-stats kernel={{.*}}_l[[@LINE+1]] launches=1 split=yes
#pragma omp target teams distribute parallel for
    for (int i = 0; i < n; ++i)
      for (int j = 0; j <= i; ++j)
        T[i * n + j] = i - j;
// STATS-DAG: hetero-stats kernel={{.*}}_l[[@LINE+1]] launches=1 split=yes
#pragma omp target teams distribute parallel for
    for (int i = 0; i < n; ++i) {
      int acc = 0;
      for (int j = i + 1; j < n; ++j) {
        acc += j;
        T[i * n + j] = acc;
      }
    }
  }
  for (int i = 0; i < n; ++i)
    for (int j = 0; j <= i; ++j)
      rT[i * n + j] = i - j;
  for (int i = 0; i < n; ++i) {
    int acc = 0;
    for (int j = i + 1; j < n; ++j) {
      acc += j;
      rT[i * n + j] = acc;
    }
  }
  check_bytes("triangles", T, rT, n * n * sizeof(int));
  free(L);
  free(x);
  free(y);
  free(z);
  free(ry);
  free(rz);
  free(T);
  free(rT);
  return done();
}
// STATS: hetero-stats total

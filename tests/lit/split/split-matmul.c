#pragma STDC FP_CONTRACT OFF
// Dense matrix-matrix products on malloc'd flattened arrays: C = A B with
// collapse(2) over (i, j) and a sequential inner k loop (double), then the
// Gram matrix G = M^T M (int, exact) with only i distributed and j, k
// sequential. Each element sums in a fixed order. Compared bit for bit with
// serial host loops.
// RUN: %clang-hetero %s -o %t
// RUN: env HETERO_STATS=1 HETERO_CHUNKS=4 %compare-fallback %t 2>%t.cpu | %FileCheck %s
// RUN: %FileCheck %s --check-prefix=STATS < %t.cpu
// RUN: env HETERO_STATS=1 HETERO_SIMULATE=3 %compare-fallback %t 2>%t.sim | %FileCheck %s
// RUN: %FileCheck %s --check-prefix=STATS < %t.sim
// CHECK: C = A B: hash=b3e9e6deb5c1b5b9 ok
// CHECK: G = M^T M: hash=4997c164e477017e ok
// CHECK: G[0][0]=7020 G[c-1][c-1]=7059 G[3][7]=5301
// CHECK: done failures=0
#include <stdlib.h>

#include "Inputs/split.h"

int main(void) {
  const int m = 180, k = 200, n = 220;
  double *A = malloc(m * k * sizeof(double)),
         *B = malloc(k * n * sizeof(double));
  double *C = malloc(m * n * sizeof(double)),
         *rC = malloc(m * n * sizeof(double));
  for (int i = 0; i < m * k; ++i)
    A[i] = (double)((i * 13) % 37) / 9.0 - 1.5;
  for (int i = 0; i < k * n; ++i)
    B[i] = (double)((i * 11) % 41) / 5.0 - 3.0;

// STATS-DAG: hetero-stats kernel={{.*}}_l[[@LINE+1]] launches=1 split=yes
#pragma omp target teams distribute parallel for collapse(2)                   \
    map(to : A[0 : m * k], B[0 : k * n]) map(from : C[0 : m * n])
  for (int i = 0; i < m; ++i)
    for (int j = 0; j < n; ++j) {
      double s = 0.0;
      for (int p = 0; p < k; ++p)
        s += A[i * k + p] * B[p * n + j];
      C[i * n + j] = s;
    }
  for (int i = 0; i < m; ++i)
    for (int j = 0; j < n; ++j) {
      double s = 0.0;
      for (int p = 0; p < k; ++p)
        s += A[i * k + p] * B[p * n + j];
      rC[i * n + j] = s;
    }
  check_bytes("C = A B", C, rC, m * n * sizeof(double));

  const int r = 160, c = 150;
  int *M = malloc(r * c * sizeof(int)), *G = malloc(c * c * sizeof(int));
  int *rG = malloc(c * c * sizeof(int));
  for (int i = 0; i < r * c; ++i)
    M[i] = (i * 17) % 23 - 11;
// STATS-DAG: hetero-stats kernel={{.*}}_l[[@LINE+1]] launches=1 split=yes
#pragma omp target teams distribute parallel for map(to : M[0 : r * c])        \
    map(from : G[0 : c * c])
  for (int i = 0; i < c; ++i)
    for (int j = 0; j < c; ++j) {
      int s = 0;
      for (int p = 0; p < r; ++p)
        s += M[p * c + i] * M[p * c + j];
      G[i * c + j] = s;
    }
  for (int i = 0; i < c; ++i)
    for (int j = 0; j < c; ++j) {
      int s = 0;
      for (int p = 0; p < r; ++p)
        s += M[p * c + i] * M[p * c + j];
      rG[i * c + j] = s;
    }
  check_bytes("G = M^T M", G, rG, c * c * sizeof(int));
  printf("G[0][0]=%d G[c-1][c-1]=%d G[3][7]=%d\n", G[0], G[c * c - 1],
         G[3 * c + 7]);
  free(A);
  free(B);
  free(C);
  free(rC);
  free(M);
  free(G);
  free(rG);
  return done();
}
// STATS: hetero-stats total

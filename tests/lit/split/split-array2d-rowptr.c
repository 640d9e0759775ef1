#pragma STDC FP_CONTRACT OFF
// 2-D arrays through pointers to rows, double (*A)[M] = malloc(N * sizeof
// *A): map(to : A[0:N]) maps N rows of M doubles; the kernels index A[i][j].
// (1) C = A B with collapse(2) and an inner k loop; (2) a 5-point stencil on
// the rows of C written to a second row-pointer array; (3) a row-section map
// E[lo:len] not starting at row 0. Compared bit for bit with serial loops.
// RUN: %clang-hetero %s -o %t
// RUN: env HETERO_STATS=1 HETERO_CHUNKS=4 %compare-fallback %t 2>%t.cpu | %FileCheck %s
// RUN: %FileCheck %s --check-prefix=STATS < %t.cpu
// RUN: env HETERO_STATS=1 HETERO_SIMULATE=3 %compare-fallback %t 2>%t.sim | %FileCheck %s
// RUN: %FileCheck %s --check-prefix=STATS < %t.sim
// CHECK: C = A B: hash=509dc5041ef7bbed ok
// CHECK: stencil of C: hash=386ac8f29c16d926 ok
// CHECK: row section: hash=f080883a442c4f77 ok
// CHECK: done failures=0
#include <stdlib.h>

#include "Inputs/split.h"

#define N 200
#define K 150
#define M 240

int main(void) {
  double(*A)[K] = malloc(N * sizeof *A);
  double(*B)[M] = malloc(K * sizeof *B);
  double(*C)[M] = malloc(N * sizeof *C), (*rC)[M] = malloc(N * sizeof *rC);
  double(*E)[M] = malloc(N * sizeof *E), (*rE)[M] = malloc(N * sizeof *rE);
  for (int i = 0; i < N; ++i)
    for (int k = 0; k < K; ++k)
      A[i][k] = (double)((i * 5 + k * 3) % 23) / 4.0 - 2.5;
  for (int k = 0; k < K; ++k)
    for (int j = 0; j < M; ++j)
      B[k][j] = (double)((k * 7 + j) % 19) / 8.0 - 1.0;
  for (int i = 0; i < N; ++i)
    for (int j = 0; j < M; ++j)
      E[i][j] = rE[i][j] = -1.0;

#pragma omp target data map(to : A[0 : N], B[0 : K]) map(from : C[0 : N])      \
    map(tofrom : E[0 : N])
  {
// STATS-DAG: hetero-stats kernel={{.*}}_l[[@LINE+1]] launches=1 split=yes
#pragma omp target teams distribute parallel for collapse(2)
    for (int i = 0; i < N; ++i)
      for (int j = 0; j < M; ++j) {
        double s = 0.0;
        for (int k = 0; k < K; ++k)
          s += A[i][k] * B[k][j];
        C[i][j] = s;
      }
// STATS-DAG: hetero-stats kernel={{.*}}_l[[@LINE+1]] launches=1 split=yes
#pragma omp target teams distribute parallel for collapse(2)
    for (int i = 1; i < N - 1; ++i)
      for (int j = 1; j < M - 1; ++j)
        E[i][j] = C[i][j] - 0.25 * (C[i - 1][j] + C[i + 1][j] + C[i][j - 1] +
                                    C[i][j + 1]);
  }
  for (int i = 0; i < N; ++i)
    for (int j = 0; j < M; ++j) {
      double s = 0.0;
      for (int k = 0; k < K; ++k)
        s += A[i][k] * B[k][j];
      rC[i][j] = s;
    }
  for (int i = 1; i < N - 1; ++i)
    for (int j = 1; j < M - 1; ++j)
      rE[i][j] = rC[i][j] - 0.25 * (rC[i - 1][j] + rC[i + 1][j] + rC[i][j - 1] +
                                    rC[i][j + 1]);
  check_bytes("C = A B", C, rC, N * sizeof *C);
  check_bytes("stencil of C", E, rE, N * sizeof *E);

  // Rows lo .. lo + len - 1 only.
  const int lo = 37, len = 101;
// STATS-DAG: hetero-stats kernel={{.*}}_l[[@LINE+1]] launches=1 split=yes
#pragma omp target teams distribute parallel for collapse(2)                   \
    map(tofrom : E[lo : len]) map(to : C[lo : len])
  for (int i = lo; i < lo + len; ++i)
    for (int j = 0; j < M; ++j)
      E[i][j] = E[i][j] * 2.0 + C[i][M - 1 - j];
  for (int i = lo; i < lo + len; ++i)
    for (int j = 0; j < M; ++j)
      rE[i][j] = rE[i][j] * 2.0 + rC[i][M - 1 - j];
  check_bytes("row section", E, rE, N * sizeof *E);
  free(A);
  free(B);
  free(C);
  free(rC);
  free(E);
  free(rE);
  return done();
}
// STATS: hetero-stats total

#pragma STDC FP_CONTRACT OFF
// 2-D arrays declared in the function: (1) constant-size local arrays
// double A[R][C] (on the stack, mapped whole with map(tofrom : A)) with a
// collapse(2) 5-point stencil; (2) variable-length arrays double V[n][m] and
// int W[n][m] with runtime sizes, mapped whole and as a row section
// V[lo:len][0:m], with collapse(2) kernels indexing V[i][j]. Compared bit for
// bit with serial host loops.
// RUN: %clang-hetero %s -o %t
// RUN: env HETERO_STATS=1 HETERO_CHUNKS=4 %compare-fallback %t 2>%t.cpu | %FileCheck %s
// RUN: %FileCheck %s --check-prefix=STATS < %t.cpu
// RUN: env HETERO_STATS=1 HETERO_SIMULATE=3 %compare-fallback %t 2>%t.sim | %FileCheck %s
// RUN: %FileCheck %s --check-prefix=STATS < %t.sim
// CHECK: fixed-size A: hash=652398d25e0f0075 ok
// CHECK: fixed-size B: hash=e8bee26bfdc245ea ok
// CHECK: VLA V: hash=fbd3464c735b10d3 ok
// CHECK: VLA W: hash=2335a5348b853b64 ok
// CHECK: done failures=0
#include "Inputs/split.h"

#define R 160
#define C 200

static void fixed_size(void) {
  double A[R][C], Bn[R][C], rA[R][C], rB[R][C];
  for (int i = 0; i < R; ++i)
    for (int j = 0; j < C; ++j) {
      A[i][j] = rA[i][j] = (double)((i * 3 + j * 7) % 50) / 8.0;
      Bn[i][j] = rB[i][j] = 0.0;
    }
#pragma omp target data map(tofrom : A, Bn)
  for (int s = 0; s < 4; ++s) {
// STATS-DAG: hetero-stats kernel={{.*}}_l[[@LINE+1]] launches=4 split=yes
#pragma omp target teams distribute parallel for collapse(2)
    for (int i = 1; i < R - 1; ++i)
      for (int j = 1; j < C - 1; ++j)
        Bn[i][j] = 0.2 * (A[i][j] + A[i - 1][j] + A[i + 1][j] + A[i][j - 1] +
                          A[i][j + 1]);
// STATS-DAG: hetero-stats kernel={{.*}}_l[[@LINE+1]] launches=4 split=yes
#pragma omp target teams distribute parallel for collapse(2)
    for (int i = 1; i < R - 1; ++i)
      for (int j = 1; j < C - 1; ++j)
        A[i][j] = Bn[i][j];
  }
  for (int s = 0; s < 4; ++s) {
    for (int i = 1; i < R - 1; ++i)
      for (int j = 1; j < C - 1; ++j)
        rB[i][j] = 0.2 * (rA[i][j] + rA[i - 1][j] + rA[i + 1][j] +
                          rA[i][j - 1] + rA[i][j + 1]);
    for (int i = 1; i < R - 1; ++i)
      for (int j = 1; j < C - 1; ++j)
        rA[i][j] = rB[i][j];
  }
  check_bytes("fixed-size A", A, rA, sizeof A);
  check_bytes("fixed-size B", Bn, rB, sizeof Bn);
}

static void variable_length(int n, int m) {
  double V[n][m], rV[n][m];
  int W[n][m], rW[n][m];
  for (int i = 0; i < n; ++i)
    for (int j = 0; j < m; ++j) {
      V[i][j] = rV[i][j] = (double)(i - j) / 16.0;
      W[i][j] = rW[i][j] = 0;
    }
// STATS-DAG: hetero-stats kernel={{.*}}_l[[@LINE+1]] launches=1 split=yes
#pragma omp target teams distribute parallel for collapse(2) map(tofrom : V)   \
    map(from : W)
  for (int i = 0; i < n; ++i)
    for (int j = 0; j < m; ++j) {
      V[i][j] = V[i][j] * V[i][j] - 1.0;
      W[i][j] = (i * m + j) % 1000;
    }
  for (int i = 0; i < n; ++i)
    for (int j = 0; j < m; ++j) {
      rV[i][j] = rV[i][j] * rV[i][j] - 1.0;
      rW[i][j] = (i * m + j) % 1000;
    }
  const int lo = n / 3, len = n / 2;
// STATS-DAG: hetero-stats kernel={{.*}}_l[[@LINE+1]] launches=1 split=yes
#pragma omp target teams distribute parallel for collapse(2)                   \
    map(tofrom : V[lo : len][0 : m])
  for (int i = lo; i < lo + len; ++i)
    for (int j = 1; j < m; ++j)
      V[i][j] = V[i][j] + V[i][0];
  for (int i = lo; i < lo + len; ++i)
    for (int j = 1; j < m; ++j)
      rV[i][j] = rV[i][j] + rV[i][0];
  check_bytes("VLA V", V, rV, sizeof V);
  check_bytes("VLA W", W, rW, sizeof W);
}

int main(int argc, char **argv) {
  (void)argv;
  fixed_size();
  variable_length(240 + argc, 130 + argc); // 241 x 131, unknown sizes
  return done();
}
// STATS: hetero-stats total

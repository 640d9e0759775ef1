#pragma STDC FP_CONTRACT OFF
// "target teams distribute parallel for simd": (1) a float saxpy; (2) an
// int update with simdlen(8); (3) a double 3-point stencil; (4) a simd
// reduction over integers stored in doubles (exact in any order); (5)
// collapse(2) simd over a 2-D grid. Chunk boundaries of a split launch need
// not fall on vector boundaries. Compared bit for bit with serial loops.
// -Wno-pass-failed: clang reports every simd loop it does not vectorise
// ("loop not vectorized", always on NVPTX, where there is no source location
// for a diagnostic pragma to silence), as in ../reductions.c.
// RUN: %clang-hetero -Wno-pass-failed %s -o %t
// RUN: env HETERO_STATS=1 HETERO_CHUNKS=4 %compare-fallback %t 2>%t.cpu | %FileCheck %s
// RUN: %FileCheck %s --check-prefix=STATS < %t.cpu
// RUN: env HETERO_STATS=1 HETERO_SIMULATE=3 %compare-fallback %t 2>%t.sim | %FileCheck %s
// RUN: %FileCheck %s --check-prefix=STATS < %t.sim
// CHECK: saxpy: hash=f0611b5ba10555ee ok
// CHECK: int simdlen(8): hash=2b29a9746a66213e ok
// CHECK: stencil: hash=7e95868fc00f1405 ok
// CHECK: simd sum=149850021.0
// CHECK: simd reduction: ok
// CHECK: collapse(2) simd: hash=2ccc8580c5287319 ok
// CHECK: done failures=0
#include <stdlib.h>

#include "Inputs/split.h"

#define N 300007

int main(void) {
  const int n = N;
  float *x = malloc(n * sizeof(float)), *y = malloc(n * sizeof(float));
  float *ry = malloc(n * sizeof(float));
  int *k = malloc(n * sizeof(int)), *rk = malloc(n * sizeof(int));
  double *u = malloc(n * sizeof(double)), *v = malloc(n * sizeof(double));
  double *rv = malloc(n * sizeof(double));
  for (int i = 0; i < n; ++i) {
    x[i] = (float)(i % 101) * 0.5f;
    y[i] = ry[i] = (float)(i % 11) - 5.0f;
    k[i] = rk[i] = i * 7;
    u[i] = (double)(i % 1000);
    v[i] = rv[i] = 0.0;
  }
  const float alpha = 0.75f;
#pragma omp target data map(to : x[0 : n], u[0 : n])                           \
    map(tofrom : y[0 : n], k[0 : n], v[0 : n])
  {
// STATS-DAG: hetero-stats kernel={{.*}}_l[[@LINE+1]] launches=1 split=yes
#pragma omp target teams distribute parallel for simd
    for (int i = 0; i < n; ++i)
      y[i] = alpha * x[i] + y[i];
// STATS-DAG: hetero-stats kernel={{.*}}_l[[@LINE+1]] launches=1 split=yes
#pragma omp target teams distribute parallel for simd simdlen(8)
    for (int i = 0; i < n; ++i)
      k[i] = (k[i] ^ (k[i] >> 3)) + i;
// STATS-DAG: hetero-stats kernel={{.*}}_l[[@LINE+1]] launches=1 split=yes
#pragma omp target teams distribute parallel for simd
    for (int i = 1; i < n - 1; ++i)
      v[i] = u[i - 1] - 2.0 * u[i] + u[i + 1];
  }
  for (int i = 0; i < n; ++i)
    ry[i] = alpha * x[i] + ry[i];
  for (int i = 0; i < n; ++i)
    rk[i] = (rk[i] ^ (rk[i] >> 3)) + i;
  for (int i = 1; i < n - 1; ++i)
    rv[i] = u[i - 1] - 2.0 * u[i] + u[i + 1];
  check_bytes("saxpy", y, ry, n * sizeof(float));
  check_bytes("int simdlen(8)", k, rk, n * sizeof(int));
  check_bytes("stencil", v, rv, n * sizeof(double));

  double s = 0.0, rs = 0.0; // integers below 2^53: exact in any order
// STATS-DAG: hetero-stats kernel={{.*}}_l[[@LINE+1]] launches=1 split=yes
#pragma omp target teams distribute parallel for simd map(to : u[0 : n])       \
    reduction(+ : s)
  for (int i = 0; i < n; ++i)
    s += u[i];
  for (int i = 0; i < n; ++i)
    rs += u[i];
  printf("simd sum=%.1f\n", s);
  check("simd reduction", s == rs);

  const int rows = 512, cols = 300;
  float *g = malloc(rows * cols * sizeof(float)),
        *rg = malloc(rows * cols * sizeof(float));
// STATS-DAG: hetero-stats kernel={{.*}}_l[[@LINE+1]] launches=1 split=yes
#pragma omp target teams distribute parallel for simd collapse(2)              \
    map(from : g[0 : rows * cols])
  for (int i = 0; i < rows; ++i)
    for (int j = 0; j < cols; ++j)
      g[i * cols + j] = (float)i * 0.5f - (float)j * 0.25f;
  for (int i = 0; i < rows; ++i)
    for (int j = 0; j < cols; ++j)
      rg[i * cols + j] = (float)i * 0.5f - (float)j * 0.25f;
  check_bytes("collapse(2) simd", g, rg, rows * cols * sizeof(float));
  free(x);
  free(y);
  free(ry);
  free(k);
  free(rk);
  free(u);
  free(v);
  free(rv);
  free(g);
  free(rg);
  return done();
}
// STATS: hetero-stats total

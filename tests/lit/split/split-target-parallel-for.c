#pragma STDC FP_CONTRACT OFF
// "target parallel for" (one team, a parallel loop): (1) a 1-D update with
// the default schedule; (2) schedule(static, 64); (3) schedule(dynamic, 128);
// (4) collapse(2) on a 2-D grid; (5) a reduction. Compared bit for bit with
// serial host loops.
// RUN: %clang-hetero %s -o %t
// RUN: env HETERO_STATS=1 HETERO_CHUNKS=4 %compare-fallback %t 2>%t.cpu | %FileCheck %s
// RUN: %FileCheck %s --check-prefix=STATS < %t.cpu
// RUN: env HETERO_STATS=1 HETERO_SIMULATE=3 %compare-fallback %t 2>%t.sim | %FileCheck %s
// RUN: %FileCheck %s --check-prefix=STATS < %t.sim
// CHECK: 1-D schedules: hash=74b33d9d9baefc70 ok
// CHECK: collapse(2): hash=02af10bc3004319f ok
// CHECK: sum=52464000
// CHECK: reduction: ok
// CHECK: done failures=0
#include <stdlib.h>

#include "Inputs/split.h"

int main(void) {
  const int n = 300000;
  float *x = malloc(n * sizeof(float)), *y = malloc(n * sizeof(float));
  float *ry = malloc(n * sizeof(float));
  for (int i = 0; i < n; ++i) {
    x[i] = (float)(i % 257) * 0.25f;
    y[i] = ry[i] = (float)(i % 13);
  }
#pragma omp target data map(to : x[0 : n]) map(tofrom : y[0 : n])
  {
// STATS-DAG: hetero-stats kernel={{.*}}_l[[@LINE+1]] launches=1 split=yes
#pragma omp target parallel for
    for (int i = 0; i < n; ++i)
      y[i] = y[i] * 2.0f + x[i];
// STATS-DAG: hetero-stats kernel={{.*}}_l[[@LINE+1]] launches=1 split=yes
#pragma omp target parallel for schedule(static, 64)
    for (int i = 1; i < n; ++i)
      y[i] = y[i] - x[i - 1] * 0.5f;
// STATS-DAG: hetero-stats kernel={{.*}}_l[[@LINE+1]] launches=1 split=yes
#pragma omp target parallel for schedule(dynamic, 128)
    for (int i = 0; i < n; ++i)
      y[i] = y[i] / 3.0f + (float)(i & 3);
  }
  for (int i = 0; i < n; ++i)
    ry[i] = ry[i] * 2.0f + x[i];
  for (int i = 1; i < n; ++i)
    ry[i] = ry[i] - x[i - 1] * 0.5f;
  for (int i = 0; i < n; ++i)
    ry[i] = ry[i] / 3.0f + (float)(i & 3);
  check_bytes("1-D schedules", y, ry, n * sizeof(float));

  const int rows = 300, cols = 500;
  int *g = malloc(rows * cols * sizeof(int)),
      *rg = malloc(rows * cols * sizeof(int));
// STATS-DAG: hetero-stats kernel={{.*}}_l[[@LINE+1]] launches=1 split=yes
#pragma omp target parallel for collapse(2) map(from : g[0 : rows * cols])
  for (int i = 0; i < rows; ++i)
    for (int j = 0; j < cols; ++j)
      g[i * cols + j] = (i * 31 + j * 17) % 1000 - i;
  for (int i = 0; i < rows; ++i)
    for (int j = 0; j < cols; ++j)
      rg[i * cols + j] = (i * 31 + j * 17) % 1000 - i;
  check_bytes("collapse(2)", g, rg, rows * cols * sizeof(int));

  long sum = 0, rsum = 0;
// STATS-DAG: hetero-stats kernel={{.*}}_l[[@LINE+1]] launches=1 split=yes
#pragma omp target parallel for map(to : g[0 : rows * cols]) reduction(+ : sum)
  for (int i = 0; i < rows * cols; ++i)
    sum += g[i];
  for (int i = 0; i < rows * cols; ++i)
    rsum += rg[i];
  printf("sum=%ld\n", sum);
  check("reduction", sum == rsum);
  free(x);
  free(y);
  free(ry);
  free(g);
  free(rg);
  return done();
}
// STATS: hetero-stats total

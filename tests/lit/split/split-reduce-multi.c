#pragma STDC FP_CONTRACT OFF
// Several reduction variables of different types in one kernel, together
// with array writes: a dot product and an axpy in one pass (double sum of
// products of small integers: exact in any order), a count (int), the
// largest index (long max), an any/all pair; the same kernel launched 4
// times in a loop, accumulating into reduction variables whose initial
// values take part; a collapse(2) kernel with a double sum (of multiples of
// 1/2 below 2^26: exact in any order) and an int max and min over a 2-D
// grid. Compared with serial host loops.
// RUN: %clang-hetero %s -o %t
// RUN: env HETERO_STATS=1 HETERO_CHUNKS=4 %compare-fallback %t 2>%t.cpu | %FileCheck %s
// RUN: %FileCheck %s --check-prefix=STATS < %t.cpu
// RUN: env HETERO_STATS=1 HETERO_SIMULATE=3 %compare-fallback %t 2>%t.sim | %FileCheck %s
// RUN: %FileCheck %s --check-prefix=STATS < %t.sim
// CHECK: dot=69999930.0 cnt=967024 last=499999 all=1 any=1
// CHECK: reductions over 4 launches: ok
// CHECK: axpy result: hash=991203633cec3560 ok
// CHECK: grid: sum=10185000.0 max=63699 min=0
// CHECK: grid reductions: ok
// CHECK: done failures=0
#include <stdlib.h>

#include "Inputs/split.h"

#define N 500000
#define ROUNDS 4

int main(void) {
  const int n = N;
  double *x = malloc(n * sizeof(double)), *y = malloc(n * sizeof(double));
  double *ry = malloc(n * sizeof(double));
  for (int i = 0; i < n; ++i) {
    x[i] = (double)(i % 13 - 6);        // small integers
    y[i] = ry[i] = (double)(i % 7 - 3); // small integers
  }
  double dot = 0.0, rdot = 0.0;
  int cnt = 0, rcnt = 0, all = 1, rall = 1, any = 0, rany = 0;
  long last = -1, rlast = -1;

#pragma omp target data map(to : x[0 : n]) map(tofrom : y[0 : n])
  for (int r = 0; r < ROUNDS; ++r) {
    const double alpha = (double)(r + 1); // y stays a small integer
// STATS-DAG: hetero-stats kernel={{.*}}_l[[@LINE+1]] launches=4 split=yes
#pragma omp target teams distribute parallel for reduction(+ : dot, cnt)       \
    reduction(max : last) reduction(&& : all) reduction(|| : any)
    for (int i = 0; i < n; ++i) {
      dot += x[i] * y[i];
      y[i] = y[i] + alpha * x[i];
      cnt += y[i] > 0.0;
      last = y[i] == 0.0 && (long)i > last ? (long)i : last;
      all = all && y[i] < 1000.0;
      any = any || y[i] == -3.0;
    }
  }
  for (int r = 0; r < ROUNDS; ++r) {
    const double alpha = (double)(r + 1);
    for (int i = 0; i < n; ++i) {
      rdot += x[i] * ry[i];
      ry[i] = ry[i] + alpha * x[i];
      rcnt += ry[i] > 0.0;
      rlast = ry[i] == 0.0 && (long)i > rlast ? (long)i : rlast;
      rall = rall && ry[i] < 1000.0;
      rany = rany || ry[i] == -3.0;
    }
  }
  printf("dot=%.1f cnt=%d last=%ld all=%d any=%d\n", dot, cnt, last, all, any);
  check("reductions over 4 launches", dot == rdot && cnt == rcnt &&
                                          last == rlast && all == rall &&
                                          any == rany);
  check_bytes("axpy result", y, ry, n * sizeof(double));

  const int rows = 700, cols = 600;
  float *g = malloc(rows * cols * sizeof(float));
  for (int i = 0; i < rows * cols; ++i)
    g[i] = (float)((i * 29) % 64) * 0.5f; // multiples of 1/2 below 32
  double gsum = 0.0;
  int gmax = -1, gmin = 1 << 30;
// STATS-DAG: hetero-stats kernel={{.*}}_l[[@LINE+1]] launches=1 split=yes
#pragma omp target teams distribute parallel for collapse(2)                   \
    map(to : g[0 : rows * cols]) reduction(+ : gsum) reduction(max : gmax)     \
    reduction(min : gmin)
  for (int i = 0; i < rows; ++i)
    for (int j = 0; j < cols; ++j) {
      gsum += (double)g[i * cols + j] * (double)(j % 4);
      int k = (int)(g[i * cols + j] * 2.0f) * 1000 + i;
      gmax = k > gmax ? k : gmax;
      gmin = k < gmin ? k : gmin;
    }
  double rgsum = 0.0;
  int rgmax = -1, rgmin = 1 << 30;
  for (int i = 0; i < rows; ++i)
    for (int j = 0; j < cols; ++j) {
      rgsum += (double)g[i * cols + j] * (double)(j % 4);
      int k = (int)(g[i * cols + j] * 2.0f) * 1000 + i;
      rgmax = k > rgmax ? k : rgmax;
      rgmin = k < rgmin ? k : rgmin;
    }
  printf("grid: sum=%.1f max=%d min=%d\n", gsum, gmax, gmin);
  check("grid reductions", gsum == rgsum && gmax == rgmax && gmin == rgmin);
  free(x);
  free(y);
  free(ry);
  free(g);
  return done();
}
// STATS: hetero-stats total

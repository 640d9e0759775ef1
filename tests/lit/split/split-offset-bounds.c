#pragma STDC FP_CONTRACT OFF
// Loops that do not start at 0 or end at n: i = 5; i < n - 3 with the
// elements outside the range written by an earlier kernel of the same
// target data region (they must survive); a runtime range lo <= i <= hi; a
// collapse(2) nest with offset bounds in both dimensions. Compared bit for
// bit with serial host loops.
// RUN: %clang-hetero %s -o %t
// RUN: env HETERO_STATS=1 HETERO_CHUNKS=4 %compare-fallback %t 2>%t.cpu | %FileCheck %s
// RUN: %FileCheck %s --check-prefix=STATS < %t.cpu
// RUN: env HETERO_STATS=1 HETERO_SIMULATE=3 %compare-fallback %t 2>%t.sim | %FileCheck %s
// RUN: %FileCheck %s --check-prefix=STATS < %t.sim
// CHECK: offset ranges: hash=8a9a3a18db4347fe ok
// CHECK: a[4]=1 a[5]=4.75 a[n-4]=2902 a[n-3]=967.25
// CHECK: offset collapse(2): hash=dfa546efafe193ce ok
// CHECK: done failures=0
#include <stdlib.h>

#include "Inputs/split.h"

#define N 180000

int main(int argc, char **argv) {
  (void)argv;
  const int n = N;
  const int lo = 1000 + argc, hi = n - 2000 - argc; // 1001, n - 2001
  float *a = malloc(n * sizeof(float)), *ra = malloc(n * sizeof(float));
  for (int i = 0; i < n; ++i)
    a[i] = ra[i] = 0.0f;

#pragma omp target data map(tofrom : a[0 : n])
  {
// STATS-DAG: hetero-stats kernel={{.*}}_l[[@LINE+1]] launches=1 split=yes
#pragma omp target teams distribute parallel for
    for (int i = 0; i < n; ++i)
      a[i] = (float)(i % 4096) * 0.25f;
// STATS-DAG: hetero-stats kernel={{.*}}_l[[@LINE+1]] launches=1 split=yes
#pragma omp target teams distribute parallel for
    for (int i = 5; i < n - 3; ++i)
      a[i] = a[i] * 3.0f + 1.0f;
// STATS-DAG: hetero-stats kernel={{.*}}_l[[@LINE+1]] launches=1 split=yes
#pragma omp target teams distribute parallel for
    for (int i = lo; i <= hi; ++i)
      a[i] = a[i] - 0.5f * (float)(i & 7);
  }
  for (int i = 0; i < n; ++i)
    ra[i] = (float)(i % 4096) * 0.25f;
  for (int i = 5; i < n - 3; ++i)
    ra[i] = ra[i] * 3.0f + 1.0f;
  for (int i = lo; i <= hi; ++i)
    ra[i] = ra[i] - 0.5f * (float)(i & 7);
  check_bytes("offset ranges", a, ra, n * sizeof(float));
  printf("a[4]=%g a[5]=%g a[n-4]=%g a[n-3]=%g\n", a[4], a[5], a[n - 4],
         a[n - 3]);

  const int rows = 500, cols = 400;
  long *g = malloc(rows * cols * sizeof(long)),
       *rg = malloc(rows * cols * sizeof(long));
  long *h = malloc(rows * cols * sizeof(long));
  for (int i = 0; i < rows * cols; ++i) {
    g[i] = rg[i] = i;
    h[i] = (long)i * i;
  }
// STATS-DAG: hetero-stats kernel={{.*}}_l[[@LINE+1]] launches=1 split=yes
#pragma omp target teams distribute parallel for collapse(2)                   \
    map(tofrom : g[0 : rows * cols]) map(to : h[0 : rows * cols])
  for (int i = 3; i < rows - 7; ++i)
    for (int j = 11; j <= cols - 2; ++j)
      g[i * cols + j] = h[(i - 3) * cols + j - 11] * 2 + g[i * cols + j];
  for (int i = 3; i < rows - 7; ++i)
    for (int j = 11; j <= cols - 2; ++j)
      rg[i * cols + j] = h[(i - 3) * cols + j - 11] * 2 + rg[i * cols + j];
  check_bytes("offset collapse(2)", g, rg, rows * cols * sizeof(long));
  free(a);
  free(ra);
  free(g);
  free(rg);
  free(h);
  return done();
}
// STATS: hetero-stats total

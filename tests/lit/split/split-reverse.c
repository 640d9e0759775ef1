#pragma STDC FP_CONTRACT OFF
// Reversed loops (i = n-1; i >= 0; i--): (1) reverse a double array into a
// second one, b[i] = a[n-1-i] * 2 - i; (2) a reversed loop with a strict
// bound (i > 0) reading a[i-1] (a backward difference); (3) a reversed
// collapse(2) nest over rows and columns of an int matrix, transposing
// row order. The iteration order is reversed, so the first chunk of a split
// launch covers the end of the arrays. Compared bit for bit with serial loops.
// RUN: %clang-hetero %s -o %t
// RUN: env HETERO_STATS=1 HETERO_CHUNKS=4 %compare-fallback %t 2>%t.cpu | %FileCheck %s
// RUN: %FileCheck %s --check-prefix=STATS < %t.cpu
// RUN: env HETERO_STATS=1 HETERO_SIMULATE=3 %compare-fallback %t 2>%t.sim | %FileCheck %s
// RUN: %FileCheck %s --check-prefix=STATS < %t.sim
// CHECK: reversed copy: hash=1df6bca7c91c6a21 ok
// CHECK: backward difference: hash=3b5e01d24f96ddc1 ok
// CHECK: reversed rows: hash=d506f9f3cb8e7a66 ok
// CHECK: done failures=0
#include <stdlib.h>

#include "Inputs/split.h"

#define N 250000

int main(void) {
  const int n = N;
  double *a = malloc(n * sizeof(double)), *b = malloc(n * sizeof(double));
  double *c = malloc(n * sizeof(double));
  double *rb = malloc(n * sizeof(double)), *rc = malloc(n * sizeof(double));
  for (int i = 0; i < n; ++i) {
    a[i] = (double)((i * 101) % 997) / 3.0;
    b[i] = rb[i] = c[i] = rc[i] = -7.0;
  }
#pragma omp target data map(to : a[0 : n]) map(tofrom : b[0 : n], c[0 : n])
  {
// STATS-DAG: hetero-stats kernel={{.*}}_l[[@LINE+1]] launches=1 split=yes
#pragma omp target teams distribute parallel for
    for (int i = n - 1; i >= 0; i--)
      b[i] = a[n - 1 - i] * 2.0 - i;
// STATS-DAG: hetero-stats kernel={{.*}}_l[[@LINE+1]] launches=1 split=yes
#pragma omp target teams distribute parallel for
    for (int i = n - 1; i > 0; --i)
      c[i] = b[i] - b[i - 1];
  }
  for (int i = n - 1; i >= 0; i--)
    rb[i] = a[n - 1 - i] * 2.0 - i;
  for (int i = n - 1; i > 0; --i)
    rc[i] = rb[i] - rb[i - 1];
  check_bytes("reversed copy", b, rb, n * sizeof(double));
  check_bytes("backward difference", c, rc, n * sizeof(double));

  const int rows = 400, cols = 300;
  int *m = malloc(rows * cols * sizeof(int)),
      *t = malloc(rows * cols * sizeof(int));
  int *rt = malloc(rows * cols * sizeof(int));
  for (int i = 0; i < rows * cols; ++i) {
    m[i] = i * 3 - 100000;
    t[i] = rt[i] = 0;
  }
// STATS-DAG: hetero-stats kernel={{.*}}_l[[@LINE+1]] launches=1 split=yes
#pragma omp target teams distribute parallel for collapse(2)                   \
    map(to : m[0 : rows * cols]) map(from : t[0 : rows * cols])
  for (int i = rows - 1; i >= 0; --i)
    for (int j = cols - 1; j >= 0; --j)
      t[(rows - 1 - i) * cols + j] = m[i * cols + j] + j;
  for (int i = rows - 1; i >= 0; --i)
    for (int j = cols - 1; j >= 0; --j)
      rt[(rows - 1 - i) * cols + j] = m[i * cols + j] + j;
  check_bytes("reversed rows", t, rt, rows * cols * sizeof(int));
  free(a);
  free(b);
  free(c);
  free(rb);
  free(rc);
  free(m);
  free(t);
  free(rt);
  return done();
}
// STATS: hetero-stats total

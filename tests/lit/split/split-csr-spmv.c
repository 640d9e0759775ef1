#pragma STDC FP_CONTRACT OFF
// CSR sparse matrix-vector products y = A x with indirect reads x[col[k]]
// (inner loop bounds read from rowptr; the run-time inspector bounds each
// chunk's val, col and x by the values rowptr and col hold, and the kernel
// writes y[i] only): (1) the 5-point Laplacian of a 300 x 300
// grid, 4 products chained through a target data region (x <- y / 8 + x);
// (2) an irregular matrix whose rows have 1..40 entries at pseudo-random
// columns, float values. Each row sums in a fixed order. Compared bit for
// bit with serial host loops.
// RUN: %clang-hetero %s -o %t
// RUN: env HETERO_STATS=1 HETERO_CHUNKS=4 %compare-fallback %t 2>%t.cpu | %FileCheck %s
// RUN: %FileCheck %s --check-prefix=STATS < %t.cpu
// RUN: env HETERO_STATS=1 HETERO_SIMULATE=3 %compare-fallback %t 2>%t.sim | %FileCheck %s
// RUN: %FileCheck %s --check-prefix=STATS < %t.sim
// Two halves: the Laplacian's spmv moves each half of the matrix and of x
// once (with x's 300-entry halo) and then only the halos, 2 x 2400 bytes
// per product: 180004 (rowptr) + 224400 * 12 (col, val) + 45300 * 8 (x)
// + 3 * 4800 = 3249604 bytes, where all of x each time would be 2.9 MB.
// The inspector (HETERO_INSPECT=sync: in the launch, so that the bytes
// repeat) reads rowptr (at its two offsets, i and i + 1) and col from sim:0
// once: 4 * 180000 + 448800 * 4 = 2515200 bytes.
// RUN: env HETERO_STATS=1 HETERO_SIMULATE=2 HETERO_MEMBERS=sim:0,sim:1 HETERO_SHARES=fixed HETERO_INSPECT=sync %compare-fallback %t 2>%t.halo | %FileCheck %s
// RUN: %FileCheck %s --check-prefix=HALO < %t.halo
// The inspector on its own thread, its answers arriving between launches.
// RUN: env HETERO_STATS=1 HETERO_SIMULATE=3 HETERO_INSPECT=background %compare-fallback %t 2>%t.bg | %FileCheck %s
// RUN: %FileCheck %s --check-prefix=STATS < %t.bg
// CHECK: laplacian: n=90000 nnz=448800
// CHECK: laplacian y: hash=73b7f0d2911861bd ok
// CHECK: laplacian x: hash=995a05f4c437b732 ok
// CHECK: irregular: m=50000 nnz=1024914
// CHECK: irregular w: hash=5f94222b7917650c ok
// CHECK: done failures=0
#include <stdlib.h>

#include "Inputs/split.h"

#define G 300

int main(void) {
  const int n = G * G;
  int *rowptr = malloc((n + 1) * sizeof(int)),
      *col = malloc(5 * n * sizeof(int));
  double *val = malloc(5 * n * sizeof(double));
  int nnz = 0;
  for (int r = 0; r < G; ++r)
    for (int c = 0; c < G; ++c) {
      int i = r * G + c;
      rowptr[i] = nnz;
      if (r > 0) {
        col[nnz] = i - G;
        val[nnz++] = -1.0;
      }
      if (c > 0) {
        col[nnz] = i - 1;
        val[nnz++] = -1.0;
      }
      col[nnz] = i;
      val[nnz++] = 4.0 + (double)(i % 3) / 4.0;
      if (c < G - 1) {
        col[nnz] = i + 1;
        val[nnz++] = -1.0;
      }
      if (r < G - 1) {
        col[nnz] = i + G;
        val[nnz++] = -1.0;
      }
    }
  rowptr[n] = nnz;
  double *x = malloc(n * sizeof(double)), *y = malloc(n * sizeof(double));
  double *rx = malloc(n * sizeof(double)), *ry = malloc(n * sizeof(double));
  for (int i = 0; i < n; ++i)
    x[i] = rx[i] = (double)((i * 37) % 101) / 10.0;

#pragma omp target data map(to : rowptr[0 : n + 1], col[0 : nnz],              \
                                val[0 : nnz]) map(tofrom : x[0 : n])           \
    map(from : y[0 : n])
  for (int it = 0; it < 4; ++it) {
// HALO-DAG: hetero-stats kernel={{.*}}_l[[@LINE+2]] launches=4 split=yes {{.*}} bytes_d2d=3249604 bytes_d2h=2515200 shares=fixed
// STATS-DAG: hetero-stats kernel={{.*}}_l[[@LINE+1]] launches=4 split=yes
#pragma omp target teams distribute parallel for
    for (int i = 0; i < n; ++i) {
      double s = 0.0;
      for (int k = rowptr[i]; k < rowptr[i + 1]; ++k)
        s += val[k] * x[col[k]];
      y[i] = s;
    }
// STATS-DAG: hetero-stats kernel={{.*}}_l[[@LINE+1]] launches=4 split=yes
#pragma omp target teams distribute parallel for
    for (int i = 0; i < n; ++i)
      x[i] = y[i] * 0.125 + x[i];
  }
  for (int it = 0; it < 4; ++it) {
    for (int i = 0; i < n; ++i) {
      double s = 0.0;
      for (int k = rowptr[i]; k < rowptr[i + 1]; ++k)
        s += val[k] * rx[col[k]];
      ry[i] = s;
    }
    for (int i = 0; i < n; ++i)
      rx[i] = ry[i] * 0.125 + rx[i];
  }
  printf("laplacian: n=%d nnz=%d\n", n, nnz);
  check_bytes("laplacian y", y, ry, n * sizeof(double));
  check_bytes("laplacian x", x, rx, n * sizeof(double));

  // Irregular rows.
  const int m = 50000;
  int *rp = malloc((m + 1) * sizeof(int));
  rp[0] = 0;
  for (int i = 0; i < m; ++i)
    rp[i + 1] = rp[i] + 1 + (int)(((unsigned)i * 2654435761u >> 7) % 40u);
  const int mnz = rp[m];
  int *ci = malloc(mnz * sizeof(int));
  float *cv = malloc(mnz * sizeof(float));
  unsigned seed = 12345u;
  for (int k = 0; k < mnz; ++k) {
    seed = seed * 1664525u + 1013904223u;
    ci[k] = (int)((seed >> 8) % (unsigned)m);
    cv[k] = (float)((seed >> 3) % 64u) * 0.0625f - 2.0f;
  }
  float *v = malloc(m * sizeof(float)), *w = malloc(m * sizeof(float));
  float *rw = malloc(m * sizeof(float));
  for (int i = 0; i < m; ++i)
    v[i] = (float)(i % 9) - 4.0f;
// STATS-DAG: hetero-stats kernel={{.*}}_l[[@LINE+1]] launches=1 split=yes
#pragma omp target teams distribute parallel for map(                          \
        to : rp[0 : m + 1], ci[0 : mnz], cv[0 : mnz], v[0 : m])                \
    map(from : w[0 : m])
  for (int i = 0; i < m; ++i) {
    float s = 0.0f;
    for (int k = rp[i]; k < rp[i + 1]; ++k)
      s += cv[k] * v[ci[k]];
    w[i] = s;
  }
  for (int i = 0; i < m; ++i) {
    float s = 0.0f;
    for (int k = rp[i]; k < rp[i + 1]; ++k)
      s += cv[k] * v[ci[k]];
    rw[i] = s;
  }
  printf("irregular: m=%d nnz=%d\n", m, mnz);
  check_bytes("irregular w", w, rw, m * sizeof(float));
  free(rowptr);
  free(col);
  free(val);
  free(x);
  free(y);
  free(rx);
  free(ry);
  free(rp);
  free(ci);
  free(cv);
  free(v);
  free(w);
  free(rw);
  return done();
}
// STATS: hetero-stats total

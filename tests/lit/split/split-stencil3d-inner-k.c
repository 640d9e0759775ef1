#pragma STDC FP_CONTRACT OFF
// 3-D 7-point stencil where only the outer loops are distributed: (1)
// collapse(2) over (i, j) with a sequential inner k loop, 6 sweeps; (2) only
// i distributed, j and k sequential inside, 3 sweeps on a second pair of
// buffers. Both ping-pong inside target data regions. A chunk's section is
// made of whole k-rows (1) or whole planes (2). Compared bit for bit with
// serial host loops.
// RUN: %clang-hetero %s -o %t
// RUN: env HETERO_STATS=1 HETERO_CHUNKS=4 %compare-fallback %t 2>%t.cpu | %FileCheck %s
// RUN: %FileCheck %s --check-prefix=STATS < %t.cpu
// RUN: env HETERO_STATS=1 HETERO_SIMULATE=3 %compare-fallback %t 2>%t.sim | %FileCheck %s
// RUN: %FileCheck %s --check-prefix=STATS < %t.sim
// CHECK: collapse(2) + k: u: hash=1032ec09c4051fad ok
// CHECK: collapse(2) + k: v: hash=f55e463a41072eaf ok
// CHECK: planes: p: hash=6ae3fa826883979b ok
// CHECK: planes: q: hash=85f762bb94964cde ok
// CHECK: done failures=0
#include <stdlib.h>

#include "Inputs/split.h"

#define IDX(i, j, k) (((i) * ny + (j)) * nz + (k))
#define POINT(S, D, i, j, k)                                                   \
  D[IDX(i, j, k)] =                                                            \
      (2.0 * S[IDX(i, j, k)] + S[IDX(i - 1, j, k)] + S[IDX(i + 1, j, k)] +     \
       S[IDX(i, j - 1, k)] + S[IDX(i, j + 1, k)] + S[IDX(i, j, k - 1)] +       \
       S[IDX(i, j, k + 1)]) *                                                  \
      0.125;

int main(void) {
  const int nx = 48, ny = 64, nz = 80;
  const int n = nx * ny * nz;
  double *u = malloc(n * sizeof(double)), *v = malloc(n * sizeof(double));
  double *ru = malloc(n * sizeof(double)), *rv = malloc(n * sizeof(double));
  for (int i = 0; i < n; ++i)
    u[i] = v[i] = ru[i] = rv[i] = (double)((i * 1237) % 4099) - 2000.0;

#pragma omp target data map(tofrom : u[0 : n], v[0 : n])
  for (int s = 0; s < 6; ++s) {
    double *src = s % 2 ? v : u, *dst = s % 2 ? u : v;
// STATS-DAG: hetero-stats kernel={{.*}}_l[[@LINE+1]] launches=6 split=yes
#pragma omp target teams distribute parallel for collapse(2)
    for (int i = 1; i < nx - 1; ++i)
      for (int j = 1; j < ny - 1; ++j)
        for (int k = 1; k < nz - 1; ++k)
          POINT(src, dst, i, j, k)
  }
  for (int s = 0; s < 6; ++s) {
    double *src = s % 2 ? rv : ru, *dst = s % 2 ? ru : rv;
    for (int i = 1; i < nx - 1; ++i)
      for (int j = 1; j < ny - 1; ++j)
        for (int k = 1; k < nz - 1; ++k)
          POINT(src, dst, i, j, k)
  }
  check_bytes("collapse(2) + k: u", u, ru, n * sizeof(double));
  check_bytes("collapse(2) + k: v", v, rv, n * sizeof(double));

  double *p = malloc(n * sizeof(double)), *q = malloc(n * sizeof(double));
  double *rp = malloc(n * sizeof(double)), *rq = malloc(n * sizeof(double));
  for (int i = 0; i < n; ++i)
    p[i] = q[i] = rp[i] = rq[i] = (double)(i % 977) * 0.5;
#pragma omp target data map(tofrom : p[0 : n], q[0 : n])
  for (int s = 0; s < 3; ++s) {
    double *src = s % 2 ? q : p, *dst = s % 2 ? p : q;
// STATS-DAG: hetero-stats kernel={{.*}}_l[[@LINE+1]] launches=3 split=yes
#pragma omp target teams distribute parallel for
    for (int i = 1; i < nx - 1; ++i)
      for (int j = 1; j < ny - 1; ++j)
        for (int k = 1; k < nz - 1; ++k)
          POINT(src, dst, i, j, k)
  }
  for (int s = 0; s < 3; ++s) {
    double *src = s % 2 ? rq : rp, *dst = s % 2 ? rp : rq;
    for (int i = 1; i < nx - 1; ++i)
      for (int j = 1; j < ny - 1; ++j)
        for (int k = 1; k < nz - 1; ++k)
          POINT(src, dst, i, j, k)
  }
  check_bytes("planes: p", p, rp, n * sizeof(double));
  check_bytes("planes: q", q, rq, n * sizeof(double));
  free(u);
  free(v);
  free(ru);
  free(rv);
  free(p);
  free(q);
  free(rp);
  free(rq);
  return done();
}
// STATS: hetero-stats total

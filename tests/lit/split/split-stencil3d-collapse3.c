#pragma STDC FP_CONTRACT OFF
// 3-D 7-point stencil on a flattened nx x ny x nz grid with collapse(3) over
// the interior: u' = u + 0.1 * (sum of 6 neighbours - 6u), 6 sweeps
// ping-ponging inside a target data region; the halo of a chunk is whole
// planes (i +- 1) and rows (j +- 1) away. Then a collapse(3) kernel over the
// full box computing an int classification of every cell. Compared bit for
// bit with serial host loops.
// RUN: %clang-hetero %s -o %t
// RUN: env HETERO_STATS=1 HETERO_CHUNKS=4 %compare-fallback %t 2>%t.cpu | %FileCheck %s
// RUN: %FileCheck %s --check-prefix=STATS < %t.cpu
// RUN: env HETERO_STATS=1 HETERO_SIMULATE=3 %compare-fallback %t 2>%t.sim | %FileCheck %s
// RUN: %FileCheck %s --check-prefix=STATS < %t.sim
// CHECK: sweeps u: hash=346a69803ffc9393 ok
// CHECK: sweeps v: hash=2bef28a2580487a4 ok
// CHECK: classes: hash=a3ac716f21ce7467 ok
// CHECK: done failures=0
#include <stdlib.h>

#include "Inputs/split.h"

#define SWEEPS 6
#define IDX(i, j, k) (((i) * ny + (j)) * nz + (k))
#define SWEEP(S, D)                                                            \
  for (int i = 1; i < nx - 1; ++i)                                             \
    for (int j = 1; j < ny - 1; ++j)                                           \
      for (int k = 1; k < nz - 1; ++k)                                         \
        D[IDX(i, j, k)] = S[IDX(i, j, k)] +                                    \
                          0.1 * (S[IDX(i - 1, j, k)] + S[IDX(i + 1, j, k)] +   \
                                 S[IDX(i, j - 1, k)] + S[IDX(i, j + 1, k)] +   \
                                 S[IDX(i, j, k - 1)] + S[IDX(i, j, k + 1)] -   \
                                 6.0 * S[IDX(i, j, k)]);
#define CLASSIFY(S, C)                                                         \
  for (int i = 0; i < nx; ++i)                                                 \
    for (int j = 0; j < ny; ++j)                                               \
      for (int k = 0; k < nz; ++k)                                             \
        C[IDX(i, j, k)] = (S[IDX(i, j, k)] > 1.0) +                            \
                          2 * (S[IDX(i, j, k)] > 2.0) + 4 * (i + j + k > nx);

int main(void) {
  const int nx = 60, ny = 70, nz = 64;
  const int n = nx * ny * nz;
  double *u = malloc(n * sizeof(double)), *v = malloc(n * sizeof(double));
  double *ru = malloc(n * sizeof(double)), *rv = malloc(n * sizeof(double));
  int *c = malloc(n * sizeof(int)), *rc = malloc(n * sizeof(int));
  for (int i = 0; i < n; ++i) {
    u[i] = v[i] = ru[i] = rv[i] = (double)((i * 61) % 257) / 64.0;
    c[i] = rc[i] = -1;
  }
#pragma omp target data map(tofrom : u[0 : n], v[0 : n]) map(from : c[0 : n])
  {
    for (int s = 0; s < SWEEPS; ++s) {
      double *src = s % 2 ? v : u, *dst = s % 2 ? u : v;
// STATS-DAG: hetero-stats kernel={{.*}}_l[[@LINE+1]] launches=6 split=yes
#pragma omp target teams distribute parallel for collapse(3)
      SWEEP(src, dst)
    }
// STATS-DAG: hetero-stats kernel={{.*}}_l[[@LINE+1]] launches=1 split=yes
#pragma omp target teams distribute parallel for collapse(3)
    CLASSIFY(u, c)
  }
  for (int s = 0; s < SWEEPS; ++s) {
    double *src = s % 2 ? rv : ru, *dst = s % 2 ? ru : rv;
    SWEEP(src, dst)
  }
  CLASSIFY(ru, rc)
  check_bytes("sweeps u", u, ru, n * sizeof(double));
  check_bytes("sweeps v", v, rv, n * sizeof(double));
  check_bytes("classes", c, rc, n * sizeof(int));
  free(u);
  free(v);
  free(ru);
  free(rv);
  free(c);
  free(rc);
  return done();
}
// STATS: hetero-stats total

#pragma STDC FP_CONTRACT OFF
// CloverLeaf's halo updates: a loop over the columns whose inner loop over
// the halo's depth writes one ghost row per depth (f[j + (1 - k) * nx]) and
// reads the rows beside it. Each chunk writes short runs of two rows; their
// hull spanned every other chunk's runs, so every launch ran whole and
// gathered whole arrays onto one member, which the row-split sweep then
// spread again. Taken one depth row at a time, the sections are those runs:
// the halo kernels split, and a sweep moves bytes in proportion to the
// rows' width (about 170 KB here), not the arrays' (6.5 MB each). Compared
// bit for bit with serial host loops; bytes counted over simulated members
// alone (GPUs left out), then the same with the GPUs.
// RUN: %clang-hetero %s -o %t
// RUN: env HETERO_DISABLE_CUDA=1 HETERO_STATS=1 HETERO_SIMULATE=3 %run-hetero %t 10 2>%t.10 | %FileCheck %s
// RUN: %FileCheck %s --check-prefix=STATS < %t.10
// RUN: env HETERO_DISABLE_CUDA=1 HETERO_STATS=1 HETERO_SIMULATE=3 %run-hetero %t 30 2>%t.30 | %FileCheck %s
// RUN: python3 %S/Inputs/halo-bytes.py %t.10 %t.30 20 --at-most 250000 | %FileCheck %s --check-prefix=HALO
// RUN: env HETERO_STATS=1 HETERO_SIMULATE=3 %run-hetero %t 10 2>%t.gpu | %FileCheck %s
// RUN: %FileCheck %s --check-prefix=STATS < %t.gpu
// CHECK: halo sweeps: hash={{[0-9a-f]+}} ok
// CHECK: done failures=0
// STATS-DAG: hetero-stats kernel={{.*}}_l[[@LINE+49]] launches=10 split=yes
// STATS-DAG: hetero-stats kernel={{.*}}_l[[@LINE+52]] launches=10 split=yes
// HALO: halo: ok
#include <stdlib.h>

#include "Inputs/split.h"

static void sweep(double *f, double *g, int nx, int rows, int depth) {
  for (int k = depth; k < rows - depth; ++k)
    for (int j = 1; j < nx - 1; ++j)
      g[j + k * nx] = 0.25 * (f[j - 1 + k * nx] + f[j + 1 + k * nx] +
                              f[j + (k - 1) * nx] + f[j + (k + 1) * nx]);
}

int main(int argc, char **argv) {
  const int steps = argc > 1 ? atoi(argv[1]) : 10;
  const int nx = 2000, ny = 400, depth = 2, rows = ny + 2 * depth;
  const size_t cells = (size_t)nx * rows;
  double *f = malloc(cells * sizeof(double)),
         *g = malloc(cells * sizeof(double));
  double *rf = malloc(cells * sizeof(double)),
         *rg = malloc(cells * sizeof(double));
  for (size_t c = 0; c < cells; ++c) {
    f[c] = rf[c] = (double)((c * 37) % 101) / 8.0;
    g[c] = rg[c] = 0;
  }
  for (int s = 0; s < steps; ++s) {
    sweep(rf, rg, nx, rows, depth);
    for (int k = depth; k < rows - depth; ++k)
      for (int j = 1; j < nx - 1; ++j)
        rf[j + k * nx] = rg[j + k * nx];
    for (int j = 0; j < nx; ++j)
      for (int k = 0; k < depth; ++k) {
        rf[j + (depth - 1 - k) * nx] = rf[j + (depth + k) * nx];
        rf[j + (rows - depth + k) * nx] = rf[j + (rows - depth - 1 - k) * nx];
      }
  }
#pragma omp target data map(tofrom : f[0 : cells]) map(to : g[0 : cells])
  for (int s = 0; s < steps; ++s) {
#pragma omp target teams distribute parallel for
    for (int k = depth; k < rows - depth; ++k)
      for (int j = 1; j < nx - 1; ++j)
        g[j + k * nx] = 0.25 * (f[j - 1 + k * nx] + f[j + 1 + k * nx] +
                                f[j + (k - 1) * nx] + f[j + (k + 1) * nx]);
#pragma omp target teams distribute parallel for
    for (int k = depth; k < rows - depth; ++k)
      for (int j = 1; j < nx - 1; ++j)
        f[j + k * nx] = g[j + k * nx];
    // The bottom and the top halo: columns split, depth rows reflected.
#pragma omp target teams distribute parallel for
    for (int j = 0; j < nx; ++j)
      for (int k = 0; k < depth; ++k)
        f[j + (depth - 1 - k) * nx] = f[j + (depth + k) * nx];
#pragma omp target teams distribute parallel for
    for (int j = 0; j < nx; ++j)
      for (int k = 0; k < depth; ++k)
        f[j + (rows - depth + k) * nx] = f[j + (rows - depth - 1 - k) * nx];
  }
  check_bytes("halo sweeps", f, rf, cells * sizeof(double));
  return done();
}

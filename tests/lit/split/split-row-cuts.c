#pragma STDC FP_CONTRACT OFF
// TeaLeaf's conjugate-gradient sweep: collapse(2) kernels over the interior
// of a grid with one halo column and row (a five-point product, an update
// that reads only its own cell), then halo updates of the left and right
// columns (loops over the rows) and the top and bottom rows (loops over
// the columns). The collapsed kernels' iteration space is the interior's
// cells, so equal shares cut it in the middle of a row, and the row loops
// cut their own rows elsewhere: each launch moved a piece of a row, a lone
// neighbour cell and a halo cell between members, each a copy of its own.
// Cut at whole rows, and the row loops' boundaries at the same rows (the
// rows' owner), a sweep moves the rows the product reads beside each
// boundary and nothing else. Compared bit for bit with serial host loops;
// bytes counted over three simulated members with fixed shares (241
// interior rows do not divide by three), then the same with the GPUs.
// RUN: %clang-hetero %s -o %t
// RUN: env HETERO_DISABLE_CUDA=1 HETERO_MEMBERS=sim:0,sim:1,sim:2 HETERO_SHARES=fixed HETERO_STATS=1 HETERO_SIMULATE=3 %run-hetero %t 4 2>%t.4 | %FileCheck %s
// RUN: env HETERO_DISABLE_CUDA=1 HETERO_MEMBERS=sim:0,sim:1,sim:2 HETERO_SHARES=fixed HETERO_STATS=1 HETERO_SIMULATE=3 %run-hetero %t 14 2>%t.14 | %FileCheck %s
// RUN: %FileCheck %s --check-prefix=STATS < %t.14
// RUN: python3 %S/Inputs/halo-bytes.py %t.4 %t.14 10 --at-most 16000 | %FileCheck %s --check-prefix=HALO
// RUN: env HETERO_STATS=1 HETERO_SIMULATE=3 %run-hetero %t 6 2>%t.gpu | %FileCheck %s
// CHECK: row cuts: hash={{[0-9a-f]+}} ok
// CHECK: done failures=0
// STATS-DAG: hetero-stats kernel={{.*}}_l[[@LINE+52]] launches=14 split=yes
// STATS-DAG: hetero-stats kernel={{.*}}_l[[@LINE+57]] launches=14 split=yes
// STATS-DAG: hetero-stats kernel={{.*}}_l[[@LINE+62]] launches=14 split=yes
// HALO: halo: ok
#include <stdlib.h>

#include "Inputs/split.h"

// 500 columns, 243 rows: the exact halo of a sweep over three members is 2
// boundaries x 2 rows x 498 interior cells x 8 bytes = 15936 bytes (the
// bound above adds a cell per row for its halo column).
enum { NX = 500, NY = 243 };

static void sweep_host(double *p, double *w, double *r) {
  for (int k = 1; k < NY - 1; ++k)
    for (int j = 1; j < NX - 1; ++j) {
      int i = j + k * NX;
      w[i] = 4.0 * p[i] - p[i - 1] - p[i + 1] - p[i - NX] - p[i + NX];
    }
  for (int k = 1; k < NY - 1; ++k)
    for (int j = 1; j < NX - 1; ++j) {
      int i = j + k * NX;
      p[i] = 0.5 * p[i] + 0.125 * w[i] + r[i];
    }
  for (int k = 1; k < NY - 1; ++k)
    p[k * NX] = p[k * NX + 1];
  for (int k = 1; k < NY - 1; ++k)
    p[k * NX + NX - 1] = p[k * NX + NX - 2];
  for (int j = 1; j < NX - 1; ++j)
    p[j] = p[j + NX];
  for (int j = 1; j < NX - 1; ++j)
    p[j + (NY - 1) * NX] = p[j + (NY - 2) * NX];
}

int main(int argc, char **argv) {
  const int steps = argc > 1 ? atoi(argv[1]) : 4;
  const size_t cells = (size_t)NX * NY;
  double *p = malloc(cells * sizeof(double)),
         *w = malloc(cells * sizeof(double)),
         *r = malloc(cells * sizeof(double));
  double *rp = malloc(cells * sizeof(double)),
         *rw = malloc(cells * sizeof(double));
  for (size_t c = 0; c < cells; ++c) {
    p[c] = rp[c] = (double)((c * 37) % 101) / 8.0;
    w[c] = rw[c] = 0;
    r[c] = (double)((c * 13) % 7) / 64.0;
  }
  for (int s = 0; s < steps; ++s)
    sweep_host(rp, rw, r);
#pragma omp target data map(tofrom : p[0 : cells], w[0 : cells])               \
    map(to : r[0 : cells])
  for (int s = 0; s < steps; ++s) {
#pragma omp target teams distribute parallel for collapse(2)
    for (int k = 1; k < NY - 1; ++k)
      for (int j = 1; j < NX - 1; ++j) {
        int i = j + k * NX;
        w[i] = 4.0 * p[i] - p[i - 1] - p[i + 1] - p[i - NX] - p[i + NX];
      }
#pragma omp target teams distribute parallel for collapse(2)
    for (int k = 1; k < NY - 1; ++k)
      for (int j = 1; j < NX - 1; ++j) {
        int i = j + k * NX;
        p[i] = 0.5 * p[i] + 0.125 * w[i] + r[i];
      }
#pragma omp target teams distribute parallel for
    for (int k = 1; k < NY - 1; ++k)
      p[k * NX] = p[k * NX + 1];
#pragma omp target teams distribute parallel for
    for (int k = 1; k < NY - 1; ++k)
      p[k * NX + NX - 1] = p[k * NX + NX - 2];
#pragma omp target teams distribute parallel for
    for (int j = 1; j < NX - 1; ++j)
      p[j] = p[j + NX];
#pragma omp target teams distribute parallel for
    for (int j = 1; j < NX - 1; ++j)
      p[j + (NY - 1) * NX] = p[j + (NY - 2) * NX];
  }
  check_bytes("row cuts", p, rp, cells * sizeof(double));
  check_bytes("row cuts", w, rw, cells * sizeof(double));
  return done();
}

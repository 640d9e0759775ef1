#pragma STDC FP_CONTRACT OFF
// Kernels over different iteration spaces of the same rows: a smoothing
// sweep over the interior (rows 1 .. ny-2), a source term over the lower
// rows only (rows ny/8 .. ny-1, as a physics region is) and a copy back
// over every row. Each cuts its own rows into equal shares, so their
// boundaries lie rows apart (the source term's by a twelfth of the grid):
// cut where each kernel's shares say, every sweep moves those rows to one
// member and back (512 KB a sweep here). Cut where the rows already live
// (HETERO_CUTS=owners, the default), a sweep moves the halo rows the
// smoothing reads and nothing else: 2 boundaries x 2 rows x 998 doubles,
// which is what HETERO_STATS says the chunks' reads needed (bytes_needed). Compared bit for bit with serial host loops; bytes counted over
// three simulated members with fixed shares, then the same with the GPUs
// and measured shares for the answers.
// RUN: %clang-hetero %s -o %t
// RUN: env HETERO_DISABLE_CUDA=1 HETERO_MEMBERS=sim:0,sim:1,sim:2 HETERO_SHARES=fixed HETERO_STATS=1 HETERO_SIMULATE=3 %run-hetero %t 4 2>%t.4 | %FileCheck %s
// RUN: %FileCheck %s --check-prefix=STATS < %t.4
// RUN: env HETERO_DISABLE_CUDA=1 HETERO_MEMBERS=sim:0,sim:1,sim:2 HETERO_SHARES=fixed HETERO_STATS=1 HETERO_SIMULATE=3 %run-hetero %t 14 2>%t.14 | %FileCheck %s
// RUN: python3 %S/Inputs/halo-bytes.py %t.4 %t.14 10 31936 | %FileCheck %s --check-prefix=HALO
// RUN: python3 %S/Inputs/halo-bytes.py %t.4 %t.14 10 --needed 1.5 | %FileCheck %s --check-prefix=HALO
// RUN: env HETERO_CUTS=shares HETERO_DISABLE_CUDA=1 HETERO_MEMBERS=sim:0,sim:1,sim:2 HETERO_SHARES=fixed HETERO_STATS=1 HETERO_SIMULATE=3 %run-hetero %t 4 2>%t.s4 | %FileCheck %s
// RUN: env HETERO_CUTS=shares HETERO_DISABLE_CUDA=1 HETERO_MEMBERS=sim:0,sim:1,sim:2 HETERO_SHARES=fixed HETERO_STATS=1 HETERO_SIMULATE=3 %run-hetero %t 14 2>%t.s14 | %FileCheck %s
// RUN: %not python3 %S/Inputs/halo-bytes.py %t.s4 %t.s14 10 --at-most 48000 | %FileCheck %s --check-prefix=HULL
// RUN: env HETERO_STATS=1 HETERO_SIMULATE=3 %run-hetero %t 6 2>%t.gpu | %FileCheck %s
// CHECK: owner cuts: hash={{[0-9a-f]+}} ok
// CHECK: done failures=0
// STATS-DAG: hetero-stats kernel={{.*}}_l[[@LINE+43]] launches=4 split=yes {{.*}} aligned=4
// STATS-DAG: hetero-stats kernel={{.*}}_l[[@LINE+46]] launches=4 split=yes
// STATS-DAG: hetero-stats kernel={{.*}}_l[[@LINE+36]] launches=4 split=yes {{.*}} bytes_needed=
// HALO: halo: ok
// HULL: halo: FAIL
#include <stdlib.h>

#include "Inputs/split.h"

enum { NX = 1000, NY = 240 };

static double source(int k, int j) { return 0.001 * ((k * 7 + j * 3) % 11); }

int main(int argc, char **argv) {
  const int steps = argc > 1 ? atoi(argv[1]) : 4;
  const size_t cells = (size_t)NX * NY;
  double *u = malloc(cells * sizeof(double)),
         *v = malloc(cells * sizeof(double));
  double *ru = malloc(cells * sizeof(double)),
         *rv = malloc(cells * sizeof(double));
  for (size_t c = 0; c < cells; ++c) {
    u[c] = ru[c] = (double)((c * 37) % 101) / 8.0;
    v[c] = rv[c] = 0;
  }
  for (int s = 0; s < steps; ++s) {
    for (int k = 1; k < NY - 1; ++k)
      for (int j = 1; j < NX - 1; ++j)
        rv[j + k * NX] = 0.25 * (ru[j - 1 + k * NX] + ru[j + 1 + k * NX] +
                                 ru[j + (k - 1) * NX] + ru[j + (k + 1) * NX]);
    for (int k = NY / 8; k < NY; ++k)
      for (int j = 0; j < NX; ++j)
        rv[j + k * NX] = rv[j + k * NX] + source(k, j);
    for (int k = 0; k < NY; ++k)
      for (int j = 0; j < NX; ++j)
        ru[j + k * NX] = rv[j + k * NX];
  }
#pragma omp target data map(tofrom : u[0 : cells]) map(to : v[0 : cells])
  for (int s = 0; s < steps; ++s) {
#pragma omp target teams distribute parallel for
    for (int k = 1; k < NY - 1; ++k)
      for (int j = 1; j < NX - 1; ++j)
        v[j + k * NX] = 0.25 * (u[j - 1 + k * NX] + u[j + 1 + k * NX] +
                                u[j + (k - 1) * NX] + u[j + (k + 1) * NX]);
#pragma omp target teams distribute parallel for
    for (int k = NY / 8; k < NY; ++k)
      for (int j = 0; j < NX; ++j)
        v[j + k * NX] = v[j + k * NX] + 0.001 * ((k * 7 + j * 3) % 11);
#pragma omp target teams distribute parallel for
    for (int k = 0; k < NY; ++k)
      for (int j = 0; j < NX; ++j)
        u[j + k * NX] = v[j + k * NX];
  }
  check_bytes("owner cuts", u, ru, cells * sizeof(double));
  return done();
}

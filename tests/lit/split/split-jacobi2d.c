#pragma STDC FP_CONTRACT OFF
// 2-D 5-point Jacobi on a malloc'd, flattened nx x ny grid: an update kernel
// (collapse(2) over the interior) and a copy-back kernel that also reduces
// the largest change with max (max is exact in any order), 12 iterations
// inside one target data region; the residual of each iteration is printed
// in hex. Compared bit for bit with a serial host loop.
// RUN: %clang-hetero %s -o %t
// RUN: env HETERO_STATS=1 HETERO_CHUNKS=4 %compare-fallback %t 2>%t.cpu | %FileCheck %s
// RUN: %FileCheck %s --check-prefix=STATS < %t.cpu
// RUN: env HETERO_STATS=1 HETERO_SIMULATE=3 %compare-fallback %t 2>%t.sim | %FileCheck %s
// RUN: %FileCheck %s --check-prefix=STATS < %t.sim
// CHECK: residual[0]=0x1.0ap+0 residual[11]=0x1.9f4c71p-4
// CHECK: residuals: hash=ab532860d87856a9 ok
// CHECK: grid: hash=45de5116f7922fc9 ok
// CHECK: done failures=0
#include <stdlib.h>

#include "Inputs/split.h"

#define ITERS 12

int main(void) {
  const int nx = 384, ny = 512;
  const size_t sz = (size_t)nx * ny;
  double *u = malloc(sz * sizeof(double)), *un = malloc(sz * sizeof(double));
  double *ru = malloc(sz * sizeof(double)), *run = malloc(sz * sizeof(double));
  for (int i = 0; i < nx; ++i)
    for (int j = 0; j < ny; ++j) {
      double b = (i == 0 || j == 0) ? 1.0 : 0.0;
      double x = (double)((i * 17 + j * 29) % 101) / 64.0;
      u[i * ny + j] = ru[i * ny + j] = b + x;
      un[i * ny + j] = run[i * ny + j] = b + x;
    }
  double res[ITERS], rres[ITERS];

#pragma omp target data map(tofrom : u[0 : sz]) map(to : un[0 : sz])
  for (int it = 0; it < ITERS; ++it) {
// STATS-DAG: hetero-stats kernel={{.*}}_l[[@LINE+1]] launches=12 split=yes
#pragma omp target teams distribute parallel for collapse(2)
    for (int i = 1; i < nx - 1; ++i)
      for (int j = 1; j < ny - 1; ++j)
        un[i * ny + j] = 0.25 * (u[(i - 1) * ny + j] + u[(i + 1) * ny + j] +
                                 u[i * ny + j - 1] + u[i * ny + j + 1]);
    double r = 0.0;
// STATS-DAG: hetero-stats kernel={{.*}}_l[[@LINE+1]] launches=12 split=yes
#pragma omp target teams distribute parallel for collapse(2) reduction(max : r)
    for (int i = 1; i < nx - 1; ++i)
      for (int j = 1; j < ny - 1; ++j) {
        double diff = un[i * ny + j] - u[i * ny + j];
        diff = diff < 0 ? -diff : diff;
        r = diff > r ? diff : r;
        u[i * ny + j] = un[i * ny + j];
      }
    res[it] = r;
  }
  for (int it = 0; it < ITERS; ++it) {
    for (int i = 1; i < nx - 1; ++i)
      for (int j = 1; j < ny - 1; ++j)
        run[i * ny + j] = 0.25 * (ru[(i - 1) * ny + j] + ru[(i + 1) * ny + j] +
                                  ru[i * ny + j - 1] + ru[i * ny + j + 1]);
    double r = 0.0;
    for (int i = 1; i < nx - 1; ++i)
      for (int j = 1; j < ny - 1; ++j) {
        double diff = run[i * ny + j] - ru[i * ny + j];
        diff = diff < 0 ? -diff : diff;
        r = diff > r ? diff : r;
        ru[i * ny + j] = run[i * ny + j];
      }
    rres[it] = r;
  }
  printf("residual[0]=%a residual[%d]=%a\n", res[0], ITERS - 1, res[ITERS - 1]);
  check_bytes("residuals", res, rres, sizeof res);
  check_bytes("grid", u, ru, sz * sizeof(double));
  free(u);
  free(un);
  free(ru);
  free(run);
  return done();
}
// STATS: hetero-stats total

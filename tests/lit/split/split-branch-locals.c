#pragma STDC FP_CONTRACT OFF
// CloverLeaf's advection: locals that a branch sets (`if (flux > 0) {
// upwind = k - 2; donor = k - 1; dif = donor; } else { upwind = MIN(k + 1,
// ny + 1); donor = k; dif = upwind; }`) index the arrays. Each holds one of
// its assigned values: a chunk of rows reads them and two rows on either
// side, where every member read the whole arrays. A sweep that then updates
// the density splits and moves a halo's bytes (at most 400 KB; 6.4 MB an
// array). Locals whose values are unknown, and must stay so: one written
// with +=; two that hold the last value of a counter their loop does not
// declare (assigned, and initialised), read in a later loop over that
// counter, where it has other values. Compared bit for bit with serial host
// loops; bytes counted over simulated members alone (GPUs left out).
// RUN: %clang-hetero %s -o %t
// RUN: env HETERO_DISABLE_CUDA=1 HETERO_STATS=1 HETERO_SIMULATE=3 %compare-fallback %t 4 2>%t.4 | %FileCheck %s
// RUN: %FileCheck %s --check-prefix=STATS < %t.4
// RUN: env HETERO_DISABLE_CUDA=1 HETERO_STATS=1 HETERO_SIMULATE=3 %run-hetero %t 12 2>%t.12 | %FileCheck %s
// RUN: python3 %S/Inputs/halo-bytes.py %t.4 %t.12 8 --at-most 400000 | %FileCheck %s --check-prefix=HALO
// RUN: env HETERO_STATS=1 HETERO_CHUNKS=4 %compare-fallback %t 4 2>&1 | %FileCheck %s
// RUN: %if compiler %{ env HETERO_DESC_DEBUG=1 %clang-hetero -c %s -o %t.o 2>%t.desc %}
// RUN: %if compiler %{ %FileCheck %s --check-prefix=DESC < %t.desc %}
// CHECK: advection: hash={{[0-9a-f]+}} ok
// CHECK: advected density: hash={{[0-9a-f]+}} ok
// CHECK: compound writes: hash={{[0-9a-f]+}} ok
// CHECK: open counter: hash={{[0-9a-f]+}} ok
// CHECK: done failures=0
// STATS-DAG: hetero-stats kernel={{.*}}_l[[@LINE+80]] launches=4 split=yes
// STATS-DAG: hetero-stats kernel={{.*}}_l[[@LINE+83]] launches=4 split=yes
// The unknown ones read all of a (128000 and 128320 bytes) on each
// simulated accelerator but the first, which holds it.
// STATS-DAG: hetero-stats kernel={{.*}}_l[[@LINE+89]] launches=1 split=yes {{.*}} bytes_d2d=256000
// STATS-DAG: hetero-stats kernel={{.*}}_l[[@LINE+107]] launches=1 split=yes {{.*}} bytes_d2d=256640
// HALO: halo: ok
// The advection reads sections; the unknown locals read all of a.
// DESC: source split-branch-locals.c:[[@LINE+72]]
// DESC-NOT: readall
// DESC: hetero-desc
// DESC: source split-branch-locals.c:[[@LINE+82]]
// DESC: readall (arg {{[0-9]}}) src split-branch-locals.c:[[@LINE+87]] a
// DESC: source split-branch-locals.c:[[@LINE+99]]
// DESC: readall (arg {{[0-9]}}) src split-branch-locals.c:[[@LINE+109]] a
#include <stdlib.h>

#include "Inputs/split.h"

#define MIN(a, b) ((a) < (b) ? (a) : (b))
#define MAX(a, b) ((a) > (b) ? (a) : (b))

// One upwind sweep over rows 2 .. ny - 1 of density d and energy e (rows
// 0, 1 and ny, ny + 1 are halo), fluxes on the rows' faces.
static double fluxOf(const double *flux, const double *d, const double *e,
                     int nx, int ny, int j, int k) {
  int upwind, donor, downwind, dif;
  if (flux[j + k * nx] > 0.0) {
    upwind = k - 2;
    donor = k - 1;
    downwind = k;
    dif = donor;
  } else {
    upwind = MIN(k + 1, ny + 1);
    donor = k;
    downwind = k - 1;
    dif = upwind;
  }
  double sigma = flux[j + k * nx] / (d[j + donor * nx] + 1.0);
  double diffuw = d[j + donor * nx] - d[j + upwind * nx];
  double diffdw = d[j + downwind * nx] - d[j + donor * nx];
  double limiter = diffuw * diffdw > 0.0 ? (1.0 - sigma) * diffuw : 0.0;
  return flux[j + k * nx] * (e[j + donor * nx] + limiter) +
         0.01 * e[j + dif * nx];
}

int main(int argc, char **argv) {
  const int steps = argc > 1 ? atoi(argv[1]) : 4;
  const int nx = 2000, ny = 400, m = 40;
  const size_t cells = (size_t)nx * (ny + 2);
  double *flux = malloc(cells * sizeof(double)),
         *d = malloc(cells * sizeof(double)),
         *e = malloc(cells * sizeof(double)),
         *out = malloc(cells * sizeof(double));
  double *rout = malloc(cells * sizeof(double));
  double *a = malloc((size_t)(ny + 1) * m * sizeof(double)),
         *b = malloc((size_t)ny * sizeof(double)),
         *rb = malloc((size_t)ny * sizeof(double));
  for (size_t c = 0; c < cells; ++c) {
    flux[c] = (double)((c * 37) % 101) / 50.0 - 1.0;
    d[c] = (double)((c * 13) % 97) / 8.0;
    e[c] = (double)((c * 7) % 89) / 16.0;
    out[c] = rout[c] = 0;
  }
  for (int c = 0; c < (ny + 1) * m; ++c)
    a[c] = (double)((c * 11) % 83) / 4.0;
  double *rd = malloc(cells * sizeof(double));
  for (size_t c = 0; c < cells; ++c)
    rd[c] = d[c];
  for (int s = 0; s < steps; ++s) {
    for (int k = 2; k < ny; ++k)
      for (int j = 0; j < nx; ++j)
        rout[j + k * nx] += fluxOf(flux, rd, e, nx, ny, j, k);
    for (int k = 2; k < ny; ++k)
      for (int j = 0; j < nx; ++j)
        rd[j + k * nx] = 0.5 * rd[j + k * nx] + 0.001 * rout[j + k * nx];
  }
#pragma omp target data map(to : flux[0 : cells], e[0 : cells])                \
    map(tofrom : d[0 : cells], out[0 : cells])
  for (int s = 0; s < steps; ++s) {
#pragma omp target teams distribute parallel for
    for (int k = 2; k < ny; ++k)
      for (int j = 0; j < nx; ++j)
        out[j + k * nx] += fluxOf(flux, d, e, nx, ny, j, k);
#pragma omp target teams distribute parallel for
    for (int k = 2; k < ny; ++k)
      for (int j = 0; j < nx; ++j)
        d[j + k * nx] = 0.5 * d[j + k * nx] + 0.001 * out[j + k * nx];
  }
  check_bytes("advection", out, rout, cells * sizeof(double));
  check_bytes("advected density", d, rd, cells * sizeof(double));
  // `at` is written with +=: its values are unknown, and the read of
  // a[at % ny ...] reads all of a.
#pragma omp target teams distribute parallel for map(to : a[0 : ny * m])       \
    map(from : b[0 : ny])
  for (int i = 0; i < ny; ++i) {
    int at = i;
    for (int k = 0; k < m; ++k)
      at += k % 3;
    b[i] = a[(size_t)(at % ny) * m];
  }
  for (int i = 0; i < ny; ++i) {
    int at = i;
    for (int k = 0; k < m; ++k)
      at += k % 3;
    rb[i] = a[(size_t)(at % ny) * m];
  }
  check_bytes("compound writes", b, rb, ny * sizeof(double));
  // `last` (assigned) and `past` (initialised) hold k's value after a loop
  // that does not declare k, m - 1 and m, read inside a later loop over k
  // (where k is 0 or 1): taken for that k, they made a[i * m + m - past +
  // k] rows past the one read.
#pragma omp target teams distribute parallel for map(to : a[0 : (ny + 1) * m]) \
    map(from : b[0 : ny])
  for (int i = 0; i < ny; ++i) {
    int k, last = 0;
    for (k = 0; k < m; ++k)
      ;
    last = k - 1;
    int past = k;
    double s = 0;
    for (k = 0; k < 2; ++k)
      s +=
          a[(size_t)i * m + m - 1 - last + k] + a[(size_t)i * m + m - past + k];
    b[i] = s;
  }
  for (int i = 0; i < ny; ++i)
    rb[i] = (a[(size_t)i * m] + a[(size_t)i * m]) +
            (a[(size_t)i * m + 1] + a[(size_t)i * m + 1]);
  check_bytes("open counter", b, rb, ny * sizeof(double));
  return done();
}

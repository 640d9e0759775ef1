#pragma STDC FP_CONTRACT OFF
// 1-D 3-point stencils with halos. (1) A heat-equation smoother
// u'[i] = (u[i-1] + 2 u[i] + u[i+1]) * 0.25 on the interior, 10 sweeps that
// ping-pong between two buffers inside one target data region (the
// boundaries stay fixed). (2) An integer 3-point stencil with a periodic halo
// through wrap-around indices (non-affine reads of the whole buffer), 6
// sweeps. A chunk of a split sweep reads one element beyond each end of its
// window that another chunk wrote in the previous sweep. Results are compared
// bit for bit with a serial host loop and printed as FNV hashes.
// RUN: %clang-hetero %s -o %t
// RUN: env HETERO_STATS=1 HETERO_CHUNKS=4 %compare-fallback %t 2>%t.cpu | %FileCheck %s
// RUN: %FileCheck %s --check-prefix=STATS < %t.cpu
// RUN: env HETERO_STATS=1 HETERO_SIMULATE=3 %compare-fallback %t 2>%t.sim | %FileCheck %s
// RUN: %FileCheck %s --check-prefix=STATS < %t.sim
// CHECK: smoother u: hash=69800aee81678d0b ok
// CHECK: smoother v: hash=15dc7d0906bb4052 ok
// CHECK: periodic ring: hash=81edfd780a9a3162 ok
// CHECK: done failures=0
#include <stdlib.h>

#include "Inputs/split.h"

#define N 200003
#define STEPS 10
#define RSTEPS 6

int main(void) {
  const int n = N;
  double *u = malloc(n * sizeof(double)), *v = malloc(n * sizeof(double));
  double *ru = malloc(n * sizeof(double)), *rv = malloc(n * sizeof(double));
  for (int i = 0; i < n; ++i)
    u[i] = v[i] = ru[i] = rv[i] = (double)((i * 7919) % 1009) / 7.0 - 50.0;

#pragma omp target data map(tofrom : u[0 : n], v[0 : n])
  {
    double *src = u, *dst = v;
    for (int s = 0; s < STEPS; ++s) {
// STATS-DAG: hetero-stats kernel={{.*}}_l[[@LINE+1]] launches=10 split=yes
#pragma omp target teams distribute parallel for
      for (int i = 1; i < n - 1; ++i)
        dst[i] = (src[i - 1] + 2.0 * src[i] + src[i + 1]) * 0.25;
      double *t = src;
      src = dst;
      dst = t;
    }
  }
  {
    double *src = ru, *dst = rv;
    for (int s = 0; s < STEPS; ++s) {
      for (int i = 1; i < n - 1; ++i)
        dst[i] = (src[i - 1] + 2.0 * src[i] + src[i + 1]) * 0.25;
      double *t = src;
      src = dst;
      dst = t;
    }
  }
  check_bytes("smoother u", u, ru, n * sizeof(double));
  check_bytes("smoother v", v, rv, n * sizeof(double));

  // Periodic ring of unsigned counters (wrap-around arithmetic is exact).
  unsigned *a = malloc(n * sizeof(unsigned)), *b = malloc(n * sizeof(unsigned));
  unsigned *ra = malloc(n * sizeof(unsigned)),
           *rb = malloc(n * sizeof(unsigned));
  for (int i = 0; i < n; ++i) {
    a[i] = ra[i] = (unsigned)i * 2654435761u;
    b[i] = rb[i] = 0;
  }
#pragma omp target data map(tofrom : a[0 : n]) map(alloc : b[0 : n])
  {
    for (int s = 0; s < RSTEPS; ++s) {
// STATS-DAG: hetero-stats kernel={{.*}}_l[[@LINE+1]] launches=6 split=yes
#pragma omp target teams distribute parallel for
      for (int i = 0; i < n; ++i)
        b[i] = a[(i + n - 1) % n] + 3u * a[i] + (a[(i + 1) % n] ^ (unsigned)s);
// STATS-DAG: hetero-stats kernel={{.*}}_l[[@LINE+1]] launches=6 split=yes
#pragma omp target teams distribute parallel for
      for (int i = 0; i < n; ++i)
        a[i] = b[i] >> 1;
    }
  }
  for (int s = 0; s < RSTEPS; ++s) {
    for (int i = 0; i < n; ++i)
      rb[i] =
          ra[(i + n - 1) % n] + 3u * ra[i] + (ra[(i + 1) % n] ^ (unsigned)s);
    for (int i = 0; i < n; ++i)
      ra[i] = rb[i] >> 1;
  }
  check_bytes("periodic ring", a, ra, n * sizeof(unsigned));

  free(u);
  free(v);
  free(ru);
  free(rv);
  free(a);
  free(b);
  free(ra);
  free(rb);
  return done();
}
// STATS: hetero-stats total

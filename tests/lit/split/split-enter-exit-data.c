#pragma STDC FP_CONTRACT OFF
// Unstructured data mapping: arrays mapped with target enter data in one
// function, used by kernels in other functions (called several times, so
// one kernel launches repeatedly), refreshed with target update in between,
// and copied back with target exit data map(from) in a third function; a
// scratch array mapped alloc and released with map(release). A simple
// explicit-Euler heat solver in steps. Compared bit for bit with serial
// host loops.
// RUN: %clang-hetero %s -o %t
// RUN: env HETERO_STATS=1 HETERO_CHUNKS=4 %compare-fallback %t 2>%t.cpu | %FileCheck %s
// RUN: %FileCheck %s --check-prefix=STATS < %t.cpu
// RUN: env HETERO_STATS=1 HETERO_SIMULATE=3 %compare-fallback %t 2>%t.sim | %FileCheck %s
// RUN: %FileCheck %s --check-prefix=STATS < %t.sim
// CHECK: temperature: hash=acadb6c244bb3b26 ok
// CHECK: done failures=0
#include <stdlib.h>

#include "Inputs/split.h"

#define N 150000
#define STEPS 7

static void setup(double *t, double *k, double *scratch, int n) {
#pragma omp target enter data map(to : t[0 : n], k[0 : n])                     \
    map(alloc : scratch[0 : n])
}

static void flux(const double *t, const double *k, double *scratch, int n) {
// STATS-DAG: hetero-stats kernel={{.*}}_l[[@LINE+1]] launches=7 split=yes
#pragma omp target teams distribute parallel for
  for (int i = 1; i < n; ++i)
    scratch[i] = k[i] * (t[i] - t[i - 1]);
}

static void advance(double *t, const double *scratch, int n, double dt) {
// STATS-DAG: hetero-stats kernel={{.*}}_l[[@LINE+1]] launches=7 split=yes
#pragma omp target teams distribute parallel for
  for (int i = 1; i < n - 1; ++i)
    t[i] = t[i] + dt * (scratch[i + 1] - scratch[i]);
}

static void teardown(double *t, double *k, double *scratch, int n) {
#pragma omp target exit data map(from : t[0 : n])                              \
    map(release : k[0 : n], scratch[0 : n])
}

int main(void) {
  const int n = N;
  double *t = malloc(n * sizeof(double)), *k = malloc(n * sizeof(double));
  double *scratch = malloc(n * sizeof(double));
  double *rt = malloc(n * sizeof(double)), *rk = malloc(n * sizeof(double));
  double *rs = malloc(n * sizeof(double));
  for (int i = 0; i < n; ++i) {
    t[i] = rt[i] = (i > n / 3 && i < n / 2) ? 100.0 : (double)(i % 10);
    k[i] = rk[i] = 0.5 + (double)(i % 4) * 0.125;
    scratch[i] = rs[i] = 0.0;
  }
  const double dt = 0.1;
  setup(t, k, scratch, n);
  for (int s = 0; s < STEPS; ++s) {
    if (s == 3) {
      // Change the conductivity of a band on the host and send it.
      for (int i = 1000; i < 2000; ++i)
        k[i] = 2.0;
#pragma omp target update to(k[1000 : 1000])
    }
    flux(t, k, scratch, n);
    advance(t, scratch, n, dt);
  }
  teardown(t, k, scratch, n);
  for (int s = 0; s < STEPS; ++s) {
    if (s == 3)
      for (int i = 1000; i < 2000; ++i)
        rk[i] = 2.0;
    for (int i = 1; i < n; ++i)
      rs[i] = rk[i] * (rt[i] - rt[i - 1]);
    for (int i = 1; i < n - 1; ++i)
      rt[i] = rt[i] + dt * (rs[i + 1] - rs[i]);
  }
  check_bytes("temperature", t, rt, n * sizeof(double));
  free(t);
  free(k);
  free(scratch);
  free(rt);
  free(rk);
  free(rs);
  return done();
}
// STATS: hetero-stats total

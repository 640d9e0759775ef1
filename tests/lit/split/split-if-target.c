#pragma STDC FP_CONTRACT OFF
// if clauses on offloaded loops: a function whose kernel has
// if(target : use_device) is called 5 times, 3 with true (launched on the
// device) and 2 with false (run by the host, no launch); a kernel with a
// plain if(n > threshold) called with a small and a large n. Only the
// launches with a true condition reach the device and count. Compared bit
// for bit with serial host loops.
// RUN: %clang-hetero %s -o %t
// RUN: env HETERO_STATS=1 HETERO_CHUNKS=4 %compare-fallback %t 2>%t.cpu | %FileCheck %s
// RUN: %FileCheck %s --check-prefix=STATS < %t.cpu
// RUN: env HETERO_STATS=1 HETERO_SIMULATE=3 %compare-fallback %t 2>%t.sim | %FileCheck %s
// RUN: %FileCheck %s --check-prefix=STATS < %t.sim
// CHECK: if(target: ...): hash=3eaf9af207ec96f5 ok
// CHECK: if(n > threshold): hash=939a2060e5e21b1d ok
// CHECK: done failures=0
#include <stdlib.h>

#include "Inputs/split.h"

#define N 200000

static void scale(double *a, int n, double f, int use_device) {
// STATS-DAG: hetero-stats kernel={{.*}}_l[[@LINE+1]] launches=3 split=yes
#pragma omp target teams distribute parallel for if (target : use_device)      \
    map(tofrom : a[0 : n])
  for (int i = 0; i < n; ++i)
    a[i] = a[i] * f + (double)(i % 3);
}

static void offset(int *v, int n, int threshold) {
// STATS-DAG: hetero-stats kernel={{.*}}_l[[@LINE+1]] launches=1 split=yes
#pragma omp target teams distribute parallel for if (n > threshold)            \
    map(tofrom : v[0 : n])
  for (int i = 0; i < n; ++i)
    v[i] = v[i] * 2 - i;
}

int main(void) {
  const int n = N;
  double *a = malloc(n * sizeof(double)), *ra = malloc(n * sizeof(double));
  for (int i = 0; i < n; ++i)
    a[i] = ra[i] = (double)(i % 50) * 0.25;
  for (int k = 0; k < 5; ++k) {
    scale(a, n, 1.5 - 0.25 * k, k % 2 == 0); // k = 0, 2, 4 on the device
    for (int i = 0; i < n; ++i)
      ra[i] = ra[i] * (1.5 - 0.25 * k) + (double)(i % 3);
  }
  check_bytes("if(target: ...)", a, ra, n * sizeof(double));

  int *v = malloc(n * sizeof(int)), *rv = malloc(n * sizeof(int));
  for (int i = 0; i < n; ++i)
    v[i] = rv[i] = i % 1000;
  offset(v, 100, 1000); // 100 elements: on the host
  offset(v, n, 1000);   // all: on the device
  for (int i = 0; i < 100; ++i)
    rv[i] = rv[i] * 2 - i;
  for (int i = 0; i < n; ++i)
    rv[i] = rv[i] * 2 - i;
  check_bytes("if(n > threshold)", v, rv, n * sizeof(int));
  free(a);
  free(ra);
  free(v);
  free(rv);
  return done();
}
// STATS: hetero-stats total

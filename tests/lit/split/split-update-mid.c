#pragma STDC FP_CONTRACT OFF
// target update in the middle of a target data region: a split kernel
// writes a; "target update from" brings all of a to the host (gathering the
// chunks of every member); the host changes a section of its copy and sends
// it back with "target update to(a[lo:len])"; a second kernel reads it; a
// device-only (alloc) array is fetched with a partial "update from(b[lo:len])"
// in the middle of the region and again at the end. Every host-visible value
// is hashed. Compared bit for bit with serial host loops.
// RUN: %clang-hetero %s -o %t
// RUN: env HETERO_STATS=1 HETERO_CHUNKS=4 %compare-fallback %t 2>%t.cpu | %FileCheck %s
// RUN: %FileCheck %s --check-prefix=STATS < %t.cpu
// RUN: env HETERO_STATS=1 HETERO_SIMULATE=3 %compare-fallback %t 2>%t.sim | %FileCheck %s
// RUN: %FileCheck %s --check-prefix=STATS < %t.sim
// CHECK: after kernel 1: sum=314999850000
// CHECK: b section fetched mid-region: hash=475e3611c64f861d ok
// CHECK: a at exit: hash=916411e12cfd02b1 ok
// CHECK: b fetched at the end: hash=0b50e71c33943725 ok
// CHECK: done failures=0
#include <stdlib.h>

#include "Inputs/split.h"

#define N 300000

int main(void) {
  const int n = N, lo = 12345, len = 100000;
  long *a = malloc(n * sizeof(long)), *b = malloc(n * sizeof(long));
  long *ra = malloc(n * sizeof(long)), *rb = malloc(n * sizeof(long));
  long *mid = malloc(len * sizeof(long)), *rmid = malloc(len * sizeof(long));
  for (int i = 0; i < n; ++i) {
    a[i] = ra[i] = i;
    b[i] = rb[i] = -1;
  }

#pragma omp target data map(tofrom : a[0 : n]) map(alloc : b[0 : n])
  {
// STATS-DAG: hetero-stats kernel={{.*}}_l[[@LINE+1]] launches=1 split=yes
#pragma omp target teams distribute parallel for
    for (int i = 0; i < n; ++i)
      a[i] = a[i] * 7 + 3;
#pragma omp target update from(a[0 : n])
    long s1 = 0;
    for (int i = 0; i < n; ++i)
      s1 += a[i];
    printf("after kernel 1: sum=%ld\n", s1);
    for (int i = lo; i < lo + len; ++i)
      a[i] = -a[i];
#pragma omp target update to(a[lo : len])
// STATS-DAG: hetero-stats kernel={{.*}}_l[[@LINE+1]] launches=1 split=yes
#pragma omp target teams distribute parallel for
    for (int i = 0; i < n; ++i)
      b[i] = a[i] + a[n - 1 - i];
#pragma omp target update from(b[lo : len])
    for (int i = 0; i < len; ++i)
      mid[i] = b[lo + i];
// STATS-DAG: hetero-stats kernel={{.*}}_l[[@LINE+1]] launches=1 split=yes
#pragma omp target teams distribute parallel for
    for (int i = 0; i < n; ++i) {
      a[i] = b[i] / 2;
      b[i] = b[i] % 1000;
    }
#pragma omp target update from(b[0 : n])
  }
  for (int i = 0; i < n; ++i)
    ra[i] = ra[i] * 7 + 3;
  for (int i = lo; i < lo + len; ++i)
    ra[i] = -ra[i];
  for (int i = 0; i < n; ++i)
    rb[i] = ra[i] + ra[n - 1 - i];
  for (int i = 0; i < len; ++i)
    rmid[i] = rb[lo + i];
  for (int i = 0; i < n; ++i) {
    ra[i] = rb[i] / 2;
    rb[i] = rb[i] % 1000;
  }
  check_bytes("b section fetched mid-region", mid, rmid, len * sizeof(long));
  check_bytes("a at exit", a, ra, n * sizeof(long));
  check_bytes("b fetched at the end", b, rb, n * sizeof(long));
  free(a);
  free(b);
  free(ra);
  free(rb);
  free(mid);
  free(rmid);
  return done();
}
// STATS: hetero-stats total

#pragma STDC FP_CONTRACT OFF
// Array sections that do not start at 0: map(tofrom : a[lo:len]) of a larger
// host array with the kernel indexing a[i] for i in lo .. lo + len - 1 (the
// rest of the host array must stay untouched), reading sections of two other
// arrays at different offsets (b[lo:len] and e[lo2:len2]); a pointer into
// the middle of an array (src = base + off) mapped as src[0:m], read at
// src[i - 1] by a reversed loop; sections of two arrays mapped by a target
// data region and present on the kernels, each kernel writing one section
// and reading the other. Compared bit for bit with serial host loops.
// RUN: %clang-hetero %s -o %t
// RUN: env HETERO_STATS=1 HETERO_CHUNKS=4 %compare-fallback %t 2>%t.cpu | %FileCheck %s
// RUN: %FileCheck %s --check-prefix=STATS < %t.cpu
// RUN: env HETERO_STATS=1 HETERO_SIMULATE=3 %compare-fallback %t 2>%t.sim | %FileCheck %s
// RUN: %FileCheck %s --check-prefix=STATS < %t.sim
// CHECK: section a[lo:len]: hash=a43121e7bc13d1ee ok
// CHECK: pointers into the middle: hash=e27b3ebb37824ea4 ok
// CHECK: section of c: hash=e0ddb3352d544cf9 ok
// CHECK: section of w: hash=1f24c3f91afbb353 ok
// CHECK: done failures=0
#include <stdlib.h>

#include "Inputs/split.h"

#define N 400000

int main(void) {
  const int n = N;
  double *a = malloc(n * sizeof(double)), *ra = malloc(n * sizeof(double));
  int *b = malloc(n * sizeof(int)), *e = malloc(n * sizeof(int));
  for (int i = 0; i < n; ++i) {
    a[i] = ra[i] = (double)(i % 333) * 0.5;
    b[i] = (i * 7) % 1001;
    e[i] = (i * 13) % 999;
  }
  const int lo = 12347, len = 250001;
  const int lo2 = 300000, len2 = 50000;
// STATS-DAG: hetero-stats kernel={{.*}}_l[[@LINE+1]] launches=1 split=yes
#pragma omp target teams distribute parallel for map(tofrom : a[lo : len])     \
    map(to : b[lo : len], e[lo2 : len2])
  for (int i = lo; i < lo + len; ++i)
    a[i] = a[i] * 2.0 + (double)b[i] - (double)e[lo2 + (i - lo) % len2];
  for (int i = lo; i < lo + len; ++i)
    ra[i] = ra[i] * 2.0 + (double)b[i] - (double)e[lo2 + (i - lo) % len2];
  check_bytes("section a[lo:len]", a, ra, n * sizeof(double));

  const int off = 1000, m = 200000;
  double *d = malloc(n * sizeof(double)), *rd = malloc(n * sizeof(double));
  for (int i = 0; i < n; ++i)
    d[i] = rd[i] = -1.0;
  const double *src = a + off;
  double *dst = d + off;
// STATS-DAG: hetero-stats kernel={{.*}}_l[[@LINE+1]] launches=1 split=yes
#pragma omp target teams distribute parallel for map(to : src[0 : m])          \
    map(tofrom : dst[0 : m])
  for (int i = m - 1; i >= 1; --i)
    dst[i] = src[i] - src[i - 1] * 0.5 * (double)(i % 3);
  for (int i = m - 1; i >= 1; --i)
    rd[off + i] = ra[off + i] - ra[off + i - 1] * 0.5 * (double)(i % 3);
  check_bytes("pointers into the middle", d, rd, n * sizeof(double));

  // Sections of two arrays mapped by a data region, present on the kernels.
  long *c = malloc(n * sizeof(long)), *rc = malloc(n * sizeof(long));
  long *w = malloc(n * sizeof(long)), *rw = malloc(n * sizeof(long));
  for (int i = 0; i < n; ++i) {
    c[i] = rc[i] = i;
    w[i] = rw[i] = 7L * i;
  }
  const int s1 = 5000, l1 = 100000, s2 = 200000, l2 = 150000;
#pragma omp target data map(tofrom : c[s1 : l1], w[s2 : l2])
  {
// STATS-DAG: hetero-stats kernel={{.*}}_l[[@LINE+1]] launches=1 split=yes
#pragma omp target teams distribute parallel for map(tofrom : c[s1 : l1],      \
                                                         w[s2 : l2])
    for (int i = s1; i < s1 + l1; ++i)
      c[i] = c[i] * 3 - w[s2 + (i - s1)];
// STATS-DAG: hetero-stats kernel={{.*}}_l[[@LINE+1]] launches=1 split=yes
#pragma omp target teams distribute parallel for map(tofrom : c[s1 : l1],      \
                                                         w[s2 : l2])
    for (int i = s2; i < s2 + l2; ++i)
      w[i] = w[i] + (i < s2 + l1 ? c[s1 + (i - s2)] : -1);
  }
  for (int i = s1; i < s1 + l1; ++i)
    rc[i] = rc[i] * 3 - rw[s2 + (i - s1)];
  for (int i = s2; i < s2 + l2; ++i)
    rw[i] = rw[i] + (i < s2 + l1 ? rc[s1 + (i - s2)] : -1);
  check_bytes("section of c", c, rc, n * sizeof(long));
  check_bytes("section of w", w, rw, n * sizeof(long));
  free(a);
  free(ra);
  free(b);
  free(e);
  free(w);
  free(rw);
  free(d);
  free(rd);
  free(c);
  free(rc);
  return done();
}
// STATS: hetero-stats total

#pragma STDC FP_CONTRACT OFF
// A struct with pointer members mapped by value, its pointees mapped as
// sections of the members (map(to : g) map(tofrom : g.u[0:g.n]) ...): the
// kernels find the arrays through the pointers stored in the mapped struct
// (g.u[i], g.f[i]) and read scalar members (g.n, g.h2). A relaxation
// sweep u' = (u[i-1] + u[i+1] + h2 f[i]) / 2 into g.w, then a copy back, 5
// rounds inside a target data region (the loop bounds are read from the
// struct: g.n); then a kernel writing through two structs at once, with a
// plain scalar bound. Compared bit for bit with serial host loops.
// RUN: %clang-hetero %s -o %t
// RUN: env HETERO_STATS=1 HETERO_CHUNKS=4 %compare-fallback %t 2>%t.cpu | %FileCheck %s
// RUN: %FileCheck %s --check-prefix=STATS < %t.cpu
// RUN: env HETERO_STATS=1 HETERO_SIMULATE=3 %compare-fallback %t 2>%t.sim | %FileCheck %s
// RUN: %FileCheck %s --check-prefix=STATS < %t.sim
// CHECK: relaxation: hash=2b62abccba503d2a ok
// CHECK: host pointer member kept: ok
// CHECK: p.b: hash=37ed1721a4d8cbc1 ok
// CHECK: q.a: hash=2aa48ce94b87ff25 ok
// CHECK: done failures=0
#include <stdlib.h>

#include "Inputs/split.h"

struct grid {
  int n;
  double h2;
  double *u, *f, *w;
};

struct pair {
  long *a;
  long *b;
  int len;
};

int main(void) {
  struct grid g;
  g.n = 250000;
  g.h2 = 1.0 / 64.0;
  g.u = malloc(g.n * sizeof(double));
  g.f = malloc(g.n * sizeof(double));
  g.w = malloc(g.n * sizeof(double));
  double *ru = malloc(g.n * sizeof(double)), *rw = malloc(g.n * sizeof(double));
  double *keep_u = g.u;
  for (int i = 0; i < g.n; ++i) {
    g.u[i] = ru[i] = (double)(i % 100) / 10.0;
    g.f[i] = (double)((i * 7) % 23) - 11.0;
    g.w[i] = rw[i] = 0.0;
  }

#pragma omp target data map(to : g) map(tofrom : g.u[0 : g.n])                 \
    map(to : g.f[0 : g.n]) map(alloc : g.w[0 : g.n])
  for (int r = 0; r < 5; ++r) {
// STATS-DAG: hetero-stats kernel={{.*}}_l[[@LINE+1]] launches=5 split=yes
#pragma omp target teams distribute parallel for
    for (int i = 1; i < g.n - 1; ++i)
      g.w[i] = (g.u[i - 1] + g.u[i + 1] + g.h2 * g.f[i]) * 0.5;
// STATS-DAG: hetero-stats kernel={{.*}}_l[[@LINE+1]] launches=5 split=yes
#pragma omp target teams distribute parallel for
    for (int i = 1; i < g.n - 1; ++i)
      g.u[i] = g.w[i];
  }
  for (int r = 0; r < 5; ++r) {
    for (int i = 1; i < g.n - 1; ++i)
      rw[i] = (ru[i - 1] + ru[i + 1] + g.h2 * g.f[i]) * 0.5;
    for (int i = 1; i < g.n - 1; ++i)
      ru[i] = rw[i];
  }
  check_bytes("relaxation", g.u, ru, g.n * sizeof(double));
  check("host pointer member kept", g.u == keep_u);

  struct pair p, q;
  const int len = 200000; // a plain scalar bound this time
  p.len = q.len = len;
  p.a = malloc(p.len * sizeof(long));
  p.b = malloc(p.len * sizeof(long));
  q.a = malloc(q.len * sizeof(long));
  q.b = malloc(q.len * sizeof(long));
  long *ra = malloc(p.len * sizeof(long)), *rb = malloc(p.len * sizeof(long));
  for (int i = 0; i < p.len; ++i) {
    p.a[i] = i;
    p.b[i] = rb[i] = 0;
    q.a[i] = ra[i] = 3L * i + 1;
    q.b[i] = (long)i * i;
  }
// STATS-DAG: hetero-stats kernel={{.*}}_l[[@LINE+1]] launches=1 split=yes
#pragma omp target teams distribute parallel for map(to : p, q)                \
    map(to : p.a[0 : p.len], q.b[0 : q.len])                                   \
    map(tofrom : p.b[0 : p.len], q.a[0 : q.len])
  for (int i = 0; i < len; ++i) {
    p.b[i] = p.a[i] * 2 + q.b[i] % 1000;
    q.a[i] = q.a[i] - p.a[len - 1 - i];
  }
  for (int i = 0; i < p.len; ++i) {
    rb[i] = p.a[i] * 2 + q.b[i] % 1000;
    ra[i] = ra[i] - p.a[p.len - 1 - i];
  }
  check_bytes("p.b", p.b, rb, p.len * sizeof(long));
  check_bytes("q.a", q.a, ra, q.len * sizeof(long));
  free(g.u);
  free(g.f);
  free(g.w);
  free(ru);
  free(rw);
  free(p.a);
  free(p.b);
  free(q.a);
  free(q.b);
  free(ra);
  free(rb);
  return done();
}
// STATS: hetero-stats total

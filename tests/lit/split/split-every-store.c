#pragma STDC FP_CONTRACT OFF
// A store at the top of the loop body, which nothing in it leaves early,
// writes its element in every iteration (`every` in the descriptor): where a
// chunk's stores tile a range, its member holds that range without receiving
// it first. Every other store keeps its old bytes where it does not write,
// so they must arrive: a store under a condition on the data, one after a
// `continue`, one in a helper, and a column of a row-major 2-D array (a
// tiling store over part of its columns is strided: not tiled). Each kernel
// rewrites part of an array the host filled, split over three simulated
// accelerators with uneven shares, and is compared bit for bit with the
// host's loops.
// RUN: %clang-hetero %s -o %t
// RUN: %if compiler %{ env HETERO_DESC_DEBUG=1 %clang-hetero -c %s -o %t.o 2>%t.desc %}
// RUN: %if compiler %{ %FileCheck %s --check-prefix=DESC < %t.desc %}
// RUN: env HETERO_STATS=1 HETERO_SIMULATE=3 %compare-fallback %t 2>%t.sim | %FileCheck %s
// RUN: env HETERO_STATS=1 HETERO_SIMULATE=3 HETERO_CHUNKS=3 HETERO_MEMBERS=sim:0=3,sim:1=1,sim:2=5,cpu=2 %compare-fallback %t 2>%t.uneven | %FileCheck %s
// RUN: %FileCheck %s --check-prefix=STATS < %t.uneven
// CHECK: every: hash={{[0-9a-f]+}} ok
// CHECK: data condition: hash={{[0-9a-f]+}} ok
// CHECK: after continue: hash={{[0-9a-f]+}} ok
// CHECK: in a helper: hash={{[0-9a-f]+}} ok
// CHECK: one column: hash={{[0-9a-f]+}} ok
// CHECK: read where not taken: hash={{[0-9a-f]+}} ok
// CHECK: read and written: hash={{[0-9a-f]+}} ok
// CHECK: done failures=0
// DESC: write 8 (arg {{[0-9]+}}) (+ 0 (* (c 0) 8)) every src {{.*}}split-every-store.c:{{[0-9]+}} b
// DESC: write 8 (arg {{[0-9]+}}) (+ 0 (* (c 0) 8)) src {{.*}}split-every-store.c:{{[0-9]+}} c
// DESC: write 8 (arg {{[0-9]+}}) (+ 0 (* (c 0) 8)) src {{.*}}split-every-store.c:{{[0-9]+}} c
// DESC: write 8 (arg {{[0-9]+}}) (+ 0 (* (c 0) 8)) src {{.*}}split-every-store.c:{{[0-9]+}} p
// DESC: write 8 (arg {{[0-9]+}}) (+ 0 (* (+ (* (c 0) 300) 2) 8)) every src {{.*}}split-every-store.c:{{[0-9]+}} g
#include <stdlib.h>

#include "Inputs/split.h"

#define N 100000
#define R 1000
#define M 300

static inline void set(double *p, int i, double v) { p[i] = v; }

int main(void) {
  const int n = N;
  double *a = malloc(n * sizeof(double)), *b = malloc(n * sizeof(double));
  double *c = malloc(n * sizeof(double)), *r = malloc(n * sizeof(double));
  double *g = malloc(R * M * sizeof(double)),
         *h = malloc(R * M * sizeof(double));
  for (int i = 0; i < n; ++i) {
    a[i] = (double)(i % 977) * 0.25 - 7.0;
    b[i] = c[i] = r[i] = (double)i;
  }
  for (int i = 0; i < R * M; ++i)
    g[i] = h[i] = (double)(i % 131);

#pragma omp target data map(to : a[0 : n]) map(tofrom : b[0 : n], c[0 : n])    \
    map(tofrom : g[0 : R * M])
  {
// STATS-DAG: hetero-stats kernel={{.*}}_l[[@LINE+1]] launches=1 split=yes
#pragma omp target teams distribute parallel for
    for (int i = 0; i < n; ++i)
      b[i] = a[i] * 2.0;
#pragma omp target update from(b[0 : n])
    for (int i = 0; i < n; ++i)
      r[i] = a[i] * 2.0;
    check_bytes("every", b, r, n * sizeof(double));

// STATS-DAG: hetero-stats kernel={{.*}}_l[[@LINE+1]] launches=1 split=yes
#pragma omp target teams distribute parallel for
    for (int i = 0; i < n; ++i)
      if (a[i] > 0.5)
        c[i] = -a[i];
#pragma omp target update from(c[0 : n])
    for (int i = 0; i < n; ++i) {
      r[i] = (double)i;
      if (a[i] > 0.5)
        r[i] = -a[i];
    }
    check_bytes("data condition", c, r, n * sizeof(double));

// STATS-DAG: hetero-stats kernel={{.*}}_l[[@LINE+1]] launches=1 split=yes
#pragma omp target teams distribute parallel for
    for (int i = 0; i < n; ++i) {
      if (a[i] < -3.0)
        continue;
      c[i] = a[i] + 1.0;
    }
#pragma omp target update from(c[0 : n])
    for (int i = 0; i < n; ++i) {
      if (a[i] < -3.0)
        continue;
      r[i] = a[i] + 1.0;
    }
    check_bytes("after continue", c, r, n * sizeof(double));

// STATS-DAG: hetero-stats kernel={{.*}}_l[[@LINE+1]] launches=1 split=yes
#pragma omp target teams distribute parallel for
    for (int i = 0; i < n; ++i)
      if (i % 3 == 0)
        set(c, i, 0.5);
#pragma omp target update from(c[0 : n])
    for (int i = 0; i < n; ++i)
      if (i % 3 == 0)
        r[i] = 0.5;
    check_bytes("in a helper", c, r, n * sizeof(double));

// STATS-DAG: hetero-stats kernel={{.*}}_l[[@LINE+1]] launches=1 split=yes
#pragma omp target teams distribute parallel for
    for (int i = 0; i < R; ++i)
      g[i * M + 2] = (double)i;
#pragma omp target update from(g[0 : R * M])
    for (int i = 0; i < R; ++i)
      h[i * M + 2] = (double)i;
    check_bytes("one column", g, h, R * M * sizeof(double));

// A read the data never takes still reaches the next chunk's first
// element of b: no chunk leaves that element to be written without it.
// STATS-DAG: hetero-stats kernel={{.*}}_l[[@LINE+1]] launches=1 split=yes
#pragma omp target teams distribute parallel for
    for (int i = 0; i < n; ++i) {
      b[i] = a[i] * 3.0;
      if (a[i] > 1e30 && i > 0)
        c[i] = b[i - 1];
    }
#pragma omp target update from(b[0 : n])
    for (int i = 0; i < n; ++i)
      r[i] = a[i] * 3.0;
    check_bytes("read where not taken", b, r, n * sizeof(double));

// STATS-DAG: hetero-stats kernel={{.*}}_l[[@LINE+1]] launches=1 split=yes
#pragma omp target teams distribute parallel for
    for (int i = 0; i < n; ++i)
      b[i] += 1.0;
#pragma omp target update from(b[0 : n])
    for (int i = 0; i < n; ++i)
      r[i] = a[i] * 3.0 + 1.0;
    check_bytes("read and written", b, r, n * sizeof(double));
  }
  free(a);
  free(b);
  free(c);
  free(r);
  free(g);
  free(h);
  return done();
}

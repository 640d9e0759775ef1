#pragma STDC FP_CONTRACT OFF
// Asynchronous kernels, all in flight before one taskwait inside a target
// data region: four independent nowait kernels on four different arrays,
// and a dependent chain of nowait kernels ordered by depend(out/in) clauses
// (e -> f -> g, each reading what the previous one wrote, neighbours
// included). Split launches that run at the same time must not mix up their
// chunks. Compared bit for bit with serial host loops, not with the host
// fallback: LLVM 19's libomp (with its debug assertions) aborts now and then
// in the fallback of this program ("kmp_tasking.cpp(4368): task_team !=
// __null", 1 run in 40 on an H200 node; 80 of 80 hetero runs were fine), and
// sometimes in __kmp_give_task when a second batch of target nowait tasks
// follows a taskwait, hence one batch only, from the initial thread.
// RUN: %clang-hetero %s -o %t
// RUN: env HETERO_STATS=1 HETERO_CHUNKS=4 %run-hetero %t 2>%t.cpu | %FileCheck %s
// RUN: %FileCheck %s --check-prefix=STATS < %t.cpu
// RUN: env HETERO_STATS=1 HETERO_SIMULATE=3 %run-hetero %t 2>%t.sim | %FileCheck %s
// RUN: %FileCheck %s --check-prefix=STATS < %t.sim
// CHECK: independent a: hash=8c52e04a316f4865 ok
// CHECK: independent b: hash=a49686a145d7f5c5 ok
// CHECK: independent c: hash=1b6f991c78883785 ok
// CHECK: independent d: hash=838c9b97faa21bb5 ok
// CHECK: chain e: hash=74b804cea038b565 ok
// CHECK: chain f: hash=33c2ecd506f55725 ok
// CHECK: chain g: hash=c0340636c46c0d95 ok
// CHECK: done failures=0
#include <stdlib.h>

#include "Inputs/split.h"

#define N 200000

int main(void) {
  const int n = N;
  double *a = malloc(n * sizeof(double)), *b = malloc(n * sizeof(double));
  double *c = malloc(n * sizeof(double)), *d = malloc(n * sizeof(double));
  double *e = malloc(n * sizeof(double)), *f = malloc(n * sizeof(double));
  double *g = malloc(n * sizeof(double));
  double *ra = malloc(n * sizeof(double)), *rb = malloc(n * sizeof(double));
  double *rc = malloc(n * sizeof(double)), *rd = malloc(n * sizeof(double));
  double *re = malloc(n * sizeof(double)), *rf = malloc(n * sizeof(double));
  double *rg = malloc(n * sizeof(double));
  for (int i = 0; i < n; ++i) {
    a[i] = ra[i] = (double)(i % 10);
    b[i] = rb[i] = (double)(i % 20) * 0.5;
    c[i] = rc[i] = (double)(i % 30) * 0.25;
    d[i] = rd[i] = (double)(i % 40) * 0.125;
    e[i] = re[i] = f[i] = rf[i] = g[i] = rg[i] = -1.0;
  }

#pragma omp target data map(tofrom : a[0 : n], b[0 : n], c[0 : n], d[0 : n],   \
                                e[0 : n], f[0 : n], g[0 : n])
  {
// STATS-DAG: hetero-stats kernel={{.*}}_l[[@LINE+1]] launches=1 split=yes
#pragma omp target teams distribute parallel for nowait
    for (int i = 0; i < n; ++i)
      a[i] = a[i] * 1.5 + 1.0;
// STATS-DAG: hetero-stats kernel={{.*}}_l[[@LINE+1]] launches=1 split=yes
#pragma omp target teams distribute parallel for nowait
    for (int i = 1; i < n - 1; ++i)
      b[i] = b[i] - 0.25 * (double)i;
// STATS-DAG: hetero-stats kernel={{.*}}_l[[@LINE+1]] launches=1 split=yes
#pragma omp target teams distribute parallel for nowait
    for (int i = 0; i < n; i += 2)
      c[i] = c[i + 1] + c[i];
// STATS-DAG: hetero-stats kernel={{.*}}_l[[@LINE+1]] launches=1 split=yes
#pragma omp target teams distribute parallel for nowait
    for (int i = n - 1; i >= 0; --i)
      d[i] = d[i] * d[i];
// STATS-DAG: hetero-stats kernel={{.*}}_l[[@LINE+1]] launches=1 split=yes
#pragma omp target teams distribute parallel for nowait depend(out : e[0 : n])
    for (int i = 0; i < n; ++i)
      e[i] = (double)(i % 1000) * 0.5;
// STATS-DAG: hetero-stats kernel={{.*}}_l[[@LINE+1]] launches=1 split=yes
#pragma omp target teams distribute parallel for nowait depend(in : e[0 : n])  \
    depend(out : f[0 : n])
    for (int i = 0; i < n; ++i)
      f[i] = e[n - 1 - i] + e[i];
// STATS-DAG: hetero-stats kernel={{.*}}_l[[@LINE+1]] launches=1 split=yes
#pragma omp target teams distribute parallel for nowait depend(in : f[0 : n])  \
    depend(out : g[0 : n])
    for (int i = 0; i < n; ++i)
      g[i] = f[i] * 2.0 - (i > 0 ? f[i - 1] : 0.0);
#pragma omp taskwait
  }
  for (int i = 0; i < n; ++i)
    ra[i] = ra[i] * 1.5 + 1.0;
  for (int i = 1; i < n - 1; ++i)
    rb[i] = rb[i] - 0.25 * (double)i;
  for (int i = 0; i < n; i += 2)
    rc[i] = rc[i + 1] + rc[i];
  for (int i = n - 1; i >= 0; --i)
    rd[i] = rd[i] * rd[i];
  for (int i = 0; i < n; ++i)
    re[i] = (double)(i % 1000) * 0.5;
  for (int i = 0; i < n; ++i)
    rf[i] = re[n - 1 - i] + re[i];
  for (int i = 0; i < n; ++i)
    rg[i] = rf[i] * 2.0 - (i > 0 ? rf[i - 1] : 0.0);
  check_bytes("independent a", a, ra, n * sizeof(double));
  check_bytes("independent b", b, rb, n * sizeof(double));
  check_bytes("independent c", c, rc, n * sizeof(double));
  check_bytes("independent d", d, rd, n * sizeof(double));
  check_bytes("chain e", e, re, n * sizeof(double));
  check_bytes("chain f", f, rf, n * sizeof(double));
  check_bytes("chain g", g, rg, n * sizeof(double));
  free(a);
  free(b);
  free(c);
  free(d);
  free(e);
  free(f);
  free(g);
  free(ra);
  free(rb);
  free(rc);
  free(rd);
  free(re);
  free(rf);
  free(rg);
  return done();
}
// STATS: hetero-stats total

#pragma STDC FP_CONTRACT OFF
// "target teams loop": (1) a 1-D saxpy; (2) collapse(2) over a 2-D stencil
// (5 points); (3) a loop with a sum reduction; (4) a chain of two teams
// loop kernels in a target data region, 3 rounds. Compared bit for bit with
// serial host loops.
// RUN: %clang-hetero %s -o %t
// RUN: env HETERO_STATS=1 HETERO_CHUNKS=4 %compare-fallback %t 2>%t.cpu | %FileCheck %s
// RUN: %FileCheck %s --check-prefix=STATS < %t.cpu
// RUN: env HETERO_STATS=1 HETERO_SIMULATE=3 %compare-fallback %t 2>%t.sim | %FileCheck %s
// RUN: %FileCheck %s --check-prefix=STATS < %t.sim
// CHECK: saxpy: hash=4d06b20d1f248926 ok
// CHECK: stencil: hash=d9d63c0e07720cc5 ok
// CHECK: count=45619
// CHECK: reduction: ok
// CHECK: chain: hash=2b61f91eefdcf825 ok
// CHECK: done failures=0
#include <stdlib.h>

#include "Inputs/split.h"

int main(void) {
  const int n = 400000;
  float *x = malloc(n * sizeof(float)), *y = malloc(n * sizeof(float));
  float *ry = malloc(n * sizeof(float));
  for (int i = 0; i < n; ++i) {
    x[i] = (float)(i % 100) * 0.01f;
    y[i] = ry[i] = (float)(i % 7);
  }
  const float alpha = 2.5f;
// STATS-DAG: hetero-stats kernel={{.*}}_l[[@LINE+1]] launches=1 split=yes
#pragma omp target teams loop map(to : x[0 : n]) map(tofrom : y[0 : n])
  for (int i = 0; i < n; ++i)
    y[i] = alpha * x[i] + y[i];
  for (int i = 0; i < n; ++i)
    ry[i] = alpha * x[i] + ry[i];
  check_bytes("saxpy", y, ry, n * sizeof(float));

  const int w = 400, h = 300;
  double *u = malloc(w * h * sizeof(double)),
         *v = malloc(w * h * sizeof(double));
  double *rv = malloc(w * h * sizeof(double));
  for (int i = 0; i < w * h; ++i) {
    u[i] = (double)((i * 7) % 91) / 9.0;
    v[i] = rv[i] = 0.0;
  }
// STATS-DAG: hetero-stats kernel={{.*}}_l[[@LINE+1]] launches=1 split=yes
#pragma omp target teams loop collapse(2) map(to : u[0 : w * h])               \
    map(tofrom : v[0 : w * h])
  for (int y2 = 1; y2 < h - 1; ++y2)
    for (int x2 = 1; x2 < w - 1; ++x2)
      v[y2 * w + x2] = u[y2 * w + x2] * 4.0 - u[(y2 - 1) * w + x2] -
                       u[(y2 + 1) * w + x2] - u[y2 * w + x2 - 1] -
                       u[y2 * w + x2 + 1];
  for (int y2 = 1; y2 < h - 1; ++y2)
    for (int x2 = 1; x2 < w - 1; ++x2)
      rv[y2 * w + x2] = u[y2 * w + x2] * 4.0 - u[(y2 - 1) * w + x2] -
                        u[(y2 + 1) * w + x2] - u[y2 * w + x2 - 1] -
                        u[y2 * w + x2 + 1];
  check_bytes("stencil", v, rv, w * h * sizeof(double));

  long count = 0, rcount = 0;
// STATS-DAG: hetero-stats kernel={{.*}}_l[[@LINE+1]] launches=1 split=yes
#pragma omp target teams loop map(to : v[0 : w * h]) reduction(+ : count)
  for (int i = 0; i < w * h; ++i)
    count += v[i] > 0.0 ? 2 : (v[i] < 0.0 ? -1 : 0);
  for (int i = 0; i < w * h; ++i)
    rcount += rv[i] > 0.0 ? 2 : (rv[i] < 0.0 ? -1 : 0);
  printf("count=%ld\n", count);
  check("reduction", count == rcount);

  int *p = malloc(n * sizeof(int)), *q = malloc(n * sizeof(int));
  int *rp = malloc(n * sizeof(int)), *rq = malloc(n * sizeof(int));
  for (int i = 0; i < n; ++i) {
    p[i] = rp[i] = i % 1000;
    q[i] = rq[i] = 0;
  }
#pragma omp target data map(tofrom : p[0 : n]) map(alloc : q[0 : n])
  for (int r = 0; r < 3; ++r) {
// STATS-DAG: hetero-stats kernel={{.*}}_l[[@LINE+1]] launches=3 split=yes
#pragma omp target teams loop
    for (int i = 0; i < n; ++i)
      q[i] = p[i] + p[(i + 1) % n];
// STATS-DAG: hetero-stats kernel={{.*}}_l[[@LINE+1]] launches=3 split=yes
#pragma omp target teams loop
    for (int i = 0; i < n; ++i)
      p[i] = q[i] % 10007;
  }
  for (int r = 0; r < 3; ++r) {
    for (int i = 0; i < n; ++i)
      rq[i] = rp[i] + rp[(i + 1) % n];
    for (int i = 0; i < n; ++i)
      rp[i] = rq[i] % 10007;
  }
  check_bytes("chain", p, rp, n * sizeof(int));
  free(x);
  free(y);
  free(ry);
  free(u);
  free(v);
  free(rv);
  free(p);
  free(q);
  free(rp);
  free(rq);
  return done();
}
// STATS: hetero-stats total

#pragma STDC FP_CONTRACT OFF
// 1-D 5-point stencils with two-element halos: (1) a float smoothing filter
// (-1 4 10 4 -1)/16 on 2..n-3, 8 sweeps ping-ponging inside a target data
// region; (2) a double fourth-order first derivative
// (u[i-2] - 8u[i-1] + 8u[i+1] - u[i+2]) / 12 (division by a constant) of the
// result, one launch; (3) an int 5-point stencil, 3 launches alternating
// between two buffers. Compared bit for bit with serial host loops.
// RUN: %clang-hetero %s -o %t
// RUN: env HETERO_STATS=1 HETERO_CHUNKS=4 %compare-fallback %t 2>%t.cpu | %FileCheck %s
// RUN: %FileCheck %s --check-prefix=STATS < %t.cpu
// RUN: env HETERO_STATS=1 HETERO_SIMULATE=3 %compare-fallback %t 2>%t.sim | %FileCheck %s
// RUN: %FileCheck %s --check-prefix=STATS < %t.sim
// CHECK: float smoother f: hash=da60486923c9bef2 ok
// CHECK: float smoother g: hash=378fcdeab852d573 ok
// CHECK: derivative: hash=b56b2e8d6b0aed07 ok
// CHECK: int stencil p: hash=fbc076c9679dc1ac ok
// CHECK: int stencil q: hash=7eeda9c8e5ef3986 ok
// CHECK: done failures=0
#include <stdlib.h>

#include "Inputs/split.h"

#define N 150001
#define STEPS 8

int main(void) {
  const int n = N;
  float *f = malloc(n * sizeof(float)), *g = malloc(n * sizeof(float));
  float *rf = malloc(n * sizeof(float)), *rg = malloc(n * sizeof(float));
  double *d = malloc(n * sizeof(double)), *rd = malloc(n * sizeof(double));
  for (int i = 0; i < n; ++i) {
    f[i] = g[i] = rf[i] = rg[i] = (float)((i * 37) % 211) * 0.125f - 3.0f;
    d[i] = rd[i] = 0.0;
  }

#pragma omp target data map(tofrom : f[0 : n], g[0 : n]) map(from : d[0 : n])
  {
    float *src = f, *dst = g;
    for (int s = 0; s < STEPS; ++s) {
// STATS-DAG: hetero-stats kernel={{.*}}_l[[@LINE+1]] launches=8 split=yes
#pragma omp target teams distribute parallel for
      for (int i = 2; i < n - 2; ++i)
        dst[i] = (-src[i - 2] + 4.0f * src[i - 1] + 10.0f * src[i] +
                  4.0f * src[i + 1] - src[i + 2]) *
                 0.0625f;
      float *t = src;
      src = dst;
      dst = t;
    }
    // src is f again (even number of sweeps).
// STATS-DAG: hetero-stats kernel={{.*}}_l[[@LINE+1]] launches=1 split=yes
#pragma omp target teams distribute parallel for
    for (int i = 2; i < n - 2; ++i)
      d[i] = ((double)f[i - 2] - 8.0 * f[i - 1] + 8.0 * f[i + 1] -
              (double)f[i + 2]) /
             12.0;
  }
  {
    float *src = rf, *dst = rg;
    for (int s = 0; s < STEPS; ++s) {
      for (int i = 2; i < n - 2; ++i)
        dst[i] = (-src[i - 2] + 4.0f * src[i - 1] + 10.0f * src[i] +
                  4.0f * src[i + 1] - src[i + 2]) *
                 0.0625f;
      float *t = src;
      src = dst;
      dst = t;
    }
    for (int i = 2; i < n - 2; ++i)
      rd[i] = ((double)rf[i - 2] - 8.0 * rf[i - 1] + 8.0 * rf[i + 1] -
               (double)rf[i + 2]) /
              12.0;
  }
  check_bytes("float smoother f", f, rf, n * sizeof(float));
  check_bytes("float smoother g", g, rg, n * sizeof(float));
  check_bytes("derivative", d, rd, n * sizeof(double));

  // int stencil, three launches alternating between two buffers.
  int *p = malloc(n * sizeof(int)), *q = malloc(n * sizeof(int));
  int *rp = malloc(n * sizeof(int)), *rq = malloc(n * sizeof(int));
  for (int i = 0; i < n; ++i) {
    p[i] = rp[i] = (i * 131) % 1000 - 500;
    q[i] = rq[i] = -1;
  }
#pragma omp target data map(tofrom : p[0 : n], q[0 : n])
  for (int s = 0; s < 3; ++s) {
    int *src = s % 2 ? q : p, *dst = s % 2 ? p : q;
// STATS-DAG: hetero-stats kernel={{.*}}_l[[@LINE+1]] launches=3 split=yes
#pragma omp target teams distribute parallel for
    for (int i = 2; i < n - 2; ++i)
      dst[i] =
          (src[i - 2] + src[i - 1] - 4 * src[i] + src[i + 1] + src[i + 2]) / 3;
  }
  for (int s = 0; s < 3; ++s) {
    int *src = s % 2 ? rq : rp, *dst = s % 2 ? rp : rq;
    for (int i = 2; i < n - 2; ++i)
      dst[i] =
          (src[i - 2] + src[i - 1] - 4 * src[i] + src[i + 1] + src[i + 2]) / 3;
  }
  check_bytes("int stencil p", p, rp, n * sizeof(int));
  check_bytes("int stencil q", q, rq, n * sizeof(int));
  free(f);
  free(g);
  free(rf);
  free(rg);
  free(d);
  free(rd);
  free(p);
  free(q);
  free(rp);
  free(rq);
  return done();
}
// STATS: hetero-stats total

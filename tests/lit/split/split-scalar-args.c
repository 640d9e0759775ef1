#pragma STDC FP_CONTRACT OFF
// Kernels whose bounds, offsets and coefficients are scalar arguments that
// change from launch to launch: an axpy with a new alpha each time (8
// launches of one kernel), a shifted copy dst[i] = src[i + off] with off and
// the trip count changing per launch, a scalar read by reference from a
// mapped variable (map(to : scale)) and a firstprivate struct of
// coefficients. The sections a split launch touches depend on the
// arguments of that launch. Compared bit for bit with serial host loops.
// RUN: %clang-hetero %s -o %t
// RUN: env HETERO_STATS=1 HETERO_CHUNKS=4 %compare-fallback %t 2>%t.cpu | %FileCheck %s
// RUN: %FileCheck %s --check-prefix=STATS < %t.cpu
// RUN: env HETERO_STATS=1 HETERO_SIMULATE=3 %compare-fallback %t 2>%t.sim | %FileCheck %s
// RUN: %FileCheck %s --check-prefix=STATS < %t.sim
// CHECK: axpy with changing alpha: hash=bcb264c3ada2d40b ok
// CHECK: shifted copies: hash=4015407f9f2bc2e1 ok
// CHECK: scalar by reference and struct: hash=b454b2d5e69bde5b ok
// CHECK: done failures=0
#include <stdlib.h>

#include "Inputs/split.h"

#define N 200000

struct coef {
  double a, b, c;
};

int main(void) {
  const int n = N;
  double *x = malloc(n * sizeof(double)), *y = malloc(n * sizeof(double));
  double *ry = malloc(n * sizeof(double));
  for (int i = 0; i < n; ++i) {
    x[i] = (double)(i % 211) / 16.0;
    y[i] = ry[i] = (double)(i % 17);
  }
#pragma omp target data map(to : x[0 : n]) map(tofrom : y[0 : n])
  for (int k = 0; k < 8; ++k) {
    double alpha = 0.5 * k - 1.25;
// STATS-DAG: hetero-stats kernel={{.*}}_l[[@LINE+1]] launches=8 split=yes
#pragma omp target teams distribute parallel for firstprivate(alpha)
    for (int i = 0; i < n; ++i)
      y[i] = alpha * x[i] + y[i];
  }
  for (int k = 0; k < 8; ++k) {
    double alpha = 0.5 * k - 1.25;
    for (int i = 0; i < n; ++i)
      ry[i] = alpha * x[i] + ry[i];
  }
  check_bytes("axpy with changing alpha", y, ry, n * sizeof(double));

  int *src = malloc(n * sizeof(int)), *dst = malloc(n * sizeof(int));
  int *rdst = malloc(n * sizeof(int));
  for (int i = 0; i < n; ++i) {
    src[i] = i * 3;
    dst[i] = rdst[i] = -1;
  }
#pragma omp target data map(to : src[0 : n]) map(tofrom : dst[0 : n])
  for (int k = 0; k < 5; ++k) {
    const int off = 1000 * k + 7, base = 20000 * k, end = n - 30000 * k - off;
// STATS-DAG: hetero-stats kernel={{.*}}_l[[@LINE+1]] launches=5 split=yes
#pragma omp target teams distribute parallel for
    for (int i = base; i < end; ++i)
      dst[i] = src[i + off] - k;
  }
  for (int k = 0; k < 5; ++k) {
    const int off = 1000 * k + 7, base = 20000 * k, end = n - 30000 * k - off;
    for (int i = base; i < end; ++i)
      rdst[i] = src[i + off] - k;
  }
  check_bytes("shifted copies", dst, rdst, n * sizeof(int));

  double scale = 0.375;
  struct coef cf = {1.5, -0.25, 0.125};
  double *z = malloc(n * sizeof(double)), *rz = malloc(n * sizeof(double));
// STATS-DAG: hetero-stats kernel={{.*}}_l[[@LINE+1]] launches=1 split=yes
#pragma omp target teams distribute parallel for map(                          \
        to : scale, x[0 : n], y[0 : n]) map(from : z[0 : n]) firstprivate(cf)
  for (int i = 1; i < n - 1; ++i)
    z[i] = scale * (cf.a * x[i] + cf.b * y[i - 1] + cf.c * y[i + 1]);
  for (int i = 1; i < n - 1; ++i)
    rz[i] = scale * (cf.a * x[i] + cf.b * ry[i - 1] + cf.c * ry[i + 1]);
  z[0] = rz[0] = z[n - 1] = rz[n - 1] = 0.0;
  check_bytes("scalar by reference and struct", z, rz, n * sizeof(double));
  free(x);
  free(y);
  free(ry);
  free(src);
  free(dst);
  free(rdst);
  free(z);
  free(rz);
  return done();
}
// STATS: hetero-stats total

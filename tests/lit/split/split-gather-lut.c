#pragma STDC FP_CONTRACT OFF
// Indirect reads only (gathers), which a split launch may still run in
// pieces since the writes are affine: a 256-entry lookup table applied to a
// byte stream, out[i] = lut[in[i]]; a two-level gather a[b[c[i]]]; a
// nearest-neighbour resampling with computed (non-affine) source indices
// src[(i * 7) / 3]; and an interpolation reading two table entries chosen
// by data. Compared bit for bit with serial host loops.
// RUN: %clang-hetero %s -o %t
// RUN: env HETERO_STATS=1 HETERO_CHUNKS=4 %compare-fallback %t 2>%t.cpu | %FileCheck %s
// RUN: %FileCheck %s --check-prefix=STATS < %t.cpu
// RUN: env HETERO_STATS=1 HETERO_SIMULATE=3 %compare-fallback %t 2>%t.sim | %FileCheck %s
// RUN: %FileCheck %s --check-prefix=STATS < %t.sim
// CHECK: lookup table: hash=a4702c805ab0af19 ok
// CHECK: two-level gather: hash=adb8a0bc090ebc38 ok
// CHECK: resampling and interpolation: hash=8aad8baebbb5d93b ok
// CHECK: done failures=0
#include <stdlib.h>

#include "Inputs/split.h"

#define N 500000
#define M 4096

int main(void) {
  const int n = N, m = M;
  unsigned char *in = malloc(n);
  int *lut = malloc(256 * sizeof(int)), *out = malloc(n * sizeof(int));
  int *rout = malloc(n * sizeof(int));
  for (int i = 0; i < n; ++i)
    in[i] = (unsigned char)((i * 131) ^ (i >> 5));
  for (int k = 0; k < 256; ++k)
    lut[k] = k * k - 1000;
// STATS-DAG: hetero-stats kernel={{.*}}_l[[@LINE+1]] launches=1 split=yes
#pragma omp target teams distribute parallel for map(                          \
        to : in[0 : n], lut[0 : 256]) map(from : out[0 : n])
  for (int i = 0; i < n; ++i)
    out[i] = lut[in[i]];
  for (int i = 0; i < n; ++i)
    rout[i] = lut[in[i]];
  check_bytes("lookup table", out, rout, n * sizeof(int));

  int *c = malloc(n * sizeof(int)), *b = malloc(m * sizeof(int));
  double *a = malloc(m * sizeof(double)), *g = malloc(n * sizeof(double));
  double *rg = malloc(n * sizeof(double));
  for (int i = 0; i < n; ++i)
    c[i] = (int)(((unsigned)i * 2654435761u) % (unsigned)m);
  for (int k = 0; k < m; ++k) {
    b[k] = (k * 577) % m;
    a[k] = (double)k / 64.0;
  }
// STATS-DAG: hetero-stats kernel={{.*}}_l[[@LINE+1]] launches=1 split=yes
#pragma omp target teams distribute parallel for map(                          \
        to : a[0 : m], b[0 : m], c[0 : n]) map(from : g[0 : n])
  for (int i = 0; i < n; ++i)
    g[i] = a[b[c[i]]] - a[c[i]];
  for (int i = 0; i < n; ++i)
    rg[i] = a[b[c[i]]] - a[c[i]];
  check_bytes("two-level gather", g, rg, n * sizeof(double));

  const int outn = 3 * n / 7;
  double *src = malloc(n * sizeof(double)),
         *res = malloc(outn * sizeof(double));
  double *rres = malloc(outn * sizeof(double));
  for (int i = 0; i < n; ++i)
    src[i] = (double)(i % 997) * 0.75;
// STATS-DAG: hetero-stats kernel={{.*}}_l[[@LINE+1]] launches=1 split=yes
#pragma omp target teams distribute parallel for map(                          \
        to : src[0 : n], a[0 : m]) map(from : res[0 : outn])
  for (int i = 0; i < outn; ++i) {
    int j = (i * 7) / 3;
    int t = (int)src[j] % (m - 1);
    double f = src[j] - (double)(int)src[j];
    res[i] = src[j] + a[t] * (1.0 - f) + a[t + 1] * f;
  }
  for (int i = 0; i < outn; ++i) {
    int j = (i * 7) / 3;
    int t = (int)src[j] % (m - 1);
    double f = src[j] - (double)(int)src[j];
    rres[i] = src[j] + a[t] * (1.0 - f) + a[t + 1] * f;
  }
  check_bytes("resampling and interpolation", res, rres, outn * sizeof(double));
  free(in);
  free(lut);
  free(out);
  free(rout);
  free(c);
  free(b);
  free(a);
  free(g);
  free(rg);
  free(src);
  free(res);
  free(rres);
  return done();
}
// STATS: hetero-stats total

#pragma STDC FP_CONTRACT OFF
// Loops with step 2: (1) even elements only (i += 2), the odd ones must
// keep their values; (2) odd elements only (i = 1; i < n; i += 2) of the same
// array, launched after (1) in the same target data region; (3) interleaved
// complex numbers (re, im pairs): z[k] = z[k] * w[k] over k += 2, each
// iteration writing two elements; (4) step 2 with an inclusive bound
// (i <= n - 2). Compared bit for bit with serial host loops.
// RUN: %clang-hetero %s -o %t
// RUN: env HETERO_STATS=1 HETERO_CHUNKS=4 %compare-fallback %t 2>%t.cpu | %FileCheck %s
// RUN: %FileCheck %s --check-prefix=STATS < %t.cpu
// RUN: env HETERO_STATS=1 HETERO_SIMULATE=3 %compare-fallback %t 2>%t.sim | %FileCheck %s
// RUN: %FileCheck %s --check-prefix=STATS < %t.sim
// CHECK: even then odd: hash=420e71ed760c336d ok
// CHECK: complex pairs: hash=b135bf503a5d132d ok
// CHECK: inclusive bound: hash=e0b591de1d450765 ok
// CHECK: done failures=0
#include <stdlib.h>

#include "Inputs/split.h"

#define N 300001

int main(void) {
  const int n = N;
  long *a = malloc(n * sizeof(long)), *ra = malloc(n * sizeof(long));
  double *z = malloc(2 * n * sizeof(double)),
         *rz = malloc(2 * n * sizeof(double));
  double *w = malloc(2 * n * sizeof(double));
  float *f = malloc(n * sizeof(float)), *rf = malloc(n * sizeof(float));
  for (int i = 0; i < n; ++i) {
    a[i] = ra[i] = 1000000L * (i % 7) - i;
    f[i] = rf[i] = (float)(i % 1000) * 0.5f;
  }
  for (int i = 0; i < 2 * n; ++i) {
    z[i] = rz[i] = (double)((i * 13) % 61) / 16.0 - 1.5;
    w[i] = (double)((i * 7) % 31) / 8.0 - 2.0;
  }

#pragma omp target data map(tofrom : a[0 : n])
  {
// STATS-DAG: hetero-stats kernel={{.*}}_l[[@LINE+1]] launches=1 split=yes
#pragma omp target teams distribute parallel for
    for (int i = 0; i < n; i += 2)
      a[i] = a[i] * 3 + i;
// STATS-DAG: hetero-stats kernel={{.*}}_l[[@LINE+1]] launches=1 split=yes
#pragma omp target teams distribute parallel for
    for (int i = 1; i < n; i += 2)
      a[i] = a[i - 1] - a[i];
  }
  for (int i = 0; i < n; i += 2)
    ra[i] = ra[i] * 3 + i;
  for (int i = 1; i < n; i += 2)
    ra[i] = ra[i - 1] - ra[i];
  check_bytes("even then odd", a, ra, n * sizeof(long));

  const int m = 2 * n;
// STATS-DAG: hetero-stats kernel={{.*}}_l[[@LINE+1]] launches=1 split=yes
#pragma omp target teams distribute parallel for map(tofrom : z[0 : m])        \
    map(to : w[0 : m])
  for (int k = 0; k < m; k += 2) {
    double re = z[k] * w[k] - z[k + 1] * w[k + 1];
    double im = z[k] * w[k + 1] + z[k + 1] * w[k];
    z[k] = re;
    z[k + 1] = im;
  }
  for (int k = 0; k < m; k += 2) {
    double re = rz[k] * w[k] - rz[k + 1] * w[k + 1];
    double im = rz[k] * w[k + 1] + rz[k + 1] * w[k];
    rz[k] = re;
    rz[k + 1] = im;
  }
  check_bytes("complex pairs", z, rz, m * sizeof(double));

// STATS-DAG: hetero-stats kernel={{.*}}_l[[@LINE+1]] launches=1 split=yes
#pragma omp target teams distribute parallel for map(tofrom : f[0 : n])
  for (int i = 0; i <= n - 2; i += 2)
    f[i + 1] = f[i] * 1.5f - f[i + 1];
  for (int i = 0; i <= n - 2; i += 2)
    rf[i + 1] = rf[i] * 1.5f - rf[i + 1];
  check_bytes("inclusive bound", f, rf, n * sizeof(float));
  free(a);
  free(ra);
  free(z);
  free(rz);
  free(w);
  free(f);
  free(rf);
  return done();
}
// STATS: hetero-stats total

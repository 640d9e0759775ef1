// Coherence moves only halos: a 2-D Jacobi (collapse(2), both grids resident
// in a target data region) split over two simulated accelerators. Between a
// run of 10 and one of 30 sweeps, the 20 extra sweeps must move one interior
// row each way per sweep between the accelerators (at most 1.1x that) and
// nothing to or from the host. Answers match the host fallback. Shares are
// fixed: measured ones could settle differently in the two runs.
// RUN: %clang-hetero %s -o %t
// RUN: env HETERO_STATS=1 HETERO_SIMULATE=2 HETERO_MEMBERS=sim:0,sim:1 HETERO_SHARES=fixed %compare-fallback %t 10 2>%t.10 | %FileCheck %s --check-prefix=TEN
// RUN: env HETERO_STATS=1 HETERO_SIMULATE=2 HETERO_MEMBERS=sim:0,sim:1 HETERO_SHARES=fixed %compare-fallback %t 30 2>%t.30 | %FileCheck %s --check-prefix=THIRTY
// RUN: %FileCheck %s --check-prefix=STATS < %t.30
// RUN: python3 %S/Inputs/halo-bytes.py %t.10 %t.30 20 8160 | %FileCheck %s --check-prefix=HALO
// TEN: sweeps=10 checksum=
// THIRTY: sweeps=30 checksum=
// HALO: ratio 1.000
// HALO: halo: ok
#include <stdio.h>
#include <stdlib.h>

#define N 512

int main(int argc, char **argv) {
  const int n = N, sweeps = argc > 1 ? atoi(argv[1]) : 10;
  double *a = malloc(sizeof(double) * n * n),
         *b = malloc(sizeof(double) * n * n);
  for (int i = 0; i < n; ++i)
    for (int j = 0; j < n; ++j)
      a[i * n + j] = b[i * n + j] =
          i == 0 ? 1.0 : (double)((i * 7 + j) % 5) / 8;
#pragma omp target data map(tofrom : a[0 : n * n], b[0 : n * n])
  for (int s = 0; s < sweeps; ++s) {
    double *src = s % 2 ? b : a, *dst = s % 2 ? a : b;
// STATS: hetero-stats kernel={{.*}}_l[[@LINE+1]] launches=30 split=yes split_launches=30 members=sim:0:{{[0-9]+}}:{{.*}},sim:1:
#pragma omp target teams distribute parallel for collapse(2)
    for (int i = 1; i < n - 1; ++i)
      for (int j = 1; j < n - 1; ++j)
        dst[i * n + j] = 0.25 * (src[(i - 1) * n + j] + src[(i + 1) * n + j] +
                                 src[i * n + j - 1] + src[i * n + j + 1]);
  }
  double sum = 0;
  const double *last = sweeps % 2 ? b : a;
  for (int k = 0; k < n * n; ++k)
    sum += last[k] * (double)(k % 7 + 1);
  printf("sweeps=%d checksum=%.17g\n", sweeps, sum);
  free(a);
  free(b);
  return 0;
}

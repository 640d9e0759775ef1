// Arrays larger than any member: three simulated accelerators of 24 MiB
// each run a 1-D three-point stencil over two arrays of 32 MiB (issue 39's
// case). Each member holds only the granules its chunks touch (about a
// third of each array, 21 MiB in all), so the kernels split over the three
// of them; before, a member had to hold whole buffers and everything ran on
// the host. The arrays are larger than a quarter of the home member, so
// map-time writes spread them over the three in equal blocks, where the
// chunks need them: the kernels then move only their halos (a few bytes),
// nothing from the host. Results match the host fallback bit for bit.
// RUN: %clang-hetero %s -o %t
// RUN: env HETERO_STATS=1 HETERO_SIMULATE=3 HETERO_SIMULATE_MEMORY=24M HETERO_MEMBERS=sim:0,sim:1,sim:2 %compare-fallback %t 2>%t.err | %FileCheck %s
// RUN: %FileCheck %s --check-prefix=STATS < %t.err
// CHECK: stencil: hash={{[0-9a-f]+}} ok
// CHECK: done failures=0
// STATS-NOT: no room
// Each member held less than its 24 MiB (25165824 bytes): at most 2 x 11.2
// MB and its halo granules.
// STATS-DAG: hetero-stats memory node=sim:0 peak_bytes={{(1[0-9]|2[0-4])[0-9][0-9][0-9][0-9][0-9][0-9]}} held_bytes=0
// STATS-DAG: hetero-stats memory node=sim:2 peak_bytes={{(1[0-9]|2[0-4])[0-9][0-9][0-9][0-9][0-9][0-9]}} held_bytes=0
#include <stdlib.h>

#include "Inputs/split.h"

int main(void) {
  const long n = 4L << 20; // 32 MiB of doubles
  double *a = malloc(n * sizeof(double)), *b = malloc(n * sizeof(double));
  double *ra = malloc(n * sizeof(double)), *rb = malloc(n * sizeof(double));
  for (long i = 0; i < n; ++i)
    a[i] = ra[i] = (double)(i % 1000) / 7.0;
  b[0] = rb[0] = a[0];
  b[n - 1] = rb[n - 1] = a[n - 1];
#pragma omp target data map(tofrom : a[0 : n]) map(to : b[0 : n])
  for (int sweep = 0; sweep < 3; ++sweep) {
// STATS-DAG: hetero-stats kernel={{.*}}_l[[@LINE+1]] launches=3 split=yes split_launches=3 members=sim:0:{{[0-9]+}}:{{[^,]+}},sim:1:{{[0-9]+}}:{{[^,]+}},sim:2:{{[0-9]+}}:{{[^ ]+}} bytes_h2d=0 bytes_d2d={{[0-9]?[0-9]?[0-9]}} bytes_d2h=0
#pragma omp target teams distribute parallel for
    for (long i = 1; i < n - 1; ++i)
      b[i] = (a[i - 1] + a[i] + a[i + 1]) / 3.0;
// STATS-DAG: hetero-stats kernel={{.*}}_l[[@LINE+1]] launches=3 split=yes split_launches=3 members=sim:0:{{[0-9]+}}:{{[^,]+}},sim:1:{{[0-9]+}}:{{[^,]+}},sim:2:{{[0-9]+}}:{{[^ ]+}} bytes_h2d=0 bytes_d2d={{[0-9]?[0-9]?[0-9]}} bytes_d2h=0
#pragma omp target teams distribute parallel for
    for (long i = 1; i < n - 1; ++i)
      a[i] = (b[i - 1] + b[i] + b[i + 1]) / 3.0;
  }
  for (int sweep = 0; sweep < 3; ++sweep) {
    for (long i = 1; i < n - 1; ++i)
      rb[i] = (ra[i - 1] + ra[i] + ra[i + 1]) / 3.0;
    for (long i = 1; i < n - 1; ++i)
      ra[i] = (rb[i - 1] + rb[i] + rb[i + 1]) / 3.0;
  }
  check_bytes("stencil", a, ra, n * sizeof(double));
  return done();
}

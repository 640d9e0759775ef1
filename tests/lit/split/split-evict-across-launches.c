// More data than the members hold, though each launch's fits: three arrays
// of 1 MiB on two simulated accelerators of 1.2 MiB, each of which holds
// its half of two arrays at a time. Kernels that read one array and write
// the next cycle through the three, so each launch evicts the array the
// member used least recently: bytes only it held go to the host first
// (issue 39's eviction). Every launch splits over both; results match the
// host fallback bit for bit; HETERO_STATS counts what was evicted.
// RUN: %clang-hetero %s -o %t
// RUN: env HETERO_STATS=1 HETERO_SIMULATE=2 HETERO_SIMULATE_MEMORY=1258291 HETERO_MEMBERS=sim:0,sim:1 %compare-fallback %t 2>%t.err | %FileCheck %s
// RUN: %FileCheck %s --check-prefix=STATS < %t.err
// CHECK: cycle: hash={{[0-9a-f]+}} ok
// CHECK: done failures=0
// STATS-NOT: no room
// STATS: hetero-stats kernel={{.*}}step{{.*}} launches=12 split=yes split_launches=12 members=sim:0:{{.*}},sim:1:
// STATS-DAG: hetero-stats memory node=sim:0 peak_bytes={{[0-9]+}} held_bytes=0 evicted_bytes={{[1-9][0-9]+}}
// STATS-DAG: hetero-stats memory node=sim:1 peak_bytes={{[0-9]+}} held_bytes=0 evicted_bytes={{[1-9][0-9]+}}
#include <stdlib.h>

#include "Inputs/split.h"

#define N (1L << 17) // 1 MiB of doubles

static void step(double *out, const double *in, double f) {
#pragma omp target teams distribute parallel for map(to : in[0 : N])        \
    map(tofrom : out[0 : N])
  for (long i = 0; i < N; ++i)
    out[i] = in[i] * f + out[i];
}

int main(void) {
  double *x = malloc(N * sizeof(double)), *y = malloc(N * sizeof(double)),
         *z = malloc(N * sizeof(double)), *r[3];
  for (int k = 0; k < 3; ++k)
    r[k] = malloc(N * sizeof(double));
  for (long i = 0; i < N; ++i) {
    x[i] = r[0][i] = (double)(i % 977) / 3.0;
    y[i] = r[1][i] = (double)(i % 541) / 7.0;
    z[i] = r[2][i] = (double)(i % 313) / 11.0;
  }
#pragma omp target data map(tofrom : x[0 : N], y[0 : N], z[0 : N])
  for (int round = 0; round < 4; ++round) {
    step(y, x, 0.5);
    step(z, y, 0.25);
    step(x, z, 0.125);
  }
  for (int round = 0; round < 4; ++round) {
    for (long i = 0; i < N; ++i)
      r[1][i] = r[0][i] * 0.5 + r[1][i];
    for (long i = 0; i < N; ++i)
      r[2][i] = r[1][i] * 0.25 + r[2][i];
    for (long i = 0; i < N; ++i)
      r[0][i] = r[2][i] * 0.125 + r[0][i];
  }
  uint64_t h = hash_bytes(x, N * sizeof(double)) ^
               hash_bytes(y, N * sizeof(double)) ^
               hash_bytes(z, N * sizeof(double));
  uint64_t want = hash_bytes(r[0], N * sizeof(double)) ^
                  hash_bytes(r[1], N * sizeof(double)) ^
                  hash_bytes(r[2], N * sizeof(double));
  printf("cycle: hash=%016llx %s\n", (unsigned long long)h,
         h == want ? "ok" : "MISMATCH");
  check("cycle", h == want);
  return done();
}

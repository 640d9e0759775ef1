// Out of memory on some members of a split launch: with 2 simulated
// accelerators of 32 KiB each, a kernel over 8 MiB arrays cannot place
// chunks on them (a simulated accelerator holds the part of each array its
// chunk touches: even beside eight GPUs, its share of the two arrays is
// over 64 KiB). They are left out (one warning each) and the CPU pool
// takes every iteration with the GPUs, if any; a kernel over a 32 KiB array
// splits over all. Results match the host fallback.
// RUN: %clang-hetero %s -o %t
// RUN: env HETERO_STATS=1 HETERO_CHUNKS=4 HETERO_SIMULATE=2 HETERO_SIMULATE_MEMORY=32K %compare-fallback %t 2>%t.err | %FileCheck %s
// RUN: %FileCheck %s --check-prefix=STATS < %t.err
// CHECK: big: hash={{[0-9a-f]+}} ok
// CHECK: small: hash={{[0-9a-f]+}} ok
// CHECK: done failures=0
// STATS: warning: kernel {{.*}}: sim:0 has no room for its chunks' data; the other members take its iterations
// STATS: warning: kernel {{.*}}: sim:1 has no room for its chunks' data; the other members take its iterations
#include <stdlib.h>

#include "Inputs/split.h"

int main(void) {
  const int n = 1 << 20, m = 4096;
  double *a = malloc(n * sizeof(double)), *b = malloc(n * sizeof(double));
  double *ra = malloc(n * sizeof(double));
  for (int i = 0; i < n; ++i)
    a[i] = ra[i] = (double)(i % 1000) / 3.0;
// STATS-DAG: hetero-stats kernel={{.*}}_l[[@LINE+1]] launches=1 split=yes split_launches=1 members={{(cuda:[0-9.]+:[0-9]+:[^,]+,)*}}cpu:{{[0-9]+}}:{{[^,]*}} bytes
#pragma omp target teams distribute parallel for map(to : a[0 : n])            \
    map(from : b[0 : n])
  for (int i = 0; i < n; ++i)
    b[i] = a[i] * 2.0 + 1.0;
  for (int i = 0; i < n; ++i)
    ra[i] = ra[i] * 2.0 + 1.0;
  check_bytes("big", b, ra, n * sizeof(double));

// STATS-DAG: hetero-stats kernel={{.*}}_l[[@LINE+1]] launches=1 split=yes split_launches=1 members={{(cuda:[0-9.]+:[0-9]+:[^,]+,)*}}sim:0:{{[0-9]+}}:{{[^,]+}},sim:1:{{[0-9]+}}:{{[^,]+}},cpu:
#pragma omp target teams distribute parallel for map(tofrom : a[0 : m])
  for (int i = 0; i < m; ++i)
    a[i] = a[i] - 0.5;
  for (int i = 0; i < m; ++i)
    ra[i] = (double)(i % 1000) / 3.0 - 0.5;
  check_bytes("small", a, ra, m * sizeof(double));
  return done();
}

#pragma STDC FP_CONTRACT OFF
// A target data region mixing kernels that may be split with kernels that
// must run whole, passing data between them on the device: a split
// initialisation, an atomic histogram (unsplit), a split kernel reading the
// histogram and the data, a scatter through a permutation (unsplit), a
// lastprivate kernel (unsplit), a split reduction, 2 rounds; only the final
// arrays come back. Compared bit for bit with serial host loops.
// RUN: %clang-hetero %s -o %t
// RUN: env HETERO_STATS=1 HETERO_CHUNKS=4 %compare-fallback %t 2>%t.cpu | %FileCheck %s
// RUN: %FileCheck %s --check-prefix=STATS < %t.cpu
// RUN: env HETERO_STATS=1 HETERO_SIMULATE=3 %compare-fallback %t 2>%t.sim | %FileCheck %s
// RUN: %FileCheck %s --check-prefix=STATS < %t.sim
// CHECK: last: 46999 -241271 totals: -337912 -12653
// CHECK: lastprivate and reductions: ok
// CHECK: a: hash=297b4807cdf59dd5 ok
// CHECK: done failures=0
#include <stdlib.h>

#include "Inputs/split.h"

#define N 131072
#define BINS 64

int main(void) {
  const int n = N;
  int *perm = malloc(n * sizeof(int));
  long *a = malloc(n * sizeof(long)), *b = malloc(n * sizeof(long));
  long *ra = malloc(n * sizeof(long)), *rb = malloc(n * sizeof(long));
  int hist[BINS], rhist[BINS];
  for (int i = 0; i < n; ++i)
    perm[i] = (int)(((unsigned)i * 769u + 5u) & (unsigned)(n - 1));
  long lastv[2], rlastv[2], tot[2], rtot[2];

#pragma omp target data map(to : perm[0 : n]) map(alloc : hist)                \
    map(from : a[0 : n]) map(alloc : b[0 : n])
  for (int r = 0; r < 2; ++r) {
// STATS-DAG: hetero-stats kernel={{.*}}_l[[@LINE+1]] launches=2 split=yes
#pragma omp target teams distribute parallel for
    for (int i = 0; i < n; ++i)
      a[i] = ((long)i * 2654435761L) % (100003 + 2 * r);
// STATS-DAG: hetero-stats kernel={{.*}}_l[[@LINE+1]] launches=2 split=yes
#pragma omp target teams distribute parallel for
    for (int k = 0; k < BINS; ++k)
      hist[k] = 0;
// STATS-DAG: hetero-stats kernel={{.*}}_l[[@LINE+1]] launches=2 split=no(
#pragma omp target teams distribute parallel for
    for (int i = 0; i < n; ++i) {
#pragma omp atomic
      hist[a[i] % BINS] += 1;
    }
// STATS-DAG: hetero-stats kernel={{.*}}_l[[@LINE+1]] launches=2 split=yes
#pragma omp target teams distribute parallel for
    for (int i = 0; i < n; ++i)
      b[i] = a[i] * 4 + hist[a[i] % BINS];
// STATS-DAG: hetero-stats kernel={{.*}}_l[[@LINE+1]] launches=2 split=no(
#pragma omp target teams distribute parallel for
    for (int i = 0; i < n; ++i)
      a[perm[i]] = b[i] - i;
    long lv = -1;
// STATS-DAG: hetero-stats kernel={{.*}}_l[[@LINE+1]] launches=2 split=no(
#pragma omp target teams distribute parallel for lastprivate(lv)               \
    map(tofrom : lv)
    for (int i = 0; i < n; ++i) {
      b[i] = a[i] - a[n - 1 - i];
      lv = b[i];
    }
    long t = 0;
// STATS-DAG: hetero-stats kernel={{.*}}_l[[@LINE+1]] launches=2 split=yes
#pragma omp target teams distribute parallel for reduction(+ : t)
    for (int i = 0; i < n; ++i)
      t += (b[i] % 1000) * (i % 3);
    lastv[r] = lv;
    tot[r] = t;
  }
  for (int r = 0; r < 2; ++r) {
    for (int i = 0; i < n; ++i)
      ra[i] = ((long)i * 2654435761L) % (100003 + 2 * r);
    for (int k = 0; k < BINS; ++k)
      rhist[k] = 0;
    for (int i = 0; i < n; ++i)
      rhist[ra[i] % BINS] += 1;
    for (int i = 0; i < n; ++i)
      rb[i] = ra[i] * 4 + rhist[ra[i] % BINS];
    for (int i = 0; i < n; ++i)
      ra[perm[i]] = rb[i] - i;
    long lv = -1;
    for (int i = 0; i < n; ++i) {
      rb[i] = ra[i] - ra[n - 1 - i];
      lv = rb[i];
    }
    long t = 0;
    for (int i = 0; i < n; ++i)
      t += (rb[i] % 1000) * (i % 3);
    rlastv[r] = lv;
    rtot[r] = t;
  }
  printf("last: %ld %ld totals: %ld %ld\n", lastv[0], lastv[1], tot[0], tot[1]);
  check("lastprivate and reductions",
        lastv[0] == rlastv[0] && lastv[1] == rlastv[1] && tot[0] == rtot[0] &&
            tot[1] == rtot[1]);
  check_bytes("a", a, ra, n * sizeof(long));
  free(perm);
  free(a);
  free(b);
  free(ra);
  free(rb);
  return done();
}
// STATS: hetero-stats total

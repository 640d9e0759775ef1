#pragma STDC FP_CONTRACT OFF
// Histograms with #pragma omp atomic (updates of shared bins: must run
// unsplit): 256 bins of the low byte of a hash of 10^6 values (int), and a
// weighted histogram with double weights that are small integers (the bin
// sums are exact in any order). Then a split kernel normalises the bins
// into a cumulative table. Compared with serial host loops.
// RUN: %clang-hetero %s -o %t
// RUN: env HETERO_STATS=1 HETERO_CHUNKS=4 %compare-fallback %t 2>%t.cpu | %FileCheck %s
// RUN: %FileCheck %s --check-prefix=STATS < %t.cpu
// RUN: env HETERO_STATS=1 HETERO_SIMULATE=3 %compare-fallback %t 2>%t.sim | %FileCheck %s
// RUN: %FileCheck %s --check-prefix=STATS < %t.sim
// CHECK: hist[0]=3905 hist[255]=3907 whist[0]=54671.0 whist[63]=54692.0
// CHECK: histogram: hash=5145786d31344be9 ok
// CHECK: weighted histogram: hash=8dbdd28274df40dc ok
// CHECK: cumulative: hash=2a2b680178f95382 ok
// CHECK: done failures=0
#include <stdlib.h>

#include "Inputs/split.h"

#define N 1000000
#define BINS 256

int main(void) {
  const int n = N;
  unsigned *v = malloc(n * sizeof(unsigned));
  for (int i = 0; i < n; ++i)
    v[i] = ((unsigned)i * 2654435761u) ^ ((unsigned)i >> 3);
  int hist[BINS], rhist[BINS];
  double whist[64], rwhist[64];
  long cum[BINS], rcum[BINS];
  for (int b = 0; b < BINS; ++b)
    hist[b] = rhist[b] = 0;
  for (int b = 0; b < 64; ++b)
    whist[b] = rwhist[b] = 0.0;

#pragma omp target data map(to : v[0 : n]) map(tofrom : hist, whist)           \
    map(from : cum)
  {
// STATS-DAG: hetero-stats kernel={{.*}}_l[[@LINE+1]] launches=1 split=no(
#pragma omp target teams distribute parallel for
    for (int i = 0; i < n; ++i) {
      int b = (int)((v[i] >> 8) & (BINS - 1));
#pragma omp atomic
      hist[b] += 1;
    }
// STATS-DAG: hetero-stats kernel={{.*}}_l[[@LINE+1]] launches=1 split=no(
#pragma omp target teams distribute parallel for
    for (int i = 0; i < n; ++i) {
      int b = (int)(v[i] >> 26);
      double wgt = (double)(v[i] & 7u); // 0..7: sums of small integers
#pragma omp atomic update
      whist[b] += wgt;
    }
// STATS-DAG: hetero-stats kernel={{.*}}_l[[@LINE+1]] launches=1 split=yes
#pragma omp target teams distribute parallel for
    for (int b = 0; b < BINS; ++b) {
      long s = 0;
      for (int c = 0; c <= b; ++c)
        s += hist[c];
      cum[b] = s * 1000 / n;
    }
  }
  for (int i = 0; i < n; ++i) {
    rhist[(v[i] >> 8) & (BINS - 1)] += 1;
    rwhist[v[i] >> 26] += (double)(v[i] & 7u);
  }
  for (int b = 0; b < BINS; ++b) {
    long s = 0;
    for (int c = 0; c <= b; ++c)
      s += rhist[c];
    rcum[b] = s * 1000 / n;
  }
  printf("hist[0]=%d hist[255]=%d whist[0]=%.1f whist[63]=%.1f\n", hist[0],
         hist[255], whist[0], whist[63]);
  check_bytes("histogram", hist, rhist, sizeof hist);
  check_bytes("weighted histogram", whist, rwhist, sizeof whist);
  check_bytes("cumulative", cum, rcum, sizeof cum);
  free(v);
  return done();
}
// STATS: hetero-stats total

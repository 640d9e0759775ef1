#pragma STDC FP_CONTRACT OFF
// A blocked prefix sum (scan) in three phases inside one target data
// region: (1) every block scans its elements sequentially (outer loop over
// blocks distributed, inner loop writing in order) and stores its total;
// (2) the block totals come to the host with "target update from", the host
// computes the block offsets and sends them with "target update to"; (3) a
// collapse(2) kernel over (block, element) adds the offsets. Integer data:
// exact. Compared with a serial host scan.
// RUN: %clang-hetero %s -o %t
// RUN: env HETERO_STATS=1 HETERO_CHUNKS=4 %compare-fallback %t 2>%t.cpu | %FileCheck %s
// RUN: %FileCheck %s --check-prefix=STATS < %t.cpu
// RUN: env HETERO_STATS=1 HETERO_SIMULATE=3 %compare-fallback %t 2>%t.sim | %FileCheck %s
// RUN: %FileCheck %s --check-prefix=STATS < %t.sim
// CHECK: total=-11 middle=-2
// CHECK: scan: hash=4d4b8314c97c8e0c ok
// CHECK: done failures=0
#include <stdlib.h>

#include "Inputs/split.h"

#define NB 1000
#define B 512

int main(void) {
  const int nb = NB, bs = B, n = NB * B;
  int *in = malloc(n * sizeof(int));
  long *out = malloc(n * sizeof(long)), *ref = malloc(n * sizeof(long));
  long *tot = malloc(nb * sizeof(long)), *off = malloc(nb * sizeof(long));
  for (int i = 0; i < n; ++i)
    in[i] = (i * 7) % 19 - 9;

#pragma omp target data map(to : in[0 : n]) map(from : out[0 : n])             \
    map(alloc : tot[0 : nb], off[0 : nb])
  {
// STATS-DAG: hetero-stats kernel={{.*}}_l[[@LINE+1]] launches=1 split=yes
#pragma omp target teams distribute parallel for
    for (int b = 0; b < nb; ++b) {
      long s = 0;
      for (int j = 0; j < bs; ++j) {
        s += in[b * bs + j];
        out[b * bs + j] = s;
      }
      tot[b] = s;
    }
#pragma omp target update from(tot[0 : nb])
    long acc = 0;
    for (int b = 0; b < nb; ++b) {
      off[b] = acc;
      acc += tot[b];
    }
#pragma omp target update to(off[0 : nb])
// STATS-DAG: hetero-stats kernel={{.*}}_l[[@LINE+1]] launches=1 split=yes
#pragma omp target teams distribute parallel for collapse(2)
    for (int b = 0; b < nb; ++b)
      for (int j = 0; j < bs; ++j)
        out[b * bs + j] += off[b];
  }
  long s = 0;
  for (int i = 0; i < n; ++i) {
    s += in[i];
    ref[i] = s;
  }
  printf("total=%ld middle=%ld\n", out[n - 1], out[n / 2]);
  check_bytes("scan", out, ref, n * sizeof(long));
  free(in);
  free(out);
  free(ref);
  free(tot);
  free(off);
  return done();
}
// STATS: hetero-stats total

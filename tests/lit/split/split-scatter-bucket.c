#pragma STDC FP_CONTRACT OFF
// A counting-sort placement: keys are bucketed on the host (offsets), then
// the device moves every record to its slot, out[pos[i]] = in[i], an
// indirect write (must run unsplit); a kernel that writes both an affine
// array and an indirect one (must run unsplit as a whole); then a split
// kernel over the sorted output. Compared bit for bit with serial loops.
// RUN: %clang-hetero %s -o %t
// RUN: env HETERO_STATS=1 HETERO_CHUNKS=4 %compare-fallback %t 2>%t.cpu | %FileCheck %s
// RUN: %FileCheck %s --check-prefix=STATS < %t.cpu
// RUN: env HETERO_STATS=1 HETERO_SIMULATE=3 %compare-fallback %t 2>%t.sim | %FileCheck %s
// RUN: %FileCheck %s --check-prefix=STATS < %t.sim
// CHECK: sorted: hash=34f2278fe04bbdc6 ok
// CHECK: tags: hash=1e9b2dc4c27028e9 ok
// CHECK: marks: hash=3aca614b47832b15 ok
// CHECK: done failures=0
#include <stdlib.h>

#include "Inputs/split.h"

#define N 200000
#define BUCKETS 256

int main(void) {
  const int n = N;
  unsigned *key = malloc(n * sizeof(unsigned));
  int *pos = malloc(n * sizeof(int)), *out = malloc(n * sizeof(int));
  int *rout = malloc(n * sizeof(int));
  int count[BUCKETS] = {0}, start[BUCKETS];
  for (int i = 0; i < n; ++i) {
    key[i] = ((unsigned)i * 2246822519u) >> 13;
    count[key[i] % BUCKETS]++;
  }
  start[0] = 0;
  for (int b = 1; b < BUCKETS; ++b)
    start[b] = start[b - 1] + count[b - 1];
  {
    int next[BUCKETS];
    for (int b = 0; b < BUCKETS; ++b)
      next[b] = start[b];
    for (int i = 0; i < n; ++i)
      pos[i] = next[key[i] % BUCKETS]++;
  }
  int *tag = malloc(n * sizeof(int)), *mark = malloc(2 * n * sizeof(int));
  int *rtag = malloc(n * sizeof(int)), *rmark = malloc(2 * n * sizeof(int));
  for (int i = 0; i < 2 * n; ++i)
    mark[i] = rmark[i] = 0;

#pragma omp target data map(to : key[0 : n], pos[0 : n])                       \
    map(from : out[0 : n], tag[0 : n]) map(tofrom : mark[0 : 2 * n])
  {
// STATS-DAG: hetero-stats kernel={{.*}}_l[[@LINE+1]] launches=1 split=no(
#pragma omp target teams distribute parallel for
    for (int i = 0; i < n; ++i)
      out[pos[i]] = (int)(key[i] >> 4);
// STATS-DAG: hetero-stats kernel={{.*}}_l[[@LINE+1]] launches=1 split=no(
#pragma omp target teams distribute parallel for
    for (int i = 0; i < n; ++i) {
      tag[i] = pos[i] - i;
      mark[2 * pos[i] + (i & 1)] = i + 1;
    }
// STATS-DAG: hetero-stats kernel={{.*}}_l[[@LINE+1]] launches=1 split=yes
#pragma omp target teams distribute parallel for
    for (int i = 0; i < n; ++i)
      out[i] = out[i] * 2 + mark[2 * i] - mark[2 * i + 1];
  }
  for (int i = 0; i < n; ++i)
    rout[pos[i]] = (int)(key[i] >> 4);
  for (int i = 0; i < n; ++i) {
    rtag[i] = pos[i] - i;
    rmark[2 * pos[i] + (i & 1)] = i + 1;
  }
  for (int i = 0; i < n; ++i)
    rout[i] = rout[i] * 2 + rmark[2 * i] - rmark[2 * i + 1];
  check_bytes("sorted", out, rout, n * sizeof(int));
  check_bytes("tags", tag, rtag, n * sizeof(int));
  check_bytes("marks", mark, rmark, 2 * n * sizeof(int));
  free(key);
  free(pos);
  free(out);
  free(rout);
  free(tag);
  free(mark);
  free(rtag);
  free(rmark);
  return done();
}
// STATS: hetero-stats total

#pragma STDC FP_CONTRACT OFF
// rtm8's shape (HeCBench rtm8-omp): every subscript goes through an inline
// index helper whose body is one `return x + y*nx + z*nx*ny;`, writes
// included. The helper stands for its expression with the call's arguments,
// so the writes are affine and the collapse(3) kernel splits; it matches a
// serial host loop bit for bit. A helper of several statements that only
// sets its own locals is executed (HelperCalls.cpp): its kernel splits too.
// One with a loop gives no value: its writes leave the kernel whole, with
// the reason and where it is.
// RUN: %clangxx-hetero %s -o %t
// RUN: env HETERO_STATS=1 HETERO_CHUNKS=4 %compare-fallback %t 2>%t.cpu | %FileCheck %s
// RUN: %FileCheck %s --check-prefix=STATS < %t.cpu
// RUN: env HETERO_STATS=1 HETERO_SIMULATE=3 %compare-fallback %t 2>%t.sim | %FileCheck %s
// RUN: %FileCheck %s --check-prefix=STATS < %t.sim
// CHECK: stencil: hash={{[0-9a-f]+}} ok
// CHECK: two-statement helper: hash={{[0-9a-f]+}} ok
// CHECK: helper with a loop: hash={{[0-9a-f]+}} ok
// CHECK: helper moving its pointer: hash={{[0-9a-f]+}} ok
// CHECK: done failures=0
#include <cstdlib>

#include "Inputs/split.h"

#define NX 40
#define NY 24
#define NZ 30

inline int indexTo1D(int x, int y, int z) { return x + y * NX + z * NX * NY; }

static long twoStatements(int x, int y) {
  long k = x + (long)y * NX;
  return k;
}

// Moves its pointer parameter: not executed (the read after it would be
// taken at the argument's own value).
static long shifted(const int *off, int i) {
  off++;
  return off[i];
}

static long withLoop(int x, int y) {
  long k = x;
  for (int r = 0; r < y; ++r)
    k += NX;
  return k;
}

static void stencil(const float *cur, const float *vsq, float *next, int x,
                    int y, int z) {
  for (int zz = z; zz <= z; ++zz)
    for (int yy = y; yy <= y; ++yy)
      for (int xx = x; xx <= x; ++xx)
        next[indexTo1D(xx, yy, zz)] =
            2 * cur[indexTo1D(x, y, z)] - next[indexTo1D(x, y, z)] +
            vsq[indexTo1D(x, y, z)] *
                (cur[indexTo1D(x + 1, y, z)] + cur[indexTo1D(x - 1, y, z)] +
                 cur[indexTo1D(x, y + 2, z)] + cur[indexTo1D(x, y, z - 3)]);
}

int main() {
  const int n = NX * NY * NZ;
  float *cur = (float *)malloc(n * sizeof(float));
  float *vsq = (float *)malloc(n * sizeof(float));
  float *next = (float *)malloc(n * sizeof(float));
  float *ref = (float *)malloc(n * sizeof(float));
  for (int k = 0; k < n; ++k) {
    cur[k] = (float)(k % 29) / 7.0f;
    vsq[k] = 1.0f + (float)(k % 5) / 16.0f;
    next[k] = ref[k] = (float)(k % 11) / 3.0f;
  }
// STATS-DAG: hetero-stats kernel={{.*}}_l[[@LINE+1]] launches=1 split=yes
#pragma omp target teams distribute parallel for collapse(3)                   \
    map(to : cur[0 : n], vsq[0 : n]) map(tofrom : next[0 : n])
  for (int z = 4; z < NZ - 4; z++)
    for (int y = 4; y < NY - 4; y++)
      for (int x = 4; x < NX - 4; x++)
        stencil(cur, vsq, next, x, y, z);
  for (int z = 4; z < NZ - 4; z++)
    for (int y = 4; y < NY - 4; y++)
      for (int x = 4; x < NX - 4; x++)
        stencil(cur, vsq, ref, x, y, z);
  check_bytes("stencil", next, ref, n * sizeof(float));

// STATS-DAG: hetero-stats kernel={{.*}}_l[[@LINE+1]] launches=1 split=yes
#pragma omp target teams distribute parallel for collapse(2)                   \
    map(tofrom : next[0 : n])
  for (int y = 0; y < NY; y++)
    for (int x = 0; x < NX; x++)
      next[twoStatements(x, y)] += 1.0f;
  for (int y = 0; y < NY; y++)
    for (int x = 0; x < NX; x++)
      ref[twoStatements(x, y)] += 1.0f;
  check_bytes("two-statement helper", next, ref, n * sizeof(float));

// STATS-DAG: hetero-stats kernel={{.*}}_l[[@LINE+1]] launches=1 split=no(non-affine write at split-index-helper.cpp:[[@LINE+5]]:7)
#pragma omp target teams distribute parallel for collapse(2)                   \
    map(tofrom : next[0 : n])
  for (int y = 0; y < NY; y++)
    for (int x = 0; x < NX; x++)
      next[withLoop(x, y)] += 1.0f;
  for (int y = 0; y < NY; y++)
    for (int x = 0; x < NX; x++)
      ref[withLoop(x, y)] += 1.0f;
  check_bytes("helper with a loop", next, ref, n * sizeof(float));

  // A permutation read one past i, through a helper that moves its pointer.
  int *perm = (int *)malloc((n + 1) * sizeof(int));
  for (int k = 0; k <= n; ++k)
    perm[k] = (int)(((long)k * 7919) % n);
// STATS-DAG: hetero-stats kernel={{.*}}_l[[@LINE+1]] launches=1 split=no(
#pragma omp target teams distribute parallel for map(to : perm[0 : n + 1])     \
    map(tofrom : next[0 : n])
  for (int i = 0; i < n; i++)
    next[shifted(perm, i)] += 2.0f;
  for (int i = 0; i < n; i++)
    ref[shifted(perm, i)] += 2.0f;
  check_bytes("helper moving its pointer", next, ref, n * sizeof(float));
  free(perm);
  free(cur);
  free(vsq);
  free(next);
  free(ref);
  return done();
}
// STATS: hetero-stats total

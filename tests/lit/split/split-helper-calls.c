#pragma STDC FP_CONTRACT OFF
// Kernels that call helper functions, as real codes do (XSBench's and
// RSBench's random-number and lookup helpers, miniBUDE's per-group
// function): the helper's body is analysed in place of the call. A pointer
// to a private local stays private (a seed advanced through a pointer, a
// local result array filled by the helper); a pointer into mapped memory
// carries its sections through the helper's subscripts (the helper writes
// out[g * 4 + l]; `&a[i]` passed on); data-dependent reads in a helper (a
// binary search) read the whole array. Each kernel splits and matches a
// serial host loop bit for bit. A helper that writes where the analysis
// cannot follow, or calls itself, leaves its kernel whole, with the reason.
// A mapped scalar written by the first iteration only (RSBench's
// offloaded_to_device flag) splits; written by many, the launch runs whole.
// RUN: %clang-hetero %s -o %t
// RUN: env HETERO_STATS=1 HETERO_CHUNKS=4 %compare-fallback %t 2>%t.cpu | %FileCheck %s
// RUN: %FileCheck %s --check-prefix=STATS < %t.cpu
// RUN: env HETERO_STATS=1 HETERO_SIMULATE=3 %compare-fallback %t 2>%t.sim | %FileCheck %s
// RUN: %FileCheck %s --check-prefix=STATS < %t.sim
// RUN: env HETERO_STATS=1 HETERO_SIMULATE=2 HETERO_MEMBERS=sim:0=3,sim:1=1 %compare-fallback %t 2>%t.uneven | %FileCheck %s
// RUN: %FileCheck %s --check-prefix=STATS < %t.uneven
// CHECK: lookups: hash={{[0-9a-f]+}} ok
// CHECK: groups: hash={{[0-9a-f]+}} ok
// CHECK: address passed on: hash={{[0-9a-f]+}} ok
// CHECK: scatter in a helper: hash={{[0-9a-f]+}} ok
// CHECK: recursive helper: hash={{[0-9a-f]+}} ok
// CHECK: flag of the first iteration: ok
// CHECK: groups again: hash={{[0-9a-f]+}} ok
// CHECK: flag of many iterations: ok
// CHECK: done failures=0
#include <omp.h>
#include <stdint.h>
#include <stdlib.h>

#include "Inputs/split.h"

// XSBench-style helpers: an LCG advanced through a pointer to the caller's
// private seed, and a binary search over a mapped grid.
static double lcg(uint64_t *seed) {
  *seed = 2806196910506780709ULL * *seed + 1;
  return (double)(*seed >> 11) / 9007199254740992.0;
}

static long search(const double *grid, long n, double key) {
  long lo = 0, hi = n - 1;
  while (hi - lo > 1) {
    long mid = lo + (hi - lo) / 2;
    if (grid[mid] > key)
      hi = mid;
    else
      lo = mid;
  }
  return lo;
}

static void lookup(double e, const double *grid, const double *xs, long n,
                   double *out) {
  long k = search(grid, n, e);
  for (int c = 0; c < 3; ++c)
    out[c] = xs[3 * k + c] * e;
}

// miniBUDE-style: one call per group writes the group's four results.
static void group4(long g, const float *in, float *out) {
  float t[4];
  for (int l = 0; l < 4; ++l)
    t[l] = in[g * 4 + l] * 2.0f + 1.0f;
  for (int l = 0; l < 4; ++l)
    out[g * 4 + l] = t[l] - in[g * 4 + (3 - l)];
}

static void bump(double *p, double by) { *p = *p * 0.5 + by; }

static void scatter(int *dst, const int *perm, long i) { dst[perm[i]] = 7; }

static long depth(long x) { return x <= 0 ? 0 : 1 + depth(x - 2); }

int main(void) {
  const long n = 1000, lookups = 20000, groups = 5000;
  double *grid = malloc(n * sizeof(double));
  double *xs = malloc(3 * n * sizeof(double));
  for (long k = 0; k < n; ++k) {
    grid[k] = (double)k / n;
    for (int c = 0; c < 3; ++c)
      xs[3 * k + c] = (double)((k * 7 + c) % 13) - 6.0;
  }
  double *v = malloc(lookups * sizeof(double));
  double *rv = malloc(lookups * sizeof(double));

// STATS-DAG: hetero-stats kernel={{.*}}_l[[@LINE+1]] launches=1 split=yes
#pragma omp target teams distribute parallel for map(                          \
        to : grid[0 : n], xs[0 : 3 * n]) map(from : v[0 : lookups])
  for (long i = 0; i < lookups; ++i) {
    uint64_t seed = 12345 + i;
    double e = lcg(&seed);
    double r[3];
    lookup(e, grid, xs, n, r);
    v[i] = r[0] + r[1] * lcg(&seed) - r[2];
  }
  for (long i = 0; i < lookups; ++i) {
    uint64_t seed = 12345 + i;
    double e = lcg(&seed);
    double r[3];
    lookup(e, grid, xs, n, r);
    rv[i] = r[0] + r[1] * lcg(&seed) - r[2];
  }
  check_bytes("lookups", v, rv, lookups * sizeof(double));

  float *in = malloc(4 * groups * sizeof(float));
  float *out = malloc(4 * groups * sizeof(float));
  float *rout = malloc(4 * groups * sizeof(float));
  for (long k = 0; k < 4 * groups; ++k)
    in[k] = (float)(k % 101) / 7.0f;
// STATS-DAG: hetero-stats kernel={{.*}}_l[[@LINE+1]] launches=1 split=yes
#pragma omp target teams num_teams(64) map(to : in[0 : 4 * groups])            \
    map(from : out[0 : 4 * groups])
#pragma omp distribute parallel for
  for (long g = 0; g < groups; ++g)
    group4(g, in, out);
  for (long g = 0; g < groups; ++g)
    group4(g, in, rout);
  check_bytes("groups", out, rout, 4 * groups * sizeof(float));

// STATS-DAG: hetero-stats kernel={{.*}}_l[[@LINE+1]] launches=1 split=yes
#pragma omp target teams distribute parallel for map(tofrom : v[0 : lookups])
  for (long i = 0; i < lookups; ++i)
    bump(&v[i], (double)i);
  for (long i = 0; i < lookups; ++i)
    bump(&rv[i], (double)i);
  check_bytes("address passed on", v, rv, lookups * sizeof(double));

  // Writes through a subscript read from memory: not splittable.
  int *perm = malloc(n * sizeof(int)), *dst = calloc(n, sizeof(int));
  int *rdst = calloc(n, sizeof(int));
  for (long k = 0; k < n; ++k)
    perm[k] = (int)((k * 37) % n);
// STATS-DAG: hetero-stats kernel={{.*}}_l[[@LINE+1]] launches=1 split=no(non-affine write at split-helper-calls.c:{{[0-9]+}}:{{[0-9]+}})
#pragma omp target teams distribute parallel for map(to : perm[0 : n])         \
    map(tofrom : dst[0 : n])
  for (long i = 0; i < n; ++i)
    scatter(dst, perm, i);
  for (long i = 0; i < n; ++i)
    scatter(rdst, perm, i);
  check_bytes("scatter in a helper", dst, rdst, n * sizeof(int));

  long *d = malloc(n * sizeof(long)), *rd = malloc(n * sizeof(long));
// STATS-DAG: hetero-stats kernel={{.*}}_l[[@LINE+1]] launches=1 split=no(recursive call of 'depth' at split-helper-calls.c:{{[0-9]+}}:{{[0-9]+}})
#pragma omp target teams distribute parallel for map(from : d[0 : n])
  for (long i = 0; i < n; ++i)
    d[i] = depth(i % 9);
  for (long i = 0; i < n; ++i)
    rd[i] = depth(i % 9);
  check_bytes("recursive helper", d, rd, n * sizeof(long));
  // RSBench: the first iteration records where it ran. A guarded write of
  // a mapped scalar is a section of the chunk holding i == 0; written by
  // many chunks (i > 5) it overlaps, and the launch runs whole.
  int ran_on_device = -1, many = 0;
// STATS-DAG: hetero-stats kernel={{.*}}_l[[@LINE+1]] launches=1 split=yes
#pragma omp target teams distribute parallel for map(tofrom : ran_on_device)   \
    map(to : in[0 : 4 * groups]) map(from : out[0 : 4 * groups])
  for (long g = 0; g < groups; ++g) {
    group4(g, in, out);
    if (g == 0)
      ran_on_device = !omp_is_initial_device();
  }
  check("flag of the first iteration",
        ran_on_device == 0 || ran_on_device == 1);
  check_bytes("groups again", out, rout, 4 * groups * sizeof(float));
// STATS-DAG: hetero-stats kernel={{.*}}_l[[@LINE+1]] launches=1 split=no(the chunks' writes of {{'[^']+' at split-helper-calls.c:[0-9]+}} overlap)
#pragma omp target teams distribute parallel for map(tofrom : many)
  for (long i = 0; i < n; ++i)
    if (i > 5)
      many = 1;
  check("flag of many iterations", many == 1);
  free(grid);
  free(xs);
  free(v);
  free(rv);
  free(in);
  free(out);
  free(rout);
  free(perm);
  free(dst);
  free(rdst);
  free(d);
  free(rd);
  return done();
}
// STATS: hetero-stats total

// Chunked schedules step their chunk by the stride and stop at the loop's own
// last iteration, not at the bound handed to the OpenMP runtime: the loop
// window must clamp every later read of the upper bound too, or a chunk runs
// past its window (and iterations run twice). Increments make a repeated or
// skipped iteration visible. The binary also runs unchanged under the stock
// host plugin (windows inactive).
// RUN: %clang-hetero %s -o %t
// RUN: env HETERO_STATS=1 HETERO_CHUNKS=4 %compare-fallback %t 2>%t.cpu | %FileCheck %s
// RUN: %FileCheck %s --check-prefix=STATS < %t.cpu
// RUN: env HETERO_STATS=1 HETERO_SIMULATE=3 %compare-fallback %t 2>%t.sim | %FileCheck %s
// RUN: %FileCheck %s --check-prefix=STATS < %t.sim
// RUN: env LIBOMPTARGET_PLUGIN=host %t | %FileCheck %s
// CHECK: three chunked teams loops: ok
// CHECK: target parallel for schedule(static, 5): ok
// CHECK: collapse(2) schedule(static, 9): ok
// CHECK: two teams over many chunks: ok
// CHECK: done failures=0
#include <stdlib.h>

#include "Inputs/split.h"

static int all_equal(const int *v, int n, int want) {
  for (int i = 0; i < n; ++i)
    if (v[i] != want)
      return 0;
  return 1;
}

int main(void) {
  const int n = 200003;
  int *v = calloc(n, sizeof(int));
#pragma omp target data map(tofrom : v[0 : n])
  {
// STATS-DAG: hetero-stats kernel={{.*}}_l[[@LINE+1]] launches=1 split=yes
#pragma omp target teams distribute parallel for dist_schedule(static, 1000)
    for (int i = 0; i < n; ++i)
      v[i] += 1;
// STATS-DAG: hetero-stats kernel={{.*}}_l[[@LINE+1]] launches=1 split=yes
#pragma omp target teams distribute parallel for schedule(static, 1)
    for (int i = 0; i < n; ++i)
      v[i] += 1;
// STATS-DAG: hetero-stats kernel={{.*}}_l[[@LINE+1]] launches=1 split=yes
#pragma omp target teams distribute parallel for dist_schedule(static, 7)      \
    schedule(static, 3)
    for (int i = 3; i < n; ++i)
      v[i] += 1;
  }
  // Every element once per loop: 2 below index 3, else 3.
  check("three chunked teams loops",
        all_equal(v + 3, n - 3, 3) && v[0] == 2 && v[1] == 2 && v[2] == 2);

  int *w = calloc(n, sizeof(int));
// STATS-DAG: hetero-stats kernel={{.*}}_l[[@LINE+1]] launches=1 split=yes
#pragma omp target parallel for schedule(static, 5) map(tofrom : w[0 : n])
  for (int i = 11; i < n; i += 2)
    w[i] += 1;
  int ok = 1;
  for (int i = 0; i < n; ++i)
    ok &= w[i] == (i >= 11 && (i - 11) % 2 == 0);
  check("target parallel for schedule(static, 5)", ok);

  const int rows = 301, cols = 257;
  int *g = calloc(rows * cols, sizeof(int));
// STATS-DAG: hetero-stats kernel={{.*}}_l[[@LINE+1]] launches=1 split=yes
#pragma omp target teams distribute parallel for collapse(2)                   \
    schedule(static, 9) map(tofrom : g[0 : rows * cols])
  for (int i = 0; i < rows; ++i)
    for (int j = 0; j < cols; ++j)
      g[i * cols + j] += i + j;
  ok = 1;
  for (int i = 0; i < rows; ++i)
    for (int j = 0; j < cols; ++j)
      ok &= g[i * cols + j] == i + j;
  check("collapse(2) schedule(static, 9)", ok);

  // Chunks of 64 iterations stepped through by each team, in a loop bounded
  // by a value known only at run time (clang keeps the last iteration in a
  // variable, which the window's last replaces) and in one bounded by
  // constants (the window clamps every read of the chunk's bounds). A chunk
  // past the window would run on a member's own copy, where its writes are
  // not copied home, but its part of a sum would count twice.
  int m = n + (v[0] - 2);
  long *u = calloc(n, sizeof(long));
  long sum1 = 0, sum2 = 0;
#pragma omp target data map(tofrom : u[0 : n])
  {
// STATS-DAG: hetero-stats kernel={{.*}}_l[[@LINE+1]] launches=1 split=yes
#pragma omp target teams distribute parallel for dist_schedule(static, 64)     \
    reduction(+ : sum1)
    for (int i = 0; i < m; ++i) {
      u[i] += 1;
      sum1 += i;
    }
// STATS-DAG: hetero-stats kernel={{.*}}_l[[@LINE+1]] launches=1 split=yes
#pragma omp target teams distribute parallel for dist_schedule(static, 64)     \
    reduction(+ : sum2)
    for (long i = 5; i < 200003L; ++i) {
      u[i] += 1;
      sum2 += i;
    }
  }
  ok = sum1 == (long)n * (n - 1) / 2 && sum2 == (long)n * (n - 1) / 2 - 10;
  for (int i = 0; i < n; ++i)
    ok &= u[i] == (i < 5 ? 1 : 2);
  check("two teams over many chunks", ok);
  free(u);
  free(v);
  free(w);
  free(g);
  printf("done failures=%d\n", failures);
  // STATS: hetero-stats total
  return failures != 0;
}

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
  free(v);
  free(w);
  free(g);
  printf("done failures=%d\n", failures);
  // STATS: hetero-stats total
  return failures != 0;
}

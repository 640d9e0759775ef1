#pragma STDC FP_CONTRACT OFF
// Loop counters of other types than int: long over 10^6 iterations with
// 64-bit index arithmetic, unsigned with a lower bound above 2^31 shifted
// back into the array, size_t with an inclusive bound and step 4, a short
// counter over a small table, and a collapse(2) nest of long counters.
// Compared bit for bit with serial host loops.
// RUN: %clang-hetero %s -o %t
// RUN: env HETERO_STATS=1 HETERO_CHUNKS=4 %compare-fallback %t 2>%t.cpu | %FileCheck %s
// RUN: %FileCheck %s --check-prefix=STATS < %t.cpu
// RUN: env HETERO_STATS=1 HETERO_SIMULATE=3 %compare-fallback %t 2>%t.sim | %FileCheck %s
// RUN: %FileCheck %s --check-prefix=STATS < %t.sim
// CHECK: long, unsigned and size_t counters: hash=846c03449ae5e527 ok
// CHECK: short counter: hash=513c60c423406d79 ok
// CHECK: long collapse(2): hash=37c7f6238d6e4405 ok
// CHECK: done failures=0
#include <stdlib.h>

#include "Inputs/split.h"

#define N 1000000L

int main(void) {
  const long n = N;
  float *a = malloc(n * sizeof(float)), *ra = malloc(n * sizeof(float));
  for (long i = 0; i < n; ++i)
    a[i] = ra[i] = (float)(i % 1024) * 0.5f;

#pragma omp target data map(tofrom : a[0 : n])
  {
// STATS-DAG: hetero-stats kernel={{.*}}_l[[@LINE+1]] launches=1 split=yes
#pragma omp target teams distribute parallel for
    for (long i = 0; i < n; ++i)
      a[i] = a[i] * 1.5f + (float)(i * 3000000000L % 7);
    const unsigned base = 3000000000u;
// STATS-DAG: hetero-stats kernel={{.*}}_l[[@LINE+1]] launches=1 split=yes
#pragma omp target teams distribute parallel for
    for (unsigned u = base + 10u; u < base + 500000u; ++u)
      a[u - base] = a[u - base] - 1.0f;
// STATS-DAG: hetero-stats kernel={{.*}}_l[[@LINE+1]] launches=1 split=yes
#pragma omp target teams distribute parallel for
    for (size_t s = 100; s <= (size_t)n - 100; s += 4)
      a[s] = -a[s];
  }
  for (long i = 0; i < n; ++i)
    ra[i] = ra[i] * 1.5f + (float)(i * 3000000000L % 7);
  for (unsigned u = 3000000000u + 10u; u < 3000000000u + 500000u; ++u)
    ra[u - 3000000000u] = ra[u - 3000000000u] - 1.0f;
  for (size_t s = 100; s <= (size_t)n - 100; s += 4)
    ra[s] = -ra[s];
  check_bytes("long, unsigned and size_t counters", a, ra, n * sizeof(float));

  int tab[300], rtab[300];
// STATS-DAG: hetero-stats kernel={{.*}}_l[[@LINE+1]] launches=1 split=yes
#pragma omp target teams distribute parallel for map(from : tab)
  for (short k = 0; k < 300; ++k)
    tab[k] = k * k - 7 * k;
  for (short k = 0; k < 300; ++k)
    rtab[k] = k * k - 7 * k;
  check_bytes("short counter", tab, rtab, sizeof tab);

  const long rows = 1000, cols = 500;
  long *g = malloc(rows * cols * sizeof(long)),
       *rg = malloc(rows * cols * sizeof(long));
// STATS-DAG: hetero-stats kernel={{.*}}_l[[@LINE+1]] launches=1 split=yes
#pragma omp target teams distribute parallel for collapse(2)                   \
    map(from : g[0 : rows * cols])
  for (long r = 0; r < rows; ++r)
    for (long c = 0; c < cols; ++c)
      g[r * cols + c] = (r << 20) ^ (c * 2654435761L);
  for (long r = 0; r < rows; ++r)
    for (long c = 0; c < cols; ++c)
      rg[r * cols + c] = (r << 20) ^ (c * 2654435761L);
  check_bytes("long collapse(2)", g, rg, rows * cols * sizeof(long));
  free(a);
  free(ra);
  free(g);
  free(rg);
  return done();
}
// STATS: hetero-stats total

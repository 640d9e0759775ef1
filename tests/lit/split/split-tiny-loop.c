#pragma STDC FP_CONTRACT OFF
// Loops with fewer iterations than chunks (HETERO_CHUNKS=4, or 4 pool
// members with HETERO_SIMULATE=3): 1, 2 and 3 iterations writing adjacent
// elements of small arrays (several iterations per machine word for the
// char array), a 3 x 1 collapse(2) nest, a 2-iteration loop with an inner
// loop doing the real work, and reductions over 3 iterations. Compared bit
// for bit with serial host loops.
// RUN: %clang-hetero %s -o %t
// RUN: env HETERO_STATS=1 HETERO_CHUNKS=4 %compare-fallback %t 2>%t.cpu | %FileCheck %s
// RUN: %FileCheck %s --check-prefix=STATS < %t.cpu
// RUN: env HETERO_STATS=1 HETERO_SIMULATE=3 %compare-fallback %t 2>%t.sim | %FileCheck %s
// RUN: %FileCheck %s --check-prefix=STATS < %t.sim
// CHECK: d: 10.5 2 3 4 5 3 3.5 8
// CHECK: c: 10 20 36 49 62 60 70 80
// CHECK: g: 2 6 12
// CHECK: tiny loops: ok
// CHECK: two halves: hash=6aaf5ea9386988d0 ok
// CHECK: 3 iterations: sum=35 max=14 prod=1.875
// CHECK: 3-iteration reductions: ok
// CHECK: done failures=0
#include <stdlib.h>

#include "Inputs/split.h"

int main(void) {
  double d[8] = {1, 2, 3, 4, 5, 6, 7, 8};
  unsigned char c[8] = {10, 20, 30, 40, 50, 60, 70, 80};
  int g[3][1] = {{1}, {2}, {3}};

// STATS-DAG: hetero-stats kernel={{.*}}_l[[@LINE+1]] launches=1 split={{yes|no\(.*\)}}
#pragma omp target teams distribute parallel for map(tofrom : d)
  for (int i = 0; i < 1; ++i)
    d[i] = d[i] * 10.0 + 0.5;
// STATS-DAG: hetero-stats kernel={{.*}}_l[[@LINE+1]] launches=1 split={{yes|no\(.*\)}}
#pragma omp target teams distribute parallel for map(tofrom : d)
  for (int i = 5; i < 7; ++i)
    d[i] = d[i - 2] - d[i - 4] * 0.5;
// STATS-DAG: hetero-stats kernel={{.*}}_l[[@LINE+1]] launches=1 split={{yes|no\(.*\)}}
#pragma omp target teams distribute parallel for map(tofrom : c)
  for (int i = 2; i < 5; ++i)
    c[i] = (unsigned char)(c[i] + i * 3);
// STATS-DAG: hetero-stats kernel={{.*}}_l[[@LINE+1]] launches=1 split={{yes|no\(.*\)}}
#pragma omp target teams distribute parallel for collapse(2) map(tofrom : g)
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 1; ++j)
      g[i][j] = g[i][j] * (i + 2);
  double rd[8] = {1, 2, 3, 4, 5, 6, 7, 8};
  unsigned char rc[8] = {10, 20, 30, 40, 50, 60, 70, 80};
  int rg[3][1] = {{1}, {2}, {3}};
  rd[0] = rd[0] * 10.0 + 0.5;
  for (int i = 5; i < 7; ++i)
    rd[i] = rd[i - 2] - rd[i - 4] * 0.5;
  for (int i = 2; i < 5; ++i)
    rc[i] = (unsigned char)(rc[i] + i * 3);
  for (int i = 0; i < 3; ++i)
    rg[i][0] = rg[i][0] * (i + 2);
  printf("d: %g %g %g %g %g %g %g %g\n", d[0], d[1], d[2], d[3], d[4], d[5],
         d[6], d[7]);
  printf("c: %d %d %d %d %d %d %d %d\n", c[0], c[1], c[2], c[3], c[4], c[5],
         c[6], c[7]);
  printf("g: %d %d %d\n", g[0][0], g[1][0], g[2][0]);
  check("tiny loops", memcmp(d, rd, sizeof d) == 0 &&
                          memcmp(c, rc, sizeof c) == 0 &&
                          memcmp(g, rg, sizeof g) == 0);

  // Two iterations, each doing a long inner loop over its own half.
  const int n = 200000;
  long *v = malloc(n * sizeof(long)), *rv = malloc(n * sizeof(long));
  for (int i = 0; i < n; ++i)
    v[i] = rv[i] = i;
// STATS-DAG: hetero-stats kernel={{.*}}_l[[@LINE+1]] launches=1 split={{yes|no\(.*\)}}
#pragma omp target teams distribute parallel for map(tofrom : v[0 : n])
  for (int h = 0; h < 2; ++h) {
    long acc = 0;
    for (int k = 0; k < n / 2; ++k) {
      acc += v[h * (n / 2) + k];
      v[h * (n / 2) + k] = acc;
    }
  }
  for (int h = 0; h < 2; ++h) {
    long acc = 0;
    for (int k = 0; k < n / 2; ++k) {
      acc += rv[h * (n / 2) + k];
      rv[h * (n / 2) + k] = acc;
    }
  }
  check_bytes("two halves", v, rv, n * sizeof(long));

  int s = 5, mx = 0;
  double p = 1.0;
// STATS-DAG: hetero-stats kernel={{.*}}_l[[@LINE+1]] launches=1 split={{yes|no\(.*\)}}
#pragma omp target teams distribute parallel for reduction(+ : s)              \
    reduction(max : mx) reduction(* : p)
  for (int i = 0; i < 3; ++i) {
    s += i * 10;
    mx = i * 7 > mx ? i * 7 : mx;
    p *= 0.5 + i; // 0.5 * 1.5 * 2.5: exact in any order
  }
  printf("3 iterations: sum=%d max=%d prod=%g\n", s, mx, p);
  check("3-iteration reductions", s == 35 && mx == 14 && p == 1.875);
  free(v);
  free(rv);
  return done();
}
// STATS: hetero-stats total

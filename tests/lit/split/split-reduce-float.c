#pragma STDC FP_CONTRACT OFF
// Reductions on float with every operator that applies: + * max min && ||,
// one kernel each, then all six in one kernel. The order in which partial
// results combine differs between implementations, so the data make every
// order give the same bits: the summands are multiples of 1/4 of magnitude
// <= 8 over 4 * 10^5 iterations (every partial sum is a multiple of 1/4
// below 2^22, exact in float), the factors are 1, 2, 1/2 and -1 (every
// partial product is 3 * 2^k with |k| <= 10), and max/min/&&/|| are exact
// anyway. Compared with serial host loops.
// RUN: %clang-hetero %s -o %t
// RUN: env HETERO_STATS=1 HETERO_CHUNKS=4 %compare-fallback %t 2>%t.cpu | %FileCheck %s
// RUN: %FileCheck %s --check-prefix=STATS < %t.cpu
// RUN: env HETERO_STATS=1 HETERO_SIMULATE=3 %compare-fallback %t 2>%t.sim | %FileCheck %s
// RUN: %FileCheck %s --check-prefix=STATS < %t.sim
// CHECK: sum=-0x1.869fp+15 prod=0x1.8p-1 max=0x1.6c94p+14 min=-0x1.d4cp+13
// CHECK: and=1 and0=0 or=1 or0=0
// CHECK: separate kernels: hash=fda0193fb78959dd ok
// CHECK: one kernel: -0x1.86ap+14 0x1p-2 0x1.fp+2 -0x1.388p+13 0 1
// CHECK: one kernel: hash=2711bd761353a73d ok
// CHECK: done failures=0
#include <stdlib.h>

#include "Inputs/split.h"

#define N 400000

static inline float fval(int i) { return (float)(i % 64) * 0.25f - 8.0f; }
static inline float ffactor(int i) {
  return i % 50000 == 1
             ? 2.0f
             : (i % 40000 == 3 ? 0.5f : (i % 70001 == 5 ? -1.0f : 1.0f));
}

int main(void) {
  const int n = N;
  float *x = malloc(n * sizeof(float));
  for (int i = 0; i < n; ++i)
    x[i] =
        (float)(int)(((unsigned)i * 2654435761u) % 100000u) / 3.0f - 10000.0f;
  float sum = 0.5f, prod = 3.0f, mx = -1e30f, mn = 1e30f, land = 1.0f,
        lor = 0.0f;
  float land0 = 1.0f, lor0 = 0.0f;

#pragma omp target data map(to : x[0 : n])
  {
// STATS-DAG: hetero-stats kernel={{.*}}_l[[@LINE+1]] launches=1 split=yes
#pragma omp target teams distribute parallel for reduction(+ : sum)
    for (int i = 0; i < n; ++i)
      sum += fval(i);
// STATS-DAG: hetero-stats kernel={{.*}}_l[[@LINE+1]] launches=1 split=yes
#pragma omp target teams distribute parallel for reduction(* : prod)
    for (int i = 0; i < n; ++i)
      prod *= ffactor(i);
// STATS-DAG: hetero-stats kernel={{.*}}_l[[@LINE+1]] launches=1 split=yes
#pragma omp target teams distribute parallel for reduction(max : mx)
    for (int i = 0; i < n; ++i)
      mx = x[i] > mx ? x[i] : mx;
// STATS-DAG: hetero-stats kernel={{.*}}_l[[@LINE+1]] launches=1 split=yes
#pragma omp target teams distribute parallel for reduction(min : mn)
    for (int i = 0; i < n; ++i)
      mn = x[i] * 1.5f < mn ? x[i] * 1.5f : mn;
// STATS-DAG: hetero-stats kernel={{.*}}_l[[@LINE+1]] launches=1 split=yes
#pragma omp target teams distribute parallel for reduction(&& : land, land0)
    for (int i = 0; i < n; ++i) {
      land = land && fval(i) + 0.125f;
      land0 = land0 && fval(i);
    }
// STATS-DAG: hetero-stats kernel={{.*}}_l[[@LINE+1]] launches=1 split=yes
#pragma omp target teams distribute parallel for reduction(|| : lor, lor0)
    for (int i = 0; i < n; ++i) {
      lor = lor || x[i] == x[123456];
      lor0 = lor0 || fval(i) > 8.0f;
    }
  }
  float rsum = 0.5f, rprod = 3.0f, rmx = -1e30f, rmn = 1e30f, rland = 1.0f,
        rlor = 0.0f;
  float rland0 = 1.0f, rlor0 = 0.0f;
  for (int i = 0; i < n; ++i) {
    rsum += fval(i);
    rprod *= ffactor(i);
    rmx = x[i] > rmx ? x[i] : rmx;
    rmn = x[i] * 1.5f < rmn ? x[i] * 1.5f : rmn;
    rland = rland && fval(i) + 0.125f;
    rland0 = rland0 && fval(i);
    rlor = rlor || x[i] == x[123456];
    rlor0 = rlor0 || fval(i) > 8.0f;
  }
  printf("sum=%a prod=%a max=%a min=%a\n", sum, prod, mx, mn);
  printf("and=%g and0=%g or=%g or0=%g\n", land, land0, lor, lor0);
  float got[8] = {sum, prod, mx, mn, land, land0, lor, lor0};
  float want[8] = {rsum, rprod, rmx, rmn, rland, rland0, rlor, rlor0};
  check_bytes("separate kernels", got, want, sizeof got);

  float s2 = 0.0f, p2 = 1.0f, x2 = 0.0f, m2 = 0.0f, l2 = 1.0f, o2 = 0.0f;
// STATS-DAG: hetero-stats kernel={{.*}}_l[[@LINE+1]] launches=1 split=yes
#pragma omp target teams distribute parallel for map(to : x[0 : n])            \
    reduction(+ : s2) reduction(* : p2) reduction(max : x2)                    \
    reduction(min : m2) reduction(&& : l2) reduction(|| : o2)
  for (int i = 0; i < n; ++i) {
    s2 += fval(i) * 0.5f;
    p2 *= ffactor(n - 1 - i);
    x2 = fval(i) > x2 ? fval(i) : x2;
    m2 = x[i] < m2 ? x[i] : m2;
    l2 = l2 && x[i];
    o2 = o2 || x[i] < -9999.0f;
  }
  float t[6] = {0.0f, 1.0f, 0.0f, 0.0f, 1.0f, 0.0f};
  for (int i = 0; i < n; ++i) {
    t[0] += fval(i) * 0.5f;
    t[1] *= ffactor(n - 1 - i);
    t[2] = fval(i) > t[2] ? fval(i) : t[2];
    t[3] = x[i] < t[3] ? x[i] : t[3];
    t[4] = t[4] && x[i];
    t[5] = t[5] || x[i] < -9999.0f;
  }
  float g2[6] = {s2, p2, x2, m2, l2, o2};
  printf("one kernel: %a %a %a %a %g %g\n", s2, p2, x2, m2, l2, o2);
  check_bytes("one kernel", g2, t, sizeof g2);
  free(x);
  return done();
}
// STATS: hetero-stats total

#pragma STDC FP_CONTRACT OFF
// Reductions on double with every operator that applies: + * max min && ||,
// one kernel each over 10^6 iterations, then all six in one kernel that also
// writes an array. The order of combination differs between
// implementations, so the data make every order give the same bits: the
// summands are multiples of 1/8 below 2^18 (every partial sum is a multiple
// of 1/8 below 2^40, exact in double), the factors are 1, 2, 1/2 and -1
// (partial products are powers of two within 2^+-64), and max/min/&&/|| are
// exact anyway. Compared with serial host loops.
// RUN: %clang-hetero %s -o %t
// RUN: env HETERO_STATS=1 HETERO_CHUNKS=4 %compare-fallback %t 2>%t.cpu | %FileCheck %s
// RUN: %FileCheck %s --check-prefix=STATS < %t.cpu
// RUN: env HETERO_STATS=1 HETERO_SIMULATE=3 %compare-fallback %t 2>%t.sim | %FileCheck %s
// RUN: %FileCheck %s --check-prefix=STATS < %t.sim
// CHECK: sum=0x1.cfc111cd9p+36 prod=-0x1p+14 max=0x1.1c99492492492p+16 min=-0x1.482p+14
// CHECK: and=1 and0=0 or=1 or0=0
// CHECK: separate kernels: hash=07d2d02e4cdc5002 ok
// CHECK: one kernel: 0x1.cfc111cdcp+38 -0x1p+14 0x1.17523c9249249p+18 -0x1.137p+15 0 0
// CHECK: one kernel: hash=1ae9bccc63e9f33c ok
// CHECK: array written with the reductions: hash=9cfa482173fe9b64 ok
// CHECK: done failures=0
#include <stdlib.h>

#include "Inputs/split.h"

#define N 1000000

static inline double dval(int i) {
  return (double)(i % 4096) * 0.125 - 256.0 + (double)(i / 4096) * 1024.0;
}
static inline double dfactor(int i) {
  return i % 15625 == 0
             ? 2.0
             : (i % 20000 == 7 ? 0.5 : (i % 333333 == 1 ? -1.0 : 1.0));
}

int main(void) {
  const int n = N;
  double *x = malloc(n * sizeof(double)), *y = malloc(n * sizeof(double));
  for (int i = 0; i < n; ++i)
    x[i] =
        (double)(long)(((unsigned)i * 2246822519u) % 1000003u) / 7.0 - 70000.0;
  double sum = -3.0, prod = 1.0, mx = -1e300, mn = 1e300, land = 1.0, lor = 0.0;
  double land0 = 1.0, lor0 = 0.0;

#pragma omp target data map(to : x[0 : n])
  {
// STATS-DAG: hetero-stats kernel={{.*}}_l[[@LINE+1]] launches=1 split=yes
#pragma omp target teams distribute parallel for reduction(+ : sum)
    for (int i = 0; i < n; ++i)
      sum += dval(i);
// STATS-DAG: hetero-stats kernel={{.*}}_l[[@LINE+1]] launches=1 split=yes
#pragma omp target teams distribute parallel for reduction(* : prod)
    for (int i = 0; i < n; ++i)
      prod *= dfactor(i);
// STATS-DAG: hetero-stats kernel={{.*}}_l[[@LINE+1]] launches=1 split=yes
#pragma omp target teams distribute parallel for reduction(max : mx)
    for (int i = 0; i < n; ++i)
      mx = x[i] > mx ? x[i] : mx;
// STATS-DAG: hetero-stats kernel={{.*}}_l[[@LINE+1]] launches=1 split=yes
#pragma omp target teams distribute parallel for reduction(min : mn)
    for (int i = 0; i < n; ++i)
      mn = x[i] * 0.3 < mn ? x[i] * 0.3 : mn;
// STATS-DAG: hetero-stats kernel={{.*}}_l[[@LINE+1]] launches=1 split=yes
#pragma omp target teams distribute parallel for reduction(&& : land, land0)
    for (int i = 0; i < n; ++i) {
      land = land && x[i] != 1e9;
      land0 = land0 && x[i] != x[999999];
    }
// STATS-DAG: hetero-stats kernel={{.*}}_l[[@LINE+1]] launches=1 split=yes
#pragma omp target teams distribute parallel for reduction(|| : lor, lor0)
    for (int i = 0; i < n; ++i) {
      lor = lor || dval(i) == 1024.0 * 100.0;
      lor0 = lor0 || x[i] > 1e9;
    }
  }
  double rsum = -3.0, rprod = 1.0, rmx = -1e300, rmn = 1e300, rland = 1.0,
         rlor = 0.0;
  double rland0 = 1.0, rlor0 = 0.0;
  for (int i = 0; i < n; ++i) {
    rsum += dval(i);
    rprod *= dfactor(i);
    rmx = x[i] > rmx ? x[i] : rmx;
    rmn = x[i] * 0.3 < rmn ? x[i] * 0.3 : rmn;
    rland = rland && x[i] != 1e9;
    rland0 = rland0 && x[i] != x[999999];
    rlor = rlor || dval(i) == 1024.0 * 100.0;
    rlor0 = rlor0 || x[i] > 1e9;
  }
  printf("sum=%a prod=%a max=%a min=%a\n", sum, prod, mx, mn);
  printf("and=%g and0=%g or=%g or0=%g\n", land, land0, lor, lor0);
  double got[8] = {sum, prod, mx, mn, land, land0, lor, lor0};
  double want[8] = {rsum, rprod, rmx, rmn, rland, rland0, rlor, rlor0};
  check_bytes("separate kernels", got, want, sizeof got);

  double s2 = 0.0, p2 = -1.0, x2 = 0.0, m2 = 0.0, l2 = 1.0, o2 = 0.0;
// STATS-DAG: hetero-stats kernel={{.*}}_l[[@LINE+1]] launches=1 split=yes
#pragma omp target teams distribute parallel for map(to : x[0 : n])            \
    map(from : y[0 : n]) reduction(+ : s2) reduction(* : p2)                   \
    reduction(max : x2) reduction(min : m2) reduction(&& : l2)                 \
    reduction(|| : o2)
  for (int i = 0; i < n; ++i) {
    y[i] = x[i] * 0.5 + dval(i);
    s2 += dval(n - 1 - i) * 4.0;
    p2 *= dfactor(i + 3);
    x2 = y[i] > x2 ? y[i] : x2;
    m2 = y[i] < m2 ? y[i] : m2;
    l2 = l2 && dval(i);
    o2 = o2 || y[i] == 0.0;
  }
  double t[6] = {0.0, -1.0, 0.0, 0.0, 1.0, 0.0};
  double *ry = malloc(n * sizeof(double));
  for (int i = 0; i < n; ++i) {
    ry[i] = x[i] * 0.5 + dval(i);
    t[0] += dval(n - 1 - i) * 4.0;
    t[1] *= dfactor(i + 3);
    t[2] = ry[i] > t[2] ? ry[i] : t[2];
    t[3] = ry[i] < t[3] ? ry[i] : t[3];
    t[4] = t[4] && dval(i);
    t[5] = t[5] || ry[i] == 0.0;
  }
  double g2[6] = {s2, p2, x2, m2, l2, o2};
  printf("one kernel: %a %a %a %a %g %g\n", s2, p2, x2, m2, l2, o2);
  check_bytes("one kernel", g2, t, sizeof g2);
  check_bytes("array written with the reductions", y, ry, n * sizeof(double));
  free(x);
  free(y);
  free(ry);
  return done();
}
// STATS: hetero-stats total

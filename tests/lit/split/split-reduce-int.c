#pragma STDC FP_CONTRACT OFF
// Reductions on int with every operator, one kernel each: + * max min & | ^
// && || over 10^6 iterations (the initial values take part). Integer
// reductions are exact in any order of combination; the data keep every
// partial sum and product inside the int range. Then all nine in one kernel.
// Compared with serial host loops.
// RUN: %clang-hetero %s -o %t
// RUN: env HETERO_STATS=1 HETERO_CHUNKS=4 %compare-fallback %t 2>%t.cpu | %FileCheck %s
// RUN: %FileCheck %s --check-prefix=STATS < %t.cpu
// RUN: env HETERO_STATS=1 HETERO_SIMULATE=3 %compare-fallback %t 2>%t.sim | %FileCheck %s
// RUN: %FileCheck %s --check-prefix=STATS < %t.sim
// CHECK: sum=-375233 prod=-120932352 max=1000001 min=-1006
// CHECK: and=0x12204081 or=0x00fe00fe xor=0x7842b234 land=0 lor=1
// CHECK: separate kernels: ok
// CHECK: one kernel: -375250 -120932352 1000 -1000 0x7ffff000 0x000000ff 0x7842a000 1 1
// CHECK: one kernel: ok
// CHECK: done failures=0
#include <stdlib.h>

#include "Inputs/split.h"

#define N 1000000

static inline int hash(int i) {
  return (int)(((unsigned)i * 2654435761u) >> 1);
}
static inline int val(int i) { return i % 2001 - 1000; }
static inline int factor(int i) {
  return i % 99991 == 7 ? -2 : (i % 100003 == 11 ? 3 : 1);
}

int main(void) {
  const int n = N;
  int *a = malloc(n * sizeof(int));
  for (int i = 0; i < n; ++i)
    a[i] = hash(i);
  int sum = 17, prod = 1, mx = -5, mn = 5, band = -1, bor = 0, bxor = 0x1234;
  int land = 1, lor = 0;

#pragma omp target data map(to : a[0 : n])
  {
// STATS-DAG: hetero-stats kernel={{.*}}_l[[@LINE+1]] launches=1 split=yes
#pragma omp target teams distribute parallel for reduction(+ : sum)
    for (int i = 0; i < n; ++i)
      sum += val(i);
// STATS-DAG: hetero-stats kernel={{.*}}_l[[@LINE+1]] launches=1 split=yes
#pragma omp target teams distribute parallel for reduction(* : prod)
    for (int i = 0; i < n; ++i)
      prod *= factor(i);
// STATS-DAG: hetero-stats kernel={{.*}}_l[[@LINE+1]] launches=1 split=yes
#pragma omp target teams distribute parallel for reduction(max : mx)
    for (int i = 0; i < n; ++i)
      mx = a[i] % 1000003 > mx ? a[i] % 1000003 : mx;
// STATS-DAG: hetero-stats kernel={{.*}}_l[[@LINE+1]] launches=1 split=yes
#pragma omp target teams distribute parallel for reduction(min : mn)
    for (int i = 0; i < n; ++i)
      mn = val(i) - a[i] % 7 < mn ? val(i) - a[i] % 7 : mn;
// STATS-DAG: hetero-stats kernel={{.*}}_l[[@LINE+1]] launches=1 split=yes
#pragma omp target teams distribute parallel for reduction(& : band)
    for (int i = 0; i < n; ++i)
      band &= a[i] | 0x10204081 | (i == 500000 ? 0 : 0x02000000);
// STATS-DAG: hetero-stats kernel={{.*}}_l[[@LINE+1]] launches=1 split=yes
#pragma omp target teams distribute parallel for reduction(| : bor)
    for (int i = 0; i < n; ++i)
      bor |= (a[i] & 0x00f000f0) >> (i % 4);
// STATS-DAG: hetero-stats kernel={{.*}}_l[[@LINE+1]] launches=1 split=yes
#pragma omp target teams distribute parallel for reduction(^ : bxor)
    for (int i = 0; i < n; ++i)
      bxor ^= a[i];
// STATS-DAG: hetero-stats kernel={{.*}}_l[[@LINE+1]] launches=1 split=yes
#pragma omp target teams distribute parallel for reduction(&& : land)
    for (int i = 0; i < n; ++i)
      land = land && (a[i] % 1000 != 777 || i < 10);
// STATS-DAG: hetero-stats kernel={{.*}}_l[[@LINE+1]] launches=1 split=yes
#pragma omp target teams distribute parallel for reduction(|| : lor)
    for (int i = 0; i < n; ++i)
      lor = lor || (a[i] == hash(765432));
  }
  int rsum = 17, rprod = 1, rmx = -5, rmn = 5, rband = -1, rbor = 0,
      rbxor = 0x1234;
  int rland = 1, rlor = 0;
  for (int i = 0; i < n; ++i) {
    rsum += val(i);
    rprod *= factor(i);
    rmx = a[i] % 1000003 > rmx ? a[i] % 1000003 : rmx;
    rmn = val(i) - a[i] % 7 < rmn ? val(i) - a[i] % 7 : rmn;
    rband &= a[i] | 0x10204081 | (i == 500000 ? 0 : 0x02000000);
    rbor |= (a[i] & 0x00f000f0) >> (i % 4);
    rbxor ^= a[i];
    rland = rland && (a[i] % 1000 != 777 || i < 10);
    rlor = rlor || (a[i] == hash(765432));
  }
  printf("sum=%d prod=%d max=%d min=%d\n", sum, prod, mx, mn);
  printf("and=0x%08x or=0x%08x xor=0x%08x land=%d lor=%d\n", band, bor, bxor,
         land, lor);
  check("separate kernels", sum == rsum && prod == rprod && mx == rmx &&
                                mn == rmn && band == rband && bor == rbor &&
                                bxor == rbxor && land == rland && lor == rlor);

  int s2 = 0, p2 = 1, x2 = -1000000, m2 = 1000000, a2 = -1, o2 = 0, e2 = 0,
      l2 = 1, r2 = 0;
// STATS-DAG: hetero-stats kernel={{.*}}_l[[@LINE+1]] launches=1 split=yes
#pragma omp target teams distribute parallel for map(to : a[0 : n])            \
    reduction(+ : s2) reduction(* : p2) reduction(max : x2)                    \
    reduction(min : m2) reduction(& : a2) reduction(| : o2) reduction(^ : e2)  \
    reduction(&& : l2) reduction(|| : r2)
  for (int i = 0; i < n; ++i) {
    s2 += val(i);
    p2 *= factor(i);
    x2 = val(i) > x2 ? val(i) : x2;
    m2 = val(i) < m2 ? val(i) : m2;
    a2 &= a[i] | 0x7ffff000;
    o2 |= a[i] & 0xff;
    e2 ^= a[i] ^ (i << 11);
    l2 = l2 && a[i] >= 0;
    r2 = r2 || a[i] == 0;
  }
  int t[9] = {0, 1, -1000000, 1000000, -1, 0, 0, 1, 0};
  for (int i = 0; i < n; ++i) {
    t[0] += val(i);
    t[1] *= factor(i);
    t[2] = val(i) > t[2] ? val(i) : t[2];
    t[3] = val(i) < t[3] ? val(i) : t[3];
    t[4] &= a[i] | 0x7ffff000;
    t[5] |= a[i] & 0xff;
    t[6] ^= a[i] ^ (i << 11);
    t[7] = t[7] && a[i] >= 0;
    t[8] = t[8] || a[i] == 0;
  }
  printf("one kernel: %d %d %d %d 0x%08x 0x%08x 0x%08x %d %d\n", s2, p2, x2, m2,
         a2, o2, e2, l2, r2);
  check("one kernel", s2 == t[0] && p2 == t[1] && x2 == t[2] && m2 == t[3] &&
                          a2 == t[4] && o2 == t[5] && e2 == t[6] &&
                          l2 == t[7] && r2 == t[8]);
  free(a);
  return done();
}
// STATS: hetero-stats total

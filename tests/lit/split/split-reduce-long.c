#pragma STDC FP_CONTRACT OFF
// Reductions on long with every operator: + * max min & | ^ && ||, one
// kernel each over 10^6 iterations, with values beyond 32 bits (sums near
// 10^14..10^18; the product is -2^33 * 3^16, about -3.7e17).
// Integer reductions are exact in any order of combination and every
// partial result stays in range. Then all nine in one kernel that also
// writes an array. Compared with serial host loops.
// RUN: %clang-hetero %s -o %t
// RUN: env HETERO_STATS=1 HETERO_CHUNKS=4 %compare-fallback %t 2>%t.cpu | %FileCheck %s
// RUN: %FileCheck %s --check-prefix=STATS < %t.cpu
// RUN: env HETERO_STATS=1 HETERO_SIMULATE=3 %compare-fallback %t 2>%t.sim | %FileCheck %s
// RUN: %FileCheck %s --check-prefix=STATS < %t.sim
// CHECK: sum=-468874503790856 prod=-369768517790072832 max=4611683539689766738 min=-4611681706689753907
// CHECK: and=0x0101010101010101 or=0x0000fff00000fff0 xor=0x085511e72ac47fa8 land=0 lor=0
// CHECK: separate kernels: ok
// CHECK: one kernel: 2199023049059385938 369768517790072832 4398044147195 0 0xe000000000000000 0x7fffffffffffffff 0x0fcc16bd8cf18117 1 0
// CHECK: one kernel: ok
// CHECK: array written with the reductions: hash=b03ffc576e3c3a1a ok
// CHECK: done failures=0
#include <stdlib.h>

#include "Inputs/split.h"

#define N 1000000

static inline long lhash(long i) {
  return (long)(((unsigned long)i * 0x9E3779B97F4A7C15ul) >> 2);
}
static inline long lval(long i) { return (i % 4001 - 2000) * 1000000007L; }
static inline long lfactor(long i) {
  return i % 31249 == 5 ? -2 : (i % 62497 == 9 ? 3 : 1);
}

int main(void) {
  const int n = N;
  long *a = malloc(n * sizeof(long)), *w = malloc(n * sizeof(long));
  for (int i = 0; i < n; ++i)
    a[i] = lhash(i);
  long sum = -99, prod = 1, mx = 0, mn = 0, band = -1, bor = 0, bxor = 0;
  long land = 1, lor = 0;

#pragma omp target data map(to : a[0 : n])
  {
// STATS-DAG: hetero-stats kernel={{.*}}_l[[@LINE+1]] launches=1 split=yes
#pragma omp target teams distribute parallel for reduction(+ : sum)
    for (int i = 0; i < n; ++i)
      sum += lval(i) + a[i] % 1000;
// STATS-DAG: hetero-stats kernel={{.*}}_l[[@LINE+1]] launches=1 split=yes
#pragma omp target teams distribute parallel for reduction(* : prod)
    for (int i = 0; i < n; ++i)
      prod *= lfactor(i);
// STATS-DAG: hetero-stats kernel={{.*}}_l[[@LINE+1]] launches=1 split=yes
#pragma omp target teams distribute parallel for reduction(max : mx)
    for (int i = 0; i < n; ++i)
      mx = a[i] > mx ? a[i] : mx;
// STATS-DAG: hetero-stats kernel={{.*}}_l[[@LINE+1]] launches=1 split=yes
#pragma omp target teams distribute parallel for reduction(min : mn)
    for (int i = 0; i < n; ++i)
      mn = lval(i) - a[i] < mn ? lval(i) - a[i] : mn;
// STATS-DAG: hetero-stats kernel={{.*}}_l[[@LINE+1]] launches=1 split=yes
#pragma omp target teams distribute parallel for reduction(& : band)
    for (int i = 0; i < n; ++i)
      band &= a[i] | 0x0101010101010101L;
// STATS-DAG: hetero-stats kernel={{.*}}_l[[@LINE+1]] launches=1 split=yes
#pragma omp target teams distribute parallel for reduction(| : bor)
    for (int i = 0; i < n; ++i)
      bor |= (a[i] & 0x0000ff000000ff00L) >> (i % 5);
// STATS-DAG: hetero-stats kernel={{.*}}_l[[@LINE+1]] launches=1 split=yes
#pragma omp target teams distribute parallel for reduction(^ : bxor)
    for (int i = 0; i < n; ++i)
      bxor ^= (a[i] >> 2) * 3;
// STATS-DAG: hetero-stats kernel={{.*}}_l[[@LINE+1]] launches=1 split=yes
#pragma omp target teams distribute parallel for reduction(&& : land)
    for (int i = 0; i < n; ++i)
      land = land && a[i] != lhash(987654);
// STATS-DAG: hetero-stats kernel={{.*}}_l[[@LINE+1]] launches=1 split=yes
#pragma omp target teams distribute parallel for reduction(|| : lor)
    for (int i = 0; i < n; ++i)
      lor = lor || a[i] < 0;
  }
  long rsum = -99, rprod = 1, rmx = 0, rmn = 0, rband = -1, rbor = 0, rbxor = 0;
  long rland = 1, rlor = 0;
  for (int i = 0; i < n; ++i) {
    rsum += lval(i) + a[i] % 1000;
    rprod *= lfactor(i);
    rmx = a[i] > rmx ? a[i] : rmx;
    rmn = lval(i) - a[i] < rmn ? lval(i) - a[i] : rmn;
    rband &= a[i] | 0x0101010101010101L;
    rbor |= (a[i] & 0x0000ff000000ff00L) >> (i % 5);
    rbxor ^= (a[i] >> 2) * 3;
    rland = rland && a[i] != lhash(987654);
    rlor = rlor || a[i] < 0;
  }
  printf("sum=%ld prod=%ld max=%ld min=%ld\n", sum, prod, mx, mn);
  printf("and=0x%016lx or=0x%016lx xor=0x%016lx land=%ld lor=%ld\n", band, bor,
         bxor, land, lor);
  check("separate kernels", sum == rsum && prod == rprod && mx == rmx &&
                                mn == rmn && band == rband && bor == rbor &&
                                bxor == rbxor && land == rland && lor == rlor);

  long s2 = 0, p2 = -1, x2 = -1, m2 = 1L << 62, a2 = -1, o2 = 0, e2 = 0, l2 = 1,
       r2 = 0;
// STATS-DAG: hetero-stats kernel={{.*}}_l[[@LINE+1]] launches=1 split=yes
#pragma omp target teams distribute parallel for map(to : a[0 : n])            \
    map(from : w[0 : n]) reduction(+ : s2) reduction(* : p2)                   \
    reduction(max : x2) reduction(min : m2) reduction(& : a2)                  \
    reduction(| : o2) reduction(^ : e2) reduction(&& : l2) reduction(|| : r2)
  for (int i = 0; i < n; ++i) {
    long v = a[i] >> 20;
    w[i] = v - i;
    s2 += v;
    p2 *= lfactor(i + 1);
    x2 = v > x2 ? v : x2;
    m2 = v < m2 ? v : m2;
    a2 &= ~(1L << (i % 61)) | (long)(i & 1);
    o2 |= 1L << (v % 63);
    e2 ^= v * i;
    l2 = l2 && v >= 0;
    r2 = r2 || v == 12345;
  }
  long t[9] = {0, -1, -1, 1L << 62, -1, 0, 0, 1, 0};
  long *rw = malloc(n * sizeof(long));
  for (int i = 0; i < n; ++i) {
    long v = a[i] >> 20;
    rw[i] = v - i;
    t[0] += v;
    t[1] *= lfactor(i + 1);
    t[2] = v > t[2] ? v : t[2];
    t[3] = v < t[3] ? v : t[3];
    t[4] &= ~(1L << (i % 61)) | (long)(i & 1);
    t[5] |= 1L << (v % 63);
    t[6] ^= v * i;
    t[7] = t[7] && v >= 0;
    t[8] = t[8] || v == 12345;
  }
  printf("one kernel: %ld %ld %ld %ld 0x%016lx 0x%016lx 0x%016lx %ld %ld\n", s2,
         p2, x2, m2, a2, o2, e2, l2, r2);
  check("one kernel", s2 == t[0] && p2 == t[1] && x2 == t[2] && m2 == t[3] &&
                          a2 == t[4] && o2 == t[5] && e2 == t[6] &&
                          l2 == t[7] && r2 == t[8]);
  check_bytes("array written with the reductions", w, rw, n * sizeof(long));
  free(a);
  free(w);
  free(rw);
  return done();
}
// STATS: hetero-stats total

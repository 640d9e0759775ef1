#pragma STDC FP_CONTRACT OFF
// Reductions on unsigned and narrow integer types: unsigned int and
// unsigned long + * & | ^ max min (wrap-around arithmetic modulo 2^32 / 2^64
// is exact in any order, so the product of arbitrary odd factors is too),
// short and signed char + (every partial sum stays inside the type's range
// whatever the order) and max/min, and a reduction of a long over a loop
// with an unsigned counter. Compared with serial host loops.
// RUN: %clang-hetero %s -o %t
// RUN: env HETERO_STATS=1 HETERO_CHUNKS=4 %compare-fallback %t 2>%t.cpu | %FileCheck %s
// RUN: %FileCheck %s --check-prefix=STATS < %t.cpu
// RUN: env HETERO_STATS=1 HETERO_SIMULATE=3 %compare-fallback %t 2>%t.sim | %FileCheck %s
// RUN: %FileCheck %s --check-prefix=STATS < %t.sim
// CHECK: unsigned: 1695695840 2124098881 0x80402010 0x0f0f0000 0xa7b54f71 4294958184 798
// CHECK: unsigned long: 4441847193156847264 13992441126557398401 0x8040201008040201 0x00ff000000ff0000 0x2d418ecdfc146b00 18446714330942465835 0
// CHECK: unsigned int: ok
// CHECK: unsigned long: ok
// CHECK: short/char: sum=0 csum=60 max=3000 cmax=99 min=-2998
// CHECK: short/char: ok
// CHECK: unsigned counter: total=-250000
// CHECK: unsigned counter: ok
// CHECK: done failures=0
#include <stdlib.h>

#include "Inputs/split.h"

#define N 600000

int main(void) {
  const int n = N;
  unsigned *u = malloc(n * sizeof(unsigned));
  unsigned long *ul = malloc(n * sizeof(unsigned long));
  for (int i = 0; i < n; ++i) {
    u[i] = (unsigned)i * 2654435761u + 12345u;
    ul[i] = (unsigned long)i * 0x9E3779B97F4A7C15ul ^ ((unsigned long)i << 40);
  }
  unsigned us = 0, up = 1, ua = ~0u, uo = 0, ux = 0, umx = 0, umn = ~0u;
  unsigned long ls = 0, lp = 1, la = ~0ul, lo = 0, lx = 0, lmx = 0, lmn = ~0ul;

#pragma omp target data map(to : u[0 : n], ul[0 : n])
  {
// STATS-DAG: hetero-stats kernel={{.*}}_l[[@LINE+1]] launches=1 split=yes
#pragma omp target teams distribute parallel for reduction(+ : us)             \
    reduction(* : up) reduction(& : ua) reduction(| : uo) reduction(^ : ux)    \
    reduction(max : umx) reduction(min : umn)
    for (int i = 0; i < n; ++i) {
      us += u[i];
      up *= u[i] | 1u;
      ua &= u[i] | 0x80402010u;
      uo |= u[i] & 0x0f0f0000u;
      ux ^= u[i] >> (i % 7);
      umx = u[i] > umx ? u[i] : umx;
      umn = u[i] < umn ? u[i] : umn;
    }
// STATS-DAG: hetero-stats kernel={{.*}}_l[[@LINE+1]] launches=1 split=yes
#pragma omp target teams distribute parallel for reduction(+ : ls)             \
    reduction(* : lp) reduction(& : la) reduction(| : lo) reduction(^ : lx)    \
    reduction(max : lmx) reduction(min : lmn)
    for (int i = 0; i < n; ++i) {
      ls += ul[i];
      lp *= ul[i] | 1ul;
      la &= ul[i] | 0x8040201008040201ul;
      lo |= ul[i] & 0x00ff000000ff0000ul;
      lx ^= ul[i] * 5ul;
      lmx = ul[i] > lmx ? ul[i] : lmx;
      lmn = ul[i] < lmn ? ul[i] : lmn;
    }
  }
  unsigned rus = 0, rup = 1, rua = ~0u, ruo = 0, rux = 0, rumx = 0, rumn = ~0u;
  unsigned long rls = 0, rlp = 1, rla = ~0ul, rlo = 0, rlx = 0, rlmx = 0,
                rlmn = ~0ul;
  for (int i = 0; i < n; ++i) {
    rus += u[i];
    rup *= u[i] | 1u;
    rua &= u[i] | 0x80402010u;
    ruo |= u[i] & 0x0f0f0000u;
    rux ^= u[i] >> (i % 7);
    rumx = u[i] > rumx ? u[i] : rumx;
    rumn = u[i] < rumn ? u[i] : rumn;
    rls += ul[i];
    rlp *= ul[i] | 1ul;
    rla &= ul[i] | 0x8040201008040201ul;
    rlo |= ul[i] & 0x00ff000000ff0000ul;
    rlx ^= ul[i] * 5ul;
    rlmx = ul[i] > rlmx ? ul[i] : rlmx;
    rlmn = ul[i] < rlmn ? ul[i] : rlmn;
  }
  printf("unsigned: %u %u 0x%08x 0x%08x 0x%08x %u %u\n", us, up, ua, uo, ux,
         umx, umn);
  printf("unsigned long: %lu %lu 0x%016lx 0x%016lx 0x%016lx %lu %lu\n", ls, lp,
         la, lo, lx, lmx, lmn);
  check("unsigned int", us == rus && up == rup && ua == rua && uo == ruo &&
                            ux == rux && umx == rumx && umn == rumn);
  check("unsigned long", ls == rls && lp == rlp && la == rla && lo == rlo &&
                             lx == rlx && lmx == rlmx && lmn == rlmn);

  // short: values in -2..2 over 3000 iterations, char: 30 times +3 and 30
  // times -1; every partial sum stays in range whatever the order.
  const int m = 3000;
  short ss = 0, smx = -32768, smn = 32767;
  signed char cs = 0, cmx = -128;
// STATS-DAG: hetero-stats kernel={{.*}}_l[[@LINE+1]] launches=1 split=yes
#pragma omp target teams distribute parallel for reduction(+ : ss, cs)         \
    reduction(max : smx, cmx) reduction(min : smn)
  for (int i = 0; i < m; ++i) {
    ss += (short)(i % 5 - 2);
    cs += (signed char)(i % 100 == 0 ? 3 : (i % 100 == 50 ? -1 : 0));
    smx = (short)(i * 7 % 3001) > smx ? (short)(i * 7 % 3001) : smx;
    cmx = (signed char)(i % 100) > cmx ? (signed char)(i % 100) : cmx;
    smn = (short)(-(i * 11 % 2999)) < smn ? (short)(-(i * 11 % 2999)) : smn;
  }
  printf("short/char: sum=%d csum=%d max=%d cmax=%d min=%d\n", ss, cs, smx, cmx,
         smn);
  check("short/char",
        ss == 0 && cs == 60 && smx == 3000 && cmx == 99 && smn == -2998);

  long total = 0;
  const unsigned lo_u = 10u, hi_u = 500010u;
// STATS-DAG: hetero-stats kernel={{.*}}_l[[@LINE+1]] launches=1 split=yes
#pragma omp target teams distribute parallel for reduction(+ : total)
  for (unsigned k = lo_u; k < hi_u; ++k)
    total += (long)(k % 1000u) - 500;
  long rtotal = 0;
  for (unsigned k = lo_u; k < hi_u; ++k)
    rtotal += (long)(k % 1000u) - 500;
  printf("unsigned counter: total=%ld\n", total);
  check("unsigned counter", total == rtotal);
  free(u);
  free(ul);
  return done();
}
// STATS: hetero-stats total

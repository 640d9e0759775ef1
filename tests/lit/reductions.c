// Reductions on the device: + * max min on int, float and double; && || & |
// ^ on int; several reduction variables in one kernel; reductions over
// teams only, parallel only, and teams + parallel; the original value takes
// part. Every result is checked against a serial loop on the host. Floating
// point values are multiples of 1/4 with short mantissas and products are
// powers of two, so every order of evaluation gives the same bits.
// RUN: %clang-hetero -Wno-pass-failed %s -o %t
// RUN: env HETERO_INFO=1 %compare-fallback %t 2>%t.err | %FileCheck %s
// RUN: %FileCheck %s --check-prefix=INFO --implicit-check-not=error: < %t.err
// RUN: env HETERO_SIMULATE=2 HETERO_MEMBER=sim:0 HETERO_INFO=1 %compare-fallback %t 2>%t.sim.err | %FileCheck %s
// RUN: %FileCheck %s --check-prefix=SIM --implicit-check-not=error: --implicit-check-not=" on cpu" < %t.sim.err
// RUN: env HETERO_SIMULATE=2 %compare-fallback %t | %FileCheck %s
// CHECK: int: sum=4999950000 prod=-2048 max=99999 min=-49999 ok
// CHECK: float: sum=4193280.0 prod=0.03125 max=2047.5 min=-0.5 ok
// CHECK: double: sum=125000125000.00 prod=18446744073709551616 max=1000000 min=-1.25 ok
// CHECK: logical: and=1 or=1 and0=0 or0=0 ok
// CHECK: bitwise: and=0x0000f0f1 or=0x7fffffff xor=0x00005555 ok
// CHECK: several at once: 500500 1000 1 1000 ok
// CHECK: teams only: 8256 ok
// CHECK: parallel only: 8256 ok
// CHECK: parallel for simd: 8256 ok
// CHECK: initial values kept: 1100 ok
// CHECK: done failures=0
// INFO: hetero: launch {{.*}} {{(on (cpu|cuda:[0-9.]+) \(whole kernel:|split: )}}
// SIM: hetero: launch {{.*}} on sim:0 (whole kernel: pinned by HETERO_MEMBER)
#include <stdio.h>

static int failures;
static const char *verdict(int ok) {
  failures += !ok;
  return ok ? "ok" : "FAIL";
}

// Inputs shared by the device kernels and the host references.
static inline int ifactor(int i) { return i % 10000 == 1 ? -2 : 1; } // 10 x -2
static inline int ival(int i) { return (i % 2) ? i / 2 : -(i / 2); }
static inline float fval(int i) {
  return (i % 2 ? 0.5f : 0.0f) + (float)(i / 2);
}
static inline float ffactor(int i) {
  return i % 1000 == 3 ? 0.5f : 1.0f;
} // 4 x 1/2
static inline double dfactor(int i) {
  return i % 15625 == 0 ? 2.0 : 1.0;
} // 65 x 2

int main(void) {
  // int: + * max min
  const int N = 100000;
  long isum = 0;
  int iprod = 2, imax = -1000000, imin = 1000000;
#pragma omp target teams distribute parallel for map(                          \
        tofrom : isum, iprod, imax, imin) reduction(+ : isum)                  \
    reduction(* : iprod) reduction(max : imax) reduction(min : imin)
  for (int i = 0; i < N; ++i) {
    isum += i;
    iprod *= ifactor(i) * (i == 77 ? -1 : 1);
    imax = i > imax ? i : imax;
    imin = ival(i) < imin ? ival(i) : imin;
  }
  {
    long rs = 0;
    int rp = 2, rmax = -1000000, rmin = 1000000;
    for (int i = 0; i < N; ++i) {
      rs += i;
      rp *= ifactor(i) * (i == 77 ? -1 : 1);
      rmax = i > rmax ? i : rmax;
      rmin = ival(i) < rmin ? ival(i) : rmin;
    }
    printf("int: sum=%ld prod=%d max=%d min=%d %s\n", isum, iprod, imax, imin,
           verdict(isum == rs && iprod == rp && imax == rmax && imin == rmin));
  }

  // float: + * max min (the sum stays below 2^23 in steps of 1/2: exact)
  const int NF = 4096;
  float fsum = 0, fprod = 1, fmax = -1e30f, fmin = 1e30f;
#pragma omp target teams distribute parallel for map(                          \
        tofrom : fsum, fprod, fmax, fmin) reduction(+ : fsum)                  \
    reduction(* : fprod) reduction(max : fmax) reduction(min : fmin)
  for (int i = 0; i < NF; ++i) {
    fsum += fval(i);
    fprod *= ffactor(i);
    fmax = fval(i) > fmax ? fval(i) : fmax;
    fmin = fval(i) - 0.5f < fmin ? fval(i) - 0.5f : fmin;
  }
  {
    float rs = 0, rp = 1, rmax = -1e30f, rmin = 1e30f;
    for (int i = 0; i < NF; ++i) {
      rs += fval(i);
      rp *= ffactor(i);
      rmax = fval(i) > rmax ? fval(i) : rmax;
      rmin = fval(i) - 0.5f < rmin ? fval(i) - 0.5f : rmin;
    }
    printf("float: sum=%.1f prod=%g max=%g min=%g %s\n", fsum, fprod, fmax,
           fmin,
           verdict(fsum == rs && fprod == rp && fmax == rmax && fmin == rmin));
  }

  // double: + * max min
  const int ND = 1000000;
  double dsum = 0, dprod = 1, dmax = -1e300, dmin = 1e300;
#pragma omp target teams distribute parallel for map(                          \
        tofrom : dsum, dprod, dmax, dmin) reduction(+ : dsum)                  \
    reduction(* : dprod) reduction(max : dmax) reduction(min : dmin)
  for (int i = 0; i <= ND; ++i) {
    dsum += 0.25 * i;
    dprod *= dfactor(i);
    dmax = i > dmax ? i : dmax;
    dmin = (-1.25 + (i % 3)) < dmin ? (-1.25 + (i % 3)) : dmin;
  }
  dprod /= 2.0;
  {
    double rs = 0, rp = 1, rmax = -1e300, rmin = 1e300;
    for (int i = 0; i <= ND; ++i) {
      rs += 0.25 * i;
      rp *= dfactor(i);
      rmax = i > rmax ? i : rmax;
      rmin = (-1.25 + (i % 3)) < rmin ? (-1.25 + (i % 3)) : rmin;
    }
    rp /= 2.0;
    printf("double: sum=%.2f prod=%.0f max=%.0f min=%g %s\n", dsum, dprod, dmax,
           dmin,
           verdict(dsum == rs && dprod == rp && dmax == rmax && dmin == rmin));
  }

  // logical && ||
  int land = 1, lor = 0, land0 = 1, lor0 = 0;
#pragma omp target teams distribute parallel for map(tofrom : land, lor,       \
                                                         land0, lor0)          \
    reduction(&& : land, land0) reduction(|| : lor, lor0)
  for (int i = 0; i < 5000; ++i) {
    land = land && (i >= 0);
    lor = lor || (i == 4321);
    land0 = land0 && (i != 2500);
    lor0 = lor0 || (i < 0);
  }
  printf("logical: and=%d or=%d and0=%d or0=%d %s\n", land, lor, land0, lor0,
         verdict(land == 1 && lor == 1 && land0 == 0 && lor0 == 0));

  // bitwise & | ^
  unsigned band = 0xffffffffu, bor = 0, bxor = 0;
#pragma omp target teams distribute parallel for map(tofrom : band, bor, bxor) \
    reduction(& : band) reduction(| : bor) reduction(^ : bxor)
  for (int i = 0; i < 31; ++i) {
    band &= 0xf0f1u | (1u << (i + 1));
    bor |= 1u << i;
    bxor ^= (i % 2 == 0 && i < 16) ? (1u << i) : 0u;
  }
  {
    unsigned ra = 0xffffffffu, ro = 0, rx = 0;
    for (int i = 0; i < 31; ++i) {
      ra &= 0xf0f1u | (1u << (i + 1));
      ro |= 1u << i;
      rx ^= (i % 2 == 0 && i < 16) ? (1u << i) : 0u;
    }
    printf("bitwise: and=0x%08x or=0x%08x xor=0x%08x %s\n", band, bor, bxor,
           verdict(band == ra && bor == ro && bxor == rx));
  }

  // several reduction variables of different types in one loop (implicitly
  // mapped tofrom)
  long a = 0;
  int cnt = 0, allpos = 1;
  double mx = 0;
#pragma omp target teams distribute parallel for reduction(+ : a, cnt)         \
    reduction(&& : allpos) reduction(max : mx)
  for (int i = 1; i <= 1000; ++i) {
    a += i;
    cnt += 1;
    allpos = allpos && i > 0;
    mx = i > mx ? i : mx;
  }
  printf("several at once: %ld %d %d %.0f %s\n", a, cnt, allpos, mx,
         verdict(a == 500500 && cnt == 1000 && allpos == 1 && mx == 1000.0));

  // teams only / parallel only / parallel for simd
  long t = 0, p = 0, q = 0;
#pragma omp target teams distribute reduction(+ : t)
  for (int i = 0; i <= 128; ++i)
    t += i;
#pragma omp target parallel for reduction(+ : p)
  for (int i = 0; i <= 128; ++i)
    p += i;
#pragma omp target teams distribute parallel for simd reduction(+ : q)
  for (int i = 0; i <= 128; ++i)
    q += i;
  printf("teams only: %ld %s\n", t, verdict(t == 8256));
  printf("parallel only: %ld %s\n", p, verdict(p == 8256));
  printf("parallel for simd: %ld %s\n", q, verdict(q == 8256));

  // The original value takes part in the reduction.
  long init = 1000;
#pragma omp target teams distribute parallel for reduction(+ : init)
  for (int i = 0; i < 100; ++i)
    init += 1;
  printf("initial values kept: %ld %s\n", init, verdict(init == 1100));
  printf("done failures=%d\n", failures);
  return failures != 0;
}

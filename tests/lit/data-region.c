// A target data region with map(to/from/tofrom) keeps its arrays resident
// across several kernels. With the argument "separate" (hetero only: device
// memory is not the host's) it also checks that nothing is copied in or out
// between the kernels of the region.
// RUN: %clang-hetero %s -o %t
// RUN: env HETERO_INFO=1 %compare-fallback %t 2>%t.err | %FileCheck %s
// RUN: %FileCheck %s --check-prefix=INFO --implicit-check-not=error: < %t.err
// RUN: env HETERO_SIMULATE=2 HETERO_MEMBER=sim:0 HETERO_INFO=1 %compare-fallback %t 2>%t.sim.err | %FileCheck %s
// RUN: %FileCheck %s --check-prefix=SIM --implicit-check-not=error: --implicit-check-not=" on cpu" < %t.sim.err
// RUN: env HETERO_SIMULATE=2 %compare-fallback %t | %FileCheck %s
// RUN: %run-hetero %t separate | %FileCheck %s --check-prefixes=CHECK,SEP
// RUN: env HETERO_SIMULATE=2 HETERO_MEMBER=sim:1 %run-hetero %t separate | %FileCheck %s --check-prefixes=CHECK,SEP
// SEP: host copy of c untouched inside the region: ok
// SEP: device kept its copy of a: ok
// CHECK: sum a=499500 b=1000 c=1499500 d=997000
// CHECK: c values: ok
// CHECK: d values: ok
// CHECK: a unchanged: ok
// CHECK: done failures=0
// INFO: hetero: launch {{.*}} {{(on (cpu|cuda:[0-9.]+) \(whole kernel:|split: )}}
// SIM: hetero: launch {{.*}} on sim:0 (whole kernel: pinned by HETERO_MEMBER)
#include <stdio.h>

#include "Inputs/check.h"

#define N 1000

int main(int argc, char **argv) {
  int separate = argc > 1;
  static long a[N], b[N], c[N], d[N];
  for (int i = 0; i < N; ++i) {
    a[i] = i;
    b[i] = 1;
    c[i] = -7;
    d[i] = 2 * i;
  }
#pragma omp target data map(to : a, b) map(from : c) map(tofrom : d)
  {
    // Kernel 1: c = a + b (c has no defined device contents before).
#pragma omp target teams distribute parallel for
    for (int i = 0; i < N; ++i)
      c[i] = a[i] + b[i];
    // Kernel 2: c += 2a (reads the device value of c written by kernel 1).
#pragma omp target teams distribute parallel for
    for (int i = 0; i < N; ++i)
      c[i] = c[i] + 2 * a[i] - 2 * i + b[i] - 1; // = i + 1 + 2i - 2i = i + 1
    // Kernel 3 (twice): d -= b.
    for (int r = 0; r < 2; ++r) {
#pragma omp target teams distribute parallel for
      for (int i = 0; i < N; ++i)
        d[i] -= b[i];
    }
    if (separate) {
      // Nothing comes back before the end of the region...
      int untouched = 1;
      for (int i = 0; i < N; ++i)
        untouched &= c[i] == -7;
      check("host copy of c untouched inside the region", untouched);
      // ...and nothing goes in again: the device keeps its copy of a.
      for (int i = 0; i < N; ++i)
        a[i] = -1000000;
    }
    // Kernel 4: c += 2a (c = 3i + 1).
#pragma omp target teams distribute parallel for
    for (int i = 0; i < N; ++i)
      c[i] = c[i] + 2 * a[i];
    if (separate) {
      for (int i = 0; i < N; ++i)
        a[i] = i;
      check("device kept its copy of a", 1);
    }
  }
  long sa = 0, sb = 0, sc = 0, sd = 0;
  int cok = 1, dok = 1, aok = 1;
  for (int i = 0; i < N; ++i) {
    sa += a[i];
    sb += b[i];
    sc += c[i];
    sd += d[i];
    cok &= c[i] == 3 * i + 1;
    dok &= d[i] == 2 * i - 2;
    aok &= a[i] == i;
  }
  printf("sum a=%ld b=%ld c=%ld d=%ld\n", sa, sb, sc, sd);
  check("c values", cok);
  check("d values", dok);
  check("a unchanged", aok);
  printf("done failures=%d\n", failures);
  return failures != 0;
}

// Partial mappings: a section a[100:200] of a larger array, two disjoint
// sections of one array mapped at once, a pointer into the middle of a mapped
// section, one section used through a pointer and through the array (the
// kernel argument of the latter is the array's base, before the mapped
// bytes), and nested mappings where an inner construct maps a sub-section
// of what an outer data region mapped (the outer copy must be reused). With
// the argument "separate" (hetero only) it also checks that the inner
// mapping copied nothing.
// RUN: %clang-hetero %s -o %t
// RUN: env HETERO_INFO=1 %compare-fallback %t 2>%t.err | %FileCheck %s
// RUN: %FileCheck %s --check-prefix=INFO --implicit-check-not=error: < %t.err
// RUN: env HETERO_SIMULATE=2 HETERO_MEMBER=sim:0 HETERO_INFO=1 %compare-fallback %t 2>%t.sim.err | %FileCheck %s
// RUN: %FileCheck %s --check-prefix=SIM --implicit-check-not=error: --implicit-check-not=" on cpu" < %t.sim.err
// RUN: %run-hetero %t separate | %FileCheck %s --check-prefixes=CHECK,SEP
// RUN: env HETERO_SIMULATE=2 HETERO_MEMBER=sim:0 %run-hetero %t separate | %FileCheck %s --check-prefixes=CHECK,SEP
// CHECK: section a[100:200]: sum=40000 ok
// CHECK: outside the section untouched: ok
// CHECK: two sections of one array: ok
// CHECK: pointer into a section: ok
// SEP: inner sub-section map reused the outer copy: ok
// SEP: inner tofrom copied nothing back: ok
// CHECK: nested mappings: sum=613545 ok
// CHECK: section through a pointer and through the array: ok
// CHECK: heap section: ok
// CHECK: done failures=0
// INFO: hetero: launch {{.*}} {{(on (cpu|cuda:[0-9.]+) \(whole kernel:|split: )}}
// SIM: hetero: launch {{.*}} on sim:0 (whole kernel: pinned by HETERO_MEMBER)
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>

#include "Inputs/check.h"

#define N 1000

static int a[N];

int main(int argc, char **argv) {
  int separate = argc > 1;
  for (int i = 0; i < N; ++i)
    a[i] = i;

  // A section of a global array.
#pragma omp target teams distribute parallel for map(tofrom : a[100 : 200])
  for (int i = 100; i < 300; ++i)
    a[i] = a[i] + (i & 1);
  {
    long s = 0;
    int ok = 1;
    for (int i = 100; i < 300; ++i) {
      s += a[i];
      ok &= a[i] == i + (i & 1);
    }
    printf("section a[100:200]: sum=%ld %s\n", s, ok ? "ok" : "FAIL");
    failures += !ok;
    ok = 1;
    for (int i = 0; i < N; ++i)
      if (i < 100 || i >= 300)
        ok &= a[i] == i;
    check("outside the section untouched", ok);
  }

  // Two disjoint sections of one array, mapped separately, used together
  // through pointers (implicitly mapped as zero-length sections).
  int *lo = a, *hi = a + 500;
#pragma omp target enter data map(to : a[0 : 100])
#pragma omp target enter data map(to : a[500 : 100])
#pragma omp target teams distribute parallel for
  for (int i = 0; i < 100; ++i) {
    int t = lo[i];
    lo[i] = hi[i];
    hi[i] = t;
  }
#pragma omp target exit data map(from : a[0 : 100])
#pragma omp target exit data map(from : a[500 : 100])
  {
    int ok = 1;
    for (int i = 0; i < 100; ++i)
      ok &= a[i] == 500 + i && a[500 + i] == i;
    check("two sections of one array", ok);
    for (int i = 0; i < 100; ++i) {
      a[i] = i;
      a[500 + i] = 500 + i;
    }
  }

  // A pointer into the middle of a mapped section.
#pragma omp target data map(tofrom : a[200 : 400])
  {
    int *mid = &a[400];
#pragma omp target teams distribute parallel for
    for (int i = -100; i < 100; ++i)
      mid[i] = mid[i] * 2 - (400 + i); // = a[400+i]
#pragma omp target teams distribute parallel for
    for (int i = -100; i < 100; ++i)
      mid[i] += 1;
  }
  {
    int ok = 1;
    for (int i = 0; i < N; ++i)
      ok &=
          a[i] == i + (i >= 300 && i < 500) + (i >= 100 && i < 300 && (i & 1));
    check("pointer into a section", ok);
    for (int i = 0; i < N; ++i)
      a[i] = i;
  }

  // Nested: the outer region maps the whole array, inner constructs map
  // sub-sections and must find them inside the outer mapping.
#pragma omp target data map(tofrom : a)
  {
#pragma omp target teams distribute parallel for map(tofrom : a[250 : 100])
    for (int i = 250; i < 350; ++i)
      a[i] += 1000;
    if (separate) {
      check("inner sub-section map reused the outer copy",
            omp_target_is_present(&a[250], omp_get_default_device()));
      int ok = 1;
      for (int i = 250; i < 350; ++i)
        ok &= a[i] == i;
      check("inner tofrom copied nothing back", ok);
    }
#pragma omp target map(to : a[0 : 10]) map(tofrom : a[990 : 10])
    for (int i = 0; i < 10; ++i)
      a[990 + i] += a[i] + a[300];
#pragma omp target teams distribute parallel for
    for (int i = 0; i < N; ++i)
      a[i] += 1;
  }
  {
    long s = 0;
    int ok = 1;
    for (int i = 0; i < N; ++i) {
      s += a[i];
      int want = i + 1 + (i >= 250 && i < 350 ? 1000 : 0) +
                 (i >= 990 ? (i - 990) + 1300 : 0);
      ok &= a[i] == want;
    }
    printf("nested mappings: sum=%ld %s\n", s, ok ? "ok" : "FAIL");
    failures += !ok;
  }

  // One section used in one data region both through a pointer to its first
  // element and through the array with the section's bounds: both name the
  // same device copy.
  for (int i = 0; i < N; ++i)
    a[i] = i;
#pragma omp target data map(tofrom : a[100 : 200])
  {
    int *first = &a[100];
#pragma omp target teams distribute parallel for
    for (int i = 0; i < 200; ++i)
      first[i] += 1;
#pragma omp target teams distribute parallel for map(tofrom : a[100 : 200])
    for (int i = 100; i < 300; ++i)
      a[i] *= 2;
#pragma omp target teams distribute parallel for
    for (int i = 0; i < 200; ++i)
      first[i] += 3;
  }
  {
    int ok = 1;
    for (int i = 0; i < N; ++i)
      ok &= a[i] == (i >= 100 && i < 300 ? 2 * (i + 1) + 3 : i);
    check("section through a pointer and through the array", ok);
  }

  // Heap array: outer maps p[0:N], inner maps p[10:20] from a pointer that
  // points into the middle of it.
  double *p = malloc(N * sizeof(double));
  for (int i = 0; i < N; ++i)
    p[i] = i;
  double *q = p + 10;
#pragma omp target data map(tofrom : p[0 : N])
  {
#pragma omp target map(tofrom : q[0 : 20])
    for (int i = 0; i < 20; ++i)
      q[i] = -q[i];
#pragma omp target teams distribute parallel for
    for (int i = 0; i < N; ++i)
      p[i] = p[i] * 2;
  }
  {
    int ok = 1;
    for (int i = 0; i < N; ++i)
      ok &= p[i] == (i >= 10 && i < 30 ? -2.0 * i : 2.0 * i);
    check("heap section", ok);
  }
  free(p);
  printf("done failures=%d\n", failures);
  return failures != 0;
}

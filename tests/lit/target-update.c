// target update to/from in the middle of a data region, of whole arrays and
// of sub-sections (a[10:20]). With the argument "separate" (hetero only) it
// also checks that an update of a section moves that section and no more.
// RUN: %clang-hetero %s -o %t
// RUN: env HETERO_INFO=1 %compare-fallback %t 2>%t.err | %FileCheck %s
// RUN: %FileCheck %s --check-prefix=INFO --implicit-check-not=error: < %t.err
// RUN: env HETERO_SIMULATE=2 HETERO_MEMBER=sim:0 HETERO_INFO=1 %compare-fallback %t 2>%t.sim.err | %FileCheck %s
// RUN: %FileCheck %s --check-prefix=SIM --implicit-check-not=error: --implicit-check-not=" on cpu" < %t.sim.err
// RUN: %run-hetero %t separate | %FileCheck %s --check-prefixes=CHECK,SEP
// RUN: env HETERO_SIMULATE=2 HETERO_MEMBER=sim:1 %run-hetero %t separate | %FileCheck %s --check-prefixes=CHECK,SEP
// CHECK: after update from: sum=6000 ok
// CHECK: after update to of a[10:20]: sum=6600 ok
// SEP: update from of a[40:20] left the rest of the host copy alone: ok
// SEP: update to of a[70:5] moved no other element: ok
// CHECK: section round trip: ok
// CHECK: pointer array b[100:50] sum=12500 ok
// CHECK: final a sum=9000 ok
// CHECK: done failures=0
// INFO: hetero: launch {{.*}} {{(on (cpu|cuda:[0-9.]+) \(whole kernel:|split: )}}
// SIM: hetero: launch {{.*}} on sim:{{[01]}} (whole kernel: pinned by HETERO_MEMBER)
#include <stdio.h>
#include <stdlib.h>

#include "Inputs/check.h"

#define N 100

static long sum(const int *a, int lo, int hi) {
  long s = 0;
  for (int i = lo; i < hi; ++i)
    s += a[i];
  return s;
}

int main(int argc, char **argv) {
  int separate = argc > 1;
  int a[N];
  for (int i = 0; i < N; ++i)
    a[i] = i + 10; // sum 5950
#pragma omp target data map(tofrom : a)
  {
#pragma omp target teams distribute parallel for
    for (int i = 0; i < N; ++i)
      a[i] = a[i] + ((i % 2) ? 1 : 0); // +50 in all
#pragma omp target update from(a)
    {
      long s = sum(a, 0, N);
      int ok = s == 6000;
      for (int i = 0; i < N; ++i)
        ok &= a[i] == i + 10 + (i % 2);
      printf("after update from: sum=%ld %s\n", s, ok ? "ok" : "FAIL");
      failures += !ok;
    }

    // Host changes a[10:20] and pushes only that section.
    for (int i = 10; i < 30; ++i)
      a[i] = 2 * a[i];
#pragma omp target update to(a[10 : 20])
    // The device checks its copy: the section is new, the rest unchanged.
    int bad = 0;
#pragma omp target teams distribute parallel for reduction(+ : bad)
    for (int i = 0; i < N; ++i)
      bad += a[i] != (i >= 10 && i < 30 ? 2 : 1) * (i + 10 + (i % 2));
#pragma omp target update from(a)
    {
      long s = sum(a, 0, N);
      int ok = bad == 0;
      for (int i = 0; i < N; ++i)
        ok &= a[i] == (i >= 10 && i < 30 ? 2 : 1) * (i + 10 + (i % 2));
      printf("after update to of a[10:20]: sum=%ld %s\n", s,
             ok ? "ok" : "FAIL");
      failures += !ok;
    }

    // Device changes everything, host fetches only a[40:20].
#pragma omp target teams distribute parallel for
    for (int i = 0; i < N; ++i)
      a[i] = a[i] + 1000;
    if (separate) {
      for (int i = 0; i < N; ++i)
        a[i] = -1;
#pragma omp target update from(a[40 : 20])
      int ok = 1;
      for (int i = 0; i < N; ++i)
        ok &=
            (i >= 40 && i < 60) ? a[i] == 1000 + i + 10 + (i % 2) : a[i] == -1;
      check("update from of a[40:20] left the rest of the host copy alone", ok);
      // Host writes a whole new array, pushes a[70:5] only.
      for (int i = 0; i < N; ++i)
        a[i] = -2;
#pragma omp target update to(a[70 : 5])
#pragma omp target update from(a)
      ok = 1;
      for (int i = 0; i < N; ++i)
        ok &= (i >= 70 && i < 75)
                  ? a[i] == -2
                  : a[i] ==
                        (i >= 10 && i < 30 ? 2 : 1) * (i + 10 + (i % 2)) + 1000;
      check("update to of a[70:5] moved no other element", ok);
      // Back to what the common path has on the device.
      for (int i = 70; i < 75; ++i)
        a[i] = i + 10 + (i % 2) + 1000;
#pragma omp target update to(a[70 : 5])
    }
#pragma omp target update from(a[40 : 20])
    {
      int ok = 1;
      for (int i = 40; i < 60; ++i)
        ok &= a[i] == 1000 + i + 10 + (i % 2);
      // Round trip of a section: host edits a[40:20], device doubles it.
      for (int i = 40; i < 60; ++i)
        a[i] -= 1000;
#pragma omp target update to(a[40 : 20])
#pragma omp target teams distribute parallel for
      for (int i = 40; i < 60; ++i)
        a[i] = a[i] * 3;
#pragma omp target update from(a[40 : 20])
      for (int i = 40; i < 60; ++i)
        ok &= a[i] == 3 * (i + 10 + (i % 2));
      check("section round trip", ok);
    }
    // Take the device's 1000 back off everywhere but a[40:20].
#pragma omp target teams distribute parallel for
    for (int i = 0; i < N; ++i)
      if (i < 40 || i >= 60)
        a[i] -= 1000;
  }

  // A heap array mapped as a section of a pointer; update of a sub-section.
  int *b = malloc(1000 * sizeof(int));
  for (int i = 0; i < 1000; ++i)
    b[i] = i;
#pragma omp target data map(to : b[100 : 500])
  {
#pragma omp target teams distribute parallel for
    for (int i = 100; i < 600; ++i)
      b[i] = b[i] * 2 + 1;
#pragma omp target update from(b[100 : 50])
    long s = sum(b, 100, 150);
    int ok = s == 12500;
    for (int i = 100; i < 150; ++i)
      ok &= b[i] == 2 * i + 1;
    printf("pointer array b[100:50] sum=%ld %s\n", s, ok ? "ok" : "FAIL");
    failures += !ok;
  }
  free(b);

  long s = sum(a, 0, N);
  int ok = 1;
  for (int i = 0; i < N; ++i) {
    int base = (i >= 10 && i < 30 ? 2 : 1) * (i + 10 + (i % 2));
    ok &= a[i] == (i >= 40 && i < 60 ? 3 * (i + 10 + (i % 2)) : base);
  }
  printf("final a sum=%ld %s\n", s, ok ? "ok" : "FAIL");
  failures += !ok;
  printf("done failures=%d\n", failures);
  return failures != 0;
}

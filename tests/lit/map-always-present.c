// Map-type modifiers: always (to/from/tofrom copies even when the data is
// already mapped) and present (on mapped data it maps nothing new; on
// unmapped data the program stops with an error naming 'present').
// RUN: %clang-hetero %s -o %t
// RUN: env HETERO_INFO=1 %compare-fallback %t 2>%t.err | %FileCheck %s
// RUN: %FileCheck %s --check-prefix=INFO --implicit-check-not=error: < %t.err
// RUN: env HETERO_SIMULATE=2 HETERO_MEMBER=sim:0 HETERO_INFO=1 %compare-fallback %t 2>%t.sim.err | %FileCheck %s
// RUN: %FileCheck %s --check-prefix=SIM --implicit-check-not=error: --implicit-check-not=" on cpu" < %t.sim.err
// RUN: %run-hetero %t separate | %FileCheck %s --check-prefixes=CHECK,SEP
// RUN: env HETERO_SIMULATE=2 HETERO_MEMBER=sim:0 %run-hetero %t separate | %FileCheck %s --check-prefixes=CHECK,SEP
//
// map(present: ...) of data that is not mapped must fail, whether the
// runtime aborts or exits with an error status.
// RUN: %run-hetero %t missing >%t.missing 2>&1 || echo "exit status nonzero" >>%t.missing
// RUN: %FileCheck %s --check-prefix=MISSING < %t.missing
// RUN: env HETERO_SIMULATE=2 %run-hetero %t missing >%t.missing.sim 2>&1 || echo "exit status nonzero" >>%t.missing.sim
// RUN: %FileCheck %s --check-prefix=MISSING < %t.missing.sim
// RUN: %run-hetero %t missing-update >%t.missing.upd 2>&1 || echo "exit status nonzero" >>%t.missing.upd
// RUN: %FileCheck %s --check-prefix=MISSING < %t.missing.upd
//
// SEP: without always, mapped data is not copied again: ok
// CHECK: always to: ok
// CHECK: always from: ok
// CHECK: always tofrom: ok
// CHECK: present on mapped data: ok
// CHECK: present on enter data'd pointer section: ok
// CHECK: update to/from present: ok
// CHECK: done failures=0
// INFO: hetero: launch {{.*}} {{(on (cpu|cuda:[0-9.]+) \(whole kernel:|split: )}}
// SIM: hetero: launch {{.*}} on sim:0 (whole kernel: pinned by HETERO_MEMBER)
// MISSING: about to map unmapped data
// MISSING-NOT: unmapped data was mapped
// MISSING: {{[Pp]}}resent
// MISSING-NOT: unmapped data was mapped
// MISSING: exit status nonzero
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "Inputs/check.h"

#define N 256

int main(int argc, char **argv) {
  int separate = argc > 1 && !strcmp(argv[1], "separate");
  int a[N], b[N], c[N];
  if (argc > 1 && !strcmp(argv[1], "missing")) {
    int x[N];
    for (int i = 0; i < N; ++i)
      x[i] = i;
    printf("about to map unmapped data\n");
    fflush(stdout);
#pragma omp target map(present, tofrom : x)
    for (int i = 0; i < N; ++i)
      x[i] += 1;
    printf("unmapped data was mapped: x[1]=%d\n", x[1]);
    return 0;
  }
  if (argc > 1 && !strcmp(argv[1], "missing-update")) {
    int x[N];
    for (int i = 0; i < N; ++i)
      x[i] = i;
    printf("about to map unmapped data\n");
    fflush(stdout);
#pragma omp target update to(present : x)
    printf("unmapped data was mapped by an update\n");
    return 0;
  }

  for (int i = 0; i < N; ++i) {
    a[i] = i;
    b[i] = 0;
    c[i] = 2 * i;
  }
#pragma omp target data map(to : a) map(alloc : b) map(tofrom : c)
  {
    for (int i = 0; i < N; ++i)
      a[i] = 10 * i; // host only: the device still has a[i] = i
    if (separate) {
#pragma omp target map(to : a) map(from : b)
      for (int i = 0; i < N; ++i)
        b[i] = a[i];
      // from on b is not done either (b is mapped by the region): fetch.
#pragma omp target update from(b)
      int ok = 1;
      for (int i = 0; i < N; ++i)
        ok &= b[i] == i;
      check("without always, mapped data is not copied again", ok);
    }
    // always, to: the new host values go to the device.
#pragma omp target map(always, to : a) map(from : b)
    for (int i = 0; i < N; ++i)
      b[i] = a[i] + 1;
#pragma omp target update from(b)
    {
      int ok = 1;
      for (int i = 0; i < N; ++i)
        ok &= b[i] == 10 * i + 1;
      check("always to", ok);
    }
    // always, from: copied back at the end of the construct even though the
    // region keeps b mapped.
    for (int i = 0; i < N; ++i)
      b[i] = -1;
#pragma omp target map(always, from : b)
    for (int i = 0; i < N; ++i)
      b[i] = 3 * i;
    {
      int ok = 1;
      for (int i = 0; i < N; ++i)
        ok &= b[i] == 3 * i;
      check("always from", ok);
    }
    // always, tofrom: in and out.
    for (int i = 0; i < N; ++i)
      c[i] += 5;
#pragma omp target map(always, tofrom : c)
    for (int i = 0; i < N; ++i)
      c[i] *= 2;
    {
      int ok = 1;
      for (int i = 0; i < N; ++i)
        ok &= c[i] == 4 * i + 10;
      check("always tofrom", ok);
    }
    // present on mapped data: uses the region's copies.
#pragma omp target map(present, to : a) map(present, tofrom : c)
    for (int i = 0; i < N; ++i)
      c[i] += a[i];
#pragma omp target update from(c)
    {
      int ok = 1;
      for (int i = 0; i < N; ++i)
        ok &= c[i] == 14 * i + 10;
      check("present on mapped data", ok);
    }
  }

  int *p = malloc(1000 * sizeof(int));
  for (int i = 0; i < 1000; ++i)
    p[i] = i;
#pragma omp target enter data map(to : p[0 : 1000])
  // A sub-section of the mapped section is present.
#pragma omp target map(present, tofrom : p[100 : 200])
  for (int i = 100; i < 300; ++i)
    p[i] += 1;
#pragma omp target exit data map(from : p[0 : 1000])
  {
    int ok = 1;
    for (int i = 0; i < 1000; ++i)
      ok &= p[i] == i + (i >= 100 && i < 300);
    check("present on enter data'd pointer section", ok);
  }

#pragma omp target enter data map(alloc : p[0 : 1000])
  for (int i = 0; i < 1000; ++i)
    p[i] = 7 * i;
#pragma omp target update to(present : p[0 : 1000])
#pragma omp target teams distribute parallel for
  for (int i = 0; i < 1000; ++i)
    p[i] -= i;
#pragma omp target update from(present : p[500 : 500])
#pragma omp target update from(present : p[0 : 500])
#pragma omp target exit data map(delete : p[0 : 1000])
  {
    int ok = 1;
    for (int i = 0; i < 1000; ++i)
      ok &= p[i] == 6 * i;
    check("update to/from present", ok);
  }
  free(p);
  printf("done failures=%d\n", failures);
  return failures != 0;
}

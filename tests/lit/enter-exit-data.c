// Unstructured mapping: target enter data (to, alloc) and target exit data
// (from, release, delete), with reference counts. With the argument
// "separate" (hetero only) it also checks when copies happen and that
// deleted data is gone from the device.
// RUN: %clang-hetero %s -o %t
// RUN: env HETERO_INFO=1 %compare-fallback %t 2>%t.err | %FileCheck %s
// RUN: %FileCheck %s --check-prefix=INFO --implicit-check-not=error: < %t.err
// RUN: env HETERO_SIMULATE=2 HETERO_MEMBER=sim:0 HETERO_INFO=1 %compare-fallback %t 2>%t.sim.err | %FileCheck %s
// RUN: %FileCheck %s --check-prefix=SIM --implicit-check-not=error: --implicit-check-not=" on cpu" < %t.sim.err
// RUN: %run-hetero %t separate | %FileCheck %s --check-prefixes=CHECK,SEP
// RUN: env HETERO_SIMULATE=2 HETERO_MEMBER=sim:0 %run-hetero %t separate | %FileCheck %s --check-prefixes=CHECK,SEP
// CHECK: y = 2x: ok
// CHECK: sum y=999000
// SEP: x released, y gone after exit data: ok
// SEP: z still present after one exit data: ok
// SEP: exit data from with count 2 did not copy: ok
// CHECK: z = z0 + 2: ok
// CHECK: sum z=502500
// SEP: z gone: ok
// CHECK: scratch result: ok
// CHECK: sum out=999000
// SEP: scratch deleted: ok
// SEP: delete ignores the reference count: ok
// CHECK: done failures=0
// INFO: hetero: launch {{.*}} {{(on (cpu|cuda:[0-9.]+) \(whole kernel:|split: )}}
// SIM: hetero: launch {{.*}} on sim:0 (whole kernel: pinned by HETERO_MEMBER)
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>

#include "Inputs/check.h"

#define N 1000

int main(int argc, char **argv) {
  int separate = argc > 1;
  int dev = omp_get_default_device();
  long *x = malloc(N * sizeof(long)), *y = malloc(N * sizeof(long));
  long *z = malloc(N * sizeof(long)), *tmp = malloc(N * sizeof(long));
  long *out = malloc(N * sizeof(long)), *v = malloc(N * sizeof(long));
  for (int i = 0; i < N; ++i) {
    x[i] = i;
    y[i] = -1;
    z[i] = i + 1;
    tmp[i] = 0;
    out[i] = 0;
    v[i] = i;
  }

  // to + alloc, then from + release.
#pragma omp target enter data map(to : x[0 : N]) map(alloc : y[0 : N])
#pragma omp target teams distribute parallel for
  for (int i = 0; i < N; ++i)
    y[i] = 2 * x[i];
#pragma omp target exit data map(from : y[0 : N]) map(release : x[0 : N])
  {
    int ok = 1;
    long s = 0;
    for (int i = 0; i < N; ++i) {
      ok &= y[i] == 2 * i;
      s += y[i];
    }
    check("y = 2x", ok);
    printf("sum y=%ld\n", s);
  }
  if (separate)
    check("x released, y gone after exit data",
          !omp_target_is_present(x, dev) && !omp_target_is_present(y, dev));

  // Reference counts: two enter data, two exit data; only the last copies.
#pragma omp target enter data map(to : z[0 : N])
  if (separate)
    z[5] = 99999; // the device copy exists: the next enter data must not copy
#pragma omp target enter data map(to : z[0 : N])
  if (separate)
    z[5] = 6;
#pragma omp target teams distribute parallel for
  for (int i = 0; i < N; ++i)
    z[i] += 1;
#pragma omp target exit data map(from : z[0 : N])
  if (separate) {
    check("z still present after one exit data", omp_target_is_present(z, dev));
    check("exit data from with count 2 did not copy", z[7] == 8);
  }
#pragma omp target teams distribute parallel for
  for (int i = 0; i < N; ++i)
    z[i] += 1;
#pragma omp target exit data map(from : z[0 : N])
  {
    int ok = 1;
    long s = 0;
    for (int i = 0; i < N; ++i) {
      ok &= z[i] == i + 3;
      s += z[i];
    }
    check("z = z0 + 2", ok);
    printf("sum z=%ld\n", s);
  }
  if (separate)
    check("z gone", !omp_target_is_present(z, dev));

  // Device-only scratch: alloc, used by two kernels, then deleted.
#pragma omp target enter data map(alloc : tmp[0 : N])
#pragma omp target teams distribute parallel for
  for (int i = 0; i < N; ++i)
    tmp[i] = 4 * i;
#pragma omp target teams distribute parallel for map(from : out[0 : N])
  for (int i = 0; i < N; ++i)
    out[i] = tmp[i] / 2;
#pragma omp target exit data map(delete : tmp[0 : N])
  {
    int ok = 1;
    long s = 0;
    for (int i = 0; i < N; ++i) {
      ok &= out[i] == 2 * i;
      s += out[i];
    }
    check("scratch result", ok);
    printf("sum out=%ld\n", s);
  }
  if (separate)
    check("scratch deleted", !omp_target_is_present(tmp, dev));

  // delete drops the mapping whatever its reference count.
#pragma omp target enter data map(to : v[0 : N])
#pragma omp target enter data map(to : v[0 : N])
#pragma omp target enter data map(to : v[0 : N])
#pragma omp target exit data map(delete : v[0 : N])
  if (separate)
    check("delete ignores the reference count", !omp_target_is_present(v, dev));

  free(x);
  free(y);
  free(z);
  free(tmp);
  free(out);
  free(v);
  printf("done failures=%d\n", failures);
  return failures != 0;
}

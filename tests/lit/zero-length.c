// Edge cases of sizes: zero-length array sections (in a target construct,
// in enter/exit data, in target update, of a pointer that is mapped and of
// one that is not), loops with no iteration (n = 0), a kernel with no
// argument at all, a zero-byte omp_target_memcpy, and scalars mapped by
// reference (to, from, tofrom, defaultmap(tofrom: scalar), a struct field).
// RUN: %clang-hetero %s -o %t
// RUN: env HETERO_INFO=1 %compare-fallback %t 2>%t.err | %FileCheck %s
// RUN: %FileCheck %s --check-prefix=INFO --implicit-check-not=error: < %t.err
// RUN: env HETERO_SIMULATE=2 HETERO_MEMBER=sim:0 HETERO_INFO=1 %compare-fallback %t 2>%t.sim.err | %FileCheck %s
// RUN: %FileCheck %s --check-prefix=SIM --implicit-check-not=error: --implicit-check-not=" on cpu" < %t.sim.err
// RUN: env HETERO_SIMULATE=2 %compare-fallback %t | %FileCheck %s
// CHECK: empty loop, zero-length map: ok
// CHECK: zero-length section of mapped data: ok
// CHECK: zero-length enter/exit/update: ok
// CHECK: kernel with no argument: ok
// CHECK: zero-byte memcpy: ok
// CHECK: scalar tofrom: 42 ok
// CHECK: scalar to/from: 7 49 ok
// CHECK: defaultmap(tofrom: scalar): 15 2.5 ok
// CHECK: struct field by reference: 12 ok
// CHECK: scalars kept across a data region: 6 ok
// CHECK: done failures=0
// INFO: hetero: launch {{.*}} {{(on (cpu|cuda:[0-9.]+) \(whole kernel:|split: )}}
// SIM: hetero: launch {{.*}} on sim:0 (whole kernel: pinned by HETERO_MEMBER)
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>

#include "Inputs/check.h"

struct Holder {
  int n;
  double pad[3];
};

int main(int argc, char **argv) {
  (void)argv;
  int n = argc - 1; // 0, unknown to the compiler
  int *a = malloc(100 * sizeof(int));
  for (int i = 0; i < 100; ++i)
    a[i] = i;

  // No iteration, zero-length sections of unmapped data.
  int touched = 0;
#pragma omp target teams distribute parallel for map(tofrom : a[0 : n])        \
    reduction(+ : touched)
  for (int i = 0; i < n; ++i) {
    a[i] = -1;
    touched += 1;
  }
#pragma omp target map(tofrom : a[0 : n]) map(tofrom : touched)
  for (int i = 0; i < n; ++i)
    touched += a[i];
  {
    int ok = touched == 0;
    for (int i = 0; i < 100; ++i)
      ok &= a[i] == i;
    check("empty loop, zero-length map", ok);
  }

  // A zero-length section of mapped data names the mapped copy.
#pragma omp target data map(tofrom : a[0 : 100])
  {
#pragma omp target map(tofrom : a[0 : 0])
    {
      a[5] = 500; // a is the device copy mapped by the data region
    }
#pragma omp target map(a[10 : 0])
    a[10] += 1000;
  }
  check("zero-length section of mapped data",
        a[5] == 500 && a[10] == 1010 && a[11] == 11);
  a[5] = 5;
  a[10] = 10;

  // Zero-length enter data / update / exit data.
#pragma omp target enter data map(to : a[0 : n])
#pragma omp target update to(a[0 : n])
#pragma omp target update from(a[0 : n])
#pragma omp target exit data map(from : a[0 : n])
#pragma omp target enter data map(alloc : a[50 : 0])
#pragma omp target exit data map(delete : a[50 : 0])
  {
    int ok = 1;
    for (int i = 0; i < 100; ++i)
      ok &= a[i] == i;
    check("zero-length enter/exit/update", ok);
  }

  // A kernel that takes no argument at all.
#pragma omp target
  {
    volatile int local = 3;
    local += 1;
  }
  check("kernel with no argument", 1);

  // Zero-byte copies.
  int dev = target_device(), host = omp_get_initial_device();
  int *d = omp_target_alloc(16 * sizeof(int), dev);
  int rc = omp_target_memcpy(d, a, 0, 0, 0, dev, host);
  rc |= omp_target_memcpy(a, d, 0, 0, 0, host, dev);
  rc |= omp_target_memcpy(d, d, 0, 4, 0, dev, dev);
  check("zero-byte memcpy", rc == 0 && a[0] == 0 && a[1] == 1);
  omp_target_free(d, dev);

  // Scalars by reference.
  int x = 40;
#pragma omp target map(tofrom : x)
  x += 2;
  printf("scalar tofrom: %d %s\n", x, x == 42 ? "ok" : "FAIL");
  failures += x != 42;

  int in = 7, out = 0;
#pragma omp target map(to : in) map(from : out)
  out = in * in;
  printf("scalar to/from: %d %d %s\n", in, out,
         in == 7 && out == 49 ? "ok" : "FAIL");
  failures += !(in == 7 && out == 49);

  int si = 5;
  double sd = 0.5;
#pragma omp target defaultmap(tofrom : scalar)
  {
    si *= 3;
    sd += 2.0;
  }
  printf("defaultmap(tofrom: scalar): %d %g %s\n", si, sd,
         si == 15 && sd == 2.5 ? "ok" : "FAIL");
  failures += !(si == 15 && sd == 2.5);

  struct Holder h = {10, {0, 0, 0}};
#pragma omp target map(tofrom : h.n)
  h.n += 2;
  printf("struct field by reference: %d %s\n", h.n, h.n == 12 ? "ok" : "FAIL");
  failures += h.n != 12;

  int acc = 0;
#pragma omp target data map(tofrom : acc)
  {
    for (int r = 1; r <= 3; ++r) {
#pragma omp target map(tofrom : acc) firstprivate(r)
      acc += r;
    }
  }
  printf("scalars kept across a data region: %d %s\n", acc,
         acc == 6 ? "ok" : "FAIL");
  failures += acc != 6;
  free(a);
  printf("done failures=%d\n", failures);
  return failures != 0;
}

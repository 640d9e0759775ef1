// Device queries under hetero: omp_get_num_devices() is 1 (the whole node is
// one device, with or without simulated accelerators), the default device is
// 0, omp_target_is_present and omp_get_mapped_ptr follow the mappings, and
// kernels do not run on the initial device; the pool lists the simulated
// accelerators and HETERO_MEMBER pins a member (an unknown name is reported
// and ignored). The common part runs in host fallback too; the
// device-specific values are printed with the argument "dev" only, under
// hetero.
// RUN: %clang-hetero %s -o %t
// RUN: %compare-fallback %t | %FileCheck %s
// RUN: env HETERO_SIMULATE=2 %compare-fallback %t | %FileCheck %s
// RUN: %run-hetero %t dev | %FileCheck %s --check-prefix=DEV
// RUN: env HETERO_SIMULATE=2 %run-hetero %t dev | %FileCheck %s --check-prefix=DEV
// RUN: env HETERO_SIMULATE=3 HETERO_MEMBER=sim:2 %run-hetero %t dev | %FileCheck %s --check-prefix=DEV
// RUN: env HETERO_INFO=1 %run-hetero %t dev 2>&1 >/dev/null | %FileCheck %s --check-prefix=POOL
// RUN: env HETERO_INFO=1 HETERO_SIMULATE=2 %run-hetero %t dev 2>&1 >/dev/null | %FileCheck %s --check-prefix=POOL2
// RUN: %not env HETERO_INFO=1 HETERO_MEMBER=nosuch:3 %run-hetero %t dev 2>&1 >/dev/null | %FileCheck %s --check-prefix=BADPIN
// RUN: env HETERO_INFO=1 HETERO_SIMULATE=1 HETERO_MEMBER=cpu %run-hetero %t dev 2>&1 >/dev/null | %FileCheck %s --check-prefix=PINCPU
// CHECK: result: sum=4950 ok
// CHECK: done failures=0
// DEV: num_devices=1
// DEV: default_device=0
// DEV: initial_device=1
// DEV: present before mapping: 0
// DEV: present inside data region: 1 1 1
// DEV: mapped ptr inside data region: non-null
// DEV: present after data region: 0
// DEV: present after enter data: 1
// DEV: present after exit data: 0
// DEV: kernel on initial device: 0
// DEV: kernel sees num_devices query: ok
// DEV: result: sum=4950 ok
// DEV: done failures=0
// POOL: hetero: pool: {{(cuda:[0-9.]+, )*}}cpu (
// POOL: hetero: launch {{.*}} on {{(cpu|cuda:[0-9.]+)}} (whole kernel:
// POOL2: hetero: pool: {{(cuda:[0-9.]+, )*}}sim:0, sim:1, cpu (
// POOL2: hetero: launch {{.*}} on {{(sim:0|cuda:[0-9.]+)}} (whole kernel:
// BADPIN: hetero: error: HETERO_MEMBER=nosuch:3: expected a member: cpu, cuda:<n>[.<p>] or sim:<n>
// BADPIN-NOT: hetero: launch
// PINCPU: hetero: pool: {{(cuda:[0-9.]+, )*}}sim:0, cpu (
// PINCPU: hetero: launch {{.*}} on cpu (whole kernel: pinned by HETERO_MEMBER)
#include <omp.h>
#include <stdio.h>
#include <string.h>

static int failures;

int main(int argc, char **argv) {
  int dev_mode = argc > 1 && !strcmp(argv[1], "dev");
  int a[100];
  for (int i = 0; i < 100; ++i)
    a[i] = i;
  int dev = omp_get_default_device();
  if (dev_mode) {
    printf("num_devices=%d\n", omp_get_num_devices());
    printf("default_device=%d\n", dev);
    printf("initial_device=%d\n", omp_get_initial_device());
    printf("present before mapping: %d\n", omp_target_is_present(a, dev) != 0);
  }
#pragma omp target data map(tofrom : a)
  {
    if (dev_mode) {
      printf("present inside data region: %d %d %d\n",
             omp_target_is_present(a, dev) != 0,
             omp_target_is_present(&a[50], dev) != 0,
             omp_target_is_present(&a[99], dev) != 0);
      printf("mapped ptr inside data region: %s\n",
             omp_get_mapped_ptr(a, dev) ? "non-null" : "null");
    }
#pragma omp target teams distribute parallel for
    for (int i = 0; i < 100; ++i)
      a[i] = a[i] * 2;
  }
  if (dev_mode)
    printf("present after data region: %d\n",
           omp_target_is_present(a, dev) != 0);
#pragma omp target enter data map(to : a)
  if (dev_mode)
    printf("present after enter data: %d\n",
           omp_target_is_present(a, dev) != 0);
#pragma omp target teams distribute parallel for
  for (int i = 0; i < 100; ++i)
    a[i] = a[i] / 2;
#pragma omp target exit data map(from : a)
  if (dev_mode) {
    printf("present after exit data: %d\n", omp_target_is_present(a, dev) != 0);
    int initial = -1, ndev = -1;
#pragma omp target map(from : initial, ndev)
    {
      initial = omp_is_initial_device();
      ndev = omp_get_num_devices();
    }
    printf("kernel on initial device: %d\n", initial);
    // The value inside a target region is implementation defined; the call
    // just has to work there.
    printf("kernel sees num_devices query: %s\n", ndev >= 0 ? "ok" : "FAIL");
  }
  long s = 0;
  int ok = 1;
  for (int i = 0; i < 100; ++i) {
    s += a[i];
    ok &= a[i] == i;
  }
  printf("result: sum=%ld %s\n", s, ok ? "ok" : "FAIL");
  failures += !ok;
  printf("done failures=%d\n", failures);
  return failures != 0;
}

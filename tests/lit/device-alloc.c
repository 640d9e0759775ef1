// Device memory from omp_target_alloc used through is_device_ptr: filled and
// updated by kernels (no host copy in between), read back with
// omp_target_memcpy and freed with omp_target_free; device pointer
// arithmetic; use_device_ptr/use_device_addr of mapped data; and
// omp_target_associate_ptr of omp_target_alloc'ed memory with a host array.
// The program allocates on the device where its target regions run (the
// initial device in host fallback), so its output is the same in both.
// RUN: %clang-hetero %s -o %t
// RUN: env HETERO_INFO=1 %compare-fallback %t 2>%t.err | %FileCheck %s
// RUN: %FileCheck %s --check-prefix=INFO --implicit-check-not=error: < %t.err
// RUN: env HETERO_SIMULATE=2 HETERO_MEMBER=sim:0 HETERO_INFO=1 %compare-fallback %t 2>%t.sim.err | %FileCheck %s
// RUN: %FileCheck %s --check-prefix=SIM --implicit-check-not=error: --implicit-check-not=" on cpu" < %t.sim.err
// RUN: env HETERO_SIMULATE=2 HETERO_MEMBER=sim:1 %compare-fallback %t | %FileCheck %s
// RUN: env HETERO_STATS=1 HETERO_CHUNKS=2 HETERO_SIMULATE=3 %compare-fallback %t 2>%t.split | %FileCheck %s
// RUN: %FileCheck %s --check-prefix=SPLIT < %t.split
// CHECK: omp_target_alloc: ok
// CHECK: kernels on device memory: sum=2999000 ok
// CHECK: offset pointer: ok
// CHECK: second allocation: sum=2834100 ok
// CHECK: use_device_ptr: ok
// CHECK: use_device_addr: ok
// CHECK: associate_ptr: ok
// CHECK: done failures=0
// INFO: hetero: launch {{.*}} {{(on (cpu|cuda:[0-9.]+) \(whole kernel:|split: )}}
// SIM: hetero: launch {{.*}} on sim:0 (whole kernel: pinned by HETERO_MEMBER)
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>

#include "Inputs/check.h"

#define N 2000

int main(void) {
  int dev = target_device(), host = omp_get_initial_device();
  long *d = omp_target_alloc(N * sizeof(long), dev);
  check("omp_target_alloc", d != NULL);
  if (!d)
    return 1;

  // Fill, then update in place: the data never visits the host between.
// SPLIT-DAG: hetero-stats kernel={{.*}}_l[[@LINE+1]] launches=1 split=yes
#pragma omp target teams distribute parallel for is_device_ptr(d)
  for (int i = 0; i < N; ++i)
    d[i] = 3 * i;
// SPLIT-DAG: hetero-stats kernel={{.*}}_l[[@LINE+1]] launches=1 split=yes
#pragma omp target teams distribute parallel for is_device_ptr(d)
  for (int i = 0; i < N; ++i)
    d[i] = d[i] / 2 + (d[i] & 1); // ceil(3i / 2)
  long *h = malloc(N * sizeof(long));
  for (int i = 0; i < N; ++i)
    h[i] = -1;
  int rc = omp_target_memcpy(h, d, N * sizeof(long), 0, 0, host, dev);
  {
    long s = 0;
    int ok = rc == 0;
    for (int i = 0; i < N; ++i) {
      s += h[i];
      ok &= h[i] == (3 * i + 1) / 2;
    }
    printf("kernels on device memory: sum=%ld %s\n", s, ok ? "ok" : "FAIL");
    failures += !ok;
  }

  // A device pointer into the middle of the allocation.
  long *mid = d + 500;
// SPLIT-DAG: hetero-stats kernel={{.*}}_l[[@LINE+1]] launches=1 split=yes
#pragma omp target teams distribute parallel for is_device_ptr(mid)
  for (int i = 0; i < 100; ++i)
    mid[i] = -mid[i];
  rc = omp_target_memcpy(h, d, N * sizeof(long), 0, 0, host, dev);
  {
    int ok = rc == 0;
    for (int i = 0; i < N; ++i)
      ok &= h[i] == (i >= 500 && i < 600 ? -1 : 1) * ((3 * i + 1) / 2);
    check("offset pointer", ok);
  }

  // Two device allocations in one kernel; then both freed.
  int *e = omp_target_alloc(1000 * sizeof(int), dev);
#pragma omp target teams distribute parallel for is_device_ptr(d, e)
  for (int i = 0; i < 1000; ++i)
    e[i] = (int)(d[2 * i] + d[2 * i + 1]);
  int he[1000];
  rc = omp_target_memcpy(he, e, sizeof(he), 0, 0, host, dev);
  {
    long s = 0;
    int ok = rc == 0;
    for (int i = 0; i < 1000; ++i) {
      s += he[i];
      ok &= he[i] == h[2 * i] + h[2 * i + 1];
    }
    printf("second allocation: sum=%ld %s\n", s, ok ? "ok" : "FAIL");
    failures += !ok;
  }
  omp_target_free(e, dev);
  omp_target_free(d, dev);

  // use_device_ptr / use_device_addr: the device address of mapped data.
  double *a = malloc(N * sizeof(double));
  double b[64];
  for (int i = 0; i < N; ++i)
    a[i] = i;
  for (int i = 0; i < 64; ++i)
    b[i] = 2 * i;
#pragma omp target data map(tofrom : a[0 : N])
  {
#pragma omp target data use_device_ptr(a)
    {
      double *da = a;
#pragma omp target teams distribute parallel for is_device_ptr(da)
      for (int i = 0; i < N; ++i)
        da[i] = da[i] * 4;
    }
  }
  {
    int ok = 1;
    for (int i = 0; i < N; ++i)
      ok &= a[i] == 4.0 * i;
    check("use_device_ptr", ok);
  }
#pragma omp target data map(tofrom : b)
  {
#pragma omp target data use_device_addr(b)
    {
      double *db = &b[0];
#pragma omp target is_device_ptr(db)
      for (int i = 0; i < 64; ++i)
        db[i] += 0.5;
    }
  }
  {
    int ok = 1;
    for (int i = 0; i < 64; ++i)
      ok &= b[i] == 2 * i + 0.5;
    check("use_device_addr", ok);
  }

  // omp_target_associate_ptr: map() of the host array then uses the
  // device allocation (only where there is a separate device). Associated
  // data is never copied by map() without always.
  double *dv = omp_target_alloc(N * sizeof(double), dev);
  int associated = dev != host && omp_target_associate_ptr(
                                      a, dv, N * sizeof(double), 0, dev) == 0;
#pragma omp target teams distribute parallel for map(always, tofrom : a[0 : N])
  for (int i = 0; i < N; ++i)
    a[i] = a[i] / 2 + 1;
  {
    int ok = dev == host || associated;
    for (int i = 0; i < N; ++i)
      ok &= a[i] == 2.0 * i + 1;
    if (associated) {
      // The kernel ran on the associated device memory.
      double probe[4];
      omp_target_memcpy(probe, dv, sizeof(probe), 0, 8 * sizeof(double), host,
                        dev);
      for (int i = 0; i < 4; ++i)
        ok &= probe[i] == 2.0 * (i + 8) + 1;
      ok &= omp_target_disassociate_ptr(a, dev) == 0;
    }
    check("associate_ptr", ok);
  }
  omp_target_free(dv, dev);
  free(a);
  free(h);
  printf("done failures=%d\n", failures);
  return failures != 0;
}

// Under `requires unified_shared_memory` the host dereferences memory from
// omp_target_alloc directly: after every kernel, on every member, the host
// reads what the kernel wrote, and the next kernel sees what the host wrote.
// RUN: %clang-hetero %s -o %t
// RUN: %run-hetero %t | %FileCheck %s
// RUN: env HETERO_SIMULATE=3 %run-hetero %t | %FileCheck %s
// RUN: env HETERO_SIMULATE=3 HETERO_MEMBER=sim:2 %run-hetero %t | %FileCheck %s
// RUN: env HETERO_SIMULATE=3 HETERO_CHUNKS=4 HETERO_STATS=1 %run-hetero %t 2>%t.stats | %FileCheck %s
// RUN: %FileCheck %s --check-prefix=STATS < %t.stats
// RUN: %run-stock %t | %FileCheck %s
// CHECK: scalar: 42 43 ok
// CHECK: array: ok
// CHECK: done
// STATS: split=no(uses host-resident memory)
#include <omp.h>
#include <stdio.h>

#pragma omp requires unified_shared_memory

#define N 10000

int main(void) {
  int dev = omp_get_default_device();
  int *p = (int *)omp_target_alloc(sizeof(int), dev);
  *p = 1;
#pragma omp target is_device_ptr(p)
  *p += 41;
  int first = *p;
#pragma omp target is_device_ptr(p)
  *p += 1;
  printf("scalar: %d %d %s\n", first, *p,
         first == 42 && *p == 43 ? "ok" : "FAIL");

  long *a = (long *)omp_target_alloc(N * sizeof(long), dev);
  for (int i = 0; i < N; ++i)
    a[i] = i;
  for (int r = 0; r < 3; ++r) {
#pragma omp target teams distribute parallel for is_device_ptr(a)
    for (int i = 0; i < N; ++i)
      a[i] = 2 * a[i] + r;
    a[r] += 1000; // the host writes between kernels
  }
  long want = 0, got = 0;
  for (int i = 0; i < N; ++i) {
    long v = i;
    for (int r = 0; r < 3; ++r)
      v = 2 * v + r + (i == r ? 1000 : 0);
    want += v;
    got += a[i];
  }
  printf("array: %s\n", got == want ? "ok" : "FAIL");
  omp_target_free(a, dev);
  omp_target_free(p, dev);
  printf("done\n");
  return 0;
}

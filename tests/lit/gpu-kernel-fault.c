// GPU machines only: a kernel that faults on the GPU (a wild store in the
// NVPTX image only; the x86_64 image stores to a global, so CPU members run
// it fine, and the kernel is not split) is reported, the GPU leaves the pool,
// and the kernel runs again on a CPU member (another image: on a machine of
// several GPUs it would fault on the next GPU too), whose result is right:
// its data had a valid copy on the host. Later kernels, split ones included,
// run on the remaining members. No abort inside StarPU, no hang.
// REQUIRES: gpu
// RUN: %clang-hetero %s -o %t
// RUN: env HETERO_STATS=1 %run-hetero %t 2>%t.err | %FileCheck %s
// RUN: %FileCheck %s --check-prefix=ERR < %t.err
// CHECK: after the fault: ok
// CHECK: split after the fault: ok
// ERR: hetero: error: kernel {{.*}} failed on cuda:0; cuda:0 leaves the pool
// ERR-NOT: failed on cuda:
// ERR-NOT: cuda:0:
// ERR: hetero-stats total
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#pragma omp declare target
static volatile int sink;
static void touch(int i) {
#if defined(__NVPTX__)
  *(volatile int *)(uintptr_t)8 = i; // a wild store: the GPU faults
#else
  sink = i;
#endif
}
#pragma omp end declare target

int main(void) {
  const int n = 100000;
  int *a = malloc(n * sizeof(int));
  for (int i = 0; i < n; ++i)
    a[i] = i;
#pragma omp target teams distribute parallel for map(tofrom : a[0 : n])
  for (int i = 0; i < n; ++i) {
    touch(i);
    a[i] = 2 * a[i];
  }
  int ok = 1;
  for (int i = 0; i < n; ++i)
    ok &= a[i] == 2 * i;
  printf("after the fault: %s\n", ok ? "ok" : "FAIL");
#pragma omp target teams distribute parallel for map(tofrom : a[0 : n])
  for (int i = 0; i < n; ++i)
    a[i] += 1;
  ok = 1;
  for (int i = 0; i < n; ++i)
    ok &= a[i] == 2 * i + 1;
  printf("split after the fault: %s\n", ok ? "ok" : "FAIL");
  free(a);
  return ok ? 0 : 1;
}

// GPU machines only: a kernel that faults on the GPU (a wild store in the
// NVPTX image only; the x86_64 image stores to a global, so CPU members run
// it fine, and the kernel is not split) is reported and the GPU leaves the
// pool. Whether the program can go on depends on where its data lives:
//
// The error names the member and what failed there in the CUDA driver's
// words (the stream's wait: an illegal memory access), once; LLVM's cuda
// plugin does not print its own line for the same failure.
//
// - by default, mapped data goes to the GPU when it is mapped, with no host
//   copy: the kernel updated data that lived only on the faulting GPU, so
//   the program stops with that message and libomptarget aborts it (no
//   hang, no abort inside StarPU);
// - under HETERO_HOST_COPY=1 mapped data keeps a host copy, and the kernel
//   runs again on a CPU member (another image: on a machine of several GPUs
//   it would fault on the next GPU too), whose result is right. Later
//   kernels, split ones included, run on the remaining members. The CUDA
//   driver may refuse the other GPUs' allocations after the fault (an
//   illegal address leaves the process's CUDA state unusable): their chunks
//   then go to the CPU members. The faulting kernel's statistics show
//   cuda:0 with 0 iterations (the time it spent failing); no later kernel
//   runs there.
// REQUIRES: gpu
// RUN: %clang-hetero %s -o %t
// RUN: env HETERO_STATS=1 HETERO_HOST_COPY=1 %run-hetero %t 2>%t.err | %FileCheck %s
// RUN: %FileCheck %s --check-prefix=ERR < %t.err
// RUN: %not --crash env %run-hetero %t 2>%t.stop >/dev/null
// RUN: %FileCheck %s --check-prefix=STOP < %t.stop
// CHECK: after the fault: ok
// CHECK: split after the fault: ok
// ERR: hetero: error: kernel {{.*}} failed on [[GPU0]] ({{.*}}illegal memory access{{.*}}); [[GPU0]] leaves the pool
// ERR-NOT: failed on cuda:
// ERR-NOT: Failure to synchronize
// ERR: hetero-stats kernel={{.*}}members=[[GPU0]]:0:{{.*}}bytes_d2h={{[0-9]+}}
// ERR-NOT: [[GPU0]]:
// ERR: hetero-stats total
// STOP: hetero: error: kernel {{.*}} failed on [[GPU0]] ({{.*}}illegal memory access{{.*}}); [[GPU0]] leaves the pool
// STOP: hetero: error: kernel {{.*}} failed on [[GPU0]] and its data lived only there
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

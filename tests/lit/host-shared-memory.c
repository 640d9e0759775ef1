// Host-accessible device memory (llvm_omp_target_alloc_host and
// llvm_omp_target_alloc_shared): the host writes and reads it directly
// between kernels, with no map and no omp_target_memcpy, and every kernel
// sees the host's latest writes and publishes its own. Also mixes such
// memory with mapped data in one kernel.
// The program allocates on the device where its target regions run (the
// initial device in host fallback), so its output is the same in both.
// RUN: %clang-hetero %s -o %t
// RUN: env HETERO_INFO=1 %compare-fallback %t 2>%t.err | %FileCheck %s
// RUN: %FileCheck %s --check-prefix=INFO --implicit-check-not=error: < %t.err
// RUN: env HETERO_SIMULATE=2 HETERO_MEMBER=sim:0 HETERO_INFO=1 %compare-fallback %t 2>%t.sim.err | %FileCheck %s
// RUN: %FileCheck %s --check-prefix=SIM --implicit-check-not=error: --implicit-check-not=" on cpu" < %t.sim.err
// RUN: env HETERO_SIMULATE=2 %compare-fallback %t | %FileCheck %s
// CHECK: host memory, round 0: ok
// CHECK: host memory, round 1: ok
// CHECK: host memory, round 2: ok
// CHECK: shared memory, round 0: ok
// CHECK: shared memory, round 1: ok
// CHECK: shared memory, round 2: ok
// CHECK: with mapped data: sum=184508416 ok
// CHECK: done failures=0
// INFO: hetero: launch {{.*}} {{(on (cpu|cuda:[0-9.]+) \(whole kernel:|split: )}}
// SIM: hetero: launch {{.*}} on sim:0 (whole kernel: pinned by HETERO_MEMBER)
#include <omp.h>
#include <stddef.h>
#include <stdio.h>

#include "Inputs/check.h"

void *llvm_omp_target_alloc_host(size_t size, int device);
void *llvm_omp_target_alloc_shared(size_t size, int device);
void llvm_omp_target_free_host(void *ptr, int device);
void llvm_omp_target_free_shared(void *ptr, int device);

#define N 4096

static void rounds(const char *kind, long *p) {
  for (int i = 0; i < N; ++i)
    p[i] = i; // host writes directly
  for (int round = 0; round < 3; ++round) {
#pragma omp target teams distribute parallel for is_device_ptr(p)              \
    firstprivate(round)
    for (int i = 0; i < N; ++i)
      p[i] = p[i] * 2 + round;
    // The host reads the kernel's result directly, checks it, and changes
    // some elements for the next kernel.
    int ok = 1;
    for (int i = 0; i < N; ++i) {
      long want = i;
      for (int r = 0; r <= round; ++r) {
        want = want * 2 + r;
        if (r < round && i % 3 == 0)
          want = -want;
      }
      ok &= p[i] == want;
    }
    printf("%s memory, round %d: %s\n", kind, round, ok ? "ok" : "FAIL");
    failures += !ok;
    for (int i = 0; i < N; i += 3)
      p[i] = -p[i];
  }
}

int main(void) {
  int dev = target_device();
  long *hm = llvm_omp_target_alloc_host(N * sizeof(long), dev);
  long *sm = llvm_omp_target_alloc_shared(N * sizeof(long), dev);
  if (!hm || !sm) {
    printf("allocation failed\n");
    return 1;
  }
  rounds("host", hm);
  rounds("shared", sm);

  // Host-accessible memory and a mapped array in one kernel.
  long mapped[N];
  for (int i = 0; i < N; ++i) {
    mapped[i] = i;
    sm[i] = 10 * i;
  }
#pragma omp target teams distribute parallel for is_device_ptr(sm)             \
    map(tofrom : mapped)
  for (int i = 0; i < N; ++i) {
    mapped[i] += sm[i];
    sm[i] = mapped[i] + 1;
  }
  long s = 0;
  int ok = 1;
  for (int i = 0; i < N; ++i) {
    s += mapped[i] + sm[i];
    ok &= mapped[i] == 11 * i && sm[i] == 11 * i + 1;
  }
  printf("with mapped data: sum=%ld %s\n", s, ok ? "ok" : "FAIL");
  failures += !ok;
  llvm_omp_target_free_host(hm, dev);
  llvm_omp_target_free_shared(sm, dev);
  printf("done failures=%d\n", failures);
  return failures != 0;
}

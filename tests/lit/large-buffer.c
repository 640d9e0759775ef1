// Big buffers: a 64 MiB array mapped tofrom and worked on by two kernels, a
// 32 MiB array mapped to, updates of small sections at the far end of the
// big array, and a 64 MiB omp_target_alloc buffer copied with
// omp_target_memcpy.
// RUN: %clang-hetero %s -o %t
// RUN: env HETERO_INFO=1 %compare-fallback %t 2>%t.err | %FileCheck %s
// RUN: %FileCheck %s --check-prefix=INFO --implicit-check-not=error: < %t.err
// RUN: env HETERO_SIMULATE=2 HETERO_MEMBER=sim:0 HETERO_INFO=1 %compare-fallback %t 2>%t.sim.err | %FileCheck %s
// RUN: %FileCheck %s --check-prefix=SIM --implicit-check-not=error: --implicit-check-not=" on cpu" < %t.sim.err
// CHECK: tail section update: ok
// CHECK: 64 MiB tofrom: ok
// CHECK: 64 MiB device buffer: ok
// CHECK: done failures=0
// INFO: hetero: launch {{.*}} {{(on (cpu|cuda:[0-9.]+) \(whole kernel:|split: )}}
// SIM: hetero: launch {{.*}} on sim:0 (whole kernel: pinned by HETERO_MEMBER)
#include <omp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "Inputs/check.h"

#define BIG (64L << 20) / 8 // int64 elements in 64 MiB
#define MID (32L << 20) / 4 // int32 elements in 32 MiB

int main(void) {
  int dev = target_device(), host = omp_get_initial_device();
  int64_t *big = malloc(BIG * sizeof(int64_t));
  int32_t *mid = malloc(MID * sizeof(int32_t));
  if (!big || !mid)
    return 2;
  for (long i = 0; i < BIG; ++i)
    big[i] = i;
  for (long i = 0; i < MID; ++i)
    mid[i] = (int32_t)(i & 1023);

#pragma omp target data map(tofrom : big[0 : BIG]) map(to : mid[0 : MID])
  {
#pragma omp target teams distribute parallel for
    for (long i = 0; i < BIG; ++i)
      big[i] = big[i] * 2 + mid[i % MID];
    // Host writes the last 16 elements and pushes just those.
    for (long i = BIG - 16; i < BIG; ++i)
      big[i] = -i;
#pragma omp target update to(big[BIG - 16 : 16])
#pragma omp target teams distribute parallel for
    for (long i = 0; i < BIG; ++i)
      big[i] += 1;
#pragma omp target update from(big[BIG - 32 : 32])
    {
      int ok = 1;
      for (long i = BIG - 32; i < BIG - 16; ++i)
        ok &= big[i] == 2 * i + (i % MID & 1023) + 1;
      for (long i = BIG - 16; i < BIG; ++i)
        ok &= big[i] == -i + 1;
      check("tail section update", ok);
    }
  }
  {
    int ok = 1;
    for (long i = 0; i < BIG - 16; ++i)
      ok &= big[i] == 2 * i + (i % MID & 1023) + 1;
    for (long i = BIG - 16; i < BIG; ++i)
      ok &= big[i] == -i + 1;
    check("64 MiB tofrom", ok);
  }

  // 64 MiB of device memory, filled by a kernel, copied back in two halves.
  int64_t *d = omp_target_alloc(BIG * sizeof(int64_t), dev);
  if (!d)
    return 3;
#pragma omp target teams distribute parallel for is_device_ptr(d)
  for (long i = 0; i < BIG; ++i)
    d[i] = 3 * i;
  int rc =
      omp_target_memcpy(big, d, BIG / 2 * sizeof(int64_t), 0, 0, host, dev);
  rc |= omp_target_memcpy(big, d, BIG / 2 * sizeof(int64_t),
                          BIG / 2 * sizeof(int64_t), BIG / 2 * sizeof(int64_t),
                          host, dev);
  {
    int ok = rc == 0;
    for (long i = 0; i < BIG; ++i)
      ok &= big[i] == 3 * i;
    check("64 MiB device buffer", ok);
  }
  omp_target_free(d, dev);
  free(big);
  free(mid);
  printf("done failures=%d\n", failures);
  return failures != 0;
}

// A pool member without room for a kernel's data: one clear warning line (the
// launch recovers, so it is no error), the kernel moves to the next member,
// and the results stay those of the host fallback.
// RUN: %clang-hetero %s -o %t
// RUN: env HETERO_SIMULATE=1 HETERO_SIMULATE_MEMORY=1M HETERO_MEMBER=sim:0 HETERO_INFO=1 %compare-fallback %t 2>%t.err | %FileCheck %s
// RUN: %FileCheck %s --check-prefix=OOM < %t.err
// CHECK: small: ok
// CHECK: big: ok
// CHECK: small again: ok
// CHECK: done failures=0
// OOM: hetero: launch {{.*}} on sim:0 (whole kernel: pinned by HETERO_MEMBER)
// OOM-NOT: error
// OOM: hetero: warning: kernel {{.*}} does not fit on sim:0 (sim:0 cannot hold 8388608 more bytes); trying the next member
// OOM-NEXT: hetero: launch {{.*}} on {{(cpu|cuda:[0-9.]+)}} (whole kernel: fallback)
// OOM: hetero: launch {{.*}} on sim:0 (whole kernel: pinned by HETERO_MEMBER)
#include <stdio.h>
#include <stdlib.h>

#include "Inputs/check.h"

#define SMALL 1000
#define BIG (1 << 20)

int main(void) {
  static int small[SMALL];
  double *big = malloc(BIG * sizeof(double));
#pragma omp target teams distribute parallel for map(tofrom : small)
  for (int i = 0; i < SMALL; ++i)
    small[i] = 3 * i;
  long s = 0;
  for (int i = 0; i < SMALL; ++i)
    s += small[i];
  check("small", s == 3L * SMALL * (SMALL - 1) / 2);

  // 8 MiB: more than a 1 MiB simulated accelerator holds.
#pragma omp target teams distribute parallel for map(from : big[0 : BIG])
  for (int i = 0; i < BIG; ++i)
    big[i] = 0.5 * i;
  int ok = 1;
  for (int i = 0; i < BIG; ++i)
    ok &= big[i] == 0.5 * i;
  check("big", ok);

#pragma omp target teams distribute parallel for map(tofrom : small)
  for (int i = 0; i < SMALL; ++i)
    small[i] += 1;
  s = 0;
  for (int i = 0; i < SMALL; ++i)
    s += small[i];
  check("small again", s == 3L * SMALL * (SMALL - 1) / 2 + SMALL);
  free(big);
  printf("done failures=%d\n", failures);
  return failures != 0;
}

// declare target link: the device sees a global only while it is mapped
// (the runtime attaches the global's device reference to the mapped copy).
// Kernels read and write the linked globals through that reference, in a
// target construct, in a data region and after enter data.
// RUN: %clang-hetero %s -o %t
// RUN: env HETERO_INFO=1 %compare-fallback %t 2>%t.err | %FileCheck %s
// RUN: %FileCheck %s --check-prefix=INFO --implicit-check-not=error: < %t.err
// RUN: env HETERO_SIMULATE=2 HETERO_MEMBER=sim:0 HETERO_INFO=1 %compare-fallback %t 2>%t.sim.err | %FileCheck %s
// RUN: %FileCheck %s --check-prefix=SIM --implicit-check-not=error: --implicit-check-not=" on cpu" < %t.sim.err
// RUN: env HETERO_SIMULATE=2 %compare-fallback %t | %FileCheck %s
// CHECK: linked array in a target construct: sum=1048576 ok
// CHECK: linked scalar: 42 ok
// CHECK: linked array in a data region: ok
// CHECK: linked array after enter data: ok
// CHECK: done failures=0
// INFO: hetero: launch {{.*}} {{(on (cpu|cuda:[0-9.]+) \(whole kernel:|split: )}}
// SIM: hetero: launch {{.*}} on sim:0 (whole kernel: pinned by HETERO_MEMBER)
#include <stdio.h>

#include "Inputs/check.h"

#define N 1024

int big[N];
int answer;
#pragma omp declare target link(big, answer)

#pragma omp declare target
static void bump(int i) { big[i] += 1; }
#pragma omp end declare target

int main(void) {
  for (int i = 0; i < N; ++i)
    big[i] = i;
#pragma omp target teams distribute parallel for map(tofrom : big)
  for (int i = 0; i < N; ++i)
    big[i] = 2 * big[i] + 1;
  {
    long s = 0;
    int ok = 1;
    for (int i = 0; i < N; ++i) {
      s += big[i];
      ok &= big[i] == 2 * i + 1;
    }
    printf("linked array in a target construct: sum=%ld %s\n", s,
           ok ? "ok" : "FAIL");
    failures += !ok;
  }

  answer = 40;
#pragma omp target map(tofrom : answer)
  answer += 2;
  printf("linked scalar: %d %s\n", answer, answer == 42 ? "ok" : "FAIL");
  failures += answer != 42;

#pragma omp target data map(tofrom : big)
  {
#pragma omp target teams distribute parallel for
    for (int i = 0; i < N; ++i)
      bump(i);
#pragma omp target teams distribute parallel for
    for (int i = 0; i < N; ++i)
      big[i] -= i;
  }
  {
    int ok = 1;
    for (int i = 0; i < N; ++i)
      ok &= big[i] == i + 2;
    check("linked array in a data region", ok);
  }

#pragma omp target enter data map(to : big)
#pragma omp target teams distribute parallel for
  for (int i = 0; i < N; ++i)
    big[i] *= 3;
#pragma omp target exit data map(from : big)
  {
    int ok = 1;
    for (int i = 0; i < N; ++i)
      ok &= big[i] == 3 * (i + 2);
    check("linked array after enter data", ok);
  }
  printf("done failures=%d\n", failures);
  return failures != 0;
}

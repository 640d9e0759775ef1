// declare target globals (a scalar with an initial value, an array, a
// static) and a declare target function: kernels see the image's initial
// values, target update to/from move host values in and kernel results out
// (whole and sub-section updates), and kernels that only use globals (no
// mapped argument at all) still see and publish the latest values.
// RUN: %clang-hetero %s -o %t
// RUN: env HETERO_INFO=1 %compare-fallback %t 2>%t.err | %FileCheck %s
// RUN: %FileCheck %s --check-prefix=INFO --implicit-check-not=error: < %t.err
// RUN: env HETERO_SIMULATE=2 HETERO_MEMBER=sim:0 HETERO_INFO=1 %compare-fallback %t 2>%t.sim.err | %FileCheck %s
// RUN: %FileCheck %s --check-prefix=SIM --implicit-check-not=error: --implicit-check-not=" on cpu" < %t.sim.err
// RUN: env HETERO_SIMULATE=2 %compare-fallback %t | %FileCheck %s
// CHECK: initial values on the device: counter=5 scale=3 small[7]=14 ok
// CHECK: update to, kernel, update from: ok
// CHECK: sub-section update from: ok
// CHECK: scalar round trip: counter=11 ok
// CHECK: globals only kernels: counter=111 sum=32640 ok
// CHECK: globals with a mapped array: sum=195840 ok
// CHECK: done failures=0
// INFO: hetero: launch {{.*}} {{(on (cpu|cuda:[0-9.]+) \(whole kernel:|split: )}}
// SIM: hetero: launch {{.*}} on sim:0 (whole kernel: pinned by HETERO_MEMBER)
#include <stdio.h>

#include "Inputs/check.h"

#define N 256

#pragma omp declare target
int counter = 5;
int table[N];
int small[8] = {0, 2, 4, 6, 8, 10, 12, 14};
static int scale = 3;
int helper(int x) { return x * scale + counter; }
#pragma omp end declare target

int main(void) {
  // 1. The device copies start with the initial values of the image.
  int c = 0, s = 0, t7 = 0;
#pragma omp target map(from : c, s, t7)
  {
    c = counter;
    s = scale;
    t7 = small[7];
  }
  printf("initial values on the device: counter=%d scale=%d small[7]=%d %s\n",
         c, s, t7, c == 5 && s == 3 && t7 == 14 ? "ok" : "FAIL");
  failures += !(c == 5 && s == 3 && t7 == 14);

  // 2. Host values in, kernel, results out.
  for (int i = 0; i < N; ++i)
    table[i] = i;
#pragma omp target update to(table)
#pragma omp target teams distribute parallel for
  for (int i = 0; i < N; ++i)
    table[i] = helper(table[i]); // 3i + 5
#pragma omp target update from(table)
  {
    int ok = 1;
    for (int i = 0; i < N; ++i)
      ok &= table[i] == 3 * i + 5;
    check("update to, kernel, update from", ok);
  }

  // 3. Only a sub-section comes back.
#pragma omp target teams distribute parallel for
  for (int i = 0; i < N; ++i)
    table[i] -= 5;
#pragma omp target update from(table[10 : 5])
  {
    int ok = 1;
    for (int i = 10; i < 15; ++i)
      ok &= table[i] == 3 * i;
    check("sub-section update from", ok);
  }
#pragma omp target update from(table)

  // 4. A scalar: host value in, incremented on the device, back out.
  counter = 10;
#pragma omp target update to(counter)
#pragma omp target
  counter += 1;
#pragma omp target update from(counter)
  printf("scalar round trip: counter=%d %s\n", counter,
         counter == 11 ? "ok" : "FAIL");
  failures += counter != 11;

  // 5. Kernels whose only data are globals, back to back, then one update.
  for (int r = 0; r < 10; ++r) {
#pragma omp target
    counter += 10;
  }
#pragma omp target teams distribute parallel for
  for (int i = 0; i < N; ++i)
    table[i] = i;
  long gsum = 0;
#pragma omp target map(tofrom : gsum)
  for (int i = 0; i < N; ++i)
    gsum += table[i];
#pragma omp target update from(counter)
  printf("globals only kernels: counter=%d sum=%ld %s\n", counter, gsum,
         counter == 111 && gsum == 32640 ? "ok" : "FAIL");
  failures += !(counter == 111 && gsum == 32640);

  // 6. Globals together with a mapped array.
  int out[N];
#pragma omp target teams distribute parallel for map(from : out)
  for (int i = 0; i < N; ++i)
    out[i] = helper(table[i]) - counter + i; // 3i + 111 - 111 + i = 4i
  long osum = 0;
  for (int i = 0; i < N; ++i)
    osum += out[i] + 2 * i;
  printf("globals with a mapped array: sum=%ld %s\n", osum,
         osum == 195840 ? "ok" : "FAIL");
  failures += osum != 195840;
  printf("done failures=%d\n", failures);
  return failures != 0;
}

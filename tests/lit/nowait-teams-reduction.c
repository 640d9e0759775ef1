// A teams reduction over `distribute simd` (a kernel without a parallel
// region: the compiler gives it a thread count of 1) after a `target nowait`
// and a taskwait: the CPU members leave its teams to the image's code, as
// the stock host plugin does. Found by the random tester (seed 61238): the
// launch set the task thread-limit to 1 and libomp asserted in the teams
// reduction's barrier (kmp_barrier.cpp, tt_found_proxy_tasks).
// RUN: %clang-hetero %s -o %t
// RUN: %compare-fallback %t | %FileCheck %s
// RUN: env HETERO_MEMBER=cpu %compare-fallback %t | %FileCheck %s
// RUN: env HETERO_SIMULATE=3 HETERO_CHUNKS=4 %compare-fallback %t | %FileCheck %s
// CHECK: r=0 s=4950 a[99]=198
#include <stdio.h>

#define N 100000

int main(void) {
  static double a[N];
  long r = -1, s = 0;
#pragma omp target data map(tofrom : a)
  {
#pragma omp target teams distribute nowait
    for (int i = 0; i < N; i++)
      a[i] += i;
#pragma omp taskwait
    for (int rep = 0; rep < 2; rep++) {
#pragma omp target teams reduction(& : r)
#pragma omp distribute simd reduction(& : r)
      for (int i = 0; i < 50; i++)
        r &= (long)(i + 1);
    }
#pragma omp target teams distribute simd reduction(+ : s) map(tofrom : a)
    for (int i = 0; i < 100; i++) {
      s += i;
      a[i] += i;
    }
  }
  printf("r=%ld s=%ld a[99]=%.0f\n", r, s, a[99]);
  return 0;
}

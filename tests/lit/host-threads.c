// Several host threads offload at once: in a parallel region of 4 threads
// each thread maps its own arrays, runs kernels in a data region, updates,
// allocates and frees device memory; then all threads run kernels on
// disjoint parts of one shared mapped array.
// RUN: %clang-hetero %s -o %t
// RUN: env HETERO_INFO=1 %compare-fallback %t 2>%t.err | %FileCheck %s
// RUN: %FileCheck %s --check-prefix=INFO --implicit-check-not=error: < %t.err
// RUN: env HETERO_SIMULATE=2 HETERO_MEMBER=sim:0 HETERO_INFO=1 %compare-fallback %t 2>%t.sim.err | %FileCheck %s
// RUN: %FileCheck %s --check-prefix=SIM --implicit-check-not=error: --implicit-check-not=" on cpu" < %t.sim.err
// RUN: env HETERO_SIMULATE=2 %compare-fallback %t | %FileCheck %s
// CHECK: thread 0: ok
// CHECK: thread 1: ok
// CHECK: thread 2: ok
// CHECK: thread 3: ok
// CHECK: shared array: sum=8010000 ok
// CHECK: done failures=0
// INFO: hetero: launch {{.*}} {{(on (cpu|cuda:[0-9.]+) \(whole kernel:|split: )}}
// SIM: hetero: launch {{.*}} on sim:0 (whole kernel: pinned by HETERO_MEMBER)
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>

#include "Inputs/check.h"

#define T 4
#define N 4000
#define ROUNDS 6

int main(void) {
  int result[T];
  int dev = target_device(), host = omp_get_initial_device();
#pragma omp parallel num_threads(T)
  {
    int t = omp_get_thread_num();
    int ok = omp_get_num_threads() == T;
    long *a = malloc(N * sizeof(long));
    long *b = malloc(N * sizeof(long));
    for (int i = 0; i < N; ++i) {
      a[i] = i + t;
      b[i] = 0;
    }
#pragma omp target data map(tofrom : a[0 : N]) map(from : b[0 : N])
    {
      for (int r = 0; r < ROUNDS; ++r) {
#pragma omp target teams distribute parallel for firstprivate(t)
        for (int i = 0; i < N; ++i)
          a[i] += t + 1;
#pragma omp target teams distribute parallel for
        for (int i = 0; i < N; ++i)
          b[i] = a[i] - i;
      }
#pragma omp target update from(b[0 : N])
      for (int i = 0; i < N; ++i)
        ok &= b[i] == t + ROUNDS * (t + 1);
    }
    for (int i = 0; i < N; ++i)
      ok &= a[i] == i + t + ROUNDS * (t + 1);

    // Device memory of this thread only.
    int *d = omp_target_alloc(N * sizeof(int), dev);
#pragma omp target teams distribute parallel for is_device_ptr(d)              \
    firstprivate(t)
    for (int i = 0; i < N; ++i)
      d[i] = i * (t + 1);
    int *h = malloc(N * sizeof(int));
    ok &= omp_target_memcpy(h, d, N * sizeof(int), 0, 0, host, dev) == 0;
    for (int i = 0; i < N; ++i)
      ok &= h[i] == i * (t + 1);
    omp_target_free(d, dev);
    free(h);
    free(a);
    free(b);
    result[t] = ok;
  }
  for (int t = 0; t < T; ++t) {
    printf("thread %d: %s\n", t, result[t] ? "ok" : "FAIL");
    failures += !result[t];
  }

  // One mapped array, each thread updates its own quarter.
  static long s[N];
  for (int i = 0; i < N; ++i)
    s[i] = i;
#pragma omp target data map(tofrom : s)
  {
#pragma omp parallel num_threads(T)
    {
      int t = omp_get_thread_num();
      int lo = t * (N / T), hi = lo + N / T;
      for (int r = 0; r < 3; ++r) {
#pragma omp target teams distribute parallel for firstprivate(lo, hi)
        for (int i = lo; i < hi; ++i)
          s[i] += 1;
      }
    }
  }
  {
    long sum = 0;
    int ok = 1;
    for (int i = 0; i < N; ++i) {
      sum += s[i];
      ok &= s[i] == i + 3;
    }
    printf("shared array: sum=%ld %s\n", sum, ok ? "ok" : "FAIL");
    failures += !ok;
  }
  printf("done failures=%d\n", failures);
  return failures != 0;
}

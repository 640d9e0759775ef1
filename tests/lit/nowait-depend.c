// Asynchronous offload: several target nowait kernels on distinct arrays
// started from one thread of a parallel region and joined by taskwait; a
// chain of nowait kernels and host tasks ordered by depend clauses; nowait
// enter data / update / exit data in the same dependence chain.
// RUN: %clang-hetero %s -o %t
// RUN: env HETERO_INFO=1 %compare-fallback %t 2>%t.err | %FileCheck %s
// RUN: %FileCheck %s --check-prefix=INFO --implicit-check-not=error: < %t.err
// RUN: env HETERO_SIMULATE=2 HETERO_MEMBER=sim:0 HETERO_INFO=1 %compare-fallback %t 2>%t.sim.err | %FileCheck %s
// RUN: %FileCheck %s --check-prefix=SIM --implicit-check-not=error: --implicit-check-not=" on cpu" < %t.sim.err
// RUN: env HETERO_SIMULATE=2 %compare-fallback %t | %FileCheck %s
// RUN: env OMP_NUM_THREADS=4 HETERO_SIMULATE=2 HETERO_MEMBER=sim:1 %compare-fallback %t | %FileCheck %s
// CHECK: independent nowait kernels: 0 ok
// CHECK: independent nowait kernels: 1 ok
// CHECK: independent nowait kernels: 2 ok
// CHECK: independent nowait kernels: 3 ok
// CHECK: depend chain: sum=2499500 ok
// CHECK: depend chain with host tasks: ok
// CHECK: nowait data motion chain: ok
// CHECK: done failures=0
// INFO: hetero: launch {{.*}} {{(on (cpu|cuda:[0-9.]+) \(whole kernel:|split: )}}
// SIM: hetero: launch {{.*}} on sim:0 (whole kernel: pinned by HETERO_MEMBER)
#include <stdio.h>

#include "Inputs/check.h"

#define N 1000
#define K 4

static long arrs[K][N];

int main(void) {
  // K independent kernels in flight at once.
  for (int k = 0; k < K; ++k)
    for (int i = 0; i < N; ++i)
      arrs[k][i] = i;
#pragma omp parallel
#pragma omp single
  {
    for (int k = 0; k < K; ++k) {
      long *p = arrs[k];
#pragma omp target teams distribute parallel for nowait map(tofrom : p[0 : N]) \
    firstprivate(k)
      for (int i = 0; i < N; ++i)
        p[i] = p[i] * (k + 2) + k;
    }
#pragma omp taskwait
  }
  for (int k = 0; k < K; ++k) {
    int ok = 1;
    for (int i = 0; i < N; ++i)
      ok &= arrs[k][i] == (long)i * (k + 2) + k;
    printf("independent nowait kernels: %d %s\n", k, ok ? "ok" : "FAIL");
    failures += !ok;
  }

  // Two (then three) nowait kernels chained through depend: the second reads
  // what the first wrote.
  static long x[N], y[N];
  for (int i = 0; i < N; ++i)
    x[i] = i;
#pragma omp parallel
#pragma omp single
  {
#pragma omp target teams distribute parallel for nowait depend(out : x)        \
    map(tofrom : x)
    for (int i = 0; i < N; ++i)
      x[i] = 2 * x[i] + 1;
#pragma omp target teams distribute parallel for nowait depend(in : x)         \
    depend(out : y) map(to : x) map(from : y)
    for (int i = 0; i < N; ++i)
      y[i] = x[i] + 1000;
#pragma omp target teams distribute parallel for nowait depend(inout : y)      \
    map(tofrom : y)
    for (int i = 0; i < N; ++i)
      y[i] = y[i] + i;
#pragma omp taskwait
  }
  {
    long s = 0;
    int ok = 1;
    for (int i = 0; i < N; ++i) {
      s += y[i];
      ok &= x[i] == 2 * i + 1 && y[i] == 3 * i + 1001;
    }
    printf("depend chain: sum=%ld %s\n", s, ok ? "ok" : "FAIL");
    failures += !ok;
  }

  // Host tasks and nowait kernels in one dependence chain, repeated.
  static int z[N];
  for (int i = 0; i < N; ++i)
    z[i] = 0;
  int seen_ok = 1;
#pragma omp parallel
#pragma omp single
  {
    for (int round = 0; round < 5; ++round) {
#pragma omp target teams distribute parallel for nowait depend(inout : z)      \
    map(tofrom : z) firstprivate(round)
      for (int i = 0; i < N; ++i)
        z[i] = z[i] * 2 + round;
#pragma omp task depend(inout : z) shared(seen_ok) firstprivate(round)
      {
        // The kernel of this round has finished and its result is back.
        int want = 0;
        for (int r = 0; r <= round; ++r)
          want = want * 2 + r;
        for (int i = 0; i < N; ++i)
          seen_ok &= z[i] == want;
      }
    }
#pragma omp taskwait
  }
  check("depend chain with host tasks", seen_ok && z[N - 1] == 26);

  // nowait data motion: enter data, kernel, update, kernel, exit data.
  static double w[N];
  for (int i = 0; i < N; ++i)
    w[i] = i;
#pragma omp parallel
#pragma omp single
  {
#pragma omp target enter data nowait map(to : w) depend(out : w)
#pragma omp target teams distribute parallel for nowait depend(inout : w)
    for (int i = 0; i < N; ++i)
      w[i] = w[i] * 0.5;
#pragma omp target update nowait from(w) depend(inout : w)
#pragma omp task depend(inout : w)
    {
      for (int i = 0; i < N; ++i)
        w[i] += 1.0;
    }
#pragma omp target update nowait to(w) depend(inout : w)
#pragma omp target teams distribute parallel for nowait depend(inout : w)
    for (int i = 0; i < N; ++i)
      w[i] = w[i] * 4;
#pragma omp target exit data nowait map(from : w) depend(inout : w)
#pragma omp taskwait
  }
  {
    int ok = 1;
    for (int i = 0; i < N; ++i)
      ok &= w[i] == 2.0 * i + 4;
    check("nowait data motion chain", ok);
  }
  printf("done failures=%d\n", failures);
  return failures != 0;
}

// A chain of kernels inside one target data region: each kernel reads what
// the previous one wrote (device-only intermediates mapped alloc, a
// ping-pong between two buffers through swapped pointers, a stencil that
// reads neighbours), and only the last result comes back. With the argument
// "separate" (hetero only) the host copies are overwritten between the
// kernels, which must not change anything: the data stays on the device.
// RUN: %clang-hetero %s -o %t
// RUN: env HETERO_INFO=1 %compare-fallback %t 2>%t.err | %FileCheck %s
// RUN: %FileCheck %s --check-prefix=INFO --implicit-check-not=error: < %t.err
// RUN: env HETERO_SIMULATE=2 HETERO_MEMBER=sim:0 HETERO_INFO=1 %compare-fallback %t 2>%t.sim.err | %FileCheck %s
// RUN: %FileCheck %s --check-prefix=SIM --implicit-check-not=error: --implicit-check-not=" on cpu" < %t.sim.err
// RUN: env HETERO_SIMULATE=2 %compare-fallback %t | %FileCheck %s
// RUN: %run-hetero %t separate | %FileCheck %s
// RUN: env HETERO_SIMULATE=2 %run-hetero %t separate | %FileCheck %s
// RUN: env HETERO_SIMULATE=2 HETERO_MEMBER=sim:1 %run-hetero %t separate | %FileCheck %s
// CHECK: alloc chain: sum=2095104 ok
// CHECK: ping-pong after 9 steps: ok
// CHECK: stencil: checksum=702658704 ok
// CHECK: done failures=0
// INFO: hetero: launch {{.*}} {{(on (cpu|cuda:[0-9.]+) \(whole kernel:|split: )}}
// SIM: hetero: launch {{.*}} on sim:0 (whole kernel: pinned by HETERO_MEMBER)
#include <stdio.h>
#include <stdlib.h>

#include "Inputs/check.h"

#define N 4096

static void scribble(long *p, int n) {
  for (int i = 0; i < n; ++i)
    p[i] = 0x5a5a5a5a;
}

int main(int argc, char **argv) {
  int separate = argc > 1;
  long *in = malloc(N * sizeof(long)), *t1 = malloc(N * sizeof(long));
  long *t2 = malloc(N * sizeof(long)), *res = malloc(N * sizeof(long));
  for (int i = 0; i < N; ++i)
    in[i] = i;

  // in -> t1 -> t2 -> t1 -> res, intermediates never on the host.
#pragma omp target data map(to : in[0 : N]) map(alloc : t1[0 : N], t2[0 : N])  \
    map(from : res[0 : N])
  {
#pragma omp target teams distribute parallel for
    for (int i = 0; i < N; ++i)
      t1[i] = in[i] * 3;
    if (separate) {
      scribble(in, N);
      scribble(t1, N);
    }
#pragma omp target teams distribute parallel for
    for (int i = 0; i < N; ++i)
      t2[i] = t1[i] - in[i]; // 2i
    if (separate)
      scribble(t2, N);
#pragma omp target teams distribute parallel for
    for (int i = 0; i < N; ++i)
      t1[i] = t2[N - 1 - i]; // 2(N-1-i)
#pragma omp target teams distribute parallel for
    for (int i = 0; i < N; ++i)
      res[i] = t2[i] / 2 + (t1[i] + t2[i]) / 2 - (N - 1); // i
    if (separate)
      scribble(res, N);
#pragma omp target teams distribute parallel for
    for (int i = 0; i < N; ++i)
      res[i] = res[i] / 4;
  }
  {
    long s = 0;
    int ok = 1;
    for (int i = 0; i < N; ++i) {
      s += res[i];
      ok &= res[i] == i / 4;
    }
    printf("alloc chain: sum=%ld %s\n", s, ok ? "ok" : "FAIL");
    failures += !ok;
  }

  // Ping-pong: swapped pointers name the two mapped buffers in turn.
  for (int i = 0; i < N; ++i) {
    t1[i] = i;
    t2[i] = 0;
  }
#pragma omp target data map(tofrom : t1[0 : N], t2[0 : N])
  {
    long *src = t1, *dst = t2;
    for (int step = 0; step < 9; ++step) {
#pragma omp target teams distribute parallel for firstprivate(step)
      for (int i = 0; i < N; ++i)
        dst[i] = src[i] + step + 1;
      long *tmp = src;
      src = dst;
      dst = tmp;
      if (separate)
        scribble(src, N);
    }
  }
  {
    // Even steps write t2, odd steps t1: t2 = i + 1 + 2 + ... + 9 after
    // step 8, t1 = i + 1 + ... + 8 after step 7.
    int ok = 1;
    for (int i = 0; i < N; ++i)
      ok &= t2[i] == i + 45 && t1[i] == i + 36;
    check("ping-pong after 9 steps", ok);
  }

  // Stencil: each step reads neighbours written by the previous step.
  for (int i = 0; i < N; ++i) {
    t1[i] = (i * 37) % 101;
    t2[i] = 0;
  }
#pragma omp target data map(tofrom : t1[0 : N]) map(alloc : t2[0 : N])
  {
    for (int step = 0; step < 6; ++step) {
#pragma omp target teams distribute parallel for
      for (int i = 0; i < N; ++i)
        t2[i] = t1[(i + N - 1) % N] + 2 * t1[i] + t1[(i + 1) % N];
#pragma omp target teams distribute parallel for
      for (int i = 0; i < N; ++i)
        t1[i] = t2[i] % 1000003;
      if (separate) {
        scribble(t1, N);
        scribble(t2, N);
      }
    }
  }
  {
    // Same computation on the host.
    long *h1 = malloc(N * sizeof(long)), *h2 = malloc(N * sizeof(long));
    for (int i = 0; i < N; ++i)
      h1[i] = (i * 37) % 101;
    for (int step = 0; step < 6; ++step) {
      for (int i = 0; i < N; ++i)
        h2[i] = h1[(i + N - 1) % N] + 2 * h1[i] + h1[(i + 1) % N];
      for (int i = 0; i < N; ++i)
        h1[i] = h2[i] % 1000003;
    }
    long sum = 0;
    int ok = 1;
    for (int i = 0; i < N; ++i) {
      sum = (sum * 131 + t1[i]) % 1000000007;
      ok &= t1[i] == h1[i];
    }
    printf("stencil: checksum=%ld %s\n", sum, ok ? "ok" : "FAIL");
    failures += !ok;
    free(h1);
    free(h2);
  }
  free(in);
  free(t1);
  free(t2);
  free(res);
  printf("done failures=%d\n", failures);
  return failures != 0;
}

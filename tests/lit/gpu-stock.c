// GPU machines only: hetero runs the kernels on cuda:0, and the program's
// output is the same as with LLVM's stock plugins (device 0 is then the
// first GPU through the upstream cuda plugin) and in host fallback. The
// program mixes data regions, updates, reductions, declare target globals,
// device memory and pointer attachment.
// REQUIRES: gpu
// RUN: %clang-hetero %s -o %t
// RUN: env HETERO_INFO=1 %run-hetero %t >%t.hetero 2>%t.err
// RUN: %FileCheck %s --check-prefix=INFO --implicit-check-not=error: < %t.err
// RUN: %run-cuda %t >%t.stock
// RUN: %run-fallback %t >%t.fallback
// RUN: diff %t.stock %t.hetero
// RUN: diff %t.fallback %t.hetero
// RUN: %FileCheck %s < %t.hetero
// RUN: env HETERO_SIMULATE=2 HETERO_INFO=1 %run-hetero %t 2>%t.sim.err | %FileCheck %s
// RUN: %FileCheck %s --check-prefix=INFO --implicit-check-not=error: < %t.sim.err
// INFO: hetero: pool: cuda:0{{.*}}, cpu (
// INFO: hetero: launch {{.*}} on [[GPU0]] (whole kernel: first GPU of the pool)
// CHECK: data region: sum=1499500 ok
// CHECK: update: ok
// CHECK: reduction: 499500 999 0 ok
// CHECK: declare target global: counter=1005 sum=499500 ok
// CHECK: device memory: ok
// CHECK: pointer attachment: ok
// CHECK: done failures=0
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>

#include "Inputs/check.h"

#define N 1000

#pragma omp declare target
int counter = 5;
long gtable[N];
#pragma omp end declare target

struct S {
  int n;
  long *data;
};

int main(void) {
  static long a[N], b[N], c[N];
  for (int i = 0; i < N; ++i) {
    a[i] = i;
    b[i] = 2 * i;
  }
#pragma omp target data map(to : a, b) map(from : c)
  {
#pragma omp target teams distribute parallel for
    for (int i = 0; i < N; ++i)
      c[i] = a[i] + b[i];
#pragma omp target teams distribute parallel for
    for (int i = 0; i < N; ++i)
      c[i] += 1;
  }
  {
    long s = 0;
    int ok = 1;
    for (int i = 0; i < N; ++i) {
      s += c[i];
      ok &= c[i] == 3 * i + 1;
    }
    printf("data region: sum=%ld %s\n", s, ok ? "ok" : "FAIL");
    failures += !ok;
  }

#pragma omp target data map(tofrom : a)
  {
    for (int i = 0; i < 10; ++i)
      a[i] = 100;
#pragma omp target update to(a[0 : 10])
#pragma omp target teams distribute parallel for
    for (int i = 0; i < N; ++i)
      a[i] *= 2;
#pragma omp target update from(a[0 : 20])
    int ok = a[0] == 200 && a[9] == 200 && a[10] == 20 && a[19] == 38;
    check("update", ok);
  }

  long sum = 0;
  int mx = 0, mn = 1 << 30;
#pragma omp target teams distribute parallel for reduction(+ : sum)            \
    reduction(max : mx) reduction(min : mn)
  for (int i = 0; i < N; ++i) {
    sum += i;
    mx = i > mx ? i : mx;
    mn = i < mn ? i : mn;
  }
  printf("reduction: %ld %d %d %s\n", sum, mx, mn,
         sum == 499500 && mx == 999 && mn == 0 ? "ok" : "FAIL");
  failures += !(sum == 499500 && mx == 999 && mn == 0);

  counter = 1000;
  for (int i = 0; i < N; ++i)
    gtable[i] = i;
#pragma omp target update to(counter, gtable)
#pragma omp target
  counter += 5;
  long gsum = 0;
#pragma omp target map(tofrom : gsum)
  for (int i = 0; i < N; ++i)
    gsum += gtable[i];
#pragma omp target update from(counter)
  printf("declare target global: counter=%d sum=%ld %s\n", counter, gsum,
         counter == 1005 && gsum == 499500 ? "ok" : "FAIL");
  failures += !(counter == 1005 && gsum == 499500);

  int dev = target_device(), host = omp_get_initial_device();
  long *d = omp_target_alloc(N * sizeof(long), dev);
#pragma omp target teams distribute parallel for is_device_ptr(d)
  for (int i = 0; i < N; ++i)
    d[i] = 7 * i;
  long *h = malloc(N * sizeof(long));
  int rc = omp_target_memcpy(h, d, N * sizeof(long), 0, 0, host, dev);
  {
    int ok = rc == 0;
    for (int i = 0; i < N; ++i)
      ok &= h[i] == 7 * i;
    check("device memory", ok);
  }
  omp_target_free(d, dev);

  struct S s = {N, h};
#pragma omp target map(to : s) map(tofrom : s.data[0 : s.n])
  for (int i = 0; i < s.n; ++i)
    s.data[i] = s.data[i] / 7 + 1;
  {
    int ok = s.data == h;
    for (int i = 0; i < N; ++i)
      ok &= h[i] == i + 1;
    check("pointer attachment", ok);
  }
  free(h);
  printf("done failures=%d\n", failures);
  return failures != 0;
}

// Calls through pointers to `declare target ... indirect` functions. Every
// member runs its own image, with its own copy of each function: the pointer
// libomptarget hands the kernel is rewritten for the member that runs it
// (on a simulated accelerator the CPU pool's copy would touch the CPU pool's
// globals; on a GPU it would be an x86 address).
// RUN: %clang-hetero %s -o %t
// RUN: %compare-fallback %t | %FileCheck %s
// RUN: env HETERO_SIMULATE=3 %compare-fallback %t | %FileCheck %s
// RUN: env HETERO_SIMULATE=3 HETERO_MEMBER=sim:1 %compare-fallback %t | %FileCheck %s
// RUN: env HETERO_SIMULATE=3 HETERO_MEMBER=cpu %compare-fallback %t | %FileCheck %s
// CHECK: own copy: ok
// CHECK: global through the call: 42
// CHECK: table of functions: 570
// CHECK: done
#include <stdio.h>

int g = 0;
#pragma omp declare target to(g)

void setg(int x) { g = x; }
int twice(int x) { return 2 * x; }
int plus100(int x) { return x + 100; }
#pragma omp declare target to(setg, twice, plus100) indirect

typedef void (*setter)(int);
typedef int (*op)(int);

int main(void) {
  setter fp = setg;
  int own = 1;
#pragma omp target map(from : own)
  {
    own = fp == setg;
    fp(42);
  }
  printf("own copy: %s\n", own ? "ok" : "FAIL");
#pragma omp target update from(g)
  printf("global through the call: %d\n", g);

  op f = twice, h = plus100;
  int sum = 0;
#pragma omp target teams distribute parallel for reduction(+ : sum)
  for (int i = 0; i < 10; ++i)
    sum += (i % 2 ? f : h)(i);
  printf("table of functions: %d\n", sum);
  printf("done\n");
  return 0;
}

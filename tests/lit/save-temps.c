// -save-temps compiles each job's source and its IR in separate processes,
// so the loop-window pass never sees the analysis' descriptors: the compile
// says so, once, and the kernels run unsplit with that reason (the answers
// stay right). A normal compile says nothing.
// REQUIRES: compiler
// RUN: rm -rf %t.dir && mkdir -p %t.dir && cd %t.dir && %clang-hetero -save-temps %s -o %t 2>&1 | %FileCheck %s --check-prefix=COMPILE
// RUN: env HETERO_STATS=1 HETERO_SIMULATE=2 %compare-fallback %t 2>%t.err | %FileCheck %s
// RUN: %FileCheck %s --check-prefix=STATS < %t.err
// RUN: %clang-hetero %s -o %t.normal 2>&1 | %FileCheck %s --check-prefix=NORMAL --allow-empty
// COMPILE: hetero: warning: {{.*}}save-temps.c: the offloaded loops run unsplit: their analysis did not run in this compiler process (-save-temps compiles the source and its IR in separate processes)
// COMPILE-NOT: hetero: warning
// NORMAL-NOT: hetero: warning
// CHECK: sum=
// STATS: hetero-stats kernel={{.*}} split=no(compiled without hetero's analysis (-save-temps))
#include <stdio.h>
#include <stdlib.h>

int main(void) {
  const int n = 50000;
  double *a = malloc(sizeof(double) * n);
#pragma omp target teams distribute parallel for map(from : a[0 : n])
  for (int i = 0; i < n; ++i)
    a[i] = 0.25 * i + (i % 7);
  double sum = 0;
  for (int i = 0; i < n; ++i)
    sum += a[i] * (i % 3);
  printf("sum=%.12e\n", sum);
  free(a);
  return 0;
}

// What a run says is said once: HETERO_INFO=1 gives a line per kernel (and
// again when what runs it changes), HETERO_INFO=2 a line per launch; a
// warning that would come at every launch (a member without room for its
// chunks) comes once, and the end of the run says how often it came again.
// Every line starts with "hetero: ".
// RUN: %clang-hetero %s -o %t
// RUN: env HETERO_DISABLE_CUDA=1 HETERO_SIMULATE=2 HETERO_SIMULATE_MEMORY=100K HETERO_INFO=1 %compare-fallback %t 2>%t.one | %FileCheck %s
// RUN: %FileCheck %s --check-prefix=ONE < %t.one
// RUN: env HETERO_DISABLE_CUDA=1 HETERO_SIMULATE=2 HETERO_SIMULATE_MEMORY=100K HETERO_INFO=2 %compare-fallback %t 2>%t.two | %FileCheck %s
// RUN: %FileCheck %s --check-prefix=TWO < %t.two
// Every line hetero prints says it is hetero's (the pool's topology too).
// RUN: %not grep -v "^hetero: " %t.two
// CHECK: sweeps: ok
// ONE-COUNT-1: hetero: warning: kernel {{.*}}: sim:{{[01]}} has no room for its chunks' data; the other members take its iterations
// ONE-COUNT-1: hetero: launch {{.*}} on cpu (whole kernel: fallback), not split: no room on sim:
// ONE-NOT: hetero: launch
// ONE: hetero: warning: {{[0-9]+}} repeats of warnings above were not printed ({{[0-9]+}}x 'kernel {{.*}} has no room
// TWO-COUNT-20: hetero: launch {{.*}} on cpu (whole kernel: fallback), not split: no room on sim:
#include <stdio.h>
#include <stdlib.h>

#include "Inputs/check.h"

int main(void) {
  const int n = 40000; // 320 KB an array: more than a member holds
  double *a = malloc(n * sizeof(double)), *b = malloc(n * sizeof(double));
  for (int i = 0; i < n; ++i)
    a[i] = b[i] = i % 7;
#pragma omp target data map(tofrom : a[0 : n], b[0 : n])
  for (int s = 0; s < 20; ++s) {
#pragma omp target teams distribute parallel for
    for (int i = 1; i < n - 1; ++i)
      b[i] = a[i] + 0.5 * (a[i - 1] + a[i + 1]);
    double *t = a;
    a = b;
    b = t;
  }
  double sum = 0;
  for (int i = 0; i < n; ++i)
    sum += a[i];
  check("sweeps", sum > 0);
  printf("done failures=%d\n", failures);
  return failures != 0;
}

// What a run says is said once: HETERO_INFO=1 gives a line per kernel (and
// again when what runs it changes), HETERO_INFO=2 a line per launch; a
// warning that would come at every launch (a member without room for a
// kernel's data) comes once, and the end of the run says how often it came
// again.
// Every line starts with "hetero: ".
// RUN: %clang-hetero %s -o %t
// RUN: env HETERO_DISABLE_CUDA=1 HETERO_SIMULATE=2 HETERO_SIMULATE_MEMORY=100K HETERO_INFO=1 %compare-fallback %t 2>%t.one | %FileCheck %s
// RUN: %FileCheck %s --check-prefix=ONE < %t.one
// RUN: env HETERO_DISABLE_CUDA=1 HETERO_SIMULATE=2 HETERO_SIMULATE_MEMORY=100K HETERO_INFO=2 %compare-fallback %t 2>%t.two | %FileCheck %s
// RUN: %FileCheck %s --check-prefix=TWO < %t.two
// Every line hetero prints says it is hetero's (the pool's topology too).
// RUN: %not grep -v "^hetero: " %t.two
// CHECK: sweeps: ok
// The stencil: its members hold none of it (RoomCaps.h), said once; the
// CPU pool runs it, one line. The scatter runs whole and fits on neither
// member at any launch: said once a member, then counted.
// ONE-COUNT-2: hetero: warning: kernel {{.*}}: sim:{{[01]}} has no room for its chunks' data; the other members take its iterations
// ONE-NEXT: hetero: launch {{.*}} split: cpu:39998
// ONE-COUNT-2: hetero: warning: kernel {{.*}} does not fit on sim:{{[01]}}
// ONE-NEXT: hetero: launch {{.*}} on cpu (whole kernel: fallback), not split: non-affine write
// ONE-NOT: hetero: launch
// ONE: hetero: warning: 38 repeats of warnings above were not printed (19x 'kernel {{.*}} does not fit on sim:0
// TWO-COUNT-20: hetero: launch {{.*}} on cpu (whole kernel: fallback), not split: non-affine write
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
    // A scatter (a permutation of i): it runs whole, and fits on no member.
#pragma omp target teams distribute parallel for
    for (int i = 0; i < n; ++i)
      a[(i * 7919) % n] = 0.5 * b[i];
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

// A kernel that cannot be split says every reason at once, each with its
// source location, so that a user sees all there is to change: here a
// write of a scalar shared by all iterations, a thread number and an
// atomic construct. The kernel runs whole and gives the host's answer.
// RUN: %clang-hetero %s -o %t
// RUN: env HETERO_STATS=1 HETERO_SIMULATE=2 %compare-fallback %t 2>%t.sim | %FileCheck %s
// RUN: %FileCheck %s --check-prefix=STATS < %t.sim
// CHECK: sum=
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>

int main(void) {
  const int n = 1000;
  double *a = malloc(n * sizeof(double)), last = 0, total = 0;
  for (int i = 0; i < n; ++i)
    a[i] = i;
// STATS: hetero-stats kernel={{.*}}_l[[@LINE+1]] launches=1 split=no(depends on team or thread numbers (omp_get_thread_num) at refusal-reasons.c:[[@LINE+3]]:27; writes 'last', shared by all iterations at refusal-reasons.c:[[@LINE+4]]:5; atomic construct at refusal-reasons.c:[[@LINE+5]]:1)
#pragma omp target teams distribute parallel for map(tofrom : a[0 : n], last, total)
  for (int i = 0; i < n; ++i) {
    a[i] = a[i] + 1 + 0 * omp_get_thread_num();
    last = a[i];
#pragma omp atomic
    total += a[i];
  }
  printf("sum=%.1f total=%.1f\n", a[n - 1] + last * 0, total);
  free(a);
  return 0;
}

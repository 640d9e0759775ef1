#pragma STDC FP_CONTRACT OFF
// Zero-trip loops: the kernels are launched but run no iteration, and the
// mapped arrays must come back unchanged: n = 0 at run time; a lower bound
// above the upper bound; a reversed loop that starts below its bound; a
// collapse(2) nest whose inner dimension is empty; a reduction over no
// iteration (the initial value stays); a kernel inside a target data region
// between two kernels that do run. Compared bit for bit with serial loops.
// RUN: %clang-hetero %s -o %t
// RUN: env HETERO_STATS=1 HETERO_CHUNKS=4 %compare-fallback %t 2>%t.cpu | %FileCheck %s
// RUN: %FileCheck %s --check-prefix=STATS < %t.cpu
// RUN: env HETERO_STATS=1 HETERO_SIMULATE=3 %compare-fallback %t 2>%t.sim | %FileCheck %s
// RUN: %FileCheck %s --check-prefix=STATS < %t.sim
// CHECK: unchanged by the empty kernels: hash=490f2450a455491c ok
// CHECK: empty reduction: sum=42 prod=3
// CHECK: empty reduction keeps the initial values: ok
// CHECK: done failures=0
#include <stdlib.h>

#include "Inputs/split.h"

#define N 100000

int main(int argc, char **argv) {
  (void)argv;
  const int n = N;
  const int zero = argc - 1; // 0, unknown to the compiler
  const int lo = 5000 + zero, hi = 4000 + zero;
  double *a = malloc(n * sizeof(double)), *ra = malloc(n * sizeof(double));
  for (int i = 0; i < n; ++i)
    a[i] = ra[i] = (double)(i % 321) * 0.5;

#pragma omp target data map(tofrom : a[0 : n])
  {
// STATS-DAG: hetero-stats kernel={{.*}}_l[[@LINE+1]] launches=1 split=yes
#pragma omp target teams distribute parallel for
    for (int i = 0; i < n; ++i)
      a[i] = a[i] + 1.0;
// STATS-DAG: hetero-stats kernel={{.*}}_l[[@LINE+1]] launches=1 split={{yes|no\(.*\)}}
#pragma omp target teams distribute parallel for
    for (int i = 0; i < zero; ++i)
      a[i] = -1.0;
// STATS-DAG: hetero-stats kernel={{.*}}_l[[@LINE+1]] launches=1 split={{yes|no\(.*\)}}
#pragma omp target teams distribute parallel for
    for (int i = lo; i < hi; ++i)
      a[i] = -2.0;
// STATS-DAG: hetero-stats kernel={{.*}}_l[[@LINE+1]] launches=1 split={{yes|no\(.*\)}}
#pragma omp target teams distribute parallel for
    for (int i = hi; i > lo; --i)
      a[i] = -3.0;
// STATS-DAG: hetero-stats kernel={{.*}}_l[[@LINE+1]] launches=1 split={{yes|no\(.*\)}}
#pragma omp target teams distribute parallel for collapse(2)
    for (int i = 0; i < 100; ++i)
      for (int j = 0; j < zero; ++j)
        a[i * 1000 + j] = -4.0;
// STATS-DAG: hetero-stats kernel={{.*}}_l[[@LINE+1]] launches=1 split=yes
#pragma omp target teams distribute parallel for
    for (int i = 0; i < n; ++i)
      a[i] = a[i] * 2.0;
  }
  for (int i = 0; i < n; ++i)
    ra[i] = (ra[i] + 1.0) * 2.0;
  check_bytes("unchanged by the empty kernels", a, ra, n * sizeof(double));

  long sum = 42;
  double prod = 3.0;
  int *b = malloc(n * sizeof(int));
  for (int i = 0; i < n; ++i)
    b[i] = i;
// STATS-DAG: hetero-stats kernel={{.*}}_l[[@LINE+1]] launches=1 split={{yes|no\(.*\)}}
#pragma omp target teams distribute parallel for map(tofrom : b[0 : n])        \
    reduction(+ : sum) reduction(* : prod)
  for (int i = n - 1; i < zero; ++i) {
    sum += b[i];
    prod *= 2.0;
    b[i] = 0;
  }
  int ok = sum == 42 && prod == 3.0;
  for (int i = 0; i < n; ++i)
    ok &= b[i] == i;
  printf("empty reduction: sum=%ld prod=%g\n", sum, prod);
  check("empty reduction keeps the initial values", ok);
  free(a);
  free(ra);
  free(b);
  return done();
}
// STATS: hetero-stats total

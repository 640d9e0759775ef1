// A binary with NVPTX offload images only (plain clang-19,
// -fopenmp-targets=nvptx64, linked against hetero's libomptarget as the user
// guide's "by hand" build is) under LIBOMPTARGET_PLUGIN=hetero. Where no GPU
// of the process runs its images, hetero does not claim them: the program
// falls back to the host and prints the right answer, as under the stock
// plugins, with no error and no crash. On a GPU machine its GPUs run it.
// REQUIRES: compiler
// RUN: %clang-plain-nvptx --offload-arch=sm_90 %s -o %t -L%hetero-lib -Wl,-rpath,%hetero-lib
// RUN: env HETERO_INFO=1 %compare-fallback %t 2>%t.err | %FileCheck %s
// RUN: %FileCheck %s --check-prefix=ERR --allow-empty --implicit-check-not=error --implicit-check-not="Failed to load" < %t.err
// RUN: env HETERO_DISABLE_CUDA=1 %compare-fallback %t 2>%t.off.err | %FileCheck %s
// RUN: %FileCheck %s --check-prefix=ERR --allow-empty --implicit-check-not=error --implicit-check-not="Failed to load" < %t.off.err
// CHECK: axpy: sum=1001000 ok
// CHECK: reduction 499500: ok
// CHECK: done failures=0
// ERR-NOT: Segmentation
#include <stdio.h>

#include "Inputs/check.h"

int main(void) {
  double x[1000], y[1000];
  for (int i = 0; i < 1000; ++i) {
    x[i] = i;
    y[i] = 2;
  }
#pragma omp target teams distribute parallel for map(to : x) map(tofrom : y)
  for (int i = 0; i < 1000; ++i)
    y[i] += 2 * x[i];
  double s = 0;
  for (int i = 0; i < 1000; ++i)
    s += y[i];
  printf("axpy: sum=%.0f %s\n", s, s == 1001000 ? "ok" : "FAIL");
  failures += s != 1001000;
  long r = 0;
#pragma omp target teams distribute parallel for reduction(+ : r)
  for (int i = 0; i < 1000; ++i)
    r += i;
  check("reduction 499500", r == 499500);
  printf("done failures=%d\n", failures);
  return failures != 0;
}

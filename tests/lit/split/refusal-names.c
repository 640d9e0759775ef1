// Run-time refusals name the array and its line, and what the compiler can
// tell ahead is said at compile time: a transpose (T[j * ld + i], split over
// i) is a missed split in -Rpass-missed, not a split, and its launches say
// whose writes overlap; a read beyond its mapped buffer is a warning at the
// launch that finds it (once), naming the array, its line, the bytes read
// and the bytes mapped, with the CPU pool alone too (which the unsplit
// kernel then reads past, as the program asks).
// RUN: %clang-hetero %s -o %t
// RUN: env HETERO_STATS=1 HETERO_SIMULATE=3 %run-hetero %t > %t.out 2> %t.sim
// RUN: %FileCheck %s < %t.out
// RUN: %FileCheck %s --check-prefix=SIM < %t.sim
// RUN: env HETERO_STATS=1 HETERO_MEMBERS=cpu %run-hetero %t > %t.out 2> %t.cpu
// RUN: %FileCheck %s --check-prefix=CPU < %t.cpu
// (The transpose is predicted at compile time: split/remarks-overlap.c.)
//
// CHECK: transpose: ok
// SIM-COUNT-1: hetero: warning: kernel main(...) at refusal-names.c:[[@LINE+33]]: 'a' at refusal-names.c:[[@LINE+36]] reads bytes [{{[0-9]+}}, 8008) of a 8000-byte buffer: outside what is mapped; the kernel runs unsplit
// SIM-NOT: hetero: warning: kernel
// SIM: hetero-stats kernel={{.*}}_l[[@LINE+16]] launches=2 split=no(the chunks' writes of 'T' at refusal-names.c:[[@LINE+20]] overlap) {{.*}} name="main(...) at refusal-names.c:[[@LINE+16]]"
// SIM: hetero-stats kernel={{.*}}_l[[@LINE+30]] launches=3 split=no('a' at refusal-names.c:[[@LINE+33]] reads bytes [{{[0-9]+}}, 8008) of a 8000-byte buffer: outside what is mapped)
// CPU-COUNT-1: hetero: warning: kernel main(...) at refusal-names.c:[[@LINE+29]]: 'a' at refusal-names.c:[[@LINE+32]] reads bytes [{{[0-9]+}}, 8008) of a 8000-byte buffer: outside what is mapped
#include <stdio.h>
#include <stdlib.h>

#include "Inputs/split.h"

int main(int argc, char **argv) {
  (void)argv;
  const int n = 100 + argc - 1, ld = n; // over 64: the column is not sliced
  double *A = malloc(n * n * sizeof(double));
  double *T = malloc(n * n * sizeof(double));
  for (int k = 0; k < n * n; ++k)
    A[k] = k % 97;
  for (int rep = 0; rep < 2; ++rep) {
#pragma omp target teams distribute parallel for map(to : A[0 : n * n])        \
    map(from : T[0 : n * n])
    for (int i = 0; i < n; ++i)
      for (int j = 0; j < n; ++j)
        T[j * ld + i] = A[i * ld + j];
  }
  int ok = 1;
  for (int i = 0; i < n; ++i)
    for (int j = 0; j < n; ++j)
      ok &= T[j * ld + i] == A[i * ld + j];
  check("transpose", ok);
  // Reads one element past what is mapped (the host array has it).
  const int m = 1000;
  double *a = calloc(m + 1, sizeof(double)), *b = malloc(m * sizeof(double));
  for (int rep = 0; rep < 3; ++rep) {
#pragma omp target teams distribute parallel for map(to : a[0 : m])            \
    map(from : b[0 : m])
    for (int i = 0; i < m; ++i)
      b[i] = a[i + 1];
  }
  printf("past the end: %s\n", b[0] == 0 ? "read" : "read");
  return done();
}

#pragma STDC FP_CONTRACT OFF
// Loops with non-unit negative steps: i = n - 2; i > 3; i -= 3 (the last
// iteration is not at the bound); i -= 2 with >= and an odd start; a long
// counter stepping by -7 from a runtime start; a collapse(2) nest whose inner
// loop runs down by 4. Elements not visited keep their values. Compared bit
// for bit with serial host loops.
// RUN: %clang-hetero %s -o %t
// RUN: env HETERO_STATS=1 HETERO_CHUNKS=4 %compare-fallback %t 2>%t.cpu | %FileCheck %s
// RUN: %FileCheck %s --check-prefix=STATS < %t.cpu
// RUN: env HETERO_STATS=1 HETERO_SIMULATE=3 %compare-fallback %t 2>%t.sim | %FileCheck %s
// RUN: %FileCheck %s --check-prefix=STATS < %t.sim
// CHECK: step -3 and -7: hash=c5e2e148cad215b6 ok
// CHECK: step -2: hash=9ada9dd6fdf3baa4 ok
// CHECK: collapse(2) inner step -4: hash=abcc42569404b6cd ok
// CHECK: done failures=0
#include <stdlib.h>

#include "Inputs/split.h"

#define N 400000

int main(int argc, char **argv) {
  (void)argv;
  const int n = N;
  const long start = n - 10 + argc; // n - 9
  int *a = malloc(n * sizeof(int)), *ra = malloc(n * sizeof(int));
  double *d = malloc(n * sizeof(double)), *rd = malloc(n * sizeof(double));
  for (int i = 0; i < n; ++i) {
    a[i] = ra[i] = i ^ 0x5555;
    d[i] = rd[i] = (double)(i % 1000) / 4.0;
  }

#pragma omp target data map(tofrom : a[0 : n], d[0 : n])
  {
// STATS-DAG: hetero-stats kernel={{.*}}_l[[@LINE+1]] launches=1 split=yes
#pragma omp target teams distribute parallel for
    for (int i = n - 2; i > 3; i -= 3)
      a[i] = a[i + 1] - a[i - 1];
// STATS-DAG: hetero-stats kernel={{.*}}_l[[@LINE+1]] launches=1 split=yes
#pragma omp target teams distribute parallel for
    for (int i = n - 1; i >= 0; i -= 2)
      d[i] = d[i] * 1.25 + (double)a[i];
// STATS-DAG: hetero-stats kernel={{.*}}_l[[@LINE+1]] launches=1 split=yes
#pragma omp target teams distribute parallel for
    for (long i = start; i >= 100; i -= 7)
      a[i] = a[i] * 5 + (int)(i % 13);
  }
  for (int i = n - 2; i > 3; i -= 3)
    ra[i] = ra[i + 1] - ra[i - 1];
  for (int i = n - 1; i >= 0; i -= 2)
    rd[i] = rd[i] * 1.25 + (double)ra[i];
  for (long i = start; i >= 100; i -= 7)
    ra[i] = ra[i] * 5 + (int)(i % 13);
  check_bytes("step -3 and -7", a, ra, n * sizeof(int));
  check_bytes("step -2", d, rd, n * sizeof(double));

  const int rows = 300, cols = 1000;
  short *s = malloc(rows * cols * sizeof(short)),
        *rs = malloc(rows * cols * sizeof(short));
  for (int i = 0; i < rows * cols; ++i)
    s[i] = rs[i] = (short)(i % 30000);
// STATS-DAG: hetero-stats kernel={{.*}}_l[[@LINE+1]] launches=1 split=yes
#pragma omp target teams distribute parallel for collapse(2)                   \
    map(tofrom : s[0 : rows * cols])
  for (int i = 0; i < rows; ++i)
    for (int j = cols - 1; j > 0; j -= 4)
      s[i * cols + j] = (short)(s[i * cols + j - 1] / 2 + i);
  for (int i = 0; i < rows; ++i)
    for (int j = cols - 1; j > 0; j -= 4)
      rs[i * cols + j] = (short)(rs[i * cols + j - 1] / 2 + i);
  check_bytes("collapse(2) inner step -4", s, rs, rows * cols * sizeof(short));
  free(a);
  free(ra);
  free(d);
  free(rd);
  free(s);
  free(rs);
  return done();
}
// STATS: hetero-stats total

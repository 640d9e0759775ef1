#pragma STDC FP_CONTRACT OFF
// "target teams distribute" without parallel for: the loop is distributed
// over teams only, each iteration runs on one thread. (1) a plain 1-D update;
// (2) rows with a sequential inner loop (running row sums, written in
// order); (3) collapse(2) over a 2-D grid; (4) a reduction over teams.
// Compared bit for bit with serial host loops.
// RUN: %clang-hetero %s -o %t
// RUN: env HETERO_STATS=1 HETERO_CHUNKS=4 %compare-fallback %t 2>%t.cpu | %FileCheck %s
// RUN: %FileCheck %s --check-prefix=STATS < %t.cpu
// RUN: env HETERO_STATS=1 HETERO_SIMULATE=3 %compare-fallback %t 2>%t.sim | %FileCheck %s
// RUN: %FileCheck %s --check-prefix=STATS < %t.sim
// CHECK: 1-D: hash=8d1cce38f7126460 ok
// CHECK: row sums: hash=238a9594e6717c9e ok
// CHECK: collapse(2): hash=5be78b23241be73d ok
// CHECK: total=-9900840
// CHECK: teams reduction: ok
// CHECK: done failures=0
#include <stdlib.h>

#include "Inputs/split.h"

int main(void) {
  const int n = 100000;
  double *a = malloc(n * sizeof(double)), *ra = malloc(n * sizeof(double));
  for (int i = 0; i < n; ++i)
    a[i] = ra[i] = (double)(i % 77) / 4.0;
// STATS-DAG: hetero-stats kernel={{.*}}_l[[@LINE+1]] launches=1 split=yes
#pragma omp target teams distribute map(tofrom : a[0 : n])
  for (int i = 0; i < n; ++i)
    a[i] = a[i] * a[i] - 3.0;
  for (int i = 0; i < n; ++i)
    ra[i] = ra[i] * ra[i] - 3.0;
  check_bytes("1-D", a, ra, n * sizeof(double));

  const int rows = 2000, cols = 100;
  int *m = malloc(rows * cols * sizeof(int)),
      *s = malloc(rows * cols * sizeof(int));
  int *rs = malloc(rows * cols * sizeof(int));
  for (int i = 0; i < rows * cols; ++i)
    m[i] = (i * 13) % 17 - 8;
// STATS-DAG: hetero-stats kernel={{.*}}_l[[@LINE+1]] launches=1 split=yes
#pragma omp target teams distribute map(to : m[0 : rows * cols])               \
    map(from : s[0 : rows * cols])
  for (int i = 0; i < rows; ++i) {
    int acc = 0;
    for (int j = 0; j < cols; ++j) {
      acc += m[i * cols + j];
      s[i * cols + j] = acc;
    }
  }
  for (int i = 0; i < rows; ++i) {
    int acc = 0;
    for (int j = 0; j < cols; ++j) {
      acc += m[i * cols + j];
      rs[i * cols + j] = acc;
    }
  }
  check_bytes("row sums", s, rs, rows * cols * sizeof(int));

// STATS-DAG: hetero-stats kernel={{.*}}_l[[@LINE+1]] launches=1 split=yes
#pragma omp target teams distribute collapse(2) map(tofrom : s[0 : rows * cols])
  for (int i = 0; i < rows; ++i)
    for (int j = 0; j < cols; ++j)
      s[i * cols + j] = s[i * cols + j] * 2 - j;
  for (int i = 0; i < rows; ++i)
    for (int j = 0; j < cols; ++j)
      rs[i * cols + j] = rs[i * cols + j] * 2 - j;
  check_bytes("collapse(2)", s, rs, rows * cols * sizeof(int));

  long total = 0, rtotal = 0;
// STATS-DAG: hetero-stats kernel={{.*}}_l[[@LINE+1]] launches=1 split=yes
#pragma omp target teams distribute map(to : s[0 : rows * cols])               \
    reduction(+ : total)
  for (int i = 0; i < rows * cols; ++i)
    total += s[i];
  for (int i = 0; i < rows * cols; ++i)
    rtotal += rs[i];
  printf("total=%ld\n", total);
  check("teams reduction", total == rtotal);
  free(a);
  free(ra);
  free(m);
  free(s);
  free(rs);
  return done();
}
// STATS: hetero-stats total

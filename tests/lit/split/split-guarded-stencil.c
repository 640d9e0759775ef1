#pragma STDC FP_CONTRACT OFF
// Stencils that guard their boundary reads with conditions on the loop
// counters, as real codes write them: `i > 0 ? a[i - 1] : 0`, `if (i == 0 ||
// i == n - 1) ... else ...`, `&&` short-circuits, and a 2-D collapse(2)
// stencil with `if` on both counters. The guards narrow the sections (no read
// before the first element or after the last), so the kernels split. A body
// with a label (a jump could bypass a condition) keeps no guards, and its
// boundary read leaves the buffer: the kernel runs unsplit, saying why.
// Compared bit for bit with serial host loops.
// RUN: %clang-hetero %s -o %t
// RUN: %if compiler %{ env HETERO_DESC_DEBUG=1 %clang-hetero -c %s -o %t.o 2>%t.desc %}
// RUN: %if compiler %{ %FileCheck %s --check-prefix=DESC < %t.desc %}
// RUN: env HETERO_STATS=1 HETERO_CHUNKS=4 %compare-fallback %t 2>%t.cpu | %FileCheck %s
// RUN: env HETERO_STATS=1 HETERO_SIMULATE=3 %compare-fallback %t 2>%t.sim | %FileCheck %s
// RUN: %FileCheck %s --check-prefix=STATS < %t.sim
// RUN: env HETERO_STATS=1 HETERO_SIMULATE=3 HETERO_CHUNKS=3 HETERO_MEMBERS=sim:0=3,sim:1=1,sim:2=5,cpu=2 %compare-fallback %t 2>%t.uneven | %FileCheck %s
// RUN: %FileCheck %s --check-prefix=STATS < %t.uneven
// CHECK: conditional: hash={{[0-9a-f]+}} ok
// CHECK: if-else boundary: hash={{[0-9a-f]+}} ok
// CHECK: short-circuit: hash={{[0-9a-f]+}} ok
// CHECK: 2-D guarded: hash={{[0-9a-f]+}} ok
// CHECK: label: hash={{[0-9a-f]+}} ok
// CHECK: done failures=0
// DESC: read 8 (arg 2) (+ 0 (* (+ (c 0) 1) 8)) when (lt (c 0) 99999)
// DESC: read 8 (arg 2) (+ 0 (* (- (c 0) 1) 8)) when (gt (c 0) 0)
// DESC: read 8 (arg 2) (+ 0 (* (- (c 0) 1) 8)) when (ne (c 0) 0) when (ne (c 0) 99999)
// DESC: read 8 (arg 2) (+ 0 (* (+ (c 0) 3) 8)) when (lt (c 0) (- 100000 3))
// DESC: read 8 (arg 1) (+ (+ 0 (* (c 0) 2400)) (* (- (c 1) 1) 8)) when (gt (c 1) 0) when (lt (c 1) 299)
#include <stdlib.h>

#include "Inputs/split.h"

#define N 100000
#define M 300

int main(void) {
  const int n = N;
  double *a = malloc(n * sizeof(double)), *b = malloc(n * sizeof(double));
  double *r = malloc(n * sizeof(double));
  for (int i = 0; i < n; ++i)
    a[i] = (double)(i % 977) * 0.25 - 7.0;

#pragma omp target data map(to : a[0 : n]) map(alloc : b[0 : n])
  {
// STATS-DAG: hetero-stats kernel={{.*}}_l[[@LINE+1]] launches=1 split=yes
#pragma omp target teams distribute parallel for
    for (int i = 0; i < n; ++i)
      b[i] = a[i] + (i > 0 ? a[i - 1] : 0.0) + (i < n - 1 ? a[i + 1] : 1.0);
#pragma omp target update from(b[0 : n])
    for (int i = 0; i < n; ++i)
      r[i] = a[i] + (i > 0 ? a[i - 1] : 0.0) + (i < n - 1 ? a[i + 1] : 1.0);
    check_bytes("conditional", b, r, n * sizeof(double));

// STATS-DAG: hetero-stats kernel={{.*}}_l[[@LINE+1]] launches=1 split=yes
#pragma omp target teams distribute parallel for
    for (int i = 0; i < n; ++i) {
      if (i == 0 || i == n - 1)
        b[i] = a[i];
      else
        b[i] = 0.5 * (a[i - 1] + a[i + 1]);
    }
#pragma omp target update from(b[0 : n])
    for (int i = 0; i < n; ++i) {
      if (i == 0 || i == n - 1)
        r[i] = a[i];
      else
        r[i] = 0.5 * (a[i - 1] + a[i + 1]);
    }
    check_bytes("if-else boundary", b, r, n * sizeof(double));

// STATS-DAG: hetero-stats kernel={{.*}}_l[[@LINE+1]] launches=1 split=yes
#pragma omp target teams distribute parallel for
    for (int i = 0; i < n; ++i)
      b[i] = (i >= 2 && a[i - 2] > 0.0) || (i + 3 < n && !(a[i + 3] < 1.0))
                 ? 1.0
                 : -1.0;
#pragma omp target update from(b[0 : n])
    for (int i = 0; i < n; ++i)
      r[i] = (i >= 2 && a[i - 2] > 0.0) || (i + 3 < n && !(a[i + 3] < 1.0))
                 ? 1.0
                 : -1.0;
    check_bytes("short-circuit", b, r, n * sizeof(double));
  }

  const int m = M;
  double(*u)[M] = malloc(sizeof(double[M][M]));
  double(*v)[M] = malloc(sizeof(double[M][M]));
  double(*w)[M] = malloc(sizeof(double[M][M]));
  for (int i = 0; i < m; ++i)
    for (int j = 0; j < m; ++j)
      u[i][j] = (double)((i * 31 + j * 17) % 101);
// STATS-DAG: hetero-stats kernel={{.*}}_l[[@LINE+1]] launches=1 split=yes
#pragma omp target teams distribute parallel for collapse(2)                   \
    map(to : u[0 : m]) map(from : v[0 : m])
  for (int i = 0; i < m; ++i)
    for (int j = 0; j < m; ++j) {
      double s = u[i][j];
      if (i > 0)
        s += u[i - 1][j];
      if (i < m - 1)
        s += u[i + 1][j];
      if (j > 0 && j < m - 1)
        s += u[i][j - 1] - u[i][j + 1];
      v[i][j] = s;
    }
  for (int i = 0; i < m; ++i)
    for (int j = 0; j < m; ++j) {
      double s = u[i][j];
      if (i > 0)
        s += u[i - 1][j];
      if (i < m - 1)
        s += u[i + 1][j];
      if (j > 0 && j < m - 1)
        s += u[i][j - 1] - u[i][j + 1];
      w[i][j] = s;
    }
  check_bytes("2-D guarded", v, w, sizeof(double[M][M]));

// STATS-DAG: hetero-stats kernel={{.*}}_l[[@LINE+1]] launches=1 split=no('a' at split-guarded-stencil.c:[[@LINE+6]] reads bytes [-8,
#pragma omp target teams distribute parallel for map(to : a[0 : n])            \
    map(from : b[0 : n])
  for (int i = 0; i < n; ++i) {
    double s = a[i];
    if (i > 0) {
      s += a[i - 1];
    skip:;
    }
    b[i] = s;
  }
  for (int i = 0; i < n; ++i)
    r[i] = a[i] + (i > 0 ? a[i - 1] : 0.0);
  check_bytes("label", b, r, n * sizeof(double));
  free(a);
  free(b);
  free(r);
  free(u);
  free(v);
  free(w);
  return done();
}
// STATS: hetero-stats total

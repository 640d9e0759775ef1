#pragma STDC FP_CONTRACT OFF
// C++ stores the section analysis cannot attribute to one element: (1) a
// compound assignment to a conditional lvalue (c ? y[i] : y[i + n]) and (2) a
// store through a reference to an element (double &r = z[i * 2]) run
// unsplit; (3) an inner loop counter declared outside the target region and
// made private keeps its range (the kernel splits). Compared bit for bit with
// serial host loops.
// RUN: %clangxx-hetero %s -o %t
// RUN: env HETERO_STATS=1 HETERO_CHUNKS=4 %compare-fallback %t 2>%t.cpu | %FileCheck %s
// RUN: %FileCheck %s --check-prefix=STATS < %t.cpu
// RUN: env HETERO_STATS=1 HETERO_SIMULATE=3 %compare-fallback %t 2>%t.sim | %FileCheck %s
// RUN: %FileCheck %s --check-prefix=STATS < %t.sim
// CHECK: conditional lvalue: hash=857e5441ca0393a9 ok
// CHECK: reference: hash=6422e31f4ef216f2 ok
// CHECK: private counter: hash=d4a61de34c46868f ok
// CHECK: done failures=0
#include <stdlib.h>

#include "Inputs/split.h"

int main(int argc, char **argv) {
  (void)argv;
  const int n = 20000 + argc, m = 24;
  const int c = argc < 3; // true
  double *x = (double *)malloc(2 * n * sizeof(double));
  double *y = (double *)malloc(2 * n * sizeof(double));
  double *ry = (double *)malloc(2 * n * sizeof(double));
  double *z = (double *)malloc(2 * n * sizeof(double));
  double *rz = (double *)malloc(2 * n * sizeof(double));
  double *w = (double *)malloc((size_t)n * m * sizeof(double));
  double *rw = (double *)malloc((size_t)n * m * sizeof(double));
  for (int i = 0; i < 2 * n; ++i) {
    x[i] = (double)(i % 19) * 0.5;
    y[i] = ry[i] = (double)(i % 7);
    z[i] = rz[i] = (double)(i % 5) - 2.0;
  }
  for (int i = 0; i < n * m; ++i)
    w[i] = rw[i] = 0.0;

#pragma omp target data map(to : x[0 : 2 * n])                                 \
    map(tofrom : y[0 : 2 * n], z[0 : 2 * n])
  {
// STATS-DAG: hetero-stats kernel={{.*}}_l[[@LINE+1]] launches=1 split=no(writes an lvalue the analysis cannot attribute at split-cxx-lvalue-writes.cpp:{{[0-9]+}}:{{[0-9]+}})
#pragma omp target teams distribute parallel for
    for (int i = 0; i < n; ++i)
      (c ? y[i] : y[i + n]) += x[i];
// STATS-DAG: hetero-stats kernel={{.*}}_l[[@LINE+1]] launches=1 split=no(writes through reference 'r' at split-cxx-lvalue-writes.cpp:{{[0-9]+}}:{{[0-9]+}})
#pragma omp target teams distribute parallel for
    for (int i = 0; i < n; ++i) {
      double &r = z[i * 2];
      r = r * 0.5 + x[i];
    }
  }
  for (int i = 0; i < n; ++i)
    (c ? ry[i] : ry[i + n]) += x[i];
  check_bytes("conditional lvalue", y, ry, 2 * n * sizeof(double));
  for (int i = 0; i < n; ++i) {
    double &r = rz[i * 2];
    r = r * 0.5 + x[i];
  }
  check_bytes("reference", z, rz, 2 * n * sizeof(double));

  int j;
// STATS-DAG: hetero-stats kernel={{.*}}_l[[@LINE+1]] launches=1 split=yes
#pragma omp target teams distribute parallel for private(j)                    \
    map(to : x[0 : 2 * n]) map(tofrom : w[0 : n * m])
  for (int i = 0; i < n; ++i)
    for (j = 0; j < m; ++j)
      w[i * m + j] = x[i + j] * 2.0 + j;
  for (int i = 0; i < n; ++i)
    for (j = 0; j < m; ++j)
      rw[i * m + j] = x[i + j] * 2.0 + j;
  check_bytes("private counter", w, rw, (size_t)n * m * sizeof(double));
  free(x);
  free(y);
  free(ry);
  free(z);
  free(rz);
  free(w);
  free(rw);
  return done();
}
// STATS: hetero-stats total

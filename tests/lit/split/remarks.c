// Compile-time remarks: under -Rpass=hetero, -Rpass-missed=hetero and
// -Rpass-analysis=hetero every offloaded loop is reported once (by the host
// compile job, not once per device image), at its directive: split, or not
// split with the reasons HETERO_STATS gives at run time, and the sections
// found for each array. Without the options there are none.
// REQUIRES: compiler
// RUN: %clang-hetero -c %s -o %t.o -Rpass=hetero -Rpass-missed=hetero -Rpass-analysis=hetero 2>&1 | %FileCheck %s --implicit-check-not=remark:
// RUN: %clang-hetero -c %s -o %t.o -Rpass=hetero 2>&1 | %FileCheck %s --check-prefix=PASSED --implicit-check-not=remark:
// RUN: %clang-hetero -c %s -o %t.o 2>&1 | %FileCheck %s --check-prefix=NONE --allow-empty
// NONE-NOT: remark
#include <omp.h>

void jacobi(int n, int m, const double *a, double *b) {
// CHECK: remarks.c:[[@LINE+7]]:1: remark: hetero: loop split across the pool's members (2 collapsed loops) [-Rpass=hetero]
// CHECK-DAG: remarks.c:[[@LINE+6]]:1: remark: hetero: reads 'a' at byte offset ((i - 1) * m + j) * 8, 8 bytes [-Rpass-analysis=hetero]
// CHECK-DAG: remarks.c:[[@LINE+5]]:1: remark: hetero: reads 'a' at byte offset ((i + 1) * m + j) * 8, 8 bytes [-Rpass-analysis=hetero]
// CHECK-DAG: remarks.c:[[@LINE+4]]:1: remark: hetero: reads 'a' at byte offset (i * m + j - 1) * 8, 8 bytes [-Rpass-analysis=hetero]
// CHECK-DAG: remarks.c:[[@LINE+3]]:1: remark: hetero: reads 'a' at byte offset (i * m + j + 1) * 8, 8 bytes [-Rpass-analysis=hetero]
// CHECK-DAG: remarks.c:[[@LINE+2]]:1: remark: hetero: writes 'b' at byte offset (i * m + j) * 8, 8 bytes [-Rpass-analysis=hetero]
// PASSED: remarks.c:[[@LINE+1]]:1: remark: hetero: loop split across the pool's members (2 collapsed loops) [-Rpass=hetero]
#pragma omp target teams distribute parallel for collapse(2) map(to : a[0 : n * m]) map(from : b[0 : n * m])
  for (int i = 1; i < n - 1; ++i)
    for (int j = 1; j < m - 1; ++j)
      b[i * m + j] = 0.25 * (a[(i - 1) * m + j] + a[(i + 1) * m + j] +
                             a[i * m + j - 1] + a[i * m + j + 1]);
}

double dot(int n, const float *x, const float *y) {
  double s = 0;
// CHECK: remarks.c:[[@LINE+5]]:1: remark: hetero: loop split across the pool's members (1 loop) [-Rpass=hetero]
// CHECK-DAG: remarks.c:[[@LINE+4]]:1: remark: hetero: reads 'x' at byte offset i * 4, 4 bytes [-Rpass-analysis=hetero]
// CHECK-DAG: remarks.c:[[@LINE+3]]:1: remark: hetero: reads 'y' at byte offset i * 4, 4 bytes where i < n - 1 [-Rpass-analysis=hetero]
// CHECK-DAG: remarks.c:[[@LINE+2]]:1: remark: hetero: reduction(+) of 's' (f64): partial results combined on the host in chunk order [-Rpass-analysis=hetero]
// PASSED: remarks.c:[[@LINE+1]]:1: remark: hetero: loop split across the pool's members (1 loop) [-Rpass=hetero]
#pragma omp target teams distribute parallel for reduction(+ : s) map(to : x[0 : n], y[0 : n])
  for (int i = 0; i < n; ++i)
    s += x[i] * (i < n - 1 ? y[i] : 1.0f);
  return s;
}

void scatter(int n, double *a, const int *idx, double *last) {
// CHECK: remarks.c:[[@LINE+1]]:1: remark: hetero: loop not split: non-affine write at remarks.c:[[@LINE+3]]:5; depends on team or thread numbers (omp_get_thread_num) at remarks.c:[[@LINE+4]]:26 [-Rpass-missed=hetero]
#pragma omp target teams distribute parallel for map(tofrom : a[0 : n], last[0 : 1]) map(to : idx[0 : n])
  for (int i = 0; i < n; ++i) {
    a[idx[i]] = i;
    last[0] = a[i] * 0 + omp_get_thread_num();
  }
}

#pragma STDC FP_CONTRACT OFF
// C++ helpers that take their arguments by reference split: std::min and
// std::max nested (a clamp written the usual way), std::clamp, a helper of
// our own taking `const double &`, std::swap of two mapped elements (each
// iteration swaps its own pair), and an int reference. The arguments' lvalues
// are what the kernel reads (and, through a non-const reference, writes). A
// helper that takes its reference's address (and writes beside it) runs
// unsplit, and says why. Compared bit for bit with serial host loops.
// RUN: %clangxx-hetero %s -o %t
// RUN: env HETERO_STATS=1 HETERO_CHUNKS=4 %compare-fallback %t 2>%t.cpu | %FileCheck %s
// RUN: %FileCheck %s --check-prefix=STATS < %t.cpu
// RUN: env HETERO_STATS=1 HETERO_SIMULATE=3 %compare-fallback %t 2>%t.sim | %FileCheck %s
// RUN: %FileCheck %s --check-prefix=STATS < %t.sim
// CHECK: min-max: hash={{[0-9a-f]+}} ok
// CHECK: clamp: hash={{[0-9a-f]+}} ok
// CHECK: const-ref helper: hash={{[0-9a-f]+}} ok
// CHECK: swap: hash={{[0-9a-f]+}} ok
// CHECK: int-ref: hash={{[0-9a-f]+}} ok
// CHECK: address of a reference: hash={{[0-9a-f]+}} ok
// CHECK: done failures=0
#include <algorithm>
#include <cstdlib>
#include <utility>

#include "Inputs/split.h"

static double blend(const double &a, const double &b, double w) {
  return a * w + b * (1.0 - w);
}

static void bump(int &k, const int &by) { k = k * 3 + by; }

// Writes the element after its argument's.
static void touch_next(double &a) {
  double *p = &a;
  p[1] += 1.0;
}

int main() {
  const int n = 10000;
  double *x = (double *)malloc(n * sizeof(double));
  double *v = (double *)malloc(n * sizeof(double));
  double *y = (double *)malloc(n * sizeof(double));
  double *rx = (double *)malloc(n * sizeof(double));
  double *ry = (double *)malloc(n * sizeof(double));
  int *k = (int *)malloc(n * sizeof(int));
  int *rk = (int *)malloc(n * sizeof(int));
  auto init = [&] {
    for (int i = 0; i < n; ++i) {
      x[i] = rx[i] = (i % 101) * 0.75 - 20.0;
      v[i] = (i % 37) * 1.5 - 10.0;
      y[i] = ry[i] = (i % 53) * 0.5;
      k[i] = rk[i] = i % 11;
    }
  };
  const double dt = 0.5, lo = 0.0, hi = 50.0;

  init();
// STATS-DAG: hetero-stats kernel={{.*}}_l[[@LINE+1]] launches=1 split=yes
#pragma omp target teams distribute parallel for map(tofrom : x[0 : n])        \
    map(to : v[0 : n])
  for (int i = 0; i < n; ++i)
    x[i] = std::min(std::max(x[i] + dt * v[i], 0.0), 50.0);
  for (int i = 0; i < n; ++i)
    rx[i] = std::min(std::max(rx[i] + dt * v[i], 0.0), 50.0);
  check_bytes("min-max", x, rx, n * sizeof(double));

  init();
// STATS-DAG: hetero-stats kernel={{.*}}_l[[@LINE+1]] launches=1 split=yes
#pragma omp target teams distribute parallel for map(tofrom : x[0 : n])        \
    map(to : v[0 : n])
  for (int i = 0; i < n; ++i)
    x[i] = std::clamp(x[i] - v[i], lo, hi);
  for (int i = 0; i < n; ++i)
    rx[i] = std::clamp(rx[i] - v[i], lo, hi);
  check_bytes("clamp", x, rx, n * sizeof(double));

  init();
// STATS-DAG: hetero-stats kernel={{.*}}_l[[@LINE+1]] launches=1 split=yes
#pragma omp target teams distribute parallel for map(tofrom : x[0 : n])        \
    map(to : v[0 : n])
  for (int i = 1; i < n - 1; ++i)
    x[i] = blend(v[i - 1], v[i + 1], 0.25);
  for (int i = 1; i < n - 1; ++i)
    rx[i] = blend(v[i - 1], v[i + 1], 0.25);
  check_bytes("const-ref helper", x, rx, n * sizeof(double));

  init();
// STATS-DAG: hetero-stats kernel={{.*}}_l[[@LINE+1]] launches=1 split=yes
#pragma omp target teams distribute parallel for map(tofrom : x[0 : n],        \
                                                         y[0 : n])
  for (int i = 0; i < n; ++i)
    if (x[i] > y[i])
      std::swap(x[i], y[i]);
  for (int i = 0; i < n; ++i)
    if (rx[i] > ry[i])
      std::swap(rx[i], ry[i]);
  check_bytes("swap", x, rx, n * sizeof(double));
  check_bytes("swap y", y, ry, n * sizeof(double));

  init();
// STATS-DAG: hetero-stats kernel={{.*}}_l[[@LINE+1]] launches=1 split=yes
#pragma omp target teams distribute parallel for map(tofrom : k[0 : n])
  for (int i = 0; i < n; ++i)
    bump(k[i], i);
  for (int i = 0; i < n; ++i)
    bump(rk[i], i);
  check_bytes("int-ref", k, rk, n * sizeof(int));

  init();
// STATS-DAG: hetero-stats kernel={{.*}}_l[[@LINE+1]] launches=1 split=no(calls 'touch_next', which takes the address of its reference 'a' at split-cxx-reference-params.cpp:[[@LINE+3]]:{{[0-9]+}})
#pragma omp target teams distribute parallel for map(tofrom : x[0 : n])
  for (int i = 0; i < n / 2; ++i)
    touch_next(x[2 * i]);
  for (int i = 0; i < n / 2; ++i)
    touch_next(rx[2 * i]);
  check_bytes("address of a reference", x, rx, n * sizeof(double));

  free(x);
  free(v);
  free(y);
  free(rx);
  free(ry);
  free(k);
  free(rk);
  return done();
}
// STATS: hetero-stats total

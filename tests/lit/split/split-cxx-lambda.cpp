#pragma STDC FP_CONTRACT OFF
// Lambdas called in a kernel: one that captures by copy (a pointer and the
// loop counter) is followed like a helper function (its closure is its
// first argument: no variable argument list), so the kernel splits; one that
// captures by reference runs whole, and says that. An index a lambda
// computes splits too: one invoked where it is written (its captures hold
// their variables' values) and one kept in a variable that captures nothing
// (the random tester's C++ programs found such kernels running whole). All
// compared bit for bit with serial host loops.
// RUN: %clangxx-hetero %s -o %t
// RUN: env HETERO_STATS=1 HETERO_SIMULATE=3 %compare-fallback %t 2>%t.sim | %FileCheck %s
// RUN: %FileCheck %s --check-prefix=STATS < %t.sim
// CHECK: by copy: hash={{[0-9a-f]+}} ok
// CHECK: by reference: hash={{[0-9a-f]+}} ok
// CHECK: index lambdas: hash={{[0-9a-f]+}} ok
// CHECK: done failures=0
// STATS: hetero-stats kernel={{.*}}_l[[@LINE+18]] launches=1 split=yes
// STATS: hetero-stats kernel={{.*}}_l[[@LINE+27]] launches=1 split=no(calls a lambda that does not capture by copy at split-cxx-lambda.cpp:
// STATS: hetero-stats kernel={{.*}}_l[[@LINE+41]] launches=1 split=yes
#include <cstdlib>
#include <vector>

#include "Inputs/split.h"

int main() {
  const int n = 5000;
  std::vector<double> x(n), v(n), rx(n);
  for (int i = 0; i < n; ++i) {
    x[i] = rx[i] = (i % 17) * 0.25;
    v[i] = (i % 5) - 2.0;
  }
  double *px = x.data(), *pv = v.data();
  for (int i = 0; i < n; ++i)
    rx[i] = rx[i] * 0.5 + pv[i];
#pragma omp target teams distribute parallel for map(tofrom : px[0 : n])       \
    map(to : pv[0 : n])
  for (int i = 0; i < n; ++i) {
    auto f = [=](double a) { return a * 0.5 + pv[i]; };
    px[i] = f(px[i]);
  }
  check_bytes("by copy", px, rx.data(), n * sizeof(double));
  double scale = 2.0;
  for (int i = 0; i < n; ++i)
    rx[i] = rx[i] * scale;
#pragma omp target teams distribute parallel for map(tofrom : px[0 : n])
  for (int i = 0; i < n; ++i) {
    auto g = [&](double a) { return a * scale; };
    px[i] = g(px[i]);
  }
  check_bytes("by reference", px, rx.data(), n * sizeof(double));
  // y[2i + 1] and y[2i] from x[i], through an immediately invoked lambda
  // that captures `off`, and a kept one that captures nothing.
  std::vector<double> y(2 * n + 2, 0.0), ry(2 * n + 2, 0.0);
  double *py = y.data();
  const int off = 1;
  for (int i = 0; i < n; ++i) {
    ry[2 * i + off] = rx[i];
    ry[2 * i] = -rx[i];
  }
#pragma omp target teams distribute parallel for map(to : px[0 : n])           \
    map(tofrom : py[0 : 2 * n + 2])
  for (int i = 0; i < n; ++i) {
    int k = [=](auto v) { return v + off; }(2 * i);
    auto twice = [](int v) { return 2 * v; };
    py[k] = px[i];
    py[twice(i)] = -px[i];
  }
  check_bytes("index lambdas", py, ry.data(), (2 * n + 2) * sizeof(double));
  return done();
}

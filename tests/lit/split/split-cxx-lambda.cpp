#pragma STDC FP_CONTRACT OFF
// Lambdas called in a kernel: one that captures by copy (a pointer and the
// loop counter) is followed like a helper function (its closure is its
// first argument: no variable argument list), so the kernel splits; one that
// captures by reference runs whole, and says that. Both compared bit for bit
// with serial host loops.
// RUN: %clangxx-hetero %s -o %t
// RUN: env HETERO_STATS=1 HETERO_SIMULATE=3 %compare-fallback %t 2>%t.sim | %FileCheck %s
// RUN: %FileCheck %s --check-prefix=STATS < %t.sim
// CHECK: by copy: hash={{[0-9a-f]+}} ok
// CHECK: by reference: hash={{[0-9a-f]+}} ok
// CHECK: done failures=0
// STATS: hetero-stats kernel={{.*}}_l[[@LINE+17]] launches=1 split=yes
// STATS: hetero-stats kernel={{.*}}_l[[@LINE+26]] launches=1 split=no(calls a lambda that does not capture by copy at split-cxx-lambda.cpp:
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
  return done();
}

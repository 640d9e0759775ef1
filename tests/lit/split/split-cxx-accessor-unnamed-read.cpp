#pragma STDC FP_CONTRACT OFF
// A view whose operator() returns `p[m(i, j)]`, where the mapping m computes
// the offset in a loop over the ranks: the analysis cannot name that lvalue
// (a fold over them is executed: split-cxx-layout-fold.cpp). The store through it is refused (the kernel runs
// whole); a reduction that reads through it may read anything (readany), so
// each member gets the whole view before its chunk, and the sum is the
// serial loop's. (The read was once lost: the members summed stale values.)
// RUN: %clangxx-hetero -std=c++17 %s -o %t
// RUN: env HETERO_STATS=1 HETERO_SIMULATE=3 %compare-fallback %t 2>%t.sim | %FileCheck %s
// RUN: %FileCheck %s --check-prefix=STATS < %t.sim
// CHECK: reduction through an unnamed lvalue: ok
// CHECK: done failures=0
#include <cstddef>
#include <omp.h>

#include "Inputs/split.h"

struct Mapping2 {
  long e0, e1;
  long extent(size_t r) const { return r == 0 ? e0 : e1; }
  size_t operator()(long i, long j) const {
    long idx[2] = {i, j};
    long res = 0;
    for (size_t r = 0; r < 2; ++r)
      res = idx[r] + extent(r) * res;
    return res;
  }
};

struct View2 {
  double *p;
  Mapping2 m;
  double &operator()(int i, int j) const { return p[m(i, j)]; }
};

struct Fill {
  View2 a;
  void operator()(int i) const {
    a(i, 0) = i;
    a(i, 1) = 2 * i;
    a(i, 2) = 3;
  }
};

struct Sum {
  View2 a;
  void operator()(int i, double &s) const { s += a(i, 0) * a(i, 1) + a(i, 2); }
};

int main() {
  const int n = 3000;
  int dev = omp_get_default_device();
  View2 v{(double *)omp_target_alloc(n * 3 * sizeof(double), dev), {n, 3}};
  Fill fill{v};
  Sum sum{v};
// STATS-DAG: hetero-stats kernel={{.*}}_l[[@LINE+1]] launches=1 split=no(writes an lvalue the analysis cannot attribute
#pragma omp target teams distribute parallel for map(to : fill)
  for (int i = 0; i < n; ++i)
    fill(i);
  double s = 0;
// STATS-DAG: hetero-stats kernel={{.*}}_l[[@LINE+1]] launches=1 split=yes
#pragma omp target teams distribute parallel for map(to : sum) reduction(+ : s)
  for (int i = 0; i < n; ++i)
    sum(i, s);
  double want = 0;
  for (int i = 0; i < n; ++i)
    want += (double)i * (2 * i) + 3;
  // Every term is an integer below 2^53: any order of the sum is exact.
  check("reduction through an unnamed lvalue", s == want);
  omp_target_free(v.p, dev);
  return done();
}
// STATS: hetero-stats total

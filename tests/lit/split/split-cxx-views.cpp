#pragma STDC FP_CONTRACT OFF
// The shape Kokkos' OpenMPTarget backend gives a parallel_for: the user's
// functor (or lambda) is mapped to the device and called as `f(i)`; it holds
// views, structs of a device pointer (omp_target_alloc) and an extent,
// whose operator() returns a reference into that memory. Both levels are
// walked in place of their calls: the views are indexed by the loop
// variable, so the kernel splits, and its sections are relative to each
// view's allocation. A lambda made outside the loop that captures the
// functor and calls it (a second level of operator()) splits too: its body
// names the functor, but reads the closure's copy of it, and the sections
// are taken through that copy (the loop's bound through the original). A
// view that reaches its memory through an accessor object it holds
// (mdspan's shape: `acc_.access(ptr_, i)`) splits as well, the argument
// read through the view, where the call is, not through the accessor
// (whose own pointer, another allocation, once stood in for it and gave
// wrong sections). The results, read back with omp_target_memcpy, match a
// serial loop bit for bit.
// RUN: %clangxx-hetero %s -o %t
// RUN: env HETERO_STATS=1 HETERO_CHUNKS=4 %compare-fallback %t 2>%t.cpu | %FileCheck %s
// RUN: %FileCheck %s --check-prefix=STATS < %t.cpu
// RUN: env HETERO_STATS=1 HETERO_SIMULATE=3 %compare-fallback %t 2>%t.sim | %FileCheck %s
// RUN: %FileCheck %s --check-prefix=STATS < %t.sim
// CHECK: functor over views: hash={{[0-9a-f]+}} ok
// CHECK: lambda over the functor: hash={{[0-9a-f]+}} ok
// CHECK: view through its accessor: hash={{[0-9a-f]+}} ok
// CHECK: done failures=0
#include <cstdlib>
#include <omp.h>

#include "Inputs/split.h"

template <class T> struct View {
  T *data_;
  long extent_;
  T &operator()(long i) const { return data_[i]; }
  long extent() const { return extent_; }
};

template <class T> struct Accessor {
  T *other_;
  T &access(T *p, long i) const { return p[i]; }
};

template <class T> struct AccessedView {
  T *ptr_;
  Accessor<T> acc_;
  T &operator()(long i) const { return acc_.access(ptr_, i); }
};

struct Rescale {
  AccessedView<double> y;
  void operator()(long i) const { y(i) = 2.0 * y(i) + 1.0; }
};

struct Saxpy {
  View<double> x, y;
  double a;
  void operator()(long i) const { y(i) = a * x(i) + y(i); }
};

int main() {
  const long n = 50000;
  int dev = omp_get_default_device(), host = omp_get_initial_device();
  double *hx = (double *)malloc(n * sizeof(double));
  double *hy = (double *)malloc(n * sizeof(double));
  double *got = (double *)malloc(n * sizeof(double));
  for (long i = 0; i < n; ++i) {
    hx[i] = (i % 17) * 0.25 - 2.0;
    hy[i] = (i % 23) * 0.5;
  }
  double *dx = (double *)omp_target_alloc(n * sizeof(double), dev);
  double *dy = (double *)omp_target_alloc(n * sizeof(double), dev);
  omp_target_memcpy(dx, hx, n * sizeof(double), 0, 0, dev, host);
  omp_target_memcpy(dy, hy, n * sizeof(double), 0, 0, dev, host);

  Saxpy f{{dx, n}, {dy, n}, 0.5};
// STATS-DAG: hetero-stats kernel={{.*}}_l[[@LINE+1]] launches=1 split=yes
#pragma omp target teams distribute parallel for map(to : f)
  for (long i = 0; i < n; ++i)
    f(i);
  for (long i = 0; i < n; ++i)
    hy[i] = 0.5 * hx[i] + hy[i];
  omp_target_memcpy(got, dy, n * sizeof(double), 0, 0, host, dev);
  check_bytes("functor over views", got, hy, n * sizeof(double));

  auto body = [=](long i) { f(i); };
// STATS-DAG: hetero-stats kernel={{.*}}_l[[@LINE+1]] launches=1 split=yes
#pragma omp target teams distribute parallel for map(to : body)
  for (long i = 0; i < f.y.extent(); ++i)
    body(i);
  for (long i = 0; i < n; ++i)
    hy[i] = 0.5 * hx[i] + hy[i];
  omp_target_memcpy(got, dy, n * sizeof(double), 0, 0, host, dev);
  check_bytes("lambda over the functor", got, hy, n * sizeof(double));

  // A fresh allocation, on the host alone until the kernel runs.
  double *dz = (double *)omp_target_alloc(n * sizeof(double), dev);
  omp_target_memcpy(dz, hx, n * sizeof(double), 0, 0, dev, host);
  Rescale r{{dz, {dy}}};
// STATS-DAG: hetero-stats kernel={{.*}}_l[[@LINE+1]] launches=1 split=yes
#pragma omp target teams distribute parallel for map(to : r)
  for (long i = 0; i < n; ++i)
    r(i);
  for (long i = 0; i < n; ++i)
    hx[i] = 2.0 * hx[i] + 1.0;
  omp_target_memcpy(got, dz, n * sizeof(double), 0, 0, host, dev);
  check_bytes("view through its accessor", got, hx, n * sizeof(double));
  omp_target_free(dz, dev);
  omp_target_free(dx, dev);
  omp_target_free(dy, dev);
  free(hx);
  free(hy);
  free(got);
  return done();
}
// STATS: hetero-stats total

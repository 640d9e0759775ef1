#pragma STDC FP_CONTRACT OFF
// Member functions called in a kernel are walked in place of their calls,
// `this` standing for the call's object: a functor's operator() (`f(i)`,
// the object mapped with the arrays its pointer members reach), a getter
// and a helper reached through a pointer to the object (`p->at(i)`), a
// member calling another member of its object, and a member function the
// index comes from. Each splits and matches a serial loop bit for bit. A
// virtual member function (the override could be another class's) still
// runs unsplit, and says so at the call.
// RUN: %clangxx-hetero %s -o %t
// RUN: env HETERO_STATS=1 HETERO_CHUNKS=4 %compare-fallback %t 2>%t.cpu | %FileCheck %s
// RUN: %FileCheck %s --check-prefix=STATS < %t.cpu
// RUN: env HETERO_STATS=1 HETERO_SIMULATE=3 %compare-fallback %t 2>%t.sim | %FileCheck %s
// RUN: %FileCheck %s --check-prefix=STATS < %t.sim
// CHECK: functor: hash={{[0-9a-f]+}} ok
// CHECK: through a pointer: hash={{[0-9a-f]+}} ok
// CHECK: member index: hash={{[0-9a-f]+}} ok
// CHECK: virtual: hash={{[0-9a-f]+}} ok
// CHECK: done failures=0
#include <cstdlib>

#include "Inputs/split.h"

// y[i] = a * x[i] + y[i], as a functor.
struct Axpy {
  double a;
  const double *x;
  double *y;
  void operator()(int i) const { y[i] = scaled(i) + y[i]; }
  double scaled(int i) const { return a * x[i]; }
};

// A view of a 2-D grid: rows of `stride` doubles.
struct Grid {
  Grid(double *data, int rows, int stride)
      : data_(data), rows_(rows), stride_(stride) {}
  double &at(int r, int c) const { return data_[index(r, c)]; }
  long index(int r, int c) const { return (long)r * stride_ + c; }
  int rows() const { return rows_; }

  double *data_;
  int rows_, stride_;
};

struct Shape {
  virtual double weight(int i) const { return 0.5 * (i % 5); }
  virtual ~Shape() = default;
};

int main() {
  const int n = 40000, rows = 300, cols = 128;
  double *x = (double *)malloc(n * sizeof(double));
  double *y = (double *)malloc(n * sizeof(double));
  double *ref = (double *)malloc(n * sizeof(double));
  for (int i = 0; i < n; ++i) {
    x[i] = (i % 13) * 0.25 - 1.0;
    y[i] = ref[i] = (i % 29) * 0.5;
  }
  Axpy f{0.75, x, y};
// STATS-DAG: hetero-stats kernel={{.*}}_l[[@LINE+1]] launches=1 split=yes
#pragma omp target teams distribute parallel for map(to : f, f.x[0 : n])       \
    map(tofrom : f.y[0 : n])
  for (int i = 0; i < n; ++i)
    f(i);
  for (int i = 0; i < n; ++i)
    ref[i] = 0.75 * x[i] + ref[i];
  check_bytes("functor", y, ref, n * sizeof(double));

  double *g = (double *)malloc(rows * cols * sizeof(double));
  double *gref = (double *)malloc(rows * cols * sizeof(double));
  for (int i = 0; i < rows * cols; ++i)
    g[i] = gref[i] = (i % 17) * 0.125;
  Grid grid(g, rows, cols);
  Grid *p = &grid;
  // Each row's first column from its second, through the object's pointer.
// STATS-DAG: hetero-stats kernel={{.*}}_l[[@LINE+1]] launches=1 split=yes
#pragma omp target teams distribute parallel for map(to : p[0 : 1])           \
    map(tofrom : p->data_[0 : rows * cols])
  for (int r = 0; r < p->rows(); ++r)
    p->at(r, 0) = 2.0 * p->at(r, 1) + 1.0;
  for (int r = 0; r < rows; ++r)
    gref[r * cols] = 2.0 * gref[r * cols + 1] + 1.0;
  check_bytes("through a pointer", g, gref, rows * cols * sizeof(double));

  // The index from a member function: g[index(r, c)].
// STATS-DAG: hetero-stats kernel={{.*}}_l[[@LINE+1]] launches=1 split=yes
#pragma omp target teams distribute parallel for collapse(2)                   \
    map(to : grid) map(tofrom : g[0 : rows * cols])
  for (int r = 0; r < rows; ++r)
    for (int c = 0; c < cols; ++c)
      g[grid.index(r, c)] += 0.5 * c;
  for (int r = 0; r < rows; ++r)
    for (int c = 0; c < cols; ++c)
      gref[r * cols + c] += 0.5 * c;
  check_bytes("member index", g, gref, rows * cols * sizeof(double));

  Shape s;
// STATS-DAG: hetero-stats kernel={{.*}}_l[[@LINE+1]] launches=1 split=no(calls virtual member function 'weight' at split-cxx-functors.cpp:[[@LINE+4]]
#pragma omp target teams distribute parallel for map(to : s)                   \
    map(tofrom : y[0 : n])
  for (int i = 0; i < n; ++i)
    y[i] *= s.weight(i);
  for (int i = 0; i < n; ++i)
    ref[i] *= 0.5 * (i % 5);
  check_bytes("virtual", y, ref, n * sizeof(double));
  free(x);
  free(y);
  free(ref);
  free(g);
  free(gref);
  return done();
}
// STATS: hetero-stats total

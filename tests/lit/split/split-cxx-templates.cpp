#pragma STDC FP_CONTRACT OFF
// C++: a function template whose offloaded loop is instantiated for float,
// double and int (three kernels from one source line), std::vector storage
// passed through data() pointers, a templated 2-D stencil with the element
// type and a compile-time radius as template parameters, and a kernel in a
// namespace-scope inline function. Compared bit for bit with serial loops.
// RUN: %clangxx-hetero %s -o %t
// RUN: env HETERO_STATS=1 HETERO_CHUNKS=4 %compare-fallback %t 2>%t.cpu | %FileCheck %s
// RUN: %FileCheck %s --check-prefix=STATS < %t.cpu
// RUN: env HETERO_STATS=1 HETERO_SIMULATE=3 %compare-fallback %t 2>%t.sim | %FileCheck %s
// RUN: %FileCheck %s --check-prefix=STATS < %t.sim
// CHECK: axpy<float>: hash=00633401bee4ae8a ok
// CHECK: axpy<double>: hash=75c2125744f374a3 ok
// CHECK: axpy<int>: hash=76eaa0ead1227ecd ok
// CHECK: box<int, 2>: hash=deadbc9f954f7f9e ok
// CHECK: negate_odd: hash=2dd405f9455c34e9 ok
// CHECK: done failures=0
#include <vector>

#include "Inputs/split.h"

// axpy<float>, axpy<double>, axpy<int>: three kernels named after line L+1.
template <typename T> void axpy(T a, const T *x, T *y, int n, int times) {
  for (int t = 0; t < times; ++t) {
// STATS-DAG: hetero-stats kernel={{.*}}_l[[@LINE+3]] launches=2 split=yes
// STATS-DAG: hetero-stats kernel={{.*}}_l[[@LINE+2]] launches=3 split=yes
// STATS-DAG: hetero-stats kernel={{.*}}_l[[@LINE+1]] launches=1 split=yes
#pragma omp target teams distribute parallel for map(to : x[0 : n])            \
    map(tofrom : y[0 : n])
    for (int i = 0; i < n; ++i)
      y[i] = a * x[i] + y[i];
  }
}

template <typename T> void axpy_ref(T a, const T *x, T *y, int n, int times) {
  for (int t = 0; t < times; ++t)
    for (int i = 0; i < n; ++i)
      y[i] = a * x[i] + y[i];
}

template <typename T, int R> void box(const T *in, T *out, int w, int h) {
// STATS-DAG: hetero-stats kernel={{.*}}_l[[@LINE+1]] launches=1 split=yes
#pragma omp target teams distribute parallel for collapse(2)                   \
    map(to : in[0 : w * h]) map(tofrom : out[0 : w * h])
  for (int y = R; y < h - R; ++y)
    for (int x = R; x < w - R; ++x) {
      T s = 0;
      for (int dy = -R; dy <= R; ++dy)
        for (int dx = -R; dx <= R; ++dx)
          s += in[(y + dy) * w + x + dx];
      out[y * w + x] = s;
    }
}

template <typename T, int R> void box_ref(const T *in, T *out, int w, int h) {
  for (int y = R; y < h - R; ++y)
    for (int x = R; x < w - R; ++x) {
      T s = 0;
      for (int dy = -R; dy <= R; ++dy)
        for (int dx = -R; dx <= R; ++dx)
          s += in[(y + dy) * w + x + dx];
      out[y * w + x] = s;
    }
}

inline void negate_odd(long *v, int n) {
// STATS-DAG: hetero-stats kernel={{.*}}_l[[@LINE+1]] launches=1 split=yes
#pragma omp target teams distribute parallel for map(tofrom : v[0 : n])
  for (int i = 1; i < n; i += 2)
    v[i] = -v[i];
}

int main() {
  const int n = 250000;
  std::vector<float> xf(n), yf(n), ryf(n);
  std::vector<double> xd(n), yd(n), ryd(n);
  std::vector<int> xi(n), yi(n), ryi(n);
  for (int i = 0; i < n; ++i) {
    xf[i] = (float)(i % 37) * 0.25f;
    yf[i] = ryf[i] = (float)(i % 5);
    xd[i] = (double)(i % 41) / 3.0;
    yd[i] = ryd[i] = (double)(i % 7) * 0.5;
    xi[i] = i % 1000;
    yi[i] = ryi[i] = -i;
  }
  axpy(1.5f, xf.data(), yf.data(), n, 2);
  axpy(-0.75, xd.data(), yd.data(), n, 3);
  axpy(3, xi.data(), yi.data(), n, 1);
  axpy_ref(1.5f, xf.data(), ryf.data(), n, 2);
  axpy_ref(-0.75, xd.data(), ryd.data(), n, 3);
  axpy_ref(3, xi.data(), ryi.data(), n, 1);
  check_bytes("axpy<float>", yf.data(), ryf.data(), n * sizeof(float));
  check_bytes("axpy<double>", yd.data(), ryd.data(), n * sizeof(double));
  check_bytes("axpy<int>", yi.data(), ryi.data(), n * sizeof(int));

  const int w = 300, h = 200;
  std::vector<int> img(w * h), out(w * h, 0), rout(w * h, 0);
  for (int i = 0; i < w * h; ++i)
    img[i] = (i * 13) % 256;
  box<int, 2>(img.data(), out.data(), w, h);
  box_ref<int, 2>(img.data(), rout.data(), w, h);
  check_bytes("box<int, 2>", out.data(), rout.data(), w * h * sizeof(int));

  std::vector<long> v(n), rv(n);
  for (int i = 0; i < n; ++i)
    v[i] = rv[i] = 3L * i;
  negate_odd(v.data(), n);
  for (int i = 1; i < n; i += 2)
    rv[i] = -rv[i];
  check_bytes("negate_odd", v.data(), rv.data(), n * sizeof(long));
  return done();
}
// STATS: hetero-stats total

#pragma STDC FP_CONTRACT OFF
// Views whose offset comes from helpers of several statements that only set
// their own locals (HelperCalls.cpp), the way mdspan writes its layouts:
// static extents in a table that an if-chain walks, a dynamic extent
// picked by comparing with a tag of 2^64 - 1 (more than a descriptor
// value holds), and an offset folded into a local over the ranks. The
// view is held by a functor mapped to the kernels, over omp_target_alloc'd
// memory; a second view is made where it is used (`V2<double>{a, 3}(i, j)`:
// AggregateTemporaries.cpp). Every kernel splits; results are compared bit
// for bit with serial host loops.
// RUN: %clangxx-hetero -std=c++17 %s -o %t
// RUN: env HETERO_STATS=1 HETERO_SIMULATE=3 %compare-fallback %t 2>%t.sim | %FileCheck %s
// RUN: %FileCheck %s --check-prefix=STATS < %t.sim
// CHECK: layout view: hash={{[0-9a-f]+}} ok
// CHECK: view made in the loop: hash={{[0-9a-f]+}} ok
// CHECK: done failures=0
#include <cstddef>
#include <cstdlib>
#include <omp.h>

#include "Inputs/split.h"

constexpr size_t Dynamic = ~size_t(0);

template <size_t R, size_t... E> struct StaticTable;
template <size_t R, size_t F, size_t... E> struct StaticTable<R, F, E...> {
  static constexpr size_t get(size_t r) {
    if (r == R)
      return F;
    return StaticTable<R + 1, E...>::get(r);
  }
};
template <size_t R, size_t F> struct StaticTable<R, F> {
  static constexpr size_t get(size_t) { return F; }
};

// Where a dynamic extent is kept: how many dynamic extents come before
// rank r. For the static rank 1 that is 1, past the one-element array: the
// branch that would read there is never taken, and the analysis must not
// count its read (the runtime would find it outside the functor).
template <size_t R, size_t... E> struct DynIndex;
template <size_t R, size_t F, size_t... E> struct DynIndex<R, F, E...> {
  static constexpr size_t get(size_t r) {
    if (r > R)
      return (F == Dynamic) + DynIndex<R + 1, E...>::get(r);
    return 0;
  }
};
template <size_t R> struct DynIndex<R> {
  static constexpr size_t get(size_t) { return 0; }
};

template <size_t E0, size_t E1> struct Extents {
  size_t Dyn[1];
  size_t value(size_t r) const {
    size_t Static = StaticTable<0, E0, E1>::get(r);
    size_t Tag = Dynamic;
    return Static == Tag ? Dyn[DynIndex<0, E0, E1>::get(r)] : Static;
  }
  size_t extent(size_t r) const { return value(r); }
};

template <size_t... R> struct Ranks {};

template <class Ext> struct LayoutRight {
  Ext Exts;
  template <size_t... R, class... I>
  size_t offset(Ranks<R...>, I... Idx) const {
    size_t Res = 0;
    ((Res = static_cast<size_t>(Idx) + Exts.extent(R) * Res), ...);
    return Res;
  }
  template <class... I> size_t operator()(I... Idx) const {
    return offset(Ranks<0, 1>{}, Idx...);
  }
};

struct View {
  double *Data;
  LayoutRight<Extents<Dynamic, 3>> Map;
  double &operator()(long I, long J) const { return Data[Map(I, J)]; }
};

struct Update {
  View V;
  void operator()(int I) const {
    for (int J = 0; J < 3; ++J)
      V(I, J) = V(I, J) * 0.5 + I + J;
  }
};

// Made where it is used: its offset is a local that += sets.
template <class T> struct V2 {
  T *P;
  long S;
  long at(long I, long J) const {
    long O = J;
    O += I * S;
    return O;
  }
  T &operator()(long I, long J) const { return P[at(I, J)]; }
};

int main() {
  const int n = 20000;
  int dev = omp_get_default_device();
  double *host = (double *)malloc(sizeof(double) * n * 3);
  double *ref = (double *)malloc(sizeof(double) * n * 3);
  for (int i = 0; i < 3 * n; ++i)
    host[i] = ref[i] = i * 0.25;
  double *d = (double *)omp_target_alloc(sizeof(double) * n * 3, dev);
  omp_target_memcpy(d, host, sizeof(double) * n * 3, 0, 0, dev,
                    omp_get_initial_device());
  Update up{{d, {{{(size_t)n}}}}};
// STATS-DAG: hetero-stats kernel={{.*}}_l[[@LINE+1]] launches=1 split=yes
#pragma omp target teams distribute parallel for map(to : up)
  for (int i = 0; i < n; ++i)
    up(i);
  for (int i = 0; i < n; ++i)
    for (int j = 0; j < 3; ++j)
      ref[3 * i + j] = ref[3 * i + j] * 0.5 + i + j;
  omp_target_memcpy(host, d, sizeof(double) * n * 3, 0, 0,
                    omp_get_initial_device(), dev);
  check_bytes("layout view", host, ref, sizeof(double) * n * 3);
  omp_target_free(d, dev);

  double *b = (double *)malloc(sizeof(double) * n);
  double *rb = (double *)malloc(sizeof(double) * n);
// STATS-DAG: hetero-stats kernel={{.*}}_l[[@LINE+1]] launches=1 split=yes
#pragma omp target teams distribute parallel for map(tofrom : host[0 : 3 * n]) \
    map(from : b[0 : n])
  for (int i = 0; i < n; ++i) {
    b[i] = V2<double>{host, 3}(i, 0) + V2<double>{host, 3}(i, 2);
    V2<double>{host, 3}(i, 1) = 1.0;
  }
  for (int i = 0; i < n; ++i) {
    rb[i] = ref[3 * i] + ref[3 * i + 2];
    ref[3 * i + 1] = 1.0;
  }
  check_bytes("view made in the loop", b, rb, sizeof(double) * n);
  check_bytes("view made in the loop, stores", host, ref,
              sizeof(double) * n * 3);
  free(host);
  free(ref);
  free(b);
  free(rb);
  return done();
}
// STATS: hetero-stats total

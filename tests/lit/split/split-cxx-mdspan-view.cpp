#pragma STDC FP_CONTRACT OFF
// The view Kokkos' OpenMPTarget backend builds (kokkos 28848dfa8: View over
// BasicView over mdspan), without Kokkos: operator() first checks the
// memory space (a call given the handle's tracker by const reference, which
// may end in a function that does not return), then returns
// `m_acc.access(m_ptr, m_map(static_cast<index_type>(std::move(i))))`: a
// space-aware accessor (a check that constructs a temporary, then its
// nested accessor), a reference-counted accessor taking the handle by const
// reference and calling its getter, mdspan's default accessor `return
// p[i];`, and a layout mapping whose operator() returns a helper's
// `compute_offset(seq{}, i)`. The View derives from the BasicView that holds
// all of it; its data() reaches the handle through that base. The functor
// is wrapped in an adapter that forwards its arguments and mapped to the
// device; the data lie 128 bytes into an omp_target_alloc'd block. Each of
// these is walked in place of its call, so the kernels split, and the
// results read back match a serial loop bit for bit.
// RUN: %clangxx-hetero -std=c++17 %s -o %t
// RUN: env HETERO_STATS=1 HETERO_SIMULATE=3 %compare-fallback %t 2>%t.sim | %FileCheck %s
// RUN: %FileCheck %s --check-prefix=STATS < %t.sim
// CHECK: fill: hash={{[0-9a-f]+}} ok
// CHECK: axpy: hash={{[0-9a-f]+}} ok
// CHECK: scale: hash={{[0-9a-f]+}} ok
// CHECK: done failures=0
#include <cstddef>
#include <cstdlib>
#include <omp.h>
#include <utility>

#include "Inputs/split.h"

union Tracker {
  void *record;
  unsigned long bits;
};
#pragma omp declare target
[[noreturn]] void fail(const char *) { __builtin_trap(); }
#pragma omp end declare target
inline void checkTracker(const Tracker &T) {
  if (T.bits == 1)
    fail("a tracker without its record");
}
template <bool Accessible> struct SpaceCheck {
  SpaceCheck(const char *) {}
};
template <> struct SpaceCheck<false> {
  SpaceCheck(const char *Why) { fail(Why); }
};
inline void checkSpace(const char *Why) { (void)SpaceCheck<true>(Why); }

template <class T> struct Handle {
  Tracker m_tracker;
  T *m_handle;
  T *get() const { return m_handle; }
  const Tracker &tracker() const { return m_tracker; }
};
template <class T> struct DefaultAccessor {
  T &access(T *p, size_t i) const { return p[i]; }
};
template <class T> struct CountedAccessor {
  DefaultAccessor<T> m_nested;
  T &access(const Handle<T> &p, size_t i) const {
    return m_nested.access(p.get(), i);
  }
};
template <class T> struct SpaceAccessor {
  CountedAccessor<T> m_nested;
  T &access(const Handle<T> &p, size_t i) const {
    checkSpace("attempt to access inaccessible memory space");
    return m_nested.access(p, i);
  }
};
struct Mapping {
  long m_extent;
  template <size_t R, class I>
  long compute_offset(std::index_sequence<R>, I i) const {
    return i;
  }
  template <class... I> size_t operator()(I... i) const {
    return compute_offset(std::index_sequence_for<I...>{}, i...);
  }
};
template <class T> struct BasicView {
  Handle<T> m_ptr;
  Mapping m_map;
  SpaceAccessor<T> m_acc;
  template <class... I> T &operator()(I... indices) const {
    static_assert(sizeof...(I) == 1, "rank 1");
    if constexpr (true) {
      checkTracker(m_ptr.tracker());
    }
    return m_acc.access(m_ptr, m_map(static_cast<long>(std::move(indices))...));
  }
  const Handle<T> &data_handle() const { return m_ptr; }
};
template <class T> T *pointerOf(const Handle<T> &H) { return H.get(); }
template <class T> struct View : BasicView<T> {
  T *data() const { return pointerOf(this->data_handle()); }
};
template <class F> struct FunctorAdapter {
  F m_functor;
  template <class... Args> void operator()(Args &&...args) const {
    m_functor(static_cast<Args &&>(args)...);
  }
};
struct Fill {
  View<double> a;
  void operator()(const int i) const { a(i) = 0.25 * i; }
};
struct Scale {
  View<double> y;
  void operator()(const int i) const { y.data()[i] = 0.5 * y.data()[i]; }
};
struct Axpy {
  View<double> x, y;
  void operator()(const int i) const { y(i) = 2.0 * x(i) + y(i); }
};

template <class F> static void parallelFor(int n, const F &f) {
  FunctorAdapter<F> adapter{f};
  auto const a_functor(adapter);
// STATS-DAG: hetero-stats kernel={{.*}}Fill{{.*}}_l[[@LINE+3]] launches=2 split=yes
// STATS-DAG: hetero-stats kernel={{.*}}Axpy{{.*}}_l[[@LINE+2]] launches=1 split=yes
// STATS-DAG: hetero-stats kernel={{.*}}Scale{{.*}}_l[[@LINE+1]] launches=1 split=yes
#pragma omp target teams distribute parallel for map(to : a_functor)
  for (int i = 0; i < n; ++i)
    a_functor(i);
}

static View<double> makeView(int n) {
  char *block = (char *)omp_target_alloc(n * sizeof(double) + 128,
                                         omp_get_default_device());
  View<double> V;
  V.m_ptr = {{block}, (double *)(block + 128)};
  V.m_map = {n};
  return V;
}

int main() {
  const int n = 60000;
  int dev = omp_get_default_device(), host = omp_get_initial_device();
  View<double> x = makeView(n), y = makeView(n);
  double *want = (double *)malloc(n * sizeof(double));
  double *got = (double *)malloc(n * sizeof(double));
  parallelFor(n, Fill{x});
  parallelFor(n, Fill{y});
  for (int i = 0; i < n; ++i)
    want[i] = 0.25 * i;
  omp_target_memcpy(got, y.m_ptr.m_handle, n * sizeof(double), 0, 0, host, dev);
  check_bytes("fill", got, want, n * sizeof(double));
  parallelFor(n, Axpy{x, y});
  for (int i = 0; i < n; ++i)
    want[i] = 2.0 * (0.25 * i) + want[i];
  omp_target_memcpy(got, y.m_ptr.m_handle, n * sizeof(double), 0, 0, host, dev);
  check_bytes("axpy", got, want, n * sizeof(double));
  parallelFor(n, Scale{y});
  for (int i = 0; i < n; ++i)
    want[i] = 0.5 * want[i];
  omp_target_memcpy(got, y.m_ptr.m_handle, n * sizeof(double), 0, 0, host, dev);
  check_bytes("scale", got, want, n * sizeof(double));
  omp_target_free(x.m_ptr.m_tracker.record, dev);
  omp_target_free(y.m_ptr.m_tracker.record, dev);
  free(want);
  free(got);
  return done();
}
// STATS: hetero-stats total

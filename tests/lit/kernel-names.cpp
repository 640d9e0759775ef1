// Kernels are shown as the source names them: the function the region is
// in, demangled, and the directive's file and line, in HETERO_INFO's lines
// and HETERO_STATS' (name="...", after the symbol tools read as kernel=).
// A host diagnostic comes once, not once per device compilation (an unused
// variable came 4 times).
// REQUIRES: compiler
// RUN: %clangxx-hetero -Wall %s -o %t 2>%t.diag
// RUN: %FileCheck %s --check-prefix=DIAG < %t.diag
// RUN: env HETERO_INFO=1 HETERO_STATS=1 HETERO_SIMULATE=2 %compare-fallback %t 2>%t.err | %FileCheck %s
// RUN: %FileCheck %s --check-prefix=NAMES < %t.err
// DIAG-COUNT-1: warning: unused variable 'unused'
// DIAG-NOT: unused variable
// CHECK: axpby float: ok
// CHECK: axpby double: ok
// NAMES-DAG: hetero: launch axpby<float>(...) at kernel-names.cpp:[[@LINE+9]] split:
// NAMES-DAG: hetero: launch ns::Grid::scale(...) at kernel-names.cpp:[[@LINE+17]] split:
// NAMES-DAG: hetero-stats kernel=__omp_offloading_{{[0-9a-f]+}}_{{[0-9a-f]+}}__Z5axpbyIfEviT_PKS0_PS0__l[[@LINE+7]] {{.*}} name="axpby<float>(...) at kernel-names.cpp:[[@LINE+7]]"
// NAMES-DAG: hetero-stats kernel={{.*}}__Z5axpbyIdEviT_PKS0_PS0__l[[@LINE+6]] {{.*}} name="axpby<double>(...) at kernel-names.cpp:[[@LINE+6]]"
#include <cstdio>
#include <vector>

template <typename T> void axpby(int n, T a, const T *x, T *y) {
  int unused;
#pragma omp target teams distribute parallel for map(to : x[0 : n])            \
    map(tofrom : y[0 : n])
  for (int i = 0; i < n; ++i)
    y[i] = a * x[i] + y[i];
}

namespace ns {
struct Grid {
  static void scale(int n, double *v) {
#pragma omp target teams distribute parallel for map(tofrom : v[0 : n])
    for (int i = 0; i < n; ++i)
      v[i] *= 2;
  }
};
} // namespace ns

int main() {
  const int n = 4000;
  std::vector<float> xf(n, 1.5f), yf(n, 2.0f);
  std::vector<double> xd(n, 0.5), yd(n, 4.0);
  axpby(n, 2.0f, xf.data(), yf.data());
  axpby(n, 3.0, xd.data(), yd.data());
  ns::Grid::scale(n, yd.data());
  bool okf = true, okd = true;
  for (int i = 0; i < n; ++i) {
    okf &= yf[i] == 5.0f;
    okd &= yd[i] == 11.0;
  }
  std::printf("axpby float: %s\naxpby double: %s\n", okf ? "ok" : "FAIL",
              okd ? "ok" : "FAIL");
  return !(okf && okd);
}

// C++ math in kernels: the <cmath> overloads are classified by what they
// compute on the GPU. std::sqrt(double) is correctly rounded everywhere and
// mixes members; std::sqrt(float) is sqrtf, std::exp(float) and
// std::sin(double) are rounded by each device's own library: one-kind.
// Every compile (host, x86_64, NVPTX) must say the same (one descriptor per
// instantiation of run(), named by its lambda, $_0 to $_3 in call order). Then run: the
// results of a split equal a whole run on one member.
// RUN: %clangxx-hetero %s -o %t
// RUN: %if compiler %{ env HETERO_DESC_DEBUG=1 %clangxx-hetero -c %s -o %t.o 2>%t.desc %}
// RUN: %if compiler %{ %desc-summary %t.desc >%t.uniq %}
// RUN: %if compiler %{ %FileCheck %s --check-prefix=DESC --implicit-check-not=hetero-desc < %t.uniq %}
// RUN: env LIBOMPTARGET_PLUGIN=hetero HETERO_CHUNKS=3 %t >%t.split
// RUN: %if gpu %{ env LIBOMPTARGET_PLUGIN=hetero HETERO_MEMBER=%gpu0 %t >%t.whole %} %else %{ env LIBOMPTARGET_PLUGIN=hetero HETERO_MEMBER=cpu %t >%t.whole %}
// RUN: diff %t.split %t.whole
// RUN: env LIBOMPTARGET_PLUGIN=hetero HETERO_SIMULATE=3 %t | diff - %t.whole
// RUN: %FileCheck %s < %t.split
// CHECK: sqrt double: hash=
// CHECK: sqrt float: hash=
// CHECK: exp float: hash=
// CHECK: sin double: hash=
#include <cmath>
#include <cstdlib>

#include "Inputs/split.h"

template <typename T, typename F> void run(const char *What, F Fn) {
  const int N = 100000;
  T *X = static_cast<T *>(malloc(N * sizeof(T)));
  T *Y = static_cast<T *>(malloc(N * sizeof(T)));
  for (int I = 0; I < N; ++I)
    X[I] = static_cast<T>(I) * static_cast<T>(0.013) + static_cast<T>(0.5);
#pragma omp target teams distribute parallel for map(to : X[0 : N])            \
    map(from : Y[0 : N])
  for (int I = 0; I < N; ++I)
    Y[I] = Fn(X[I]);
  printf("%s: hash=%016llx\n", What,
         static_cast<unsigned long long>(hash_bytes(Y, N * sizeof(T))));
  free(X);
  free(Y);
}

int main() {
  // DESC-DAG: hetero-desc _Z3runIdZ4mainE3$_0{{.*}}: hetero-kernel 2 split yes
  run<double>("sqrt double", [](double V) { return std::sqrt(V); });
  // DESC-DAG: hetero-desc _Z3runIfZ4mainE3$_1{{.*}}: hetero-kernel 2 one-kind calls sqrtf, which GPUs and CPUs round differently
  run<float>("sqrt float", [](float V) { return std::sqrt(V); });
  // DESC-DAG: hetero-desc _Z3runIfZ4mainE3$_2{{.*}}: hetero-kernel 2 one-kind calls exp, which GPUs and CPUs round differently
  run<float>("exp float", [](float V) { return std::exp(V); });
  // DESC-DAG: hetero-desc _Z3runIdZ4mainE3$_3{{.*}}: hetero-kernel 2 one-kind calls sin, which GPUs and CPUs round differently
  run<double>("sin double", [](double V) { return std::sin(V); });
  return 0;
}

// The kernels of a hetero build are, instruction for instruction, those of
// the same source built by plain clang-19 for NVPTX: under the stock cuda
// plugin a hetero-built program runs plain clang's code. The windowed copies
// hetero runs are compiled apart from them (WindowedCopies.h). Compiled in
// the same module, the copies changed the kernels of bench.py's launch
// example (examples/launch.c): the reduction kernel kept the runtime's team
// reduction statics out of its shared memory, and the plain kernel a store
// of the launch environment that plain clang drops, 3-7% per launch of a
// tiny kernel under the stock cuda plugin.
// The copies join the device module after its optimisation without moving
// its variables (whose order is the kernels' shared memory layout, and which
// NVPTX emitted in an order that varied from build to build) and keep the
// kernels' launch bounds (.maxntid), which a copy lost now and then when it
// joined as a new function object: two builds give the same PTX.
// REQUIRES: compiler
// RUN: rm -rf %t.dir && mkdir -p %t.dir && cd %t.dir
// RUN: %device-ptx launch.s sm_90 -- env HETERO_OFFLOAD_ARCH=sm_90 %clang-hetero -I%examples %examples/launch.c -o launch
// RUN: %device-ptx launch-plain.s sm_90 -- %clang-plain-nvptx --offload-arch=sm_90 -I%examples %examples/launch.c -o launch-plain
// RUN: %same-kernels launch.s launch-plain.s | %FileCheck %s
// RUN: %device-ptx launch-again.s sm_90 -- env HETERO_OFFLOAD_ARCH=sm_90 %clang-hetero -I%examples %examples/launch.c -o launch-again
// RUN: cmp launch.s launch-again.s
// RUN: %device-ptx here.s sm_90 -- env HETERO_OFFLOAD_ARCH=sm_90 %clang-hetero %s -o here
// RUN: %device-ptx here-plain.s sm_90 -- %clang-plain-nvptx --offload-arch=sm_90 %s -o here-plain
// RUN: %same-kernels here.s here-plain.s | %FileCheck %s --check-prefix=HERE
// CHECK-COUNT-3: _main_l{{[0-9]+}}: same (with a windowed copy)
// CHECK-NEXT: module-scope variables: same, in the same order
// HERE-DAG: _main_l{{[0-9]+}}: same (with a windowed copy)
// HERE-DAG: _scale_l{{[0-9]+}}: same (with a windowed copy)
// HERE: module-scope variables: same, in the same order
#include <stdio.h>
#include <stdlib.h>

static double twice(double x) { return 2 * x; }

void scale(double *a, int n, double s) {
#pragma omp target teams distribute parallel for map(tofrom : a[0 : n])
  for (int i = 0; i < n; ++i)
    a[i] = twice(a[i]) * s;
}

int main(void) {
  const int n = 4096;
  double *a = malloc(sizeof(double) * n);
#pragma omp target teams distribute parallel for map(from : a[0 : n])
  for (int i = 0; i < n; ++i)
    a[i] = 0.5 * i;
  scale(a, n, 0.25);
  printf("a[7]=%.6f\n", a[7]);
  free(a);
  return 0;
}

// The pass leaves every offloaded kernel as clang compiled it and gives
// hetero a copy, <kernel>_hetero_windowed, that reads the loop window
// (CompilerAbi.h): the same binary under the stock plugins runs the code a
// plain build has; hetero runs the copy, whole launches with the window off.
// In the x86_64 image the kernel and its outlined regions never touch the
// window; the copy's do (they are compiled apart and linked in at the end,
// so their outlined regions are the originals' names with a suffix).
// REQUIRES: compiler
// RUN: rm -rf %t.dir && mkdir -p %t.dir && cd %t.dir && %clang-hetero --offload-device-only -S -emit-llvm %s
// RUN: %FileCheck %s < %t.dir/windowed-copy-openmp-x86_64-unknown-linux-gnu.ll
// On NVPTX the copy takes the window as two parameters after the kernel's,
// its first and last iteration (the plugin appends them to the launch), and
// the image says so with a marker instead of a window global:
// RUN: cat %t.dir/windowed-copy-openmp-nvptx64-*.ll | %FileCheck %s --check-prefix=GPU
// Split over two simulated accelerators and the CPU pool, through the
// copies, the answers are the host fallback's:
// RUN: %clang-hetero %s -o %t
// RUN: env HETERO_STATS=1 HETERO_SIMULATE=2 HETERO_PROBE_AFTER=0 %compare-fallback %t 2>%t.err | %FileCheck %s --check-prefix=OUT
// RUN: %FileCheck %s --check-prefix=STATS < %t.err
// CHECK: define {{.*}} @__omp_offloading_[[K:[0-9a-f]+_[0-9a-f]+_main_l[0-9]+]](
// CHECK-NOT: hetero_window
// CHECK: define {{.*}} @__omp_offloading_[[K]]_hetero_windowed(
// CHECK: call {{.*}} @__omp_offloading_[[K]].omp_outlined.[[N:[0-9]+]],
// CHECK: define internal void @__omp_offloading_[[K]].omp_outlined.[[N]](
// CHECK-NEXT: load i64, ptr @__omp_offloading_[[K]]_hetero_window
// GPU-NOT: _hetero_window =
// GPU: @__omp_offloading_[[K:[0-9a-f]+_[0-9a-f]+_main_l[0-9]+]]_hetero_window_params = {{.*}} constant i8 1
// GPU-NOT: _hetero_window =
// GPU: define {{.*}} @__omp_offloading_[[K]]_hetero_windowed({{.*}}, i64 %{{[0-9]+}}, i64 %[[LAST:[0-9]+]])
// GPU: trunc i64 %[[LAST]] to i32
// OUT: sum=
// STATS: hetero-stats kernel={{.*}} split=yes
#include <stdio.h>
#include <stdlib.h>

int main(void) {
  const int n = 100000;
  double *a = malloc(sizeof(double) * n);
#pragma omp target teams distribute parallel for map(from : a[0 : n])
  for (int i = 0; i < n; ++i)
    a[i] = 0.5 * i + (i % 13);
  double sum = 0;
  for (int i = 0; i < n; ++i)
    sum += a[i] * (i % 5);
  printf("sum=%.12e\n", sum);
  free(a);
  return 0;
}

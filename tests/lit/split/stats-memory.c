// HETERO_STATS ends with the most buffer storage each memory node held. A
// member holds the granules of a buffer that its chunks (or map-time
// writes) touch: two simulated accelerators that each compute half of a
// loop over two arrays of 1 Mi doubles (8 MiB each) hold half of each,
// 8 MiB, where the host holds both arrays, 16 MiB; sim:0, the home member,
// also got all of x at map time (12 MiB). Two parts of a GPU hold the same
// (CUDA virtual memory, 2 MiB granules: the halves are whole granules),
// where they held both arrays whole before.
// RUN: %clang-hetero %s -o %t
// RUN: env HETERO_STATS=1 HETERO_DISABLE_CUDA=1 HETERO_SIMULATE=2 HETERO_MEMBERS=sim:0,sim:1 HETERO_SHARES=fixed %run-hetero %t 2>%t.err | %FileCheck %s
// RUN: %FileCheck %s --check-prefix=STATS < %t.err
// CHECK: sum 1099510579200
// STATS: hetero-stats kernel={{.*}} split=yes {{.*}}members=sim:0:524288:{{.*}},sim:1:524288:
// STATS: hetero-stats total
// STATS-DAG: hetero-stats memory node=host peak_bytes=16777216 held_bytes=0
// STATS-DAG: hetero-stats memory node=sim:0 peak_bytes=12582912 held_bytes=0
// STATS-DAG: hetero-stats memory node=sim:1 peak_bytes=8388608 held_bytes=0
// RUN: %if gpu %{ env HETERO_STATS=1 HETERO_GPU_SPLIT=2 HETERO_MEMBERS=cuda:0.0,cuda:0.1 HETERO_SHARES=fixed %run-hetero %t 2>%t.gpu.err | %FileCheck %s %}
// RUN: %if gpu %{ %FileCheck %s --check-prefix=GPU < %t.gpu.err %}
// GPU: hetero-stats kernel={{.*}} split=yes {{.*}}members=cuda:0.0:524288:{{.*}},cuda:0.1:524288:
// GPU-DAG: hetero-stats memory node=cuda:0.0 peak_bytes=12582912 held_bytes=0
// GPU-DAG: hetero-stats memory node=cuda:0.1 peak_bytes=8388608 held_bytes=0
#include <stdio.h>
#include <stdlib.h>

#define N (1 << 20)

int main(void) {
  double *x = malloc(N * sizeof(double)), *y = malloc(N * sizeof(double));
  for (int i = 0; i < N; ++i)
    x[i] = i;
#pragma omp target teams distribute parallel for map(to : x[0 : N])            \
    map(from : y[0 : N])
  for (int i = 0; i < N; ++i)
    y[i] = 2.0 * x[i];
  double sum = 0;
  for (int i = 0; i < N; ++i)
    sum += y[i];
  printf("sum %.0f\n", sum);
  free(x);
  free(y);
  return 0;
}

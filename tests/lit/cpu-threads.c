// The CPU pool's kernels fork their OpenMP team from a StarPU worker; its
// size is HETERO_CPU_THREADS (default: the cores, less one per GPU, which
// its StarPU worker polls on). Both kinds of team the x86_64 image forks
// obey it: teams (teams distribute parallel for) and parallel regions
// (target parallel for). omp_get_num_threads() keeps the kernels unsplit,
// on the CPU pool here.
// RUN: %clang-hetero %s -o %t
// RUN: env HETERO_CPU_THREADS=1 HETERO_MEMBER=cpu HETERO_INFO=1 %run-hetero %t 2>%t.err | %FileCheck %s --check-prefix=ONE
// RUN: %FileCheck %s --check-prefix=INFO < %t.err
// RUN: env HETERO_CPU_THREADS=2 HETERO_MEMBER=cpu %run-hetero %t | %FileCheck %s --check-prefix=TWO
// INFO: hetero: pool: {{.*}}CPU pool kernels on 1 threads)
// ONE: teams distribute parallel for: 1 threads; target parallel for: 1 threads
// TWO: teams distribute parallel for: 2 threads; target parallel for: 2 threads
#include <omp.h>
#include <stdio.h>

int main(void) {
  int nt[2] = {0, 0};
#pragma omp target teams distribute parallel for map(tofrom : nt[0 : 2])
  for (int i = 0; i < 64; ++i)
    if (i == 0)
      nt[0] = omp_get_num_threads();
#pragma omp target parallel for map(tofrom : nt[0 : 2])
  for (int i = 0; i < 64; ++i)
    if (i == 0)
      nt[1] = omp_get_num_threads();
  printf("teams distribute parallel for: %d threads; target parallel for: %d "
         "threads\n",
         nt[0], nt[1]);
  return 0;
}

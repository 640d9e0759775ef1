// thread_limit and num_threads clauses on CPU members, as under the stock
// host plugin: inside `teams ... thread_limit(1) num_threads(10)` the limit
// and the team are 1; `target thread_limit(3)` gives 3. Without a clause the
// CPU pool's kernels are capped at its own thread count (HETERO_CPU_THREADS)
// and a simulated accelerator's are not capped; a clause of one kernel never
// leaks into the next.
// RUN: %clang-hetero %s -o %t
// RUN: env HETERO_MEMBER=cpu HETERO_CPU_THREADS=2 %run-hetero %t | %FileCheck %s --check-prefixes=CHECK,POOL
// RUN: env HETERO_SIMULATE=3 HETERO_MEMBER=sim:1 %run-hetero %t | %FileCheck %s --check-prefixes=CHECK,FREE
// RUN: %run-stock %t | %FileCheck %s --check-prefixes=CHECK,FREE
// CHECK: clauses: thread_limit=1 num_threads=1
// POOL: no clause: thread_limit=2
// FREE: no clause: thread_limit=2147483647
// CHECK: target thread_limit(3): thread_limit=3 num_threads={{[123]}}
// POOL: no clause again: thread_limit=2
// FREE: no clause again: thread_limit=2147483647
#include <omp.h>
#include <stdio.h>

static void noClause(const char *What) {
  int tl = -1;
#pragma omp target teams distribute parallel for map(tofrom : tl)
  for (int i = 0; i < 1; ++i)
    tl = omp_get_thread_limit();
  printf("%s: thread_limit=%d\n", What, tl);
}

int main(void) {
  int tl[64], nt[64];
#pragma omp target teams distribute parallel for thread_limit(1)               \
    num_threads(10) map(from : tl, nt)
  for (int i = 0; i < 64; ++i) {
    tl[i] = omp_get_thread_limit();
    nt[i] = omp_get_num_threads();
  }
  int same = 1;
  for (int i = 1; i < 64; ++i)
    same &= tl[i] == tl[0] && nt[i] == nt[0];
  printf("clauses: thread_limit=%d num_threads=%d%s\n", tl[0], nt[0],
         same ? "" : " (not the same in every iteration)");
  noClause("no clause");
  int tl3 = -1, nt3 = -1;
#pragma omp target thread_limit(3) map(tofrom : tl3, nt3)
#pragma omp parallel
  {
#pragma omp single
    {
      tl3 = omp_get_thread_limit();
      nt3 = omp_get_num_threads();
    }
  }
  printf("target thread_limit(3): thread_limit=%d num_threads=%d\n", tl3, nt3);
  noClause("no clause again");
  return 0;
}

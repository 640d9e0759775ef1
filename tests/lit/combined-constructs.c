// Combined and composite target constructs: target teams loop, target
// parallel loop, target parallel for, target teams distribute (no parallel),
// target simd, target parallel for simd, target teams distribute simd,
// target teams distribute parallel for simd, and the split forms (target +
// teams + distribute parallel for, target parallel + for), with num_teams,
// thread_limit, num_threads, schedule and if clauses (dynamic and guided
// schedules: schedules-dynamic.c).
// RUN: %clang-hetero -Wno-pass-failed %s -o %t
// RUN: env HETERO_INFO=1 %compare-fallback %t 2>%t.err | %FileCheck %s
// RUN: %FileCheck %s --check-prefix=INFO --implicit-check-not=error: < %t.err
// RUN: env HETERO_SIMULATE=2 HETERO_MEMBER=sim:0 HETERO_INFO=1 %compare-fallback %t 2>%t.sim.err | %FileCheck %s
// RUN: %FileCheck %s --check-prefix=SIM --implicit-check-not=error: --implicit-check-not=" on cpu" < %t.sim.err
// RUN: env HETERO_SIMULATE=2 %compare-fallback %t | %FileCheck %s
// CHECK: target teams loop: ok
// CHECK: target parallel loop: ok
// CHECK: target parallel for: ok
// CHECK: target teams distribute: ok
// CHECK: target simd: ok
// CHECK: target parallel for simd: ok
// CHECK: target teams distribute simd: ok
// CHECK: target teams distribute parallel for simd: ok
// CHECK: target + teams + distribute parallel for: ok
// CHECK: target parallel + for: ok
// CHECK: schedules: ok
// CHECK: if(target: 0) runs on the host: ok
// CHECK: num_teams/thread_limit respected: ok
// CHECK: done failures=0
// INFO: hetero: launch {{.*}} {{(on (cpu|cuda:[0-9.]+) \(whole kernel:|split: )}}
// SIM: hetero: launch {{.*}} on sim:0 (whole kernel: pinned by HETERO_MEMBER)
#include <omp.h>
#include <stdio.h>

#define N 10000
static int failures;
static int x[N];

static void expect(const char *what, int mul, int add) {
  int ok = 1;
  for (int i = 0; i < N; ++i)
    ok &= x[i] == mul * i + add;
  printf("%s: %s\n", what, ok ? "ok" : "FAIL");
  failures += !ok;
  for (int i = 0; i < N; ++i)
    x[i] = i;
}

int main(void) {
  for (int i = 0; i < N; ++i)
    x[i] = i;

#pragma omp target teams loop map(tofrom : x)
  for (int i = 0; i < N; ++i)
    x[i] = 2 * x[i] + 1;
  expect("target teams loop", 2, 1);

#pragma omp target parallel loop map(tofrom : x)
  for (int i = 0; i < N; ++i)
    x[i] = 3 * x[i] + 1;
  expect("target parallel loop", 3, 1);

#pragma omp target parallel for map(tofrom : x) num_threads(4)
  for (int i = 0; i < N; ++i)
    x[i] = 4 * x[i] - 1;
  expect("target parallel for", 4, -1);

#pragma omp target teams distribute map(tofrom : x) num_teams(2)
  for (int i = 0; i < N; ++i)
    x[i] = -x[i];
  expect("target teams distribute", -1, 0);

#pragma omp target simd map(tofrom : x)
  for (int i = 0; i < N; ++i)
    x[i] = x[i] + 5;
  expect("target simd", 1, 5);

#pragma omp target parallel for simd map(tofrom : x)
  for (int i = 0; i < N; ++i)
    x[i] = x[i] * 6;
  expect("target parallel for simd", 6, 0);

#pragma omp target teams distribute simd map(tofrom : x)
  for (int i = 0; i < N; ++i)
    x[i] = x[i] * 7 + 7;
  expect("target teams distribute simd", 7, 7);

#pragma omp target teams distribute parallel for simd map(tofrom : x) simdlen(4)
  for (int i = 0; i < N; ++i)
    x[i] = x[i] * 8 - 8;
  expect("target teams distribute parallel for simd", 8, -8);

#pragma omp target map(tofrom : x)
#pragma omp teams num_teams(2) thread_limit(64)
#pragma omp distribute parallel for
  for (int i = 0; i < N; ++i)
    x[i] = x[i] * 9;
  expect("target + teams + distribute parallel for", 9, 0);

#pragma omp target map(tofrom : x)
#pragma omp parallel
  {
#pragma omp for
    for (int i = 0; i < N; ++i)
      x[i] = x[i] * 10;
#pragma omp for nowait
    for (int i = 0; i < N; ++i)
      x[i] = x[i] + 10;
  }
  expect("target parallel + for", 10, 10);

  // schedules: each one adds 1, 2, 3, 4.
#pragma omp target teams distribute parallel for map(tofrom : x)               \
    schedule(static, 7)
  for (int i = 0; i < N; ++i)
    x[i] += 1;
#pragma omp target teams distribute parallel for map(tofrom : x)               \
    dist_schedule(static, 100) schedule(static, 1)
  for (int i = 0; i < N; ++i)
    x[i] += 2;
#pragma omp target parallel for map(tofrom : x) schedule(static, 13)
  for (int i = 0; i < N; ++i)
    x[i] += 3;
#pragma omp target parallel for map(tofrom : x) schedule(static)
  for (int i = 0; i < N; ++i)
    x[i] += 4;
  expect("schedules", 1, 10);

  // if(target: 0): the region runs on the host, on the host's data.
  int on_host = 0;
#pragma omp target teams distribute parallel for if (target : 0)               \
    map(tofrom : x) reduction(+ : on_host)
  for (int i = 0; i < N; ++i) {
    x[i] += 1;
    on_host += omp_is_initial_device() ? 1 : 0;
  }
  printf("if(target: 0) runs on the host: %s\n", on_host == N ? "ok" : "FAIL");
  failures += on_host != N;
  for (int i = 0; i < N; ++i)
    x[i] -= 1;

  // num_teams / thread_limit: the kernel may get fewer, never more.
  int teams = 0, threads = 0;
#pragma omp target teams num_teams(2) thread_limit(32)                         \
    map(tofrom : teams, threads)
  {
    int t = omp_get_num_teams();
#pragma omp parallel
    {
      if (omp_get_team_num() == 0 && omp_get_thread_num() == 0) {
        teams = t;
        threads = omp_get_num_threads();
      }
    }
  }
  int ok = teams >= 1 && teams <= 2 && threads >= 1 && threads <= 32;
  printf("num_teams/thread_limit respected: %s\n", ok ? "ok" : "FAIL");
  if (!ok)
    printf("  teams=%d threads=%d\n", teams, threads);
  failures += !ok;
  printf("done failures=%d\n", failures);
  return failures != 0;
}

// Loop schedules in target regions, each kernel launched several times:
// static (with and without chunk), on target parallel for
// and on target teams distribute parallel for, plus dist_schedule. Every
// iteration must run exactly once per launch. Built with -DDYNAMIC_SCHEDULES
// it also covers dynamic, guided, auto and runtime: see schedules-dynamic.c.
// RUN: %clang-hetero %s -o %t
// RUN: env HETERO_INFO=1 %compare-fallback %t 2>%t.err | %FileCheck %s
// RUN: %FileCheck %s --check-prefix=INFO --implicit-check-not=error: < %t.err
// RUN: env HETERO_SIMULATE=2 HETERO_MEMBER=sim:0 HETERO_INFO=1 %compare-fallback %t 2>%t.sim.err | %FileCheck %s
// RUN: %FileCheck %s --check-prefix=SIM --implicit-check-not=error: --implicit-check-not=" on cpu" < %t.sim.err
// CHECK: static: ok
// CHECK: static,7: ok
// CHECK: teams static,1 + dist_schedule(static,100): ok
// CHECK: done failures=0
// INFO: hetero: launch {{.*}} {{(on (cpu|cuda:[0-9.]+) \(whole kernel:|split: )}}
// SIM: hetero: launch {{.*}} on sim:0 (whole kernel: pinned by HETERO_MEMBER)
#include <stdio.h>

#define N 5000
#define REPEAT 6
static int failures;
static int x[N];

static void expect(const char *what) {
  int ok = 1;
  for (int i = 0; i < N; ++i)
    ok &= x[i] == REPEAT * (i % 7 + 1);
  printf("%s: %s\n", what, ok ? "ok" : "FAIL");
  failures += !ok;
  for (int i = 0; i < N; ++i)
    x[i] = 0;
}

#define PRAGMA(...) _Pragma(#__VA_ARGS__)
#define PARALLEL_FOR(...)                                                      \
  for (int r = 0; r < REPEAT; ++r) {                                           \
    PRAGMA(omp target parallel for map(tofrom : x) __VA_ARGS__)                \
    for (int i = 0; i < N; ++i)                                                \
      x[i] += i % 7 + 1;                                                       \
  }
#define TEAMS_FOR(...)                                                           \
  for (int r = 0; r < REPEAT; ++r) {                                             \
    PRAGMA(omp target teams distribute parallel for map(tofrom : x) __VA_ARGS__) \
    for (int i = 0; i < N; ++i)                                                  \
      x[i] += i % 7 + 1;                                                         \
  }

int main(void) {
  PARALLEL_FOR(schedule(static))
  expect("static");
  PARALLEL_FOR(schedule(static, 7))
  expect("static,7");
#ifdef DYNAMIC_SCHEDULES
  PARALLEL_FOR(schedule(dynamic))
  expect("dynamic");
  PARALLEL_FOR(schedule(dynamic, 13))
  expect("dynamic,13");
  PARALLEL_FOR(schedule(guided))
  expect("guided");
  PARALLEL_FOR(schedule(guided, 5))
  expect("guided,5");
#endif
#ifdef DYNAMIC_SCHEDULES
  PARALLEL_FOR(schedule(auto))
  expect("auto");
  PARALLEL_FOR(schedule(runtime))
  expect("runtime");
#endif
  TEAMS_FOR(dist_schedule(static, 100) schedule(static, 1))
  expect("teams static,1 + dist_schedule(static,100)");
#ifdef DYNAMIC_SCHEDULES
  TEAMS_FOR(schedule(dynamic, 7))
  expect("teams dynamic,7");
  TEAMS_FOR(schedule(guided))
  expect("teams guided");
#endif
  printf("done failures=%d\n", failures);
  return failures != 0;
}

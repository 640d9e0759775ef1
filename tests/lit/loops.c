// Loop shapes in target regions: collapse(2) and collapse(3), non-zero lower
// bounds, negative and non-unit steps, unsigned and long induction
// variables, triangular inner loops (plain and collapsed, non-rectangular).
// Every element a loop should touch is written once; the results are
// compared with serial host loops.
// RUN: %clang-hetero %s -o %t
// RUN: env HETERO_INFO=1 %compare-fallback %t 2>%t.err | %FileCheck %s
// RUN: %FileCheck %s --check-prefix=INFO --implicit-check-not=error: < %t.err
// RUN: env HETERO_SIMULATE=2 HETERO_MEMBER=sim:0 HETERO_INFO=1 %compare-fallback %t 2>%t.sim.err | %FileCheck %s
// RUN: %FileCheck %s --check-prefix=SIM --implicit-check-not=error: --implicit-check-not=" on cpu" < %t.sim.err
// RUN: env HETERO_SIMULATE=2 %compare-fallback %t | %FileCheck %s
// CHECK: collapse(2): ok
// CHECK: collapse(3): ok
// CHECK: lower bound 17, step 1: ok
// CHECK: downward step -3: ok
// CHECK: step 7 from -50: ok
// CHECK: unsigned downward step 5: ok
// CHECK: long step 1000003: ok
// CHECK: collapse(2) with offsets and steps: ok
// CHECK: triangular inner loop: ok
// CHECK: collapsed triangular loop: ok
// CHECK: collapse(3) non-unit steps: ok
// CHECK: checksum=80301411
// CHECK: done failures=0
// INFO: hetero: launch {{.*}} {{(on (cpu|cuda:[0-9.]+) \(whole kernel:|split: )}}
// SIM: hetero: launch {{.*}} on sim:0 (whole kernel: pinned by HETERO_MEMBER)
#include <stdio.h>
#include <string.h>

#define NI 37
#define NJ 29
#define NK 11
static int failures;
static long checksum;
static void compare(const char *what, const int *got, const int *want, int n) {
  int ok = memcmp(got, want, n * sizeof(int)) == 0;
  for (int i = 0; i < n; ++i)
    checksum = (checksum * 31 + got[i]) % 1000000007;
  printf("%s: %s\n", what, ok ? "ok" : "FAIL");
  failures += !ok;
}

static int A[NI * NJ * NK], B[NI * NJ * NK];

static void clear(void) {
  memset(A, 0, sizeof(A));
  memset(B, 0, sizeof(B));
}

int main(void) {
  const int n = 1000;

  // collapse(2)
  clear();
#pragma omp target teams distribute parallel for collapse(2) map(tofrom : A)
  for (int i = 0; i < NI; ++i)
    for (int j = 0; j < NJ; ++j)
      A[i * NJ + j] += i * 1000 + j + 1;
  for (int i = 0; i < NI; ++i)
    for (int j = 0; j < NJ; ++j)
      B[i * NJ + j] += i * 1000 + j + 1;
  compare("collapse(2)", A, B, NI * NJ * NK);

  // collapse(3)
  clear();
#pragma omp target teams distribute parallel for collapse(3) map(tofrom : A)
  for (int i = 0; i < NI; ++i)
    for (int j = 0; j < NJ; ++j)
      for (int k = 0; k < NK; ++k)
        A[(i * NJ + j) * NK + k] += i * 10000 + j * 100 + k + 1;
  for (int i = 0; i < NI; ++i)
    for (int j = 0; j < NJ; ++j)
      for (int k = 0; k < NK; ++k)
        B[(i * NJ + j) * NK + k] += i * 10000 + j * 100 + k + 1;
  compare("collapse(3)", A, B, NI * NJ * NK);

  // non-zero lower bound
  clear();
#pragma omp target teams distribute parallel for map(tofrom : A)
  for (int i = 17; i < n; ++i)
    A[i] += i;
  for (int i = 17; i < n; ++i)
    B[i] += i;
  compare("lower bound 17, step 1", A, B, n);

  // downward, step -3
  clear();
#pragma omp target teams distribute parallel for map(tofrom : A)
  for (int i = n - 1; i >= 0; i -= 3)
    A[i] += 2 * i + 1;
  for (int i = n - 1; i >= 0; i -= 3)
    B[i] += 2 * i + 1;
  compare("downward step -3", A, B, n);

  // negative lower bound, step 7
  clear();
#pragma omp target teams distribute parallel for map(tofrom : A)
  for (int i = -50; i <= 950; i += 7)
    A[i + 50] += i;
  for (int i = -50; i <= 950; i += 7)
    B[i + 50] += i;
  compare("step 7 from -50", A, B, n + 1);

  // unsigned, downward with step 5 (stops before wrapping)
  clear();
#pragma omp target teams distribute parallel for map(tofrom : A)
  for (unsigned u = 999; u > 5; u -= 5)
    A[u] += (int)u + 7;
  for (unsigned u = 999; u > 5; u -= 5)
    B[u] += (int)u + 7;
  compare("unsigned downward step 5", A, B, n);

  // long induction variable with a large step
  clear();
#pragma omp target teams distribute parallel for map(tofrom : A)
  for (long l = 5000000000L; l < 5000000000L + 1000003L * 900; l += 1000003L)
    A[(l - 5000000000L) / 1000003L] += (int)(l % 1000);
  for (long l = 5000000000L; l < 5000000000L + 1000003L * 900; l += 1000003L)
    B[(l - 5000000000L) / 1000003L] += (int)(l % 1000);
  compare("long step 1000003", A, B, n);

  // collapse(2), offsets and steps on both loops, one downward
  clear();
#pragma omp target teams distribute parallel for collapse(2) map(tofrom : A)
  for (int i = 3; i < NI; i += 2)
    for (int j = NJ - 1; j >= 4; j -= 3)
      A[i * NJ + j] += i * 100 + j;
  for (int i = 3; i < NI; i += 2)
    for (int j = NJ - 1; j >= 4; j -= 3)
      B[i * NJ + j] += i * 100 + j;
  compare("collapse(2) with offsets and steps", A, B, NI * NJ);

  // triangular inner loop (parallel outer loop)
  clear();
#pragma omp target teams distribute parallel for map(tofrom : A)
  for (int i = 0; i < NI; ++i)
    for (int j = 0; j <= i; ++j)
      A[i * NI + j] += i + j + 1;
  for (int i = 0; i < NI; ++i)
    for (int j = 0; j <= i; ++j)
      B[i * NI + j] += i + j + 1;
  compare("triangular inner loop", A, B, NI * NI);

  // collapsed non-rectangular loop: the inner bound depends on i
  clear();
#pragma omp target teams distribute parallel for collapse(2) map(tofrom : A)
  for (int i = 0; i < NI; ++i)
    for (int j = i; j < NI; ++j)
      A[i * NI + j] += 3 * i + j + 1;
  for (int i = 0; i < NI; ++i)
    for (int j = i; j < NI; ++j)
      B[i * NI + j] += 3 * i + j + 1;
  compare("collapsed triangular loop", A, B, NI * NI);

  // collapse(3) with non-unit steps and a negative one
  clear();
#pragma omp target teams distribute parallel for collapse(3) map(tofrom : A)
  for (int i = 1; i < NI; i += 4)
    for (int j = NJ - 2; j > 0; j -= 2)
      for (int k = 0; k < NK; k += 3)
        A[(i * NJ + j) * NK + k] += i + 2 * j + 3 * k + 1;
  for (int i = 1; i < NI; i += 4)
    for (int j = NJ - 2; j > 0; j -= 2)
      for (int k = 0; k < NK; k += 3)
        B[(i * NJ + j) * NK + k] += i + 2 * j + 3 * k + 1;
  compare("collapse(3) non-unit steps", A, B, NI * NJ * NK);

  printf("checksum=%ld\n", checksum);
  printf("done failures=%d\n", failures);
  return failures != 0;
}

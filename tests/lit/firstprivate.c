// firstprivate scalars, arrays and structs, literal arguments (int, double,
// long, pointers passed by value), implicit firstprivate of scalars and
// default(firstprivate): the kernel gets the values, the host keeps its own.
// RUN: %clang-hetero %s -o %t
// RUN: env HETERO_INFO=1 %compare-fallback %t 2>%t.err | %FileCheck %s
// RUN: %FileCheck %s --check-prefix=INFO --implicit-check-not=error: < %t.err
// RUN: env HETERO_SIMULATE=2 HETERO_MEMBER=sim:0 HETERO_INFO=1 %compare-fallback %t 2>%t.sim.err | %FileCheck %s
// RUN: %FileCheck %s --check-prefix=SIM --implicit-check-not=error: --implicit-check-not=" on cpu" < %t.sim.err
// CHECK: literals: i=-17 l=1099511627776 d=0.375 f=2.5 c=120 u=4294967295
// CHECK: literals: ok
// CHECK: host pointer by value: ok
// CHECK: kernel changes stay private: ok
// CHECK: firstprivate array: sum=200 ok
// CHECK: host array unchanged: ok
// CHECK: firstprivate struct: 7 0.5 -3 ok
// CHECK: default(firstprivate): x=11 y=6.5 ok
// CHECK: parallel loop firstprivate: sum=8486 ok
// CHECK: done failures=0
// INFO: hetero: launch {{.*}} {{(on (cpu|cuda:[0-9.]+) \(whole kernel:|split: )}}
// SIM: hetero: launch {{.*}} on sim:0 (whole kernel: pinned by HETERO_MEMBER)
#include <stdint.h>
#include <stdio.h>

#include "Inputs/check.h"

struct Params {
  int n;
  double scale;
  long offset;
  int table[4];
};

int main(void) {

  // Scalars of several types passed by value (implicitly firstprivate).
  int i = -17;
  long l = 1L << 40;
  double d = 0.375;
  float f = 2.5f;
  char c = 'x';
  unsigned u = 0xffffffffu;
  int ri;
  long rl;
  double rd;
  float rf;
  char rc;
  unsigned ru;
#pragma omp target map(from : ri, rl, rd, rf, rc, ru)
  {
    ri = i;
    rl = l;
    rd = d;
    rf = f;
    rc = c;
    ru = u;
  }
  printf("literals: i=%d l=%ld d=%g f=%g c=%d u=%u\n", ri, rl, rd, rf, rc, ru);
  check("literals",
        ri == i && rl == l && rd == d && rf == f && rc == c && ru == u);

  // A host pointer passed by value is just a number to the kernel.
  int local = 5;
  int *hp = &local;
  uintptr_t seen = 0;
#pragma omp target firstprivate(hp) map(from : seen)
  seen = (uintptr_t)hp;
  check("host pointer by value", seen == (uintptr_t)hp);

  // The kernel may change its copies; the host's stay.
  int x = 1;
  double y = 2.0;
  int outx = 0;
  double outy = 0;
#pragma omp target firstprivate(x, y) map(from : outx, outy)
  {
    x += 10;
    y *= 3.25;
    outx = x;
    outy = y;
  }
  check("kernel changes stay private",
        x == 1 && y == 2.0 && outx == 11 && outy == 6.5);

  // firstprivate array.
  int arr[10];
  for (int k = 0; k < 10; ++k)
    arr[k] = 2 * k + 13;
  int asum = 0;
#pragma omp target firstprivate(arr) map(tofrom : asum)
  {
    for (int k = 0; k < 10; ++k)
      asum += arr[k] - 2;
    for (int k = 0; k < 10; ++k)
      arr[k] = -1;
  }
  printf("firstprivate array: sum=%d %s\n", asum, asum == 200 ? "ok" : "FAIL");
  failures += asum != 200;
  {
    int ok = 1;
    for (int k = 0; k < 10; ++k)
      ok &= arr[k] == 2 * k + 13;
    check("host array unchanged", ok);
  }

  // firstprivate struct.
  struct Params p = {7, 0.5, -3, {1, 2, 3, 4}};
  int rn = 0;
  double rs = 0;
  long ro = 0;
  int tsum = 0;
#pragma omp target firstprivate(p) map(from : rn, rs, ro, tsum)
  {
    rn = p.n;
    rs = p.scale;
    ro = p.offset;
    tsum = p.table[0] + p.table[1] + p.table[2] + p.table[3];
    p.n = 0;
  }
  printf("firstprivate struct: %d %g %ld %s\n", rn, rs, ro,
         rn == 7 && rs == 0.5 && ro == -3 && tsum == 10 && p.n == 7 ? "ok"
                                                                    : "FAIL");
  failures += !(rn == 7 && rs == 0.5 && ro == -3 && tsum == 10 && p.n == 7);

  // default(firstprivate) on a combined target teams construct.
  x = 1;
  y = 2.0;
  int dx = 0;
  double dy = 0;
#pragma omp target teams num_teams(1) default(firstprivate) shared(dx, dy)     \
    map(from : dx, dy)
  {
    x += 10;
    y += 4.5;
    dx = x;
    dy = y;
  }
  printf("default(firstprivate): x=%d y=%g %s\n", dx, dy,
         dx == 11 && dy == 6.5 && x == 1 && y == 2.0 ? "ok" : "FAIL");
  failures += !(dx == 11 && dy == 6.5 && x == 1 && y == 2.0);

  // firstprivate values used by every thread of a parallel loop.
  int out[1024];
  int k0 = 3, mul = 4;
  long lsum = 0;
#pragma omp target teams distribute parallel for firstprivate(k0, mul)         \
    map(from : out)
  for (int k = 0; k < 1024; ++k)
    out[k] = (k % 7 == k0) * mul + (k % 7 != k0) * (mul * 2 + 1);
  for (int k = 0; k < 1024; ++k)
    lsum += out[k];
  // 1024 = 146*7 + 2: k%7==3 happens 146 times.
  printf("parallel loop firstprivate: sum=%ld %s\n", lsum,
         lsum == 146 * 4 + (1024 - 146) * 9 ? "ok" : "FAIL");
  failures += lsum != 146 * 4 + (1024 - 146) * 9;

  printf("done failures=%d\n", failures);
  return failures != 0;
}

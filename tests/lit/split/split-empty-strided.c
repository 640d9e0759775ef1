// Launches with no iteration whose trip count the compiler computes in
// unsigned arithmetic: a step of 2 or 3 over an empty range arrives as a
// wrapped quotient (2^31 - 1 for `i < lo - 2; i += 2`), not as 0 or a
// negative number. Each such launch is recognised as empty: it runs nothing
// and moves nothing (no bytes in HETERO_STATS), and is not counted as a
// refusal or as 2^31 - 1 iterations. Signed and unsigned counters, up and
// down, 32- and 64-bit, one collapsed level empty.
// RUN: %clang-hetero %s -o %t
// RUN: env HETERO_STATS=1 HETERO_SIMULATE=3 %compare-fallback %t 3 2>%t.sim | %FileCheck %s
// RUN: %FileCheck %s --check-prefix=STATS < %t.sim
// RUN: env HETERO_STATS=1 HETERO_CHUNKS=4 %compare-fallback %t 3 2>%t.cpu | %FileCheck %s
// RUN: %FileCheck %s --check-prefix=STATS < %t.cpu
// CHECK: strided empty launches: ok
// CHECK: done failures=0
// STATS-COUNT-6: hetero-stats kernel={{.*}} launches=1 split=yes split_launches=1 members=- bytes_h2d=0 bytes_d2d=0 bytes_d2h=0 shares=
// STATS: hetero-stats total
#include <stdlib.h>

#include "Inputs/split.h"

int main(int argc, char **argv) {
  int lo = argc > 1 ? atoi(argv[1]) * 4 : 12; // 12, unknown to the compiler
  unsigned ulo = (unsigned)lo;
  long llo = lo;
  const int n = 4096;
  double *a = malloc(n * sizeof(double));
  for (int i = 0; i < n; ++i)
    a[i] = i;
  int ok = 1;
#pragma omp target data map(tofrom : a[0 : n])
  {
    // First touch of a on the device, by the host (target update): after
    // that, an empty launch moves nothing.
#pragma omp target update to(a[0 : n])
    for (int rep = 0; rep < 6; ++rep) {
      switch (rep) {
      case 0:
#pragma omp target teams distribute parallel for
        for (int i = lo; i < lo - 2; i += 2)
          a[i] = -1;
        break;
      case 1:
#pragma omp target teams distribute parallel for
        for (unsigned i = ulo; i < ulo - 8; i += 3)
          a[i] = -1;
        break;
      case 2:
#pragma omp target teams distribute parallel for
        for (int i = lo; i > lo + 5; i -= 4)
          a[i] = -1;
        break;
      case 3:
#pragma omp target teams distribute parallel for
        for (long i = llo; i < llo - 1; i += 2)
          a[i] = -1;
        break;
      case 4:
#pragma omp target teams distribute parallel for collapse(2)
        for (int i = lo; i < lo - 3; i += 2)
          for (int j = 0; j < 16; ++j)
            a[i * 16 + j] = -1;
        break;
      default:
#pragma omp target teams distribute parallel for
        for (int i = lo; i <= lo - 1; i += 5)
          a[i] = -1;
        break;
      }
    }
  }
  for (int i = 0; i < n; ++i)
    ok &= a[i] == i;
  check("strided empty launches", ok);
  return done();
}

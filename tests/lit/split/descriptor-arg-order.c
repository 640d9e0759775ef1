#pragma STDC FP_CONTRACT OFF
// Kernel argument numbering of the descriptors, one kernel per construct:
// target teams distribute, ... parallel for, ... parallel for simd, target
// parallel for, target parallel for simd, target teams loop, collapse(2),
// collapse(3). Each kernel captures arrays, by-value scalars (int, long,
// short, unsigned char offsets and bounds, and doubles the descriptor does
// not name) and a reduction variable, in a different, deliberately mixed
// order; clang numbers the kernel's arguments in capture order, and so must
// the descriptor's (arg K), (sarg K ...) and reduce K (the expected numbers
// below were checked against the parameter lists of the kernels in the
// device IR; note the teams loop kernel, which captures its bound n before
// its initial value loff). Checked at compile time (HETERO_DESC_DEBUG=1
// prints the descriptors), then at run time: every kernel splits and matches
// the host fallback and a serial host loop; a wrong argument would change a
// trip count (the runtime then refuses to split) or a section.
// RUN: %clang-hetero %s -o %t
// RUN: %if compiler %{ env HETERO_DESC_DEBUG=1 %clang-hetero -c %s -o %t.o 2>%t.desc %}
// RUN: %if compiler %{ %FileCheck %s --check-prefix=DESC < %t.desc %}
// RUN: env HETERO_STATS=1 HETERO_CHUNKS=4 %compare-fallback %t 2>%t.cpu | %FileCheck %s
// RUN: %FileCheck %s --check-prefix=STATS < %t.cpu
// RUN: env HETERO_STATS=1 HETERO_SIMULATE=3 %compare-fallback %t 2>%t.sim | %FileCheck %s
// RUN: %FileCheck %s --check-prefix=STATS < %t.sim
// CHECK: teams distribute: hash=bb518c98ee604691 ok
// CHECK: teams distribute r: ok
// CHECK: teams distribute parallel for: hash=2dbcfaf74fde4ba0 ok
// CHECK: teams distribute parallel for r: ok
// CHECK: teams distribute parallel for simd: hash=82ac3fc5955bd9c1 ok
// CHECK: teams distribute parallel for simd r: ok
// CHECK: parallel for: hash=087620f2ca155b0c ok
// CHECK: parallel for r: ok
// CHECK: parallel for simd: hash=32e7762fbe4c7425 ok
// CHECK: parallel for simd r: ok
// CHECK: teams loop: hash=74a9fa29654c0dec ok
// CHECK: teams loop r: ok
// CHECK: collapse(2): hash=3e91f53aebf134e9 ok
// CHECK: collapse(2) r: ok
// CHECK: collapse(3): hash=f46ba42988e28229 ok
// CHECK: collapse(3) r: ok
// CHECK: done failures=0
#include <stdlib.h>

#include "Inputs/split.h"

#define N 24000
#define SZ (N + 64)

static void reset(double *y, double *ry) {
  for (int i = 0; i < SZ; ++i)
    y[i] = ry[i] = (double)(i % 17) - 8.0;
}

int main(int argc, char **argv) {
  (void)argv;
  const int n = N + argc;   // a loop bound
  const int off = 2 + argc; // index offsets of 4, 8, 2, 1 bytes
  const long loff = 6 + argc;
  const short soff = (short)(1 + argc);
  const unsigned char coff = (unsigned char)(4 + argc);
  const double a = 1.5, b = 0.25; // in no expression of a descriptor
  const int nr = 149 + argc, nc = 130 + argc, ld = 139 + argc;
  const int d0 = 18 + argc, d1 = 29 + argc, d2 = 32; // d2: a constant
  double *x = malloc(SZ * sizeof(double)), *z = malloc(SZ * sizeof(double));
  double *y = malloc(SZ * sizeof(double)), *ry = malloc(SZ * sizeof(double));
  int *v = malloc(SZ * sizeof(int));
  for (int i = 0; i < SZ; ++i) {
    x[i] = (double)((i * 7) % 29) * 0.5;
    z[i] = (double)((i * 11) % 31) - 15.0;
    v[i] = (i * 13) % 97 - 40;
  }
  long r, rr;
  double m, rm;
  int q, rq;
  unsigned u, ru;

#pragma omp target data map(to : x[0 : SZ], z[0 : SZ], v[0 : SZ])              \
    map(alloc : y[0 : SZ])
  {
    reset(y, ry);
#pragma omp target update to(y[0 : SZ])
    r = 0;
// DESC: hetero-desc main:[[@LINE+10]]:
// DESC-NEXT: hetero-kernel 2
// DESC: split yes
// DESC-NEXT: nest 1
// DESC-NEXT: loop 0 0 lt (sarg 0 4 1) 1
// DESC-NEXT: read 4 (arg 7) (+ 0 (* (+ (c 0) (sarg 8 2 1)) 4))
// DESC-NEXT: read 8 (arg 3) (+ 0 (* (+ (c 0) (sarg 4 4 1)) 8))
// DESC-NEXT: write 8 (arg 1) (+ 0 (* (c 0) 8))
// DESC-NEXT: reduce 6 + i64
// STATS-DAG: hetero-stats kernel={{.*}}_l[[@LINE+1]] launches=1 split=yes
#pragma omp target teams distribute reduction(+ : r)
    for (int i = 0; i < n; ++i) {
      y[i] = a * x[i + off] + b;
      r += v[i + soff];
    }
#pragma omp target update from(y[0 : SZ])
    rr = 0;
    for (int i = 0; i < n; ++i) {
      ry[i] = a * x[i + off] + b;
      rr += v[i + soff];
    }
    check_bytes("teams distribute", y, ry, SZ * sizeof(double));
    check("teams distribute r", r == rr);

    reset(y, ry);
#pragma omp target update to(y[0 : SZ])
    r = 0;
// DESC: hetero-desc main:[[@LINE+11]]:
// DESC-NEXT: hetero-kernel 2
// DESC: split yes
// DESC-NEXT: nest 1
// DESC-NEXT: loop 0 0 lt (sarg 0 4 1) 1
// DESC-NEXT: read 4 (arg 2) (+ 0 (* (+ (c 0) (sarg 3 1 0)) 4))
// DESC-NEXT: read 8 (arg 6) (+ 0 (* (c 0) 8))
// DESC-NEXT: read 8 (arg 8) (+ 0 (* (+ (c 0) (sarg 9 4 1)) 8))
// DESC-NEXT: write 8 (arg 4) (+ 0 (* (+ (c 0) (sarg 5 8 1)) 8))
// DESC-NEXT: reduce 1 + i64
// STATS-DAG: hetero-stats kernel={{.*}}_l[[@LINE+1]] launches=1 split=yes
#pragma omp target teams distribute parallel for reduction(+ : r)
    for (int i = 0; i < n; ++i) {
      r += v[i + coff];
      y[i + loff] = z[i] * b + x[i + off];
    }
#pragma omp target update from(y[0 : SZ])
    rr = 0;
    for (int i = 0; i < n; ++i) {
      rr += v[i + coff];
      ry[i + loff] = z[i] * b + x[i + off];
    }
    check_bytes("teams distribute parallel for", y, ry, SZ * sizeof(double));
    check("teams distribute parallel for r", r == rr);

    reset(y, ry);
#pragma omp target update to(y[0 : SZ])
    m = -1e300;
// DESC: hetero-desc main:[[@LINE+11]]:
// DESC-NEXT: hetero-kernel 2
// DESC: split yes
// DESC-NEXT: nest 1
// DESC-NEXT: loop 0 (sarg 0 4 1) lt (sarg 1 4 1) 1
// DESC-NEXT: read 8 (arg 3) (+ 0 (* (+ (c 0) (sarg 4 2 1)) 8))
// DESC-NEXT: read 8 (arg 6) (+ 0 (* (+ (- (c 0) (sarg 7 8 1)) 6) 8))
// DESC-NEXT: read 8 (arg 6) (+ 0 (* (+ (c 0) (sarg 9 1 0)) 8))
// DESC-NEXT: write 8 (arg 2) (+ 0 (* (- (c 0) (sarg 0 4 1)) 8))
// DESC-NEXT: reduce 8 max f64
// STATS-DAG: hetero-stats kernel={{.*}}_l[[@LINE+1]] launches=1 split=yes
#pragma omp target teams distribute parallel for simd reduction(max : m)
    for (int i = off; i < n; ++i) {
      y[i - off] = x[i + soff] * a - z[i - loff + 6];
      m = z[i + coff] * b > m ? z[i + coff] * b : m;
    }
#pragma omp target update from(y[0 : SZ])
    rm = -1e300;
    for (int i = off; i < n; ++i) {
      ry[i - off] = x[i + soff] * a - z[i - loff + 6];
      rm = z[i + coff] * b > rm ? z[i + coff] * b : rm;
    }
    check_bytes("teams distribute parallel for simd", y, ry,
                SZ * sizeof(double));
    check("teams distribute parallel for simd r", m == rm);

    reset(y, ry);
#pragma omp target update to(y[0 : SZ])
    q = 1 << 30;
// DESC: hetero-desc main:[[@LINE+12]]:
// DESC-NEXT: hetero-kernel 2
// DESC: split yes
// DESC-NEXT: nest 1
// DESC-NEXT: loop 0 0 lt (sarg 0 4 1) 2
// DESC-NEXT: read 4 (arg 2) (+ 0 (* (+ (c 0) (sarg 3 8 1)) 4))
// DESC-NEXT: read 8 (arg 7) (+ 0 (* (+ (c 0) 1) 8))
// DESC-NEXT: read 8 (arg 9) (+ 0 (* (c 0) 8))
// DESC-NEXT: write 8 (arg 4) (+ 0 (* (+ (+ (c 0) (sarg 5 1 0)) 1) 8))
// DESC-NEXT: write 8 (arg 4) (+ 0 (* (+ (c 0) (sarg 5 1 0)) 8))
// DESC-NEXT: reduce 1 min i32
// STATS-DAG: hetero-stats kernel={{.*}}_l[[@LINE+1]] launches=1 split=yes
#pragma omp target parallel for reduction(min : q)
    for (int i = 0; i < n; i += 2) {
      q = v[i + loff] < q ? v[i + loff] : q;
      y[i + coff] = b + z[i + 1];
      y[i + coff + 1] = a * x[i];
    }
#pragma omp target update from(y[0 : SZ])
    rq = 1 << 30;
    for (int i = 0; i < n; i += 2) {
      rq = v[i + loff] < rq ? v[i + loff] : rq;
      ry[i + coff] = b + z[i + 1];
      ry[i + coff + 1] = a * x[i];
    }
    check_bytes("parallel for", y, ry, SZ * sizeof(double));
    check("parallel for r", q == rq);

    reset(y, ry);
#pragma omp target update to(y[0 : SZ])
    u = 0;
// DESC: hetero-desc main:[[@LINE+12]]:
// DESC-NEXT: hetero-kernel 2
// DESC: split yes
// DESC-NEXT: nest 1
// DESC-NEXT: loop 0 (- (sarg 0 4 1) 1) ge 0 -1
// DESC-NEXT: read 4 (arg 5) (+ 0 (* (+ (c 0) (sarg 6 4 1)) 4))
// DESC-NEXT: read 8 (arg 1) (+ 0 (* (c 0) 8))
// DESC-NEXT: read 8 (arg 2) (+ 0 (* (- (- (sarg 0 4 1) 1) (c 0)) 8))
// DESC-NEXT: read 8 (arg 7) (+ 0 (* (+ (c 0) (sarg 8 2 1)) 8))
// DESC-NEXT: write 8 (arg 1) (+ 0 (* (c 0) 8))
// DESC-NEXT: reduce 4 | u32
// STATS-DAG: hetero-stats kernel={{.*}}_l[[@LINE+1]] launches=1 split=yes
#pragma omp target parallel for simd reduction(| : u)
    for (int i = n - 1; i >= 0; --i) {
      y[i] = x[n - 1 - i] + a;
      u |= (unsigned)v[i + off] & 0xff0u;
      y[i] += z[i + soff] * b;
    }
#pragma omp target update from(y[0 : SZ])
    ru = 0;
    for (int i = n - 1; i >= 0; --i) {
      ry[i] = x[n - 1 - i] + a;
      ru |= (unsigned)v[i + off] & 0xff0u;
      ry[i] += z[i + soff] * b;
    }
    check_bytes("parallel for simd", y, ry, SZ * sizeof(double));
    check("parallel for simd r", u == ru);

    reset(y, ry);
#pragma omp target update to(y[0 : SZ])
    r = 0;
// DESC: hetero-desc main:[[@LINE+11]]:
// DESC-NEXT: hetero-kernel 2
// DESC: split yes
// DESC-NEXT: nest 1
// DESC-NEXT: loop 0 (sarg 1 8 1) lt (sarg 0 4 1) 1
// DESC-NEXT: read 4 (arg 3) (+ 0 (* (- (c 0) (sarg 4 1 0)) 4))
// DESC-NEXT: read 8 (arg 6) (+ 0 (* (- (c 0) (sarg 1 8 1)) 8))
// DESC-NEXT: read 8 (arg 8) (+ 0 (* (+ (c 0) (sarg 9 4 1)) 8))
// DESC-NEXT: write 8 (arg 5) (+ 0 (* (c 0) 8))
// DESC-NEXT: reduce 2 + i64
// STATS-DAG: hetero-stats kernel={{.*}}_l[[@LINE+1]] launches=1 split=yes
#pragma omp target teams loop reduction(+ : r)
    for (long i = loff; i < n; ++i) {
      r += (long)v[i - coff] * 3;
      y[i] = x[i - loff] * b + z[i + off] * a;
    }
#pragma omp target update from(y[0 : SZ])
    rr = 0;
    for (long i = loff; i < n; ++i) {
      rr += (long)v[i - coff] * 3;
      ry[i] = x[i - loff] * b + z[i + off] * a;
    }
    check_bytes("teams loop", y, ry, SZ * sizeof(double));
    check("teams loop r", r == rr);

    reset(y, ry);
#pragma omp target update to(y[0 : SZ])
    m = -1e300;
// DESC: hetero-desc main:[[@LINE+11]]:
// DESC-NEXT: hetero-kernel 2
// DESC: split yes
// DESC-NEXT: nest 2
// DESC-NEXT: loop 0 0 lt (sarg 0 4 1) 1
// DESC-NEXT: loop 1 (sarg 2 2 1) lt (sarg 1 4 1) 1
// DESC-NEXT: read 8 (arg 4) (+ 0 (* (+ (* (c 0) (sarg 5 4 1)) (c 1)) 8))
// DESC-NEXT: read 8 (arg 8) (+ 0 (* (+ (* (+ (c 0) (sarg 9 4 1)) (sarg 5 4 1)) (c 1)) 8))
// DESC-NEXT: write 8 (arg 6) (+ 0 (* (+ (+ (* (c 0) (sarg 5 4 1)) (c 1)) (sarg 7 1 0)) 8))
// DESC-NEXT: reduce 3 max f64
// STATS-DAG: hetero-stats kernel={{.*}}_l[[@LINE+1]] launches=1 split=yes
#pragma omp target teams distribute parallel for collapse(2) reduction(max : m)
    for (int i = 0; i < nr; ++i)
      for (int j = soff; j < nc; ++j) {
        m = x[i * ld + j] > m ? x[i * ld + j] : m;
        y[i * ld + j + coff] = z[(i + off) * ld + j] * a + b;
      }
#pragma omp target update from(y[0 : SZ])
    rm = -1e300;
    for (int i = 0; i < nr; ++i)
      for (int j = soff; j < nc; ++j) {
        rm = x[i * ld + j] > rm ? x[i * ld + j] : rm;
        ry[i * ld + j + coff] = z[(i + off) * ld + j] * a + b;
      }
    check_bytes("collapse(2)", y, ry, SZ * sizeof(double));
    check("collapse(2) r", m == rm);

    reset(y, ry);
#pragma omp target update to(y[0 : SZ])
    r = 0;
// DESC: hetero-desc main:[[@LINE+12]]:
// DESC-NEXT: hetero-kernel 2
// DESC: split yes
// DESC-NEXT: nest 3
// DESC-NEXT: loop 0 0 lt (sarg 0 4 1) 1
// DESC-NEXT: loop 1 0 lt (sarg 1 4 1) 1
// DESC-NEXT: loop 2 (sarg 3 1 0) lt 32 1
// DESC-NEXT: read 4 (arg 10) (+ 0 (* (- (+ (* (+ (* (c 0) (sarg 1 4 1)) (c 1)) 32) (c 2)) (sarg 3 1 0)) 4))
// DESC-NEXT: read 8 (arg 6) (+ 0 (* (+ (+ (* (+ (* (c 0) (sarg 1 4 1)) (c 1)) 32) (c 2)) (sarg 7 8 1)) 8))
// DESC-NEXT: write 8 (arg 4) (+ 0 (* (+ (* (+ (* (c 0) (sarg 1 4 1)) (c 1)) 32) (c 2)) 8))
// DESC-NEXT: reduce 9 + i64
// STATS-DAG: hetero-stats kernel={{.*}}_l[[@LINE+1]] launches=1 split=yes
#pragma omp target teams distribute parallel for collapse(3) reduction(+ : r)
    for (int i = 0; i < d0; ++i)
      for (int j = 0; j < d1; ++j)
        for (int k = coff; k < d2; ++k) {
          y[(i * d1 + j) * d2 + k] = b * x[(i * d1 + j) * d2 + k + loff] + a;
          r += v[(i * d1 + j) * d2 + k - coff] + off;
        }
#pragma omp target update from(y[0 : SZ])
    rr = 0;
    for (int i = 0; i < d0; ++i)
      for (int j = 0; j < d1; ++j)
        for (int k = coff; k < d2; ++k) {
          ry[(i * d1 + j) * d2 + k] = b * x[(i * d1 + j) * d2 + k + loff] + a;
          rr += v[(i * d1 + j) * d2 + k - coff] + off;
        }
    check_bytes("collapse(3)", y, ry, SZ * sizeof(double));
    check("collapse(3) r", r == rr);
  }
  free(x);
  free(z);
  free(y);
  free(ry);
  free(v);
  return done();
}
// STATS: hetero-stats total

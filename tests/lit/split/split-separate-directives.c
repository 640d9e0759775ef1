#pragma STDC FP_CONTRACT OFF
// Offloaded loops written as real codes write them, in parts, with the
// clauses on any part: target teams + distribute parallel for (clauses on
// both, a reduction listed on both levels), target + teams distribute
// parallel for simd, target + teams + distribute (3 directives), target
// parallel + for, target teams + distribute parallel for with collapse(2),
// target + parallel for, target teams + loop. Each splits and matches a
// serial host loop bit for bit. Regions that are not one loop run whole,
// with their reason: code beside the loop, two loops.
// RUN: %clang-hetero %s -o %t
// RUN: env HETERO_STATS=1 HETERO_CHUNKS=4 %compare-fallback %t 2>%t.cpu | %FileCheck %s
// RUN: %FileCheck %s --check-prefix=STATS < %t.cpu
// RUN: env HETERO_STATS=1 HETERO_SIMULATE=3 %compare-fallback %t 2>%t.sim | %FileCheck %s
// RUN: %FileCheck %s --check-prefix=STATS < %t.sim
// RUN: env HETERO_STATS=1 HETERO_SIMULATE=2 HETERO_MEMBERS=sim:0=3,sim:1=1 %compare-fallback %t 2>%t.uneven | %FileCheck %s
// RUN: %FileCheck %s --check-prefix=STATS < %t.uneven
// CHECK: teams+distribute parallel for: hash={{[0-9a-f]+}} ok
// CHECK: sum over both levels: ok
// CHECK: target+teams distribute parallel for simd: hash={{[0-9a-f]+}} ok
// CHECK: target+teams+distribute: hash={{[0-9a-f]+}} ok
// CHECK: target parallel+for: hash={{[0-9a-f]+}} ok
// CHECK: teams+distribute collapse(2): hash={{[0-9a-f]+}} ok
// CHECK: target+parallel for: hash={{[0-9a-f]+}} ok
// CHECK: teams+loop: hash={{[0-9a-f]+}} ok
// CHECK: code beside the loop: hash={{[0-9a-f]+}} ok
// CHECK: two loops: hash={{[0-9a-f]+}} ok
// CHECK: done failures=0
#include <stdlib.h>

#include "Inputs/split.h"

int main(void) {
  const int n = 50000, rows = 300, cols = 170;
  double *a = malloc(n * sizeof(double)), *ra = malloc(n * sizeof(double));
  double *b = malloc(n * sizeof(double)), *rb = malloc(n * sizeof(double));
  for (int i = 0; i < n; ++i) {
    a[i] = ra[i] = (double)(i % 91) / 8.0;
    b[i] = rb[i] = (double)(i % 37) - 11.5;
  }

  // Clauses on both levels; the reduction is listed twice.
  double sum = 0.0;
// STATS-DAG: hetero-stats kernel={{.*}}_l[[@LINE+1]] launches=1 split=yes
#pragma omp target teams map(to : a[0 : n]) map(tofrom : b[0 : n])             \
    reduction(+ : sum)
#pragma omp distribute parallel for firstprivate(n) reduction(+ : sum)
  for (int i = 1; i < n - 1; ++i) {
    b[i] = 0.25 * a[i - 1] + 0.5 * a[i] + 0.25 * a[i + 1];
    sum += b[i];
  }
  double rsum = 0.0;
  for (int i = 1; i < n - 1; ++i) {
    rb[i] = 0.25 * ra[i - 1] + 0.5 * ra[i] + 0.25 * ra[i + 1];
    rsum += rb[i];
  }
  check_bytes("teams+distribute parallel for", b, rb, n * sizeof(double));
  check("sum over both levels", sum > 0.999999 * rsum && sum < 1.000001 * rsum);

// STATS-DAG: hetero-stats kernel={{.*}}_l[[@LINE+1]] launches=1 split=yes
#pragma omp target map(tofrom : a[0 : n]) map(to : b[0 : n])
#pragma omp teams distribute parallel for simd
  for (int i = 0; i < n; ++i)
    a[i] = a[i] * 1.5 - b[i];
  for (int i = 0; i < n; ++i)
    ra[i] = ra[i] * 1.5 - rb[i];
  check_bytes("target+teams distribute parallel for simd", a, ra,
              n * sizeof(double));

// STATS-DAG: hetero-stats kernel={{.*}}_l[[@LINE+1]] launches=1 split=yes
#pragma omp target map(tofrom : b[0 : n])
#pragma omp teams num_teams(64)
#pragma omp distribute
  for (int i = 0; i < n; i += 2)
    b[i] = -b[i] + i;
  for (int i = 0; i < n; i += 2)
    rb[i] = -rb[i] + i;
  check_bytes("target+teams+distribute", b, rb, n * sizeof(double));

// STATS-DAG: hetero-stats kernel={{.*}}_l[[@LINE+1]] launches=1 split=yes
#pragma omp target parallel map(tofrom : a[0 : n])
  {
#pragma omp for schedule(static)
    for (int i = n - 1; i >= 0; --i)
      a[i] = a[i] / 2.0 + 1.0;
  }
  for (int i = n - 1; i >= 0; --i)
    ra[i] = ra[i] / 2.0 + 1.0;
  check_bytes("target parallel+for", a, ra, n * sizeof(double));

  double *g = malloc(rows * cols * sizeof(double)),
         *rg = malloc(rows * cols * sizeof(double));
// STATS-DAG: hetero-stats kernel={{.*}}_l[[@LINE+1]] launches=1 split=yes
#pragma omp target teams thread_limit(128) map(from : g[0 : rows * cols])
#pragma omp distribute parallel for collapse(2)
  for (int i = 0; i < rows; ++i)
    for (int j = 0; j < cols; ++j)
      g[i * cols + j] = i * 0.5 - j * 0.25;
  for (int i = 0; i < rows; ++i)
    for (int j = 0; j < cols; ++j)
      rg[i * cols + j] = i * 0.5 - j * 0.25;
  check_bytes("teams+distribute collapse(2)", g, rg,
              rows * cols * sizeof(double));

// STATS-DAG: hetero-stats kernel={{.*}}_l[[@LINE+1]] launches=1 split=yes
#pragma omp target map(tofrom : g[0 : rows * cols])
#pragma omp parallel for
  for (int k = 0; k < rows * cols; ++k)
    g[k] = g[k] * g[k];
  for (int k = 0; k < rows * cols; ++k)
    rg[k] = rg[k] * rg[k];
  check_bytes("target+parallel for", g, rg, rows * cols * sizeof(double));

// STATS-DAG: hetero-stats kernel={{.*}}_l[[@LINE+1]] launches=1 split=yes
#pragma omp target teams map(tofrom : a[0 : n])
#pragma omp loop
  for (int i = 0; i < n; ++i)
    a[i] = a[i] - 3.0;
  for (int i = 0; i < n; ++i)
    ra[i] = ra[i] - 3.0;
  check_bytes("teams+loop", a, ra, n * sizeof(double));

  // Not one loop: run whole, each with its reason.
// STATS-DAG: hetero-stats kernel={{.*}}_l[[@LINE+1]] launches=1 split=no(the target region holds code besides its worksharing loop)
#pragma omp target teams map(tofrom : b[0 : n])
  {
    int shift = 7;
#pragma omp distribute parallel for
    for (int i = 0; i < n; ++i)
      b[i] = b[i] + shift;
  }
  for (int i = 0; i < n; ++i)
    rb[i] = rb[i] + 7;
  check_bytes("code beside the loop", b, rb, n * sizeof(double));

// STATS-DAG: hetero-stats kernel={{.*}}_l[[@LINE+1]] launches=1 split=no(the target region holds code besides its worksharing loop)
#pragma omp target teams map(tofrom : a[0 : n], b[0 : n])
  {
#pragma omp distribute parallel for
    for (int i = 0; i < n; ++i)
      a[i] = a[i] + 1.0;
#pragma omp distribute parallel for
    for (int i = 0; i < n; ++i)
      b[i] = b[i] - 1.0;
  }
  for (int i = 0; i < n; ++i) {
    ra[i] = ra[i] + 1.0;
    rb[i] = rb[i] - 1.0;
  }
  check_bytes("two loops", b, rb, n * sizeof(double));
  failures += memcmp(a, ra, n * sizeof(double)) != 0;
  free(a);
  free(ra);
  free(b);
  free(rb);
  free(g);
  free(rg);
  return done();
}
// STATS: hetero-stats total

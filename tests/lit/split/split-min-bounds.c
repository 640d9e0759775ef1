#pragma STDC FP_CONTRACT OFF
// Loop ends written with min/max conditionals, as random and real codes do:
// a collapsed loop up to `n < m ? n : m` (exact: the runtime's trip count
// agrees), an inner loop up to `i < w ? i : w` (its counter's range is
// bounded by intervals), an inner loop from `k - 2 > 0 ? k - 2 : 0` and a
// conditional that is not a min or max. Each kernel splits and matches a
// serial host loop bit for bit.
// RUN: %clang-hetero %s -o %t
// RUN: env HETERO_STATS=1 HETERO_CHUNKS=4 %compare-fallback %t 2>%t.cpu | %FileCheck %s
// RUN: %FileCheck %s --check-prefix=STATS < %t.cpu
// RUN: env HETERO_STATS=1 HETERO_SIMULATE=3 %compare-fallback %t 2>%t.sim | %FileCheck %s
// RUN: %FileCheck %s --check-prefix=STATS < %t.sim
// RUN: env HETERO_STATS=1 HETERO_SIMULATE=2 HETERO_MEMBERS=sim:0=3,sim:1=1 %compare-fallback %t 2>%t.uneven | %FileCheck %s
// RUN: %FileCheck %s --check-prefix=STATS < %t.uneven
// CHECK: min trip count: hash={{[0-9a-f]+}} ok
// CHECK: inner min: hash={{[0-9a-f]+}} ok
// CHECK: inner max start: hash={{[0-9a-f]+}} ok
// CHECK: other conditional: hash={{[0-9a-f]+}} ok
// CHECK: done failures=0
#include <stdlib.h>

#include "Inputs/split.h"

int main(void) {
  int n = 3000, m = 2500, w = 40;
  long rows = 600;
  double *a = malloc(n * sizeof(double)), *ra = malloc(n * sizeof(double));
  double *t = malloc(rows * w * sizeof(double));
  double *rt = malloc(rows * w * sizeof(double));
  for (int i = 0; i < n; ++i)
    a[i] = ra[i] = (double)(i % 17) * 0.5;
  for (long k = 0; k < rows * w; ++k)
    t[k] = rt[k] = (double)(k % 23) - 4.0;

// STATS-DAG: hetero-stats kernel={{.*}}_l[[@LINE+1]] launches=1 split=yes
#pragma omp target teams distribute parallel for map(tofrom : a[0 : n])
  for (int i = 0; i < (n < m ? n : m); ++i)
    a[i] = a[i] * 3.0 + 1.0;
  for (int i = 0; i < (n < m ? n : m); ++i)
    ra[i] = ra[i] * 3.0 + 1.0;
  check_bytes("min trip count", a, ra, n * sizeof(double));

// STATS-DAG: hetero-stats kernel={{.*}}_l[[@LINE+1]] launches=1 split=yes
#pragma omp target teams distribute parallel for map(tofrom : t[0 : rows * w])
  for (long i = 0; i < rows; ++i)
    for (long j = 0; j < (i < w ? i : w); ++j)
      t[i * w + j] = t[i * w + j] * 0.5 + (double)j;
  for (long i = 0; i < rows; ++i)
    for (long j = 0; j < (i < w ? i : w); ++j)
      rt[i * w + j] = rt[i * w + j] * 0.5 + (double)j;
  check_bytes("inner min", t, rt, rows * w * sizeof(double));

// STATS-DAG: hetero-stats kernel={{.*}}_l[[@LINE+1]] launches=1 split=yes
#pragma omp target teams distribute parallel for map(tofrom : t[0 : rows * w])
  for (long i = 0; i < rows; ++i)
    for (long k = (i % w - 2 > 0 ? i % w - 2 : 0); k < w; ++k)
      t[i * w + k] = -t[i * w + k];
  for (long i = 0; i < rows; ++i)
    for (long k = (i % w - 2 > 0 ? i % w - 2 : 0); k < w; ++k)
      rt[i * w + k] = -rt[i * w + k];
  check_bytes("inner max start", t, rt, rows * w * sizeof(double));

  int lim = 7;
// STATS-DAG: hetero-stats kernel={{.*}}_l[[@LINE+1]] launches=1 split=yes
#pragma omp target teams distribute parallel for map(tofrom : t[0 : rows * w])
  for (long i = 0; i < rows; ++i)
    for (long j = 0; j < (i % 2 ? lim : w); ++j)
      t[i * w + j] += 1.0;
  for (long i = 0; i < rows; ++i)
    for (long j = 0; j < (i % 2 ? lim : w); ++j)
      rt[i * w + j] += 1.0;
  check_bytes("other conditional", t, rt, rows * w * sizeof(double));
  free(a);
  free(ra);
  free(t);
  free(rt);
  return done();
}
// STATS: hetero-stats total

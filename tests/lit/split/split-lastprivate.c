#pragma STDC FP_CONTRACT OFF
// lastprivate on offloaded loops: the value from the sequentially last
// iteration must come back, and in a split launch only the chunk holding
// that iteration has it, so the runtime must run these kernels unsplit: (1) a
// double computed in the body; (2) the loop counter itself declared outside
// the loop; (3) lastprivate together with a reduction and a collapse(2)
// nest. A split kernel then uses the values. The lastprivate variables are
// also mapped tofrom explicitly (clang 19 otherwise passes them firstprivate
// and the value never comes back, in the host fallback too). Compared with
// serial loops.
// RUN: %clang-hetero %s -o %t
// RUN: env HETERO_STATS=1 HETERO_CHUNKS=4 %compare-fallback %t 2>%t.cpu | %FileCheck %s
// RUN: %FileCheck %s --check-prefix=STATS < %t.cpu
// RUN: env HETERO_STATS=1 HETERO_SIMULATE=3 %compare-fallback %t 2>%t.sim | %FileCheck %s
// RUN: %FileCheck %s --check-prefix=STATS < %t.sim
// CHECK: last=0x1.13cp+8 i=249997
// CHECK: lastprivate values: ok
// CHECK: y: hash=b44b99f4cad31750 ok
// CHECK: collapse(2): last=299399 sum=58277324
// CHECK: collapse(2) lastprivate + reduction: ok
// CHECK: g: hash=82f8bfb54c0c2ab2 ok
// CHECK: done failures=0
#include <stdlib.h>

#include "Inputs/split.h"

#define N 250000

int main(void) {
  const int n = N;
  double *x = malloc(n * sizeof(double)), *y = malloc(n * sizeof(double));
  double *ry = malloc(n * sizeof(double));
  for (int i = 0; i < n; ++i)
    x[i] = (double)((i * 17) % 1001) / 8.0;
  double last = -1.0;
  int i = -1;

#pragma omp target data map(to : x[0 : n]) map(tofrom : y[0 : n])
  {
// STATS-DAG: hetero-stats kernel={{.*}}_l[[@LINE+1]] launches=1 split=no(
#pragma omp target teams distribute parallel for lastprivate(last)             \
    map(tofrom : last)
    for (int i = 0; i < n; ++i) {
      y[i] = x[i] * 3.0 - 1.0;
      last = y[i] + x[n - 1 - i];
    }
// STATS-DAG: hetero-stats kernel={{.*}}_l[[@LINE+1]] launches=1 split=no(
#pragma omp target teams distribute parallel for lastprivate(i) map(tofrom : i)
    for (i = 7; i < n - 5; i += 3)
      y[i] = y[i] * 0.5;
    printf("last=%a i=%d\n", last, i);
    const double shift = last;
    const int stop = i;
// STATS-DAG: hetero-stats kernel={{.*}}_l[[@LINE+1]] launches=1 split=yes
#pragma omp target teams distribute parallel for
    for (int k = 0; k < stop; ++k)
      y[k] = y[k] - shift;
  }
  double rlast = -1.0;
  for (int i = 0; i < n; ++i) {
    ry[i] = x[i] * 3.0 - 1.0;
    rlast = ry[i] + x[n - 1 - i];
  }
  int ri;
  for (ri = 7; ri < n - 5; ri += 3)
    ry[ri] = ry[ri] * 0.5;
  for (int k = 0; k < ri; ++k)
    ry[k] = ry[k] - rlast;
  check("lastprivate values", last == rlast && i == ri);
  check_bytes("y", y, ry, n * sizeof(double));

  const int rows = 300, cols = 400;
  long *g = malloc(rows * cols * sizeof(long)),
       *rg = malloc(rows * cols * sizeof(long));
  long sum = 0, lastv = 0;
// STATS-DAG: hetero-stats kernel={{.*}}_l[[@LINE+1]] launches=1 split=no(
#pragma omp target teams distribute parallel for collapse(2)                   \
    lastprivate(lastv) reduction(+ : sum) map(tofrom : lastv)                  \
    map(from : g[0 : rows * cols])
  for (int r = 0; r < rows; ++r)
    for (int c = 0; c < cols; ++c) {
      lastv = (long)r * 1000 + c;
      g[r * cols + c] = lastv % 977;
      sum += g[r * cols + c];
    }
  long rsum = 0, rlastv = 0;
  for (int r = 0; r < rows; ++r)
    for (int c = 0; c < cols; ++c) {
      rlastv = (long)r * 1000 + c;
      rg[r * cols + c] = rlastv % 977;
      rsum += rg[r * cols + c];
    }
  printf("collapse(2): last=%ld sum=%ld\n", lastv, sum);
  check("collapse(2) lastprivate + reduction", lastv == rlastv && sum == rsum);
  check_bytes("g", g, rg, rows * cols * sizeof(long));
  free(x);
  free(y);
  free(ry);
  free(g);
  free(rg);
  return done();
}
// STATS: hetero-stats total

#pragma STDC FP_CONTRACT OFF
// Inner loop counters declared outside their loop and used after it, where
// they hold the bound (or where a break left them), not a value of the loop's
// range: (1) a row sum that then reads the element at the counter's final
// value (row i has m + 1 entries, the last one read only after the loop);
// (2) a row copy that then writes the element at the counter's final value
// (an unknown write: the kernel runs unsplit); (3) one counter reused by two
// sibling loops, each with its own range, writes included; (4) a search that
// breaks out of its loop, then reads at the counter. Compared bit for bit
// with serial host loops.
// RUN: %clang-hetero %s -o %t
// RUN: env HETERO_STATS=1 HETERO_CHUNKS=4 %compare-fallback %t 2>%t.cpu | %FileCheck %s
// RUN: %FileCheck %s --check-prefix=STATS < %t.cpu
// RUN: env HETERO_STATS=1 HETERO_SIMULATE=3 %compare-fallback %t 2>%t.sim | %FileCheck %s
// RUN: %FileCheck %s --check-prefix=STATS < %t.sim
// CHECK: read after loop: hash=04a35f4ffef8fdb5 ok
// CHECK: write after loop: hash=7a2ef258613a389e ok
// CHECK: reused counter: hash=9fc60a596a5de3f2 ok
// CHECK: break pos: hash=5df7b8286b450961 ok
// CHECK: break s: hash=923396668bd8ca51 ok
// CHECK: done failures=0
#include <stdlib.h>

#include "Inputs/split.h"

int main(int argc, char **argv) {
  (void)argv;
  const int n = 3000 + argc, m = 96 + argc, w = m + 1;
  double *a = malloc((size_t)n * w * sizeof(double));
  double *b = malloc((size_t)n * w * sizeof(double));
  double *rb = malloc((size_t)n * w * sizeof(double));
  double *c = malloc((size_t)n * w * sizeof(double));
  double *rc = malloc((size_t)n * w * sizeof(double));
  double *s = malloc(n * sizeof(double)), *rs = malloc(n * sizeof(double));
  for (int k = 0; k < n * w; ++k) {
    a[k] = (double)((k * 37) % 101) / 8.0 - 6.0;
    b[k] = rb[k] = (double)(k % 13);
    c[k] = rc[k] = (double)(k % 7) * 0.25;
  }
  for (int i = 0; i < n; ++i)
    s[i] = rs[i] = 0.0;

#pragma omp target data map(to : a[0 : n * w])                                 \
    map(tofrom : b[0 : n * w], c[0 : n * w], s[0 : n])
  {
// STATS-DAG: hetero-stats kernel={{.*}}_l[[@LINE+1]] launches=1 split=yes
#pragma omp target teams distribute parallel for
    for (int i = 0; i < n; ++i) {
      double t = 0.0;
      int j;
      for (j = 0; j < m; ++j)
        t += a[i * w + j];
      s[i] = t * a[i * w + j]; // j == m: the last entry of row i
    }
// STATS-DAG: hetero-stats kernel={{.*}}_l[[@LINE+1]] launches=1 split=no(non-affine write at split-counter-after-loop.c:{{[0-9]+}}:{{[0-9]+}})
#pragma omp target teams distribute parallel for
    for (int i = 0; i < n; ++i) {
      int j;
      for (j = 0; j < m; ++j)
        b[i * w + j] = a[i * w + j] * 2.0;
      b[i * w + j] = -1.0; // j == m
    }
// STATS-DAG: hetero-stats kernel={{.*}}_l[[@LINE+1]] launches=1 split=yes
#pragma omp target teams distribute parallel for
    for (int i = 0; i < n; ++i) {
      int j;
      for (j = 0; j < m / 2; ++j)
        c[i * w + j] += a[i * w + m - j];
      for (j = m / 2; j <= m; ++j)
        c[i * w + j] -= a[i * w + j];
    }
  }
  for (int i = 0; i < n; ++i) {
    double t = 0.0;
    int j;
    for (j = 0; j < m; ++j)
      t += a[i * w + j];
    rs[i] = t * a[i * w + j];
  }
  for (int i = 0; i < n; ++i) {
    int j;
    for (j = 0; j < m; ++j)
      rb[i * w + j] = a[i * w + j] * 2.0;
    rb[i * w + j] = -1.0;
  }
  check_bytes("read after loop", s, rs, n * sizeof(double));
  check_bytes("write after loop", b, rb, (size_t)n * w * sizeof(double));
  for (int i = 0; i < n; ++i) {
    int j;
    for (j = 0; j < m / 2; ++j)
      rc[i * w + j] += a[i * w + m - j];
    for (j = m / 2; j <= m; ++j)
      rc[i * w + j] -= a[i * w + j];
  }
  check_bytes("reused counter", c, rc, (size_t)n * w * sizeof(double));

  // The first entry of row i below -5.5, or the row's last entry.
  int *pos = malloc(n * sizeof(int)), *rpos = malloc(n * sizeof(int));
// STATS-DAG: hetero-stats kernel={{.*}}_l[[@LINE+1]] launches=1 split=yes
#pragma omp target teams distribute parallel for map(to : a[0 : n * w])        \
    map(from : s[0 : n], pos[0 : n])
  for (int i = 0; i < n; ++i) {
    int j;
    for (j = 0; j < m; ++j)
      if (a[i * w + j] < -5.5)
        break;
    pos[i] = j;
    s[i] = a[i * w + j] + 0.5;
  }
  for (int i = 0; i < n; ++i) {
    int j;
    for (j = 0; j < m; ++j)
      if (a[i * w + j] < -5.5)
        break;
    rpos[i] = j;
    rs[i] = a[i * w + j] + 0.5;
  }
  check_bytes("break pos", pos, rpos, n * sizeof(int));
  check_bytes("break s", s, rs, n * sizeof(double));
  free(a);
  free(b);
  free(rb);
  free(c);
  free(rc);
  free(s);
  free(rs);
  free(pos);
  free(rpos);
  return done();
}
// STATS: hetero-stats total

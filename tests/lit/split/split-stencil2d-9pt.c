#pragma STDC FP_CONTRACT OFF
// 2-D 9-point stencils, collapse(2) over the interior of flattened grids:
// (1) a 3x3 binomial blur (1 2 1 / 2 4 2 / 1 2 1) / 16 on an int image, 5
// passes ping-ponging; (2) a 9-point Laplacian (edges 4, corners 1, centre
// -20, divided by 6) on a double grid, 4 passes, reading diagonal neighbours
// in the halo rows owned by other chunks. Compared bit for bit with serial
// loops.
// RUN: %clang-hetero %s -o %t
// RUN: env HETERO_STATS=1 HETERO_CHUNKS=4 %compare-fallback %t 2>%t.cpu | %FileCheck %s
// RUN: %FileCheck %s --check-prefix=STATS < %t.cpu
// RUN: env HETERO_STATS=1 HETERO_SIMULATE=3 %compare-fallback %t 2>%t.sim | %FileCheck %s
// RUN: %FileCheck %s --check-prefix=STATS < %t.sim
// CHECK: blur a: hash=51ef2fe09f6e1e80 ok
// CHECK: blur b: hash=3274c6e393edbdb2 ok
// CHECK: laplacian p: hash=902b45ddba27600b ok
// CHECK: laplacian q: hash=f5d610aef624e4a0 ok
// CHECK: done failures=0
#include <stdlib.h>

#include "Inputs/split.h"

#define BLUR(S, D, W, H)                                                       \
  for (int y = 1; y < H - 1; ++y)                                              \
    for (int x = 1; x < W - 1; ++x)                                            \
      D[y * W + x] =                                                           \
          (S[(y - 1) * W + x - 1] + 2 * S[(y - 1) * W + x] +                   \
           S[(y - 1) * W + x + 1] + 2 * S[y * W + x - 1] + 4 * S[y * W + x] +  \
           2 * S[y * W + x + 1] + S[(y + 1) * W + x - 1] +                     \
           2 * S[(y + 1) * W + x] + S[(y + 1) * W + x + 1]) /                  \
          16;

#define LAPL(S, D, W, H)                                                       \
  for (int y = 1; y < H - 1; ++y)                                              \
    for (int x = 1; x < W - 1; ++x)                                            \
      D[y * W + x] =                                                           \
          S[y * W + x] +                                                       \
          0.05 * ((4.0 * (S[(y - 1) * W + x] + S[(y + 1) * W + x] +            \
                          S[y * W + x - 1] + S[y * W + x + 1]) +               \
                   (S[(y - 1) * W + x - 1] + S[(y - 1) * W + x + 1] +          \
                    S[(y + 1) * W + x - 1] + S[(y + 1) * W + x + 1]) -         \
                   20.0 * S[y * W + x]) /                                      \
                  6.0);

int main(void) {
  const int w = 640, h = 480;
  const int n = w * h;
  int *a = malloc(n * sizeof(int)), *b = malloc(n * sizeof(int));
  int *ra = malloc(n * sizeof(int)), *rb = malloc(n * sizeof(int));
  for (int i = 0; i < n; ++i) {
    a[i] = ra[i] = (i * 7 + (i / w) * 13) % 256;
    b[i] = rb[i] = a[i];
  }
#pragma omp target data map(tofrom : a[0 : n], b[0 : n])
  for (int pass = 0; pass < 5; ++pass) {
    int *s = pass % 2 ? b : a, *d = pass % 2 ? a : b;
// STATS-DAG: hetero-stats kernel={{.*}}_l[[@LINE+1]] launches=5 split=yes
#pragma omp target teams distribute parallel for collapse(2)
    BLUR(s, d, w, h)
  }
  for (int pass = 0; pass < 5; ++pass) {
    int *s = pass % 2 ? rb : ra, *d = pass % 2 ? ra : rb;
    BLUR(s, d, w, h)
  }
  check_bytes("blur a", a, ra, n * sizeof(int));
  check_bytes("blur b", b, rb, n * sizeof(int));

  const int gw = 500, gh = 300;
  const int gn = gw * gh;
  double *p = malloc(gn * sizeof(double)), *q = malloc(gn * sizeof(double));
  double *rp = malloc(gn * sizeof(double)), *rq = malloc(gn * sizeof(double));
  for (int i = 0; i < gn; ++i) {
    p[i] = rp[i] = (double)((i * 97) % 1001) / 10.0;
    q[i] = rq[i] = p[i];
  }
#pragma omp target data map(tofrom : p[0 : gn], q[0 : gn])
  for (int pass = 0; pass < 4; ++pass) {
    double *s = pass % 2 ? q : p, *d = pass % 2 ? p : q;
// STATS-DAG: hetero-stats kernel={{.*}}_l[[@LINE+1]] launches=4 split=yes
#pragma omp target teams distribute parallel for collapse(2)
    LAPL(s, d, gw, gh)
  }
  for (int pass = 0; pass < 4; ++pass) {
    double *s = pass % 2 ? rq : rp, *d = pass % 2 ? rp : rq;
    LAPL(s, d, gw, gh)
  }
  check_bytes("laplacian p", p, rp, gn * sizeof(double));
  check_bytes("laplacian q", q, rq, gn * sizeof(double));
  free(a);
  free(b);
  free(ra);
  free(rb);
  free(p);
  free(q);
  free(rp);
  free(rq);
  return done();
}
// STATS: hetero-stats total

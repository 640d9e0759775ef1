#pragma STDC FP_CONTRACT OFF
// Narrow element types, where chunk boundaries fall inside machine words:
// an 8-bit grayscale image (unsigned char) blurred with a 3x3 box filter
// (collapse(2)), thresholded in place, then a 16-bit (short) gradient
// magnitude |gx| + |gy| of the blurred image, and a per-row byte count of
// the thresholded pixels (inner loop). 3 blur passes ping-pong. Compared
// bit for bit with serial host loops.
// RUN: %clang-hetero %s -o %t
// RUN: env HETERO_STATS=1 HETERO_CHUNKS=4 %compare-fallback %t 2>%t.cpu | %FileCheck %s
// RUN: %FileCheck %s --check-prefix=STATS < %t.cpu
// RUN: env HETERO_STATS=1 HETERO_SIMULATE=3 %compare-fallback %t 2>%t.sim | %FileCheck %s
// RUN: %FileCheck %s --check-prefix=STATS < %t.sim
// CHECK: blurred p: hash=27e383ec704d7d7b ok
// CHECK: thresholded q: hash=5f77fb2c02f1a759 ok
// CHECK: gradient: hash=11ac637a8d665f0c ok
// CHECK: row counts: hash=77e77e36bb91b615 ok
// CHECK: done failures=0
#include <stdlib.h>

#include "Inputs/split.h"

#define W 641
#define H 479

#define BLUR(S, D)                                                             \
  for (int y = 1; y < H - 1; ++y)                                              \
    for (int x = 1; x < W - 1; ++x)                                            \
      D[y * W + x] =                                                           \
          (unsigned char)((S[(y - 1) * W + x - 1] + S[(y - 1) * W + x] +       \
                           S[(y - 1) * W + x + 1] + S[y * W + x - 1] +         \
                           S[y * W + x] + S[y * W + x + 1] +                   \
                           S[(y + 1) * W + x - 1] + S[(y + 1) * W + x] +       \
                           S[(y + 1) * W + x + 1]) /                           \
                          9);

int main(void) {
  const int n = W * H;
  unsigned char *p = malloc(n), *q = malloc(n), *rp = malloc(n),
                *rq = malloc(n);
  short *gm = malloc(n * sizeof(short)), *rgm = malloc(n * sizeof(short));
  unsigned char *cnt = malloc(H), *rcnt = malloc(H);
  for (int i = 0; i < n; ++i) {
    int x = i % W, y = i / W;
    p[i] = rp[i] = q[i] = rq[i] =
        (unsigned char)(((x * x + y * 3) ^ (x * y)) & 0xff);
    gm[i] = rgm[i] = 0;
  }

#pragma omp target data map(tofrom : p[0 : n], q[0 : n])                       \
    map(tofrom : gm[0 : n]) map(from : cnt[0 : H])
  {
    for (int pass = 0; pass < 3; ++pass) {
      unsigned char *s = pass % 2 ? q : p, *d = pass % 2 ? p : q;
// STATS-DAG: hetero-stats kernel={{.*}}_l[[@LINE+1]] launches=3 split=yes
#pragma omp target teams distribute parallel for collapse(2)
      BLUR(s, d)
    }
// STATS-DAG: hetero-stats kernel={{.*}}_l[[@LINE+1]] launches=1 split=yes
#pragma omp target teams distribute parallel for collapse(2)
    for (int y = 1; y < H - 1; ++y)
      for (int x = 1; x < W - 1; ++x) {
        int gx = q[y * W + x + 1] - q[y * W + x - 1];
        int gy = q[(y + 1) * W + x] - q[(y - 1) * W + x];
        gm[y * W + x] = (short)((gx < 0 ? -gx : gx) + (gy < 0 ? -gy : gy));
      }
// STATS-DAG: hetero-stats kernel={{.*}}_l[[@LINE+1]] launches=1 split=yes
#pragma omp target teams distribute parallel for
    for (int i = 0; i < n; ++i)
      q[i] = q[i] > 127 ? 255 : 0;
// STATS-DAG: hetero-stats kernel={{.*}}_l[[@LINE+1]] launches=1 split=yes
#pragma omp target teams distribute parallel for
    for (int y = 0; y < H; ++y) {
      int c = 0;
      for (int x = 0; x < W; ++x)
        c += q[y * W + x] != 0;
      cnt[y] = (unsigned char)c;
    }
  }
  for (int pass = 0; pass < 3; ++pass) {
    unsigned char *s = pass % 2 ? rq : rp, *d = pass % 2 ? rp : rq;
    BLUR(s, d)
  }
  for (int y = 1; y < H - 1; ++y)
    for (int x = 1; x < W - 1; ++x) {
      int gx = rq[y * W + x + 1] - rq[y * W + x - 1];
      int gy = rq[(y + 1) * W + x] - rq[(y - 1) * W + x];
      rgm[y * W + x] = (short)((gx < 0 ? -gx : gx) + (gy < 0 ? -gy : gy));
    }
  for (int i = 0; i < n; ++i)
    rq[i] = rq[i] > 127 ? 255 : 0;
  for (int y = 0; y < H; ++y) {
    int c = 0;
    for (int x = 0; x < W; ++x)
      c += rq[y * W + x] != 0;
    rcnt[y] = (unsigned char)c;
  }
  check_bytes("blurred p", p, rp, n);
  check_bytes("thresholded q", q, rq, n);
  check_bytes("gradient", gm, rgm, n * sizeof(short));
  check_bytes("row counts", cnt, rcnt, H);
  free(p);
  free(q);
  free(rp);
  free(rq);
  free(gm);
  free(rgm);
  free(cnt);
  free(rcnt);
  return done();
}
// STATS: hetero-stats total

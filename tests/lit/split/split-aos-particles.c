#pragma STDC FP_CONTRACT OFF
// An array of structs (particles: position, velocity, an id and a flag):
// kernels write some fields of every element and leave the others alone, so
// the bytes a chunk writes are interleaved with bytes it must not clobber:
// (1) drift x += v * dt, y += w * dt for 6 steps; (2) a wall bounce that
// writes only the velocities of particles outside the box; (3) a kernel
// writing only the flag field (char) from the positions; the id fields are
// never written on the device. Compared bit for bit with serial loops.
// RUN: %clang-hetero %s -o %t
// RUN: env HETERO_STATS=1 HETERO_CHUNKS=4 %compare-fallback %t 2>%t.cpu | %FileCheck %s
// RUN: %FileCheck %s --check-prefix=STATS < %t.cpu
// RUN: env HETERO_STATS=1 HETERO_SIMULATE=3 %compare-fallback %t 2>%t.sim | %FileCheck %s
// RUN: %FileCheck %s --check-prefix=STATS < %t.sim
// CHECK: particles: hash=4b289de2c5c4b97f ok
// CHECK: ids untouched: ok
// CHECK: done failures=0
#include <stdlib.h>

#include "Inputs/split.h"

#define N 120000
#define STEPS 6

struct particle {
  double x, y;
  double v, w;
  int id;
  char flag;
};

#define DRIFT(P)                                                               \
  for (int i = 0; i < n; ++i) {                                                \
    P[i].x = P[i].x + P[i].v * dt;                                             \
    P[i].y = P[i].y + P[i].w * dt;                                             \
  }
#define BOUNCE(P)                                                              \
  for (int i = 0; i < n; ++i) {                                                \
    if (P[i].x < 0.0 || P[i].x > 100.0)                                        \
      P[i].v = -P[i].v;                                                        \
    if (P[i].y < 0.0 || P[i].y > 100.0)                                        \
      P[i].w = -P[i].w;                                                        \
  }
#define FLAG(P)                                                                \
  for (int i = 0; i < n; ++i)                                                  \
    P[i].flag = (char)((P[i].x > 50.0) + 2 * (P[i].y > 50.0));

int main(void) {
  const int n = N;
  const double dt = 0.5;
  struct particle *p = malloc(n * sizeof *p), *r = malloc(n * sizeof *r);
  memset(p, 0, n * sizeof *p); // padding bytes are hashed too
  for (int i = 0; i < n; ++i) {
    p[i].x = (double)(i % 1000) / 10.0;
    p[i].y = (double)((i * 7) % 1000) / 10.0;
    p[i].v = (double)(i % 13) - 6.0;
    p[i].w = (double)(i % 11) * 0.5 - 2.5;
    p[i].id = 1000000 + i;
    p[i].flag = 'z';
  }
  memcpy(r, p, n * sizeof *p);

#pragma omp target data map(tofrom : p[0 : n])
  {
    for (int s = 0; s < STEPS; ++s) {
// STATS-DAG: hetero-stats kernel={{.*}}_l[[@LINE+1]] launches=6 split=yes
#pragma omp target teams distribute parallel for
      DRIFT(p)
// STATS-DAG: hetero-stats kernel={{.*}}_l[[@LINE+1]] launches=6 split=yes
#pragma omp target teams distribute parallel for
      BOUNCE(p)
    }
// STATS-DAG: hetero-stats kernel={{.*}}_l[[@LINE+1]] launches=1 split=yes
#pragma omp target teams distribute parallel for
    FLAG(p)
  }
  for (int s = 0; s < STEPS; ++s) {
    DRIFT(r)
    BOUNCE(r)
  }
  FLAG(r)
  check_bytes("particles", p, r, n * sizeof *p);
  int ids = 1;
  for (int i = 0; i < n; ++i)
    ids &= p[i].id == 1000000 + i;
  check("ids untouched", ids);
  free(p);
  free(r);
  return done();
}
// STATS: hetero-stats total

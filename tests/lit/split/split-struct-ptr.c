#pragma STDC FP_CONTRACT OFF
// Structs reached through pointers: struct vec *x, *y mapped with
// map(to : x[0:1]) and their data with map(tofrom : y->v[0:y->n]); the
// kernels use x->v[i], y->v[i] and x->n. An axpy y = y + a x (bound x->n)
// and a scaled difference z = (y - x) * s (bound n, a plain scalar), 4
// rounds inside a target data region; then an array of 3 structs whose
// members point to separate arrays, attached with target enter data, and a
// kernel that reads s[k].v[i] for fixed k. Compared bit for bit with serial
// host loops.
// RUN: %clang-hetero %s -o %t
// RUN: env HETERO_STATS=1 HETERO_CHUNKS=4 %compare-fallback %t 2>%t.cpu | %FileCheck %s
// RUN: %FileCheck %s --check-prefix=STATS < %t.cpu
// RUN: env HETERO_STATS=1 HETERO_SIMULATE=3 %compare-fallback %t 2>%t.sim | %FileCheck %s
// RUN: %FileCheck %s --check-prefix=STATS < %t.sim
// CHECK: y: hash=867b6581702dd72a ok
// CHECK: z: hash=5c6f5df71948a658 ok
// CHECK: array of structs: hash=a206fa4c39750925 ok
// CHECK: done failures=0
#include <stdlib.h>

#include "Inputs/split.h"

struct vec {
  int n;
  float *v;
};

static struct vec *vec_new(int n) {
  struct vec *p = malloc(sizeof *p);
  p->n = n;
  p->v = malloc(n * sizeof(float));
  return p;
}

int main(void) {
  const int n = 300000;
  struct vec *x = vec_new(n), *y = vec_new(n), *z = vec_new(n);
  float *ry = malloc(n * sizeof(float)), *rz = malloc(n * sizeof(float));
  for (int i = 0; i < n; ++i) {
    x->v[i] = (float)(i % 97) * 0.125f - 6.0f;
    y->v[i] = ry[i] = (float)(i % 31) * 0.5f;
    z->v[i] = rz[i] = 0.0f;
  }

#pragma omp target data map(to : x[0 : 1], y[0 : 1], z[0 : 1])                 \
    map(to : x -> v[0 : x->n]) map(tofrom : y->v[0 : y->n], z->v[0 : z->n])
  for (int r = 0; r < 4; ++r) {
    const float a = 0.25f * (float)(r + 1), s = 1.5f;
// STATS-DAG: hetero-stats kernel={{.*}}_l[[@LINE+1]] launches=4 split=yes
#pragma omp target teams distribute parallel for
    for (int i = 0; i < x->n; ++i)
      y->v[i] = y->v[i] + a * x->v[i];
// STATS-DAG: hetero-stats kernel={{.*}}_l[[@LINE+1]] launches=4 split=yes
#pragma omp target teams distribute parallel for
    for (int i = 0; i < n; ++i)
      z->v[i] = (y->v[i] - x->v[i]) * s + z->v[i];
  }
  for (int r = 0; r < 4; ++r) {
    const float a = 0.25f * (float)(r + 1), s = 1.5f;
    for (int i = 0; i < n; ++i)
      ry[i] = ry[i] + a * x->v[i];
    for (int i = 0; i < n; ++i)
      rz[i] = (ry[i] - x->v[i]) * s + rz[i];
  }
  check_bytes("y", y->v, ry, n * sizeof(float));
  check_bytes("z", z->v, rz, n * sizeof(float));

  // An array of structs, each member pointer attached on its own.
  enum { K = 3 };
  const int m = 100000;
  struct vec s[K];
  for (int k = 0; k < K; ++k) {
    s[k].n = m;
    s[k].v = malloc(m * sizeof(float));
    for (int i = 0; i < m; ++i)
      s[k].v[i] = (float)(k * 1000 + i % 1000);
  }
  float *out = malloc(m * sizeof(float)), *rout = malloc(m * sizeof(float));
#pragma omp target enter data map(to : s)
  for (int k = 0; k < K; ++k) {
#pragma omp target enter data map(to : s[k].v[0 : m])
  }
// STATS-DAG: hetero-stats kernel={{.*}}_l[[@LINE+1]] launches=1 split=yes
#pragma omp target teams distribute parallel for map(from : out[0 : m])
  for (int i = 0; i < m; ++i)
    out[i] = s[0].v[i] - 2.0f * s[1].v[m - 1 - i] + s[2].v[i] * 0.5f;
  for (int k = 0; k < K; ++k) {
#pragma omp target exit data map(release : s[k].v[0 : m])
  }
#pragma omp target exit data map(release : s)
  for (int i = 0; i < m; ++i)
    rout[i] = s[0].v[i] - 2.0f * s[1].v[m - 1 - i] + s[2].v[i] * 0.5f;
  check_bytes("array of structs", out, rout, m * sizeof(float));
  for (int k = 0; k < K; ++k)
    free(s[k].v);
  free(out);
  free(rout);
  free(x->v);
  free(y->v);
  free(z->v);
  free(x);
  free(y);
  free(z);
  free(ry);
  free(rz);
  return done();
}
// STATS: hetero-stats total

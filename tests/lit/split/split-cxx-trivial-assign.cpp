#pragma STDC FP_CONTRACT OFF
// md's shape (HeCBench md-omp): C++ structs copied with their trivial
// copy-assignment operator (`f[i] = acc`, `t = pos[j]`), which clang calls
// as a member function. A trivial assignment copies bytes: it writes its
// object and reads the other, like a C struct assignment, so the kernel
// splits and matches a serial host loop bit for bit. A user-written
// operator= taking its source by const reference is walked as any member
// function: it writes its object, and reads the source where the call is.
// RUN: %clangxx-hetero %s -o %t
// RUN: env HETERO_STATS=1 HETERO_CHUNKS=4 %compare-fallback %t 2>%t.cpu | %FileCheck %s
// RUN: %FileCheck %s --check-prefix=STATS < %t.cpu
// RUN: env HETERO_STATS=1 HETERO_SIMULATE=3 %compare-fallback %t 2>%t.sim | %FileCheck %s
// RUN: %FileCheck %s --check-prefix=STATS < %t.sim
// CHECK: forces: hash={{[0-9a-f]+}} ok
// CHECK: user operator=: hash={{[0-9a-f]+}} ok
// CHECK: done failures=0
#include <cstdlib>

#include "Inputs/split.h"

struct Vec {
  float x, y, z, w;
};

struct Counted {
  float v;
  Counted &operator=(const Counted &O) {
    v = O.v + 0.0f;
    return *this;
  }
};

static void forces(const Vec *pos, Vec *f, int n, int neighbours, int i) {
  Vec acc = {0, 0, 0, 0};
  for (int k = 1; k <= neighbours; ++k) {
    Vec t;
    t = pos[(i + k) % n];
    acc.x += t.x - pos[i].x;
    acc.y += t.y - pos[i].y;
    acc.z += t.z * pos[i].z;
  }
  f[i] = acc;
}

int main() {
  const int n = 5000, neighbours = 6;
  Vec *pos = (Vec *)malloc(n * sizeof(Vec));
  Vec *f = (Vec *)calloc(n, sizeof(Vec));
  Vec *ref = (Vec *)calloc(n, sizeof(Vec));
  for (int i = 0; i < n; ++i)
    pos[i] = {(float)(i % 13) / 4, (float)(i % 7) / 8, (float)(i % 5), 0};
// STATS-DAG: hetero-stats kernel={{.*}}_l[[@LINE+1]] launches=1 split=yes
#pragma omp target teams distribute parallel for map(to : pos[0 : n])         \
    map(from : f[0 : n])
  for (int i = 0; i < n; ++i)
    forces(pos, f, n, neighbours, i);
  for (int i = 0; i < n; ++i)
    forces(pos, ref, n, neighbours, i);
  check_bytes("forces", f, ref, n * sizeof(Vec));

  Counted *c = (Counted *)calloc(n, sizeof(Counted));
  Counted *cref = (Counted *)calloc(n, sizeof(Counted));
// STATS-DAG: hetero-stats kernel={{.*}}_l[[@LINE+1]] launches=1 split=yes
#pragma omp target teams distribute parallel for map(tofrom : c[0 : n])
  for (int i = 0; i < n; ++i) {
    Counted t;
    t.v = (float)i;
    c[i] = t;
  }
  for (int i = 0; i < n; ++i)
    cref[i].v = (float)i;
  check_bytes("user operator=", c, cref, n * sizeof(Counted));
  free(pos);
  free(f);
  free(ref);
  free(c);
  free(cref);
  return done();
}
// STATS: hetero-stats total

#pragma STDC FP_CONTRACT OFF
// A kernel in a member function reads the object's members: a scalar
// (alpha_), the loop bound (n_) and pointer members whose arrays the region
// maps (u_[0:n_], v_[0:n_]). `this` is the kernel's pointer to the mapped
// object, as a struct pointer captured by copy is: the members are read
// through it and the arrays are indexed through the pointers it holds. Three
// steps of a 1-D diffusion split and match a serial loop bit for bit, and
// so does a kernel that calls a member function (walked in place of the
// call: split-cxx-functors.cpp).
// RUN: %clangxx-hetero %s -o %t
// RUN: env HETERO_STATS=1 HETERO_CHUNKS=4 %compare-fallback %t 2>%t.cpu | %FileCheck %s
// RUN: %FileCheck %s --check-prefix=STATS < %t.cpu
// RUN: env HETERO_STATS=1 HETERO_SIMULATE=3 %compare-fallback %t 2>%t.sim | %FileCheck %s
// RUN: %FileCheck %s --check-prefix=STATS < %t.sim
// CHECK: members: hash={{[0-9a-f]+}} ok
// CHECK: member call: hash={{[0-9a-f]+}} ok
// CHECK: done failures=0
#include <cstdlib>

#include "Inputs/split.h"

class Diffusion {
public:
  Diffusion(int n, double alpha) : alpha_(alpha), n_(n) {
    u_ = (double *)malloc(n * sizeof(double));
    v_ = (double *)malloc(n * sizeof(double));
    for (int i = 0; i < n; ++i) {
      u_[i] = (i % 101) * 0.5;
      v_[i] = (i % 7) * 1.5 - 4.0;
    }
  }
  ~Diffusion() {
    free(u_);
    free(v_);
  }

  void step() {
// STATS-DAG: hetero-stats kernel={{.*}}_l[[@LINE+1]] launches=3 split=yes
#pragma omp target teams distribute parallel for map(tofrom : u_[0 : n_])      \
    map(to : v_[0 : n_])
    for (int i = 1; i < n_ - 1; ++i)
      u_[i] = u_[i] + alpha_ * (v_[i - 1] - 2.0 * v_[i] + v_[i + 1]);
  }
  void stepOnHost() {
    for (int i = 1; i < n_ - 1; ++i)
      u_[i] = u_[i] + alpha_ * (v_[i - 1] - 2.0 * v_[i] + v_[i + 1]);
  }

  // (A member the region itself does not name is not mapped with the object:
  // this reads none.)
  double weight(int i) const { return 0.5 * (i % 3); }
  void scale() {
// STATS-DAG: hetero-stats kernel={{.*}}_l[[@LINE+1]] launches=1 split=yes
#pragma omp target teams distribute parallel for map(tofrom : u_[0 : n_])
    for (int i = 0; i < n_; ++i)
      u_[i] *= weight(i);
  }
  void scaleOnHost() {
    for (int i = 0; i < n_; ++i)
      u_[i] *= weight(i);
  }

  const double *u() const { return u_; }

private:
  double alpha_;
  double *u_, *v_;
  int n_;
};

int main() {
  const int n = 30000;
  Diffusion a(n, 0.25), ref(n, 0.25);
  for (int s = 0; s < 3; ++s) {
    a.step();
    ref.stepOnHost();
  }
  check_bytes("members", a.u(), ref.u(), n * sizeof(double));
  a.scale();
  ref.scaleOnHost();
  check_bytes("member call", a.u(), ref.u(), n * sizeof(double));
  return done();
}
// STATS: hetero-stats total

#pragma STDC FP_CONTRACT OFF
// miniBUDE's kernel shape in C++: target teams + distribute parallel for
// over groups, each calling a static member function of a class template
// that copies structs out of mapped arrays (trivial copy constructors),
// keeps per-group results in local arrays filled in `omp simd` loops (locals
// declared inside them), calls std::floor (exact on every member: GPUs
// take chunks too) and writes its group's results through a pointer
// parameter. The kernel splits and matches a serial host loop bit for bit.
// RUN: %clangxx-hetero %s -o %t -lm
// RUN: env HETERO_STATS=1 HETERO_CHUNKS=4 %compare-fallback %t 2>%t.cpu | %FileCheck %s
// RUN: %FileCheck %s --check-prefix=STATS < %t.cpu
// RUN: env HETERO_STATS=1 HETERO_SIMULATE=3 %compare-fallback %t 2>%t.sim | %FileCheck %s
// RUN: %FileCheck %s --check-prefix=STATS < %t.sim
// CHECK: energies: hash={{[0-9a-f]+}} ok
// CHECK: done failures=0
#include <cmath>
#include <cstdlib>

#include "Inputs/split.h"

struct Atom {
  float x, y, z;
  int type;
};

template <int PPWI> struct Model {
  static void group(long g, long natoms, const Atom *atoms, const float *pose,
                    const float *scale, float *energies) {
    float e[PPWI];
#pragma omp simd
    for (int l = 0; l < PPWI; ++l)
      e[l] = 0.0f;
    for (long a = 0; a < natoms; ++a) {
      const Atom at = atoms[a];
#pragma omp simd
      for (int l = 0; l < PPWI; ++l) {
        float d = at.x * pose[g * PPWI + l] - at.y;
        float w = scale[at.type] * std::floor(d * 8.0f);
        e[l] += w * w;
      }
    }
    for (int l = 0; l < PPWI; ++l)
      energies[g * PPWI + l] = e[l];
  }
};

int main() {
  const long groups = 2000, natoms = 64, ntypes = 4, n = groups * 4;
  Atom *atoms = (Atom *)malloc(natoms * sizeof(Atom));
  float *pose = (float *)malloc(n * sizeof(float));
  float *scale = (float *)malloc(ntypes * sizeof(float));
  float *energies = (float *)malloc(n * sizeof(float));
  float *ref = (float *)malloc(n * sizeof(float));
  for (long a = 0; a < natoms; ++a)
    atoms[a] = {0.5f + a * 0.01f, 0.25f - a * 0.003f, 0.0f, (int)(a % ntypes)};
  for (long k = 0; k < n; ++k)
    pose[k] = (float)(k % 97) / 31.0f;
  for (long t = 0; t < ntypes; ++t)
    scale[t] = 1.0f + 0.5f * t;

// STATS-DAG: hetero-stats kernel={{.*}}_l[[@LINE+1]] launches=1 split=yes
#pragma omp target teams num_teams(32)                                         \
    map(to : atoms[0 : natoms], pose[0 : n], scale[0 : ntypes])                \
    map(from : energies[0 : n])
#pragma omp distribute parallel for
  for (long g = 0; g < groups; ++g)
    Model<4>::group(g, natoms, atoms, pose, scale, energies);
  for (long g = 0; g < groups; ++g)
    Model<4>::group(g, natoms, atoms, pose, scale, ref);
  check_bytes("energies", energies, ref, n * sizeof(float));
  free(atoms);
  free(pose);
  free(scale);
  free(energies);
  free(ref);
  return done();
}
// STATS: hetero-stats total

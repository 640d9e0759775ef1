#pragma STDC FP_CONTRACT OFF
// CloverLeaf's generate_chunk: a collapsed kernel that, where a cell lies
// inside a state's region, writes the cell and the four velocity nodes
// around it, (j..j+1, k..k+1), so neighbouring iterations write the same
// bytes and no two chunks' writes can be told apart: it cannot split. Run
// whole, it gathered every array it writes onto one member (236 MB at
// CloverLeaf's 3840^2 over two H200s) after a split kernel had spread
// them. Its chunks now run one after another, each on the member its rows
// are on, so only the row two chunks both write moves. Compared bit for
// bit with serial host loops; bytes counted over three simulated members
// with fixed shares.
// RUN: %clang-hetero %s -o %t
// RUN: env HETERO_DISABLE_CUDA=1 HETERO_MEMBERS=sim:0,sim:1,sim:2 HETERO_SHARES=fixed HETERO_STATS=1 HETERO_SIMULATE=3 %run-hetero %t 2>%t.sim | %FileCheck %s
// RUN: %FileCheck %s --check-prefix=STATS < %t.sim
// RUN: env HETERO_DISABLE_CUDA=1 HETERO_MEMBERS=sim:0,sim:1,sim:2 HETERO_CUTS=shares HETERO_SHARES=fixed HETERO_STATS=1 HETERO_SIMULATE=3 %run-hetero %t 2>%t.shares | %FileCheck %s
// RUN: %FileCheck %s --check-prefix=WHOLE < %t.shares
// RUN: env HETERO_STATS=1 HETERO_SIMULATE=3 %run-hetero %t 2>%t.gpu | %FileCheck %s
// Two chunks a member (fuzz seed 7019): each chunk still runs as one piece.
// RUN: env HETERO_DISABLE_CUDA=1 HETERO_CHUNKS=2 HETERO_MEMBERS=sim:0,sim:1,sim:2 HETERO_SHARES=fixed HETERO_STATS=1 HETERO_SIMULATE=3 %run-hetero %t 2>%t.two | %FileCheck %s
// RUN: grep -q 'in_order_launches=1' %t.two
// CHECK: fields: hash={{[0-9a-f]+}} ok
// CHECK: velocities: hash={{[0-9a-f]+}} ok
// CHECK: done failures=0
// The generating kernel ran its three chunks in order and moved, at each
// of the two boundaries, the row of velocities both chunks write, there
// and back (a chunk holds what it may write: 4 x 400 doubles, 12800
// bytes; at most 12999). Run whole, it moved 2/3 of both arrays: 516 KB.
// STATS: hetero-stats kernel={{.*}}_l[[@LINE+40]] launches=1 split=yes {{.*}}bytes_d2d={{(1[0-2][0-9][0-9][0-9]|[0-9]?[0-9]?[0-9]?[0-9])}} {{.*}}in_order_launches=1
// HETERO_CUTS=shares keeps the whole launch.
// WHOLE: hetero-stats kernel={{.*}}_l[[@LINE+38]] launches=1 split=no(the chunks' writes of 'vel' at split-overlap-in-order.c:{{[0-9]+}} overlap)
#include <stdlib.h>

#include "Inputs/split.h"

enum { NX = 400, NY = 121 };

static int inside(int j, int k) { return (j / 7 + k / 5) % 3 != 0; }

int main(void) {
  const size_t cells = (size_t)NX * NY;
  double *e = malloc(cells * sizeof(double)),
         *vel = malloc(cells * sizeof(double));
  double *re = malloc(cells * sizeof(double)),
         *rvel = malloc(cells * sizeof(double));
  for (int k = 0; k < NY; ++k)
    for (int j = 0; j < NX; ++j) {
      re[j + k * NX] = 0.25 * k + j;
      rvel[j + k * NX] = 0.5 * j - k;
    }
  for (int k = 0; k < NY - 1; ++k)
    for (int j = 0; j < NX - 1; ++j)
      if (inside(j, k)) {
        re[j + k * NX] = 7.0;
        for (int kt = k; kt <= k + 1; ++kt)
          for (int jt = j; jt <= j + 1; ++jt)
            rvel[jt + kt * NX] = 3.0;
      }
#pragma omp target data map(from : e[0 : cells], vel[0 : cells])
  {
    // The background state: spreads both arrays over the members.
#pragma omp target teams distribute parallel for collapse(2)
    for (int k = 0; k < NY; ++k)
      for (int j = 0; j < NX; ++j) {
        e[j + k * NX] = 0.25 * k + j;
        vel[j + k * NX] = 0.5 * j - k;
      }
    // A state's region.
#pragma omp target teams distribute parallel for collapse(2)
    for (int k = 0; k < NY - 1; ++k)
      for (int j = 0; j < NX - 1; ++j)
        if (inside(j, k)) {
          e[j + k * NX] = 7.0;
          for (int kt = k; kt <= k + 1; ++kt)
            for (int jt = j; jt <= j + 1; ++jt)
              vel[jt + kt * NX] = 3.0;
        }
  }
  check_bytes("fields", e, re, cells * sizeof(double));
  check_bytes("velocities", vel, rvel, cells * sizeof(double));
  return done();
}

#pragma STDC FP_CONTRACT OFF
// Kernels that ask for their team or thread numbers (omp_get_team_num,
// omp_get_num_teams, omp_get_thread_num): splitting would renumber the teams
// of each chunk, so the runtime must run them unsplit. The printed results
// do not depend on the number of teams (the team numbers are only checked
// to be in range, on the host). A split kernel then reads what they wrote.
// Compared bit for bit with serial host loops.
// RUN: %clang-hetero %s -o %t
// RUN: env HETERO_STATS=1 HETERO_CHUNKS=4 %compare-fallback %t 2>%t.cpu | %FileCheck %s
// RUN: %FileCheck %s --check-prefix=STATS < %t.cpu
// RUN: env HETERO_STATS=1 HETERO_SIMULATE=3 %compare-fallback %t 2>%t.sim | %FileCheck %s
// RUN: %FileCheck %s --check-prefix=STATS < %t.sim
// CHECK: team and thread numbers in range: ok
// CHECK: out: hash=bad85dda24000a1d ok
// CHECK: res: hash=01d0d65cdfb04d73 ok
// CHECK: done failures=0
#include <omp.h>
#include <stdlib.h>

#include "Inputs/split.h"

#define N 300000

int main(void) {
  const int n = N;
  int *in = malloc(n * sizeof(int)), *out = malloc(n * sizeof(int));
  int *owner = malloc(n * sizeof(int)), *nteams = malloc(n * sizeof(int));
  int *thread = malloc(n * sizeof(int)), *res = malloc(n * sizeof(int));
  int *rout = malloc(n * sizeof(int)), *rres = malloc(n * sizeof(int));
  for (int i = 0; i < n; ++i) {
    in[i] = (i * 37) % 1000;
    res[i] = rres[i] = -1;
  }

#pragma omp target data map(to : in[0 : n])                                    \
    map(from : owner[0 : n], nteams[0 : n], thread[0 : n])                     \
    map(tofrom : out[0 : n], res[0 : n])
  {
// STATS-DAG: hetero-stats kernel={{.*}}_l[[@LINE+1]] launches=1 split=no(
#pragma omp target teams distribute parallel for
    for (int i = 0; i < n; ++i) {
      owner[i] = omp_get_team_num();
      nteams[i] = omp_get_num_teams();
      out[i] = in[i] * 2 + 1;
    }
// STATS-DAG: hetero-stats kernel={{.*}}_l[[@LINE+1]] launches=1 split=no(
#pragma omp target teams distribute parallel for
    for (int i = 0; i < n; ++i) {
      thread[i] = omp_get_thread_num();
      out[i] = out[i] - in[n - 1 - i];
    }
// STATS-DAG: hetero-stats kernel={{.*}}_l[[@LINE+1]] launches=1 split=yes
#pragma omp target teams distribute parallel for
    for (int i = 1; i < n; ++i)
      res[i] = out[i] * 3 + out[i - 1] % 7;
  }
  for (int i = 0; i < n; ++i)
    rout[i] = in[i] * 2 + 1 - in[n - 1 - i];
  for (int i = 1; i < n; ++i)
    rres[i] = rout[i] * 3 + rout[i - 1] % 7;
  int ok = 1;
  for (int i = 0; i < n; ++i)
    ok &= owner[i] >= 0 && owner[i] < nteams[i] && thread[i] >= 0;
  check("team and thread numbers in range", ok);
  check_bytes("out", out, rout, n * sizeof(int));
  check_bytes("res", res, rres, n * sizeof(int));
  free(in);
  free(out);
  free(owner);
  free(nteams);
  free(thread);
  free(rout);
  free(res);
  free(rres);
  return done();
}
// STATS: hetero-stats total

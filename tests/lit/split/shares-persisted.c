// Measured shares outlive the run: the first run probes, times and settles
// (ShareModel.h) and writes the settled shares to HETERO_SHARES_FILE; the
// second run of the same binary on the same pool starts settled. A file
// full of junk is read around. Answers match the host fallback every time.
// The CPU pool is tried from the first launches (HETERO_PROBE_AFTER=0), so
// that twelve launches settle.
// RUN: %clang-hetero %s -o %t
// RUN: rm -f %t.shares
// RUN: env HETERO_STATS=1 HETERO_SIMULATE=2 HETERO_PROBE_AFTER=0 HETERO_SHARES=measured HETERO_SHARES_FILE=%t.shares %compare-fallback %t 2>%t.first | %FileCheck %s
// RUN: %FileCheck %s --check-prefix=FIRST < %t.first
// RUN: cp %t.shares %t.shares.kept
// RUN: env HETERO_STATS=1 HETERO_INFO=1 HETERO_SIMULATE=2 HETERO_PROBE_AFTER=0 HETERO_SHARES=measured HETERO_SHARES_FILE=%t.shares %compare-fallback %t 2>%t.second | %FileCheck %s
// RUN: %FileCheck %s --check-prefix=SECOND < %t.second
// Persisted shares belong to the settings that chose them: a run that asks
// for other plans (HETERO_CHUNKS) measures again.
// RUN: env HETERO_STATS=1 HETERO_INFO=1 HETERO_CHUNKS=2 HETERO_SIMULATE=2 HETERO_PROBE_AFTER=0 HETERO_SHARES=measured HETERO_SHARES_FILE=%t.shares.kept %compare-fallback %t 2>%t.chunks | %FileCheck %s
// RUN: %FileCheck %s --check-prefix=OTHER-SETTINGS --implicit-check-not=shares=persisted < %t.chunks
// RUN: printf 'junk\n\t\t\t\t\n' > %t.junk
// RUN: env HETERO_STATS=1 HETERO_SIMULATE=2 HETERO_PROBE_AFTER=0 HETERO_SHARES=measured HETERO_SHARES_FILE=%t.junk %compare-fallback %t 2>%t.third | %FileCheck %s
// RUN: %FileCheck %s --check-prefix=FIRST < %t.third
// Until a kernel has run HETERO_PROBE_AFTER milliseconds on the
// accelerators alone, the CPU pool is not tried on it, and no share of it is
// kept. (Launches mostly spent outside the accelerators' chunks, as beside
// GPUs, settle on the accelerators before that: "settled-accel[overhead=".)
// RUN: rm -f %t.later
// RUN: env HETERO_STATS=1 HETERO_SIMULATE=2 HETERO_PROBE_AFTER=86400000 HETERO_SHARES=measured HETERO_SHARES_FILE=%t.later %compare-fallback %t 2>%t.fourth | %FileCheck %s
// RUN: %FileCheck %s --check-prefix=LATER < %t.fourth
// RUN: %not grep -q "cpu=" %t.later
// CHECK: checksum=
// Where a launch is mostly overhead (small loops on simulated accelerators,
// or GPUs beside them) the settled shares are timed against one accelerator
// alone (ShareModel.h, "one"): the first run may end in that trial, whose
// launches are whole ones, and a second run starts from what the first
// settled on (the spread shares, or one accelerator where it won).
// FIRST: hetero-stats kernel={{.*}} launches=12 split={{yes|settled-one\([^)]*\)|no\(measured shares: one-trial[^)]*\)}} {{.*}} shares={{settled|one-trial}}
// LATER: hetero-stats kernel={{.*}} launches=12 split={{.*}} members={{(cuda:[0-9.]+:[0-9]+:[0-9.]+ms,)*}}sim:0:{{[0-9]+}}:{{[0-9.]+}}ms,sim:1:{{[0-9]+}}:{{[0-9.]+}}ms bytes_h2d={{.*}} shares={{accelerators-until-probe:|settled-accel\[overhead=|one-trial|settled-one}}
// The second run starts from the persisted shares; persisted mixed shares
// are timed again, and on a loaded machine may lose to the accelerators:
// SECOND: hetero: shares of 1 kernels come from an earlier run of this program on this pool with these settings ({{.*}}.shares; delete it to measure again)
// SECOND: hetero-stats kernel={{.*}} launches=12 split={{.*}} shares={{persisted-settled|settled-accel\[verified: }}
// OTHER-SETTINGS: hetero-stats kernel={{.*}} launches=12 split=
#include <stdio.h>
#include <stdlib.h>

int main(void) {
  const int n = 200000;
  double *a = malloc(sizeof(double) * n), *b = malloc(sizeof(double) * n);
  for (int i = 0; i < n; ++i)
    a[i] = b[i] = (i % 17) / 4.0;
#pragma omp target data map(tofrom : a[0 : n], b[0 : n])
  for (int s = 0; s < 12; ++s) {
    double *src = s % 2 ? b : a, *dst = s % 2 ? a : b;
#pragma omp target teams distribute parallel for
    for (int i = 1; i < n - 1; ++i)
      dst[i] = (src[i - 1] + src[i] + src[i + 1]) / 3;
  }
  double sum = 0;
  for (int i = 0; i < n; ++i)
    sum += a[i] * (i % 7);
  printf("checksum=%.12e\n", sum);
  free(a);
  free(b);
  return 0;
}

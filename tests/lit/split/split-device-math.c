// Results that do not depend on which member ran an iteration, in a program
// without "#pragma STDC FP_CONTRACT OFF" (clang's default contracts a*b+c):
//  - multiply-adds are fused on every member (GPUs fuse them; the x86_64
//    image is built with FMA and LoopWindowPass turns each contractable
//    multiply-add into an fma), so a split over GPUs and CPU cores equals
//    fma() on the host bit for bit;
//  - a kernel calling math that each device's library rounds its own way
//    (expf, sin, pow) is split over members of one kind only ("one-kind" in
//    its descriptor): all GPUs when there are any, else the CPU-side
//    members. Its results then equal a whole run on one such member.
//  - sqrt (double) is correctly rounded everywhere, and mixes freely.
// No comparison with the host fallback here: the fallback does not fuse.
// RUN: %clang-hetero %s -o %t -lm
// RUN: %if compiler %{ env HETERO_DESC_DEBUG=1 %clang-hetero -c %s -o %t.o 2>%t.desc %}
// Every compile (host, x86_64, NVPTX) must agree on each descriptor:
// RUN: %if compiler %{ %desc-summary %t.desc >%t.uniq %}
// RUN: %if compiler %{ %FileCheck %s --check-prefix=DESC --implicit-check-not=hetero-desc < %t.uniq %}
// RUN: env LIBOMPTARGET_PLUGIN=hetero HETERO_STATS=1 HETERO_CHUNKS=3 %t >%t.split 2>%t.cpu
// RUN: %FileCheck %s < %t.split
// RUN: %FileCheck %s --check-prefix=STATS < %t.cpu
// RUN: %if gpu %{ %FileCheck %s --check-prefix=STATS-GPU < %t.cpu %}
// RUN: %if gpu %{ env LIBOMPTARGET_PLUGIN=hetero HETERO_MEMBER=%gpu0 %t >%t.whole %} %else %{ env LIBOMPTARGET_PLUGIN=hetero HETERO_MEMBER=cpu %t >%t.whole %}
// RUN: diff %t.split %t.whole
// RUN: env LIBOMPTARGET_PLUGIN=hetero HETERO_STATS=1 HETERO_SIMULATE=3 %t >%t.simout 2>%t.sim
// RUN: diff %t.simout %t.whole
// RUN: %FileCheck %s --check-prefix=STATS-SIM < %t.sim
// CHECK: fma double: hash={{[0-9a-f]+}} ok
// CHECK: fma float: hash={{[0-9a-f]+}} ok
// CHECK: sqrt double: ok
// CHECK: done failures=0
#include <math.h>
#include <stdlib.h>

#include "Inputs/split.h"

#define N 300000

int main(void) {
  const int n = N;
  double *a = malloc(n * sizeof(double)), *b = malloc(n * sizeof(double));
  double *c = malloc(n * sizeof(double)), *y = malloc(n * sizeof(double));
  double *r = malloc(n * sizeof(double)), *s = malloc(n * sizeof(double));
  float *af = malloc(n * sizeof(float)), *yf = malloc(n * sizeof(float));
  float *rf = malloc(n * sizeof(float)), *m = malloc(n * sizeof(float));
  for (int i = 0; i < n; ++i) {
    a[i] = 1.0 + i * 1e-7;
    b[i] = 3.0 - i * 3e-7;
    c[i] = -3.0 + i * 1e-9;
    af[i] = (float)a[i];
    r[i] = fma(a[i], b[i], c[i]);
    rf[i] = fmaf(af[i], af[i], -1.0f);
  }

// DESC-DAG: hetero-desc main:[[#@LINE+3]]: hetero-kernel 2 split yes
// STATS-DAG: hetero-stats kernel={{.*}}_l[[@LINE+2]] launches=1 split=yes {{.*}}members={{.*}}cpu:
// STATS-GPU-DAG: hetero-stats kernel={{.*}}_l[[@LINE+1]] launches=1 split=yes {{.*}}members={{.*}}cuda:0{{(\.[0-9])?}}:{{.*}}cpu:
#pragma omp target teams distribute parallel for map(to : a[0 : n], b[0 : n],  \
                                                         c[0 : n], af[0 : n])  \
    map(from : y[0 : n], yf[0 : n])
  for (int i = 0; i < n; ++i) {
    y[i] = a[i] * b[i] + c[i];
    yf[i] = af[i] * af[i] - 1.0f;
  }
  check_bytes("fma double", y, r, n * sizeof(double));
  check_bytes("fma float", yf, rf, n * sizeof(float));

// DESC-DAG: hetero-desc main:[[#@LINE+4]]: hetero-kernel 2 one-kind calls expf, powf, sin, which GPUs and CPUs round differently
// STATS-DAG: hetero-stats kernel={{.*}}_l[[@LINE+3]] launches=1 split=yes
// STATS-GPU-DAG: hetero-stats kernel={{.*}}_l[[@LINE+2]] launches=1 split=yes {{.*}}members={{(cuda:[^, ]+,?)+}} bytes_h2d
// STATS-SIM-DAG: hetero-stats kernel={{.*}}_l[[@LINE+1]] launches=1 split={{yes|no\(one member, one chunk\)}} {{.*}}members={{(cuda:[^, ]+,?)+|sim:0:.*cpu:[^, ]+}} bytes_h2d
#pragma omp target teams distribute parallel for map(to : a[0 : n], af[0 : n]) \
    map(from : m[0 : n])
  for (int i = 0; i < n; ++i)
    m[i] = expf(af[i]) + (float)sin(a[i] * 100.0) + powf(af[i], 1.5f);
  printf("device math: hash=%016llx\n",
         (unsigned long long)hash_bytes(m, n * sizeof(float)));

// DESC-DAG: hetero-desc main:[[#@LINE+1]]: hetero-kernel 2 split yes
#pragma omp target teams distribute parallel for map(to : a[0 : n])            \
    map(from : s[0 : n])
  for (int i = 0; i < n; ++i)
    s[i] = sqrt(a[i] * 7.0) / (a[i] + 2.0);
  int sq = 1;
  for (int i = 0; i < n; ++i)
    sq &= s[i] == sqrt(a[i] * 7.0) / (a[i] + 2.0);
  check("sqrt double", sq);
  free(a);
  free(b);
  free(c);
  free(y);
  free(r);
  free(s);
  free(af);
  free(yf);
  free(rf);
  free(m);
  return done();
}
// STATS: hetero-stats total

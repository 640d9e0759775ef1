#pragma STDC FP_CONTRACT OFF
// Loops with step 3 over interleaved RGB bytes: (1) swap the red and blue
// channels in place (i += 3, three byte writes per iteration, so chunk
// boundaries fall inside machine words); (2) a per-pixel colour matrix in
// fixed point; (3) the green channel only, starting at 1 (i = 1; i < n; i += 3)
// with a runtime step variable. Compared bit for bit with serial host loops.
// RUN: %clang-hetero %s -o %t
// RUN: env HETERO_STATS=1 HETERO_CHUNKS=4 %compare-fallback %t 2>%t.cpu | %FileCheck %s
// RUN: %FileCheck %s --check-prefix=STATS < %t.cpu
// RUN: env HETERO_STATS=1 HETERO_SIMULATE=3 %compare-fallback %t 2>%t.sim | %FileCheck %s
// RUN: %FileCheck %s --check-prefix=STATS < %t.sim
// CHECK: rgb: hash=53c7571d04613e5e ok
// CHECK: done failures=0
#include <stdlib.h>

#include "Inputs/split.h"

#define PIXELS 333333

int main(int argc, char **argv) {
  (void)argv;
  const int n = 3 * PIXELS;
  const int step = argc > 5 ? 6 : 3; // 3, unknown to the compiler
  unsigned char *rgb = malloc(n), *ref = malloc(n);
  for (int i = 0; i < n; ++i)
    rgb[i] = ref[i] = (unsigned char)((i * 167 + i / 3) & 0xff);

#pragma omp target data map(tofrom : rgb[0 : n])
  {
// STATS-DAG: hetero-stats kernel={{.*}}_l[[@LINE+1]] launches=1 split=yes
#pragma omp target teams distribute parallel for
    for (int i = 0; i < n; i += 3) {
      unsigned char r = rgb[i];
      rgb[i] = rgb[i + 2];
      rgb[i + 2] = r;
    }
// STATS-DAG: hetero-stats kernel={{.*}}_l[[@LINE+1]] launches=1 split=yes
#pragma omp target teams distribute parallel for
    for (int i = 0; i < n; i += 3) {
      int r = rgb[i], g = rgb[i + 1], b = rgb[i + 2];
      int y = (77 * r + 150 * g + 29 * b) >> 8;
      rgb[i] = (unsigned char)((y + r) / 2);
      rgb[i + 1] = (unsigned char)((y + g) / 2);
      rgb[i + 2] = (unsigned char)((y + b) / 2);
    }
// STATS-DAG: hetero-stats kernel={{.*}}_l[[@LINE+1]] launches=1 split=yes
#pragma omp target teams distribute parallel for
    for (int i = 1; i < n; i += step)
      rgb[i] = (unsigned char)(255 - rgb[i]);
  }
  for (int i = 0; i < n; i += 3) {
    unsigned char r = ref[i];
    ref[i] = ref[i + 2];
    ref[i + 2] = r;
  }
  for (int i = 0; i < n; i += 3) {
    int r = ref[i], g = ref[i + 1], b = ref[i + 2];
    int y = (77 * r + 150 * g + 29 * b) >> 8;
    ref[i] = (unsigned char)((y + r) / 2);
    ref[i + 1] = (unsigned char)((y + g) / 2);
    ref[i + 2] = (unsigned char)((y + b) / 2);
  }
  for (int i = 1; i < n; i += step)
    ref[i] = (unsigned char)(255 - ref[i]);
  check_bytes("rgb", rgb, ref, n);
  free(rgb);
  free(ref);
  return done();
}
// STATS: hetero-stats total

// GPU machines only: which math rounds the same on a GPU as on the host,
// under the stock cuda plugin. The analysis lets kernels that call only the
// exact functions (sqrt, fabs, floor, ceil, trunc, round, fmin, fmax, fmod,
// copysign, and division) mix GPUs and CPU cores; the others (sqrtf, expf,
// sinf, ...) make a kernel one-kind. This checks the first list is exact on
// the GPU, and that the second list really differs (else one-kind would be
// needless). Measured on an H200 (sm_90, CUDA 13): of 2^24 inputs sqrtf
// differs on 2839887, expf on 3920244, sinf on 3279139.
// REQUIRES: gpu
// RUN: %clang-hetero %s -o %t -lm
// RUN: %run-cuda %t | %FileCheck %s
// RUN: %run-hetero %t | %FileCheck %s
// CHECK: exact: 0 differences
// CHECK: sqrtf: {{[1-9][0-9]*}} differences
// CHECK: expf: {{[1-9][0-9]*}} differences
// CHECK: sinf: {{[1-9][0-9]*}} differences
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#define N (1 << 22)

int main(void) {
  const int n = N;
  float *x = malloc(n * sizeof(float));
  double *xd = malloc(n * sizeof(double));
  float *ef = malloc((size_t)n * 8 * sizeof(float));
  double *ed = malloc((size_t)n * 8 * sizeof(double));
  float *approx = malloc((size_t)n * 3 * sizeof(float));
  for (int i = 0; i < n; ++i) {
    x[i] = ((float)i - n / 3) * 3.7e-4f + 1e-3f;
    xd[i] = ((double)i - n / 3) * 2.9e-4 + 1e-3;
  }
#pragma omp target teams distribute parallel for map(to : x[0 : n], xd[0 : n]) \
    map(from : ef[0 : 8 * n], ed[0 : 8 * n])
  for (int i = 0; i < n; ++i) {
    float a = x[i];
    double b = xd[i];
    ef[8 * i + 0] = fabsf(a);
    ef[8 * i + 1] = floorf(a * 3.3f);
    ef[8 * i + 2] = ceilf(a * 3.3f);
    ef[8 * i + 3] = truncf(a * 3.3f);
    ef[8 * i + 4] = roundf(a * 3.3f);
    ef[8 * i + 5] = fminf(a, 0.25f) + fmaxf(a, -0.5f);
    ef[8 * i + 6] = fmodf(a, 0.37f) + copysignf(1.5f, a);
    ef[8 * i + 7] = 1.0f / a;
    ed[8 * i + 0] = sqrt(fabs(b));
    ed[8 * i + 1] = floor(b * 3.3);
    ed[8 * i + 2] = ceil(b * 3.3);
    ed[8 * i + 3] = trunc(b * 3.3);
    ed[8 * i + 4] = round(b * 3.3);
    ed[8 * i + 5] = fmin(b, 0.25) + fmax(b, -0.5);
    ed[8 * i + 6] = fmod(b, 0.37) + copysign(1.5, b);
    ed[8 * i + 7] = 1.0 / b;
  }
#pragma omp target teams distribute parallel for map(to : x[0 : n])            \
    map(from : approx[0 : 3 * n])
  for (int i = 0; i < n; ++i) {
    float a = fabsf(x[i]);
    approx[3 * i + 0] = sqrtf(a);
    approx[3 * i + 1] = expf(x[i] * 1e-2f);
    approx[3 * i + 2] = sinf(x[i]);
  }
  long exact = 0, sq = 0, ex = 0, sn = 0;
  for (int i = 0; i < n; ++i) {
    float a = x[i];
    double b = xd[i];
    float rf[8] = {fabsf(a),
                   floorf(a * 3.3f),
                   ceilf(a * 3.3f),
                   truncf(a * 3.3f),
                   roundf(a * 3.3f),
                   fminf(a, 0.25f) + fmaxf(a, -0.5f),
                   fmodf(a, 0.37f) + copysignf(1.5f, a),
                   1.0f / a};
    double rd[8] = {sqrt(fabs(b)),
                    floor(b * 3.3),
                    ceil(b * 3.3),
                    trunc(b * 3.3),
                    round(b * 3.3),
                    fmin(b, 0.25) + fmax(b, -0.5),
                    fmod(b, 0.37) + copysign(1.5, b),
                    1.0 / b};
    for (int k = 0; k < 8; ++k)
      exact += (ef[8 * i + k] != rf[k]) + (ed[8 * i + k] != rd[k]);
    sq += approx[3 * i + 0] != sqrtf(fabsf(a));
    ex += approx[3 * i + 1] != expf(a * 1e-2f);
    sn += approx[3 * i + 2] != sinf(a);
  }
  printf("exact: %ld differences\n", exact);
  printf("sqrtf: %ld differences\nexpf: %ld differences\nsinf: %ld "
         "differences\n",
         sq, ex, sn);
  free(x);
  free(xd);
  free(ef);
  free(ed);
  free(approx);
  return 0;
}

/*
 * nbody.c - direct-summation gravitational N-body in single precision.
 * N bodies of mass 1/N start uniformly in the cube [-1,1)^3 with small
 * random velocities (fixed LCG seed); G = 1, softening 1e-9, dt = 0.01.
 * Each step computes all N^2 pairwise accelerations, then advances the
 * bodies with a semi-implicit Euler (kick, then drift) update.
 *
 * OpenMP offload constructs exercised:
 *   #pragma omp target data map(tofrom: ...) map(to: ...) map(alloc: ...)
 *       - positions, velocities, masses and accelerations stay resident
 *         on the device for all steps
 *   #pragma omp target teams distribute parallel for
 *       - the O(N^2) force kernel, one body per iteration with a
 *         sequential inner loop over all bodies
 *       - the O(N) position/velocity update kernel
 *
 * Usage: nbody [N] [STEPS]        (defaults: N=16384, STEPS=5)
 *
 * stdout: "nbody: n=N steps=STEPS checksum=<sum of x^2+y^2+z^2>", the sum
 * taken on the host in body order after the data region.  Timings and
 * the interaction rate go to stderr.
 */
#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include <omp.h>

#include "example-util.h"

#define SOFTENING 1e-9f
#define DT 0.01f

static void usage(const char *prog) {
  fprintf(stderr,
          "usage: %s [N] [STEPS]\n"
          "  N      number of bodies, 1..1048576 (default 16384)\n"
          "  STEPS  time steps, 1..1000000 (default 5)\n",
          prog);
}

/* Uniform float in [lo, hi) from a 32-bit LCG; exact and portable. */
static float lcg_uniform(uint32_t *state, float lo, float hi) {
  *state = *state * 1664525u + 1013904223u;
  return lo + (hi - lo) * ((float)(*state >> 8) * (1.0f / 16777216.0f));
}

static float *alloc_floats(int n) {
  float *v = malloc((size_t)n * sizeof *v);
  if (v == NULL) {
    fprintf(stderr, "nbody: out of memory\n");
    exit(1);
  }
  return v;
}

int main(int argc, char **argv) {
  int n = 16384, steps = 5;

  if (argc > 3 || (argc > 1 && parse_int(argv[1], 1, 1048576, &n) != 0) ||
      (argc > 2 && parse_int(argv[2], 1, 1000000, &steps) != 0)) {
    usage(argv[0]);
    return 2;
  }

  float *x = alloc_floats(n), *y = alloc_floats(n), *z = alloc_floats(n);
  float *vx = alloc_floats(n), *vy = alloc_floats(n), *vz = alloc_floats(n);
  float *ax = alloc_floats(n), *ay = alloc_floats(n), *az = alloc_floats(n);
  float *m = alloc_floats(n);

  uint32_t seed = 12345u;
  for (int i = 0; i < n; i++) {
    x[i] = lcg_uniform(&seed, -1.0f, 1.0f);
    y[i] = lcg_uniform(&seed, -1.0f, 1.0f);
    z[i] = lcg_uniform(&seed, -1.0f, 1.0f);
    vx[i] = lcg_uniform(&seed, -0.05f, 0.05f);
    vy[i] = lcg_uniform(&seed, -0.05f, 0.05f);
    vz[i] = lcg_uniform(&seed, -0.05f, 0.05f);
    m[i] = 1.0f / (float)n;
  }

  double t0 = omp_get_wtime(), t1 = t0, t2 = t0;

#pragma omp target data map(tofrom : x[0 : n], y[0 : n], z[0 : n], vx[0 : n],  \
                                vy[0 : n], vz[0 : n]) map(to : m[0 : n])       \
    map(alloc : ax[0 : n], ay[0 : n], az[0 : n])
  {
    t1 = omp_get_wtime();

    for (int s = 0; s < steps; s++) {
#pragma omp target teams distribute parallel for
      for (int i = 0; i < n; i++) {
        const float xi = x[i], yi = y[i], zi = z[i];
        float fx = 0.0f, fy = 0.0f, fz = 0.0f;
        for (int j = 0; j < n; j++) {
          float dx = x[j] - xi;
          float dy = y[j] - yi;
          float dz = z[j] - zi;
          float d2 = dx * dx + dy * dy + dz * dz + SOFTENING;
          /* sqrtf(d2), correctly rounded on every device: a
           * double sqrt rounded to float is exact-rounded, while
           * CUDA's libdevice sqrtf may be an approximation. */
          float inv = 1.0f / (float)sqrt((double)d2);
          float s3 = m[j] * (inv * inv * inv);
          fx += dx * s3;
          fy += dy * s3;
          fz += dz * s3;
        }
        ax[i] = fx;
        ay[i] = fy;
        az[i] = fz;
      }

#pragma omp target teams distribute parallel for
      for (int i = 0; i < n; i++) {
        vx[i] += ax[i] * DT;
        vy[i] += ay[i] * DT;
        vz[i] += az[i] * DT;
        x[i] += vx[i] * DT;
        y[i] += vy[i] * DT;
        z[i] += vz[i] * DT;
      }
    }

    t2 = omp_get_wtime();
  }

  double t3 = omp_get_wtime();

  double checksum = 0.0;
  for (int i = 0; i < n; i++)
    checksum += (double)x[i] * x[i] + (double)y[i] * y[i] + (double)z[i] * z[i];

  printf("nbody: n=%d steps=%d checksum=%.6e\n", n, steps, checksum);

  double secs = (t2 - t1 > 0.0) ? t2 - t1 : 1e-30;
  fprintf(stderr, "nbody: devices=%d\n", omp_get_num_devices());
  fprintf(stderr,
          "nbody: total %.6f s (to device %.6f s, steps %.6f s, "
          "from device %.6f s)\n",
          t3 - t0, t1 - t0, t2 - t1, t3 - t2);
  fprintf(stderr, "nbody: %.3f G interactions/s\n",
          (double)n * (double)n * steps / secs * 1e-9);

  free(x);
  free(y);
  free(z);
  free(vx);
  free(vy);
  free(vz);
  free(ax);
  free(ay);
  free(az);
  free(m);
  return 0;
}

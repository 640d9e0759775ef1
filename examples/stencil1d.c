/*
 * stencil1d.c - 1-D three-point smoothing of a line of N doubles: every
 * sweep replaces each interior point of a by the mean of itself and its
 * two neighbours into b, then does the same from b back into a (two
 * kernels per sweep); the end points stay fixed.  N is a 64-bit count, so
 * that the two arrays can be larger than one GPU's memory.
 *
 * OpenMP offload constructs exercised:
 *   #pragma omp target data map(tofrom: a[0:n]) map(to: b[0:n])
 *       - both lines stay resident on the device for every sweep
 *   #pragma omp target teams distribute parallel for
 *       - the two smoothing kernels, 64-bit loop counters
 *
 * Usage: stencil1d [N] [SWEEPS]      (defaults: N=2^24, SWEEPS=20)
 *
 * stdout: "stencil1d: n=N sweeps=SWEEPS checksum=<sum of a, on the host>".
 * The rate of point updates over the sweeps goes to stderr.
 */
#include <stdio.h>
#include <stdlib.h>

#include <omp.h>

#include "example-util.h"

static void usage(const char *prog) {
  fprintf(stderr,
          "usage: %s [N] [SWEEPS]\n"
          "  N       points, 3..17179869184 (default 16777216)\n"
          "  SWEEPS  sweeps, 1..1000000 (default 20)\n",
          prog);
}

int main(int argc, char **argv) {
  long n = 1L << 24;
  int sweeps = 20;

  if (argc > 3 || (argc > 1 && parse_long(argv[1], 3, 1L << 34, &n) != 0) ||
      (argc > 2 && parse_int(argv[2], 1, 1000000, &sweeps) != 0)) {
    usage(argv[0]);
    return 2;
  }

  double *a = malloc((size_t)n * sizeof *a);
  double *b = malloc((size_t)n * sizeof *b);
  if (a == NULL || b == NULL) {
    fprintf(stderr, "stencil1d: out of memory for n=%ld\n", n);
    return 1;
  }
#pragma omp parallel for
  for (long i = 0; i < n; i++)
    a[i] = b[i] = (double)(i % 1000) * 1e-3;

  const double third = 1.0 / 3.0;
  double t0 = omp_get_wtime(), t1 = t0, t2 = t0;

#pragma omp target data map(tofrom : a[0 : n]) map(to : b[0 : n])
  {
    t1 = omp_get_wtime();
    for (int s = 0; s < sweeps; s++) {
#pragma omp target teams distribute parallel for
      for (long i = 1; i < n - 1; i++)
        b[i] = (a[i - 1] + a[i] + a[i + 1]) * third;
#pragma omp target teams distribute parallel for
      for (long i = 1; i < n - 1; i++)
        a[i] = (b[i - 1] + b[i] + b[i + 1]) * third;
    }
    t2 = omp_get_wtime();
  }
  double t3 = omp_get_wtime();

  double sum = 0.0;
  for (long i = 0; i < n; i++)
    sum += a[i];
  printf("stencil1d: n=%ld sweeps=%d checksum=%.12e\n", n, sweeps, sum);

  double secs = (t2 - t1 > 0.0) ? t2 - t1 : 1e-30;
  fprintf(stderr, "stencil1d: devices=%d\n", omp_get_num_devices());
  fprintf(stderr,
          "stencil1d: total %.6f s (to device %.6f s, sweeps %.6f s, "
          "from device %.6f s)\n",
          t3 - t0, t1 - t0, t2 - t1, t3 - t2);
  fprintf(stderr, "stencil1d: %.1f Mpoint-updates/s\n",
          2.0 * (double)(n - 2) * sweeps / secs * 1e-6);

  free(a);
  free(b);
  return 0;
}

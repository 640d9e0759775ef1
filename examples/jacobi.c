/*
 * jacobi.c - 2-D Jacobi relaxation (5-point stencil) for Laplace's equation
 * on an N x N grid of doubles.  The top edge is held at 1.0, the other
 * edges at 0.0, the interior starts at 0.0; every sweep replaces each
 * interior point by the mean of its four neighbours.
 *
 * OpenMP offload constructs exercised:
 *   #pragma omp target data map(tofrom: a[0:n*n]) map(alloc: b[0:n*n])
 *       - both grids stay resident on the device for the whole run
 *   #pragma omp target teams distribute parallel for collapse(2)
 *       - the stencil sweep over the interior, flattened a[i*n+j] indexing
 *         (mode "collapse"; mode "rows" distributes the rows only, each
 *         iteration sweeping one row with a sequential inner loop)
 *   #pragma omp target teams distribute parallel for
 *       - 1-D copy kernels; the two grids are swapped by pointer each
 *         sweep (pointers not named in a map clause are translated to
 *         their device copies)
 *
 * Usage: jacobi [N] [ITERS] [collapse|rows]
 *        (defaults: N=1024, ITERS=100, collapse)
 *
 * stdout: one line, "jacobi: n=N iters=ITERS checksum=<sum of all points>",
 * the checksum computed on the host, in row-major order, after the data
 * region has copied the grid back.  Timings go to stderr.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <omp.h>

#include "example-util.h"

static void usage(const char *prog) {
  fprintf(stderr,
          "usage: %s [N] [ITERS] [collapse|rows]\n"
          "  N      grid edge length, 3..131072 (default 1024)\n"
          "  ITERS  Jacobi sweeps, 1..1000000 (default 100)\n"
          "  collapse: one iteration per point (default); rows: per row\n",
          prog);
}

int main(int argc, char **argv) {
  long n = 1024;
  int iters = 100, rows = 0;

  if (argc > 4 || (argc > 1 && parse_long(argv[1], 3, 131072, &n) != 0) ||
      (argc > 2 && parse_int(argv[2], 1, 1000000, &iters) != 0) ||
      (argc > 3 && strcmp(argv[3], "collapse") != 0 &&
       !(rows = strcmp(argv[3], "rows") == 0))) {
    usage(argv[0]);
    return 2;
  }

  /* 64-bit indices: from N = 46341 on, N * N is past INT_MAX (a grid of
   * 110 GB, larger than one GPU's share, is N = 83000). */
  const long nn = n * n;
  double *a = malloc((size_t)nn * sizeof *a);
  double *b = malloc((size_t)nn * sizeof *b);
  if (a == NULL || b == NULL) {
    fprintf(stderr, "jacobi: out of memory for n=%ld\n", n);
    return 1;
  }

  for (long i = 0; i < n; i++)
    for (long j = 0; j < n; j++)
      a[i * n + j] = (i == 0) ? 1.0 : 0.0;

  double t0 = omp_get_wtime(), t1 = t0, t2 = t0;

#pragma omp target data map(tofrom : a[0 : n * n]) map(alloc : b[0 : n * n])
  {
    /* b needs the same fixed boundary values as a. */
#pragma omp target teams distribute parallel for
    for (long k = 0; k < nn; k++)
      b[k] = a[k];

    t1 = omp_get_wtime();

    double *src = a, *dst = b;
    for (int it = 0; it < iters; it++) {
      if (rows) {
#pragma omp target teams distribute parallel for
        for (long i = 1; i < n - 1; i++)
          for (long j = 1; j < n - 1; j++)
            dst[i * n + j] =
                0.25 * (src[(i - 1) * n + j] + src[(i + 1) * n + j] +
                        src[i * n + (j - 1)] + src[i * n + (j + 1)]);
      } else {
#pragma omp target teams distribute parallel for collapse(2)
        for (long i = 1; i < n - 1; i++)
          for (long j = 1; j < n - 1; j++)
            dst[i * n + j] =
                0.25 * (src[(i - 1) * n + j] + src[(i + 1) * n + j] +
                        src[i * n + (j - 1)] + src[i * n + (j + 1)]);
      }
      double *t = src;
      src = dst;
      dst = t;
    }

    /* After an odd number of sweeps the newest grid is b. */
    if (src != a) {
#pragma omp target teams distribute parallel for
      for (long k = 0; k < nn; k++)
        a[k] = src[k];
    }

    t2 = omp_get_wtime();
  }

  double t3 = omp_get_wtime();

  double checksum = 0.0;
  for (long i = 0; i < n; i++)
    for (long j = 0; j < n; j++)
      checksum += a[i * n + j];

  printf("jacobi: n=%ld iters=%d checksum=%.12e\n", n, iters, checksum);

  double sweeps = (t2 - t1 > 0.0) ? t2 - t1 : 1e-30;
  fprintf(stderr, "jacobi: devices=%d\n", omp_get_num_devices());
  fprintf(stderr,
          "jacobi: total %.6f s (to device %.6f s, sweeps %.6f s, "
          "from device %.6f s)\n",
          t3 - t0, t1 - t0, t2 - t1, t3 - t2);
  fprintf(stderr, "jacobi: %.1f Mpoint-updates/s\n",
          (double)(n - 2) * (double)(n - 2) * iters / sweeps * 1e-6);

  free(a);
  free(b);
  return 0;
}

/*
 * stream.c - memory bandwidth: a STREAM triad followed by a dot product,
 * repeated, on three arrays of N doubles resident on the device.  The
 * kernels do almost no arithmetic, so the time is the memory system's and
 * any data movement or launch overhead a runtime adds shows at once.
 *
 * OpenMP offload constructs exercised:
 *   #pragma omp target data map(to: b[0:n], c[0:n]) map(from: a[0:n])
 *       - the three arrays stay resident for all repetitions
 *   #pragma omp target teams distribute parallel for
 *       - the triad a[i] = b[i] + s * c[i]
 *   #pragma omp target teams distribute parallel for reduction(+:dot)
 *       - the dot product of a and b
 *
 * Usage: stream [N] [REPS]        (defaults: N=2^24, REPS=20)
 *
 * stdout: "stream: n=N reps=REPS asum=<sum of a, on the host> dot=<last
 * dot product>"; dot is a floating-point reduction (its rounding depends on
 * the combination order).  The bandwidth goes to stderr, counting 3 arrays
 * moved by the triad and 2 by the dot product per repetition.
 */
#include <stdio.h>
#include <stdlib.h>

#include <omp.h>

#include "example-util.h"

static void usage(const char *prog) {
  fprintf(stderr,
          "usage: %s [N] [REPS]\n"
          "  N     array length, 1..1073741824 (default 16777216)\n"
          "  REPS  repetitions, 1..1000000 (default 20)\n",
          prog);
}

int main(int argc, char **argv) {
  int n = 1 << 24, reps = 20;

  if (argc > 3 || (argc > 1 && parse_int(argv[1], 1, 1L << 30, &n) != 0) ||
      (argc > 2 && parse_int(argv[2], 1, 1000000, &reps) != 0)) {
    usage(argv[0]);
    return 2;
  }

  double *a = malloc((size_t)n * sizeof *a);
  double *b = malloc((size_t)n * sizeof *b);
  double *c = malloc((size_t)n * sizeof *c);
  if (a == NULL || b == NULL || c == NULL) {
    fprintf(stderr, "stream: out of memory for n=%d\n", n);
    return 1;
  }
  for (int i = 0; i < n; i++) {
    b[i] = 1.0 + (double)(i % 1000) * 1e-3;
    c[i] = 2.0 - (double)(i % 777) * 1e-3;
  }

  const double s = 3.0;
  double dot = 0.0;
  double t0 = omp_get_wtime(), t1 = t0, t2 = t0;

#pragma omp target data map(to : b[0 : n], c[0 : n]) map(from : a[0 : n])
  {
    /* One untimed repetition: first touches and lazy setup. */
#pragma omp target teams distribute parallel for
    for (int i = 0; i < n; i++)
      a[i] = b[i] + s * c[i];

    t1 = omp_get_wtime();
    for (int r = 0; r < reps; r++) {
#pragma omp target teams distribute parallel for
      for (int i = 0; i < n; i++)
        a[i] = b[i] + s * c[i];
      double d = 0.0;
#pragma omp target teams distribute parallel for reduction(+ : d)
      for (int i = 0; i < n; i++)
        d += a[i] * b[i];
      dot = d;
    }
    t2 = omp_get_wtime();
  }
  double t3 = omp_get_wtime();

  double asum = 0.0;
  for (int i = 0; i < n; i++)
    asum += a[i];
  printf("stream: n=%d reps=%d asum=%.12e dot=%.12e\n", n, reps, asum, dot);

  double secs = (t2 - t1 > 0.0) ? t2 - t1 : 1e-30;
  fprintf(stderr, "stream: devices=%d\n", omp_get_num_devices());
  fprintf(stderr,
          "stream: total %.6f s (to device %.6f s, repetitions %.6f s, "
          "from device %.6f s)\n",
          t3 - t0, t1 - t0, t2 - t1, t3 - t2);
  fprintf(stderr, "stream: %.1f GB/s\n",
          5.0 * sizeof(double) * (double)n * reps / secs * 1e-9);

  free(a);
  free(b);
  free(c);
  return 0;
}

/*
 * launch.c - the cost of one target region: a kernel over a few elements,
 * launched many times inside one target data region, so that the time is
 * the runtime's per-launch overhead (argument mapping, launch, completion)
 * and not the work.
 *
 * OpenMP offload constructs exercised:
 *   #pragma omp target data map(tofrom: v[0:n])
 *   #pragma omp target teams distribute parallel for
 *       - v[i] = v[i] * 0.5 + 1.0                      (mode "plain")
 *   #pragma omp target teams distribute parallel for reduction(+:s)
 *       - the same update, and s += v[i]               (mode "reduction")
 *
 * Usage: launch [plain|reduction] [LAUNCHES] [N]
 *        (defaults: plain, 5000 launches, N=1024)
 *
 * stdout: "launch: mode=M launches=L n=N vsum=<sum of v> s=<last s>"; every
 * value is exact in double precision, so the line is the same everywhere.
 * The time per launch goes to stderr.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <omp.h>

#include "example-util.h"

static void usage(const char *prog) {
  fprintf(stderr,
          "usage: %s [plain|reduction] [LAUNCHES] [N]\n"
          "  LAUNCHES  target regions, 1..10000000 (default 5000)\n"
          "  N         elements per kernel, 1..1048576 (default 1024)\n",
          prog);
}

int main(int argc, char **argv) {
  int launches = 5000, n = 1024, reduce = 0;

  if (argc > 1) {
    if (strcmp(argv[1], "reduction") == 0)
      reduce = 1;
    else if (strcmp(argv[1], "plain") != 0) {
      usage(argv[0]);
      return 2;
    }
  }
  if (argc > 4 || (argc > 2 && parse_int(argv[2], 1, 10000000, &launches)) ||
      (argc > 3 && parse_int(argv[3], 1, 1048576, &n) != 0)) {
    usage(argv[0]);
    return 2;
  }

  double *v = malloc((size_t)n * sizeof *v);
  if (v == NULL) {
    fprintf(stderr, "launch: out of memory\n");
    return 1;
  }
  for (int i = 0; i < n; i++)
    v[i] = (double)(i % 64);

  double s = 0.0;
  double t0 = omp_get_wtime(), t1 = t0, t2 = t0;
#pragma omp target data map(tofrom : v[0 : n])
  {
    /* One untimed launch: first touches and lazy setup. */
#pragma omp target teams distribute parallel for
    for (int i = 0; i < n; i++)
      v[i] = v[i] * 0.5 + 1.0;

    t1 = omp_get_wtime();
    if (reduce) {
      for (int l = 0; l < launches; l++) {
        double r = 0.0;
#pragma omp target teams distribute parallel for reduction(+ : r)
        for (int i = 0; i < n; i++) {
          v[i] = v[i] * 0.5 + 1.0;
          r += v[i];
        }
        s = r;
      }
    } else {
      for (int l = 0; l < launches; l++) {
#pragma omp target teams distribute parallel for
        for (int i = 0; i < n; i++)
          v[i] = v[i] * 0.5 + 1.0;
      }
    }
    t2 = omp_get_wtime();
  }
  double t3 = omp_get_wtime();

  double vsum = 0.0;
  for (int i = 0; i < n; i++)
    vsum += v[i];
  printf("launch: mode=%s launches=%d n=%d vsum=%.17g s=%.17g\n",
         reduce ? "reduction" : "plain", launches, n, vsum, s);
  fprintf(stderr, "launch: devices=%d\n", omp_get_num_devices());
  fprintf(stderr, "launch: total %.6f s (launches %.6f s)\n", t3 - t0, t2 - t1);
  fprintf(stderr, "launch: %.2f us per launch\n", (t2 - t1) / launches * 1e6);
  free(v);
  return 0;
}

/*
 * himeno.c - the Himeno benchmark: Jacobi iterations of a 19-point
 * pressure Poisson solver in single precision (after himenobmtxpa.c by
 * Ryutaro Himeno, RIKEN), with the same initial data: p(i,j,k) =
 * i^2/(imax-1)^2, a = (1,1,1,1/6), b = 0, c = 1, bnd = 1, wrk1 = 0,
 * omega = 0.8.
 *
 * Arrays p, a (4 planes), b (3), c (3), bnd, wrk1, wrk2 are flat 1-D float
 * arrays, plane-major then i, j, k (k fastest).
 *
 * OpenMP offload constructs exercised:
 *   #pragma omp target data map(to: ...) map(tofrom: p[...]) map(alloc: ...)
 *       - every array stays resident on the device for all iterations
 *   #pragma omp target teams distribute parallel for collapse(2)
 *           reduction(+:gosa)
 *       - the Jacobi kernel over (i,j) with a sequential inner k loop,
 *         summing the squared residual
 *   #pragma omp target teams distribute parallel for collapse(2)
 *       - the copy-back kernel wrk2 -> p
 *
 * The residual is summed in double: every term ss*ss is exact in double,
 * so only the order of the additions can differ between devices.
 *
 * Usage: himeno [XS|S|M|L] [ITERS]   (defaults: S 20)
 *   XS = 33x33x65, S = 65x65x129, M = 129x129x257, L = 257x257x513
 *
 * stdout: "himeno: size=S iters=20 gosa=<gosa of the last iteration>".
 * Time and MFLOPS (34 flops per interior point) go to stderr.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <omp.h>

#include "example-util.h"

static const struct {
  const char *name;
  int mimax, mjmax, mkmax;
} sizes[] = {
    {"XS", 33, 33, 65},
    {"S", 65, 65, 129},
    {"M", 129, 129, 257},
    {"L", 257, 257, 513},
};

static void usage(const char *prog) {
  fprintf(stderr,
          "usage: %s [XS|S|M|L] [ITERS]\n"
          "  size   XS=33x33x65 S=65x65x129 M=129x129x257 L=257x257x513"
          " (default S)\n"
          "  ITERS  Jacobi iterations, 1..1000000 (default 20)\n",
          prog);
}

static float *alloc_planes(int planes, int len) {
  float *m = malloc((size_t)planes * (size_t)len * sizeof *m);
  if (m == NULL) {
    fprintf(stderr, "himeno: out of memory\n");
    exit(1);
  }
  return m;
}

static void set_plane(float *m, int plane, int len, float v) {
  for (int x = 0; x < len; x++)
    m[(size_t)plane * len + x] = v;
}

int main(int argc, char **argv) {
  int sz = 1, iters = 20;

  if (argc > 3) {
    usage(argv[0]);
    return 2;
  }
  if (argc > 1) {
    sz = -1;
    for (int s = 0; s < (int)(sizeof sizes / sizeof sizes[0]); s++)
      if (strcmp(argv[1], sizes[s].name) == 0)
        sz = s;
    if (sz < 0) {
      usage(argv[0]);
      return 2;
    }
  }
  if (argc > 2 && parse_int(argv[2], 1, 1000000, &iters) != 0) {
    usage(argv[0]);
    return 2;
  }

  const int mimax = sizes[sz].mimax;
  const int mjmax = sizes[sz].mjmax;
  const int mkmax = sizes[sz].mkmax;
  const int len = mimax * mjmax * mkmax; /* one plane */
  const int imax = mimax - 1, jmax = mjmax - 1, kmax = mkmax - 1;
  const float omega = 0.8f;

  float *p = alloc_planes(1, len);
  float *a = alloc_planes(4, len);
  float *b = alloc_planes(3, len);
  float *c = alloc_planes(3, len);
  float *bnd = alloc_planes(1, len);
  float *wrk1 = alloc_planes(1, len);
  float *wrk2 = alloc_planes(1, len);

  for (int i = 0; i < mimax; i++)
    for (int j = 0; j < mjmax; j++)
      for (int k = 0; k < mkmax; k++)
        p[(i * mjmax + j) * mkmax + k] =
            (float)(i * i) / (float)((mimax - 1) * (mimax - 1));
  set_plane(a, 0, len, 1.0f);
  set_plane(a, 1, len, 1.0f);
  set_plane(a, 2, len, 1.0f);
  set_plane(a, 3, len, 1.0f / 6.0f);
  set_plane(b, 0, len, 0.0f);
  set_plane(b, 1, len, 0.0f);
  set_plane(b, 2, len, 0.0f);
  set_plane(c, 0, len, 1.0f);
  set_plane(c, 1, len, 1.0f);
  set_plane(c, 2, len, 1.0f);
  set_plane(bnd, 0, len, 1.0f);
  set_plane(wrk1, 0, len, 0.0f);
  set_plane(wrk2, 0, len, 0.0f);

/* Element (l, i, j, k) of a multi-plane array; P for the pressure. */
#define IDX(l, i, j, k) ((((l) * mimax + (i)) * mjmax + (j)) * mkmax + (k))
#define P(i, j, k) p[IDX(0, i, j, k)]

  double gosa = 0.0;
  double t0 = omp_get_wtime(), t1 = t0, t2 = t0;

#pragma omp target data map(tofrom : p[0 : len])                               \
    map(to : a[0 : 4 * len], b[0 : 3 * len], c[0 : 3 * len], bnd[0 : len],     \
            wrk1[0 : len]) map(alloc : wrk2[0 : len])
  {
    t1 = omp_get_wtime();

    for (int n = 0; n < iters; n++) {
      gosa = 0.0;

#pragma omp target teams distribute parallel for collapse(2) reduction(+ : gosa)
      for (int i = 1; i < imax; i++)
        for (int j = 1; j < jmax; j++)
          for (int k = 1; k < kmax; k++) {
            float s0 =
                a[IDX(0, i, j, k)] * P(i + 1, j, k) +
                a[IDX(1, i, j, k)] * P(i, j + 1, k) +
                a[IDX(2, i, j, k)] * P(i, j, k + 1) +
                b[IDX(0, i, j, k)] * (P(i + 1, j + 1, k) - P(i + 1, j - 1, k) -
                                      P(i - 1, j + 1, k) + P(i - 1, j - 1, k)) +
                b[IDX(1, i, j, k)] * (P(i, j + 1, k + 1) - P(i, j - 1, k + 1) -
                                      P(i, j + 1, k - 1) + P(i, j - 1, k - 1)) +
                b[IDX(2, i, j, k)] * (P(i + 1, j, k + 1) - P(i - 1, j, k + 1) -
                                      P(i + 1, j, k - 1) + P(i - 1, j, k - 1)) +
                c[IDX(0, i, j, k)] * P(i - 1, j, k) +
                c[IDX(1, i, j, k)] * P(i, j - 1, k) +
                c[IDX(2, i, j, k)] * P(i, j, k - 1) + wrk1[IDX(0, i, j, k)];

            float ss =
                (s0 * a[IDX(3, i, j, k)] - P(i, j, k)) * bnd[IDX(0, i, j, k)];

            gosa += (double)ss * ss;
            wrk2[IDX(0, i, j, k)] = P(i, j, k) + omega * ss;
          }

#pragma omp target teams distribute parallel for collapse(2)
      for (int i = 1; i < imax; i++)
        for (int j = 1; j < jmax; j++)
          for (int k = 1; k < kmax; k++)
            P(i, j, k) = wrk2[IDX(0, i, j, k)];
    }

    t2 = omp_get_wtime();
  }

  double t3 = omp_get_wtime();

  printf("himeno: size=%s iters=%d gosa=%.9e\n", sizes[sz].name, iters, gosa);

  double secs = (t2 - t1 > 0.0) ? t2 - t1 : 1e-30;
  double flop = 34.0 * (double)(imax - 1) * (double)(jmax - 1) *
                (double)(kmax - 1) * iters;
  fprintf(stderr, "himeno: grid %dx%dx%d, devices=%d\n", mimax, mjmax, mkmax,
          omp_get_num_devices());
  fprintf(stderr,
          "himeno: total %.6f s (to device %.6f s, iterations "
          "%.6f s, from device %.6f s)\n",
          t3 - t0, t1 - t0, t2 - t1, t3 - t2);
  fprintf(stderr, "himeno: %.1f MFLOPS\n", flop / secs * 1e-6);

  free(p);
  free(a);
  free(b);
  free(c);
  free(bnd);
  free(wrk1);
  free(wrk2);
  return 0;
}

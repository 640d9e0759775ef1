/*
 * cg.c - unpreconditioned conjugate gradient on a sparse symmetric
 * positive definite matrix in CSR form.  The matrix is the 2-D 5-point
 * Laplacian on a K x K grid (Dirichlet boundary) plus a diagonal shift of
 * 0.1, so n = K*K, every row holds at most 5 entries, and the eigenvalues
 * lie in (0.1, 8.1).  The right-hand side comes from a fixed-seed LCG;
 * x starts at 0.  After ITERS iterations the true residual ||b - A x||
 * is computed on the device.
 *
 * OpenMP offload constructs exercised:
 *   #pragma omp target data map(to: ...) map(from: x[0:n]) map(alloc: ...)
 *       - the matrix and all vectors stay resident for every iteration
 *   #pragma omp target teams distribute parallel for
 *       - SpMV over rows with indirect reads x[col[j]]; axpy-type updates
 *   #pragma omp target teams distribute parallel for reduction(+:s)
 *       - dot products
 * The kernels live in small functions called inside the target data
 * region; their pointer arguments are translated to the resident copies.
 *
 * Usage: cg [K] [ITERS]           (defaults: K=256, ITERS=50)
 *
 * stdout: "cg: n=N iters=ITERS rnorm=<||b-Ax||> xsum=<sum of x>", xsum
 * taken on the host in index order after the data region.  Timings go
 * to stderr.
 */
#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include <omp.h>

#include "example-util.h"

#define SHIFT 0.1

static void usage(const char *prog) {
  fprintf(stderr,
          "usage: %s [K] [ITERS]\n"
          "  K      grid edge length, n = K*K unknowns, 2..8192 "
          "(default 256)\n"
          "  ITERS  CG iterations, 1..1000000 (default 50)\n",
          prog);
}

static void *xmalloc(size_t bytes) {
  void *v = malloc(bytes);
  if (v == NULL) {
    fprintf(stderr, "cg: out of memory\n");
    exit(1);
  }
  return v;
}

/* y = A x */
static void spmv(int n, const int *rowptr, const int *col, const double *val,
                 const double *x, double *y) {
#pragma omp target teams distribute parallel for
  for (int i = 0; i < n; i++) {
    double sum = 0.0;
    for (int j = rowptr[i]; j < rowptr[i + 1]; j++)
      sum += val[j] * x[col[j]];
    y[i] = sum;
  }
}

/* returns x . y */
static double dot(int n, const double *x, const double *y) {
  double s = 0.0;
#pragma omp target teams distribute parallel for reduction(+ : s)
  for (int i = 0; i < n; i++)
    s += x[i] * y[i];
  return s;
}

/* y = y + alpha x */
static void axpy(int n, double alpha, const double *x, double *y) {
#pragma omp target teams distribute parallel for
  for (int i = 0; i < n; i++)
    y[i] += alpha * x[i];
}

/* y = x + beta y */
static void xpby(int n, const double *x, double beta, double *y) {
#pragma omp target teams distribute parallel for
  for (int i = 0; i < n; i++)
    y[i] = x[i] + beta * y[i];
}

/* y = x - y */
static void xmy(int n, const double *x, double *y) {
#pragma omp target teams distribute parallel for
  for (int i = 0; i < n; i++)
    y[i] = x[i] - y[i];
}

/* y = x */
static void copy(int n, const double *x, double *y) {
#pragma omp target teams distribute parallel for
  for (int i = 0; i < n; i++)
    y[i] = x[i];
}

/* y = 0 */
static void zero(int n, double *y) {
#pragma omp target teams distribute parallel for
  for (int i = 0; i < n; i++)
    y[i] = 0.0;
}

int main(int argc, char **argv) {
  int k = 256, iters = 50;

  if (argc > 3 || (argc > 1 && parse_int(argv[1], 2, 8192, &k) != 0) ||
      (argc > 2 && parse_int(argv[2], 1, 1000000, &iters) != 0)) {
    usage(argv[0]);
    return 2;
  }

  const int n = k * k;
  const int nnz = 5 * n - 4 * k; /* 5 per row minus boundary neighbours */

  int *rowptr = xmalloc((size_t)(n + 1) * sizeof *rowptr);
  int *col = xmalloc((size_t)nnz * sizeof *col);
  double *val = xmalloc((size_t)nnz * sizeof *val);
  double *b = xmalloc((size_t)n * sizeof *b);
  double *x = xmalloc((size_t)n * sizeof *x);
  double *r = xmalloc((size_t)n * sizeof *r);
  double *p = xmalloc((size_t)n * sizeof *p);
  double *q = xmalloc((size_t)n * sizeof *q);

  /* Row-major grid numbering, columns ascending within each row. */
  int e = 0;
  for (int gi = 0; gi < k; gi++)
    for (int gj = 0; gj < k; gj++) {
      int row = gi * k + gj;
      rowptr[row] = e;
      if (gi > 0) {
        col[e] = row - k;
        val[e++] = -1.0;
      }
      if (gj > 0) {
        col[e] = row - 1;
        val[e++] = -1.0;
      }
      col[e] = row;
      val[e++] = 4.0 + SHIFT;
      if (gj < k - 1) {
        col[e] = row + 1;
        val[e++] = -1.0;
      }
      if (gi < k - 1) {
        col[e] = row + k;
        val[e++] = -1.0;
      }
    }
  rowptr[n] = e;
  if (e != nnz) {
    fprintf(stderr, "cg: internal error: nnz %d != %d\n", e, nnz);
    return 1;
  }

  uint32_t seed = 2024u;
  for (int i = 0; i < n; i++) {
    seed = seed * 1664525u + 1013904223u;
    b[i] = (double)(seed >> 8) / 16777216.0; /* [0, 1) */
  }

  double rho = 0.0, rnorm = 0.0;
  int done = 0;
  double t0 = omp_get_wtime(), t1 = t0, t2 = t0;

#pragma omp target data map(to : rowptr[0 : n + 1], col[0 : nnz],              \
                                val[0 : nnz], b[0 : n]) map(from : x[0 : n])   \
    map(alloc : r[0 : n], p[0 : n], q[0 : n])
  {
    t1 = omp_get_wtime();

    zero(n, x);    /* x = 0     */
    copy(n, b, r); /* r = b     */
    copy(n, r, p); /* p = r     */
    rho = dot(n, r, r);

    for (done = 0; done < iters && rho > 0.0; done++) {
      spmv(n, rowptr, col, val, p, q); /* q = A p          */
      double pq = dot(n, p, q);
      if (!(pq > 0.0)) /* fully converged  */
        break;
      double alpha = rho / pq;
      axpy(n, alpha, p, x);  /* x = x + alpha p  */
      axpy(n, -alpha, q, r); /* r = r - alpha q  */
      double rho_new = dot(n, r, r);
      xpby(n, r, rho_new / rho, p); /* p = r + beta p   */
      rho = rho_new;
    }

    /* True residual, reusing q: q = b - A x. */
    spmv(n, rowptr, col, val, x, q);
    xmy(n, b, q);
    rnorm = sqrt(dot(n, q, q));

    t2 = omp_get_wtime();
  }

  double t3 = omp_get_wtime();

  double xsum = 0.0;
  for (int i = 0; i < n; i++)
    xsum += x[i];

  printf("cg: n=%d iters=%d rnorm=%.12e xsum=%.12e\n", n, done, rnorm, xsum);

  double secs = (t2 - t1 > 0.0) ? t2 - t1 : 1e-30;
  fprintf(stderr, "cg: nnz=%d devices=%d\n", nnz, omp_get_num_devices());
  double bnorm = 0.0;
  for (int i = 0; i < n; i++)
    bnorm += b[i] * b[i];
  fprintf(stderr, "cg: ||b|| %.6e, recurrence residual %.6e\n", sqrt(bnorm),
          sqrt(rho));
  fprintf(stderr,
          "cg: total %.6f s (to device %.6f s, solve %.6f s, "
          "from device %.6f s)\n",
          t3 - t0, t1 - t0, t2 - t1, t3 - t2);
  fprintf(stderr, "cg: %.3f ms per iteration\n",
          secs / (done > 0 ? done : 1) * 1e3);

  free(rowptr);
  free(col);
  free(val);
  free(b);
  free(x);
  free(r);
  free(p);
  free(q);
  return 0;
}

/*
 * mpi-jacobi.c - why this file exists: hetero must work inside each rank of
 * an MPI job (several processes of one program on one node, each with its
 * own hetero pool), with the halo exchange done by MPI between ranks and by
 * `target update` between each rank's host and its pool, and the result must
 * not depend on how many ranks there are.  tests/mpi/run-mpi-test.sh builds
 * it, runs it with one and with two ranks and compares the grids bitwise.
 *
 * The program: 2-D Jacobi relaxation (5-point stencil) on a grid of
 * (NY + 2) x (NX + 2) doubles, NY x NX interior points, fixed boundary
 * values, deterministic initial interior, all defined by global indices so
 * that any decomposition computes the same numbers.  The interior rows are
 * decomposed into contiguous blocks over the ranks (the rank count must
 * divide NY; one rank holds the whole domain).  Each rank keeps its block
 * plus one halo (or boundary) row above and below:
 *
 *   #pragma omp target data map(tofrom: a[0:(rows+2)*W]) map(alloc: b[...])
 *   per sweep:
 *     target teams distribute parallel for collapse(2)   b = stencil(a)
 *     target teams distribute parallel for collapse(2)   a = b (interior)
 *     target update from(a[W:W]); from(a[rows*W:W])      first/last rows
 *     MPI_Sendrecv with the neighbours                   halo rows
 *     target update to(a[0:W]); to(a[(rows+1)*W:W])      halo rows
 *
 * The kernels are plain affine loops in their own functions (so their names,
 * `..._sweep_stencil_l<line>` and `..._sweep_copy_l<line>`, are easy to find
 * in HETERO_STATS) and hetero splits them over its members.
 *
 * Usage: mpi-jacobi OUTFILE [SWEEPS [NY NX]]  (defaults 50, 512, 256)
 *
 * stdout: every rank prints `rank R of S: cpus <list>`, its CPU affinity
 * (sched_getaffinity, like `0-3,6`) read after the target regions ran
 * (hetero may narrow a rank's affinity when it starts); rank 0 then prints
 * `mpi-jacobi: ranks=S ny=NY nx=NX sweeps=N checksum=<sum> bits=<hex>` and
 * writes the whole final grid, (NY + 2) * (NX + 2) doubles in row-major
 * order, as raw bytes to OUTFILE.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <sched.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <mpi.h>

/* Exact sums and products of a few terms: no contraction anywhere, so the
   host fallback and every hetero member round alike. */
#pragma STDC FP_CONTRACT OFF

/* Fixed boundary values and the initial interior, by global row gi
   (0 .. NY+1) and column j (0 .. NX+1). */
static double initial(int gi, int j, int ny, int nx) {
  if (gi == 0)
    return 1.0;
  if (gi == ny + 1)
    return 0.25;
  if (j == 0)
    return 0.5 + (double)(gi % 7) / 16.0;
  if (j == nx + 1)
    return (double)(gi % 5) / 8.0;
  return (double)((gi * 31 + j * 17) % 97) / 97.0;
}

/* b = stencil(a) over the interior rows 1 .. rows, columns 1 .. w-2. */
static void sweep_stencil(double *a, double *b, int rows, int w) {
#pragma omp target teams distribute parallel for collapse(2)
  for (int i = 1; i <= rows; i++)
    for (int j = 1; j < w - 1; j++)
      b[i * w + j] = 0.25 * (a[(i - 1) * w + j] + a[(i + 1) * w + j] +
                             a[i * w + (j - 1)] + a[i * w + (j + 1)]);
}

/* a = b over the same interior. */
static void sweep_copy(double *a, double *b, int rows, int w) {
#pragma omp target teams distribute parallel for collapse(2)
  for (int i = 1; i <= rows; i++)
    for (int j = 1; j < w - 1; j++)
      a[i * w + j] = b[i * w + j];
}

/* The calling thread's CPU affinity as a list like "0-3,6". */
static void format_cpus(char *out, size_t size) {
  cpu_set_t set;
  out[0] = '\0';
  if (sched_getaffinity(0, sizeof set, &set) != 0) {
    snprintf(out, size, "error(%s)", strerror(errno));
    return;
  }
  size_t len = 0;
  for (int c = 0; c < CPU_SETSIZE && len + 32 < size; c++) {
    if (!CPU_ISSET(c, &set))
      continue;
    int last = c;
    while (last + 1 < CPU_SETSIZE && CPU_ISSET(last + 1, &set))
      last++;
    len += (size_t)snprintf(out + len, size - len, "%s%d", len ? "," : "", c);
    if (last > c)
      len += (size_t)snprintf(out + len, size - len, "-%d", last);
    c = last;
  }
  if (len == 0)
    snprintf(out, size, "none");
}

static int parse_int(const char *s, int lo, int hi, int *out) {
  char *end;
  errno = 0;
  long v = strtol(s, &end, 10);
  if (errno != 0 || end == s || *end != '\0' || v < lo || v > hi)
    return -1;
  *out = (int)v;
  return 0;
}

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);

  int sweeps = 50, ny = 512, nx = 256;
  if (argc < 2 || argc > 5 || argc == 4 ||
      (argc > 2 && parse_int(argv[2], 1, 1000000, &sweeps) != 0) ||
      (argc > 3 && (parse_int(argv[3], 1, 1 << 15, &ny) != 0 ||
                    parse_int(argv[4], 1, 1 << 15, &nx) != 0))) {
    if (rank == 0)
      fprintf(stderr, "usage: %s OUTFILE [SWEEPS [NY NX]]\n", argv[0]);
    MPI_Finalize();
    return 2;
  }
  if (ny % size != 0) {
    if (rank == 0)
      fprintf(stderr, "mpi-jacobi: %d ranks do not divide %d rows\n", size, ny);
    MPI_Finalize();
    return 2;
  }

  const int w = nx + 2;
  const int rows = ny / size;    /* interior rows of this rank */
  const int first = rank * rows; /* global row of local row 0 */
  const int n = (rows + 2) * w;  /* local block with its halo rows */
  const int up = rank > 0 ? rank - 1 : MPI_PROC_NULL;
  const int down = rank < size - 1 ? rank + 1 : MPI_PROC_NULL;

  double *a = malloc((size_t)n * sizeof *a);
  double *b = malloc((size_t)n * sizeof *b);
  if (a == NULL || b == NULL) {
    fprintf(stderr, "mpi-jacobi: rank %d: out of memory\n", rank);
    MPI_Abort(MPI_COMM_WORLD, 1);
  }
  for (int i = 0; i < rows + 2; i++)
    for (int j = 0; j < w; j++)
      a[i * w + j] = initial(first + i, j, ny, nx);

  double t0 = MPI_Wtime();
#pragma omp target data map(tofrom : a[0 : n]) map(alloc : b[0 : n])
  {
    for (int it = 0; it < sweeps; it++) {
      sweep_stencil(a, b, rows, w);
      sweep_copy(a, b, rows, w);

      /* The rows the neighbours need, then the halo rows they send. */
#pragma omp target update from(a[w : w])
#pragma omp target update from(a[rows * w : w])
      MPI_Sendrecv(&a[w], w, MPI_DOUBLE, up, 0, &a[(rows + 1) * w], w,
                   MPI_DOUBLE, down, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
      MPI_Sendrecv(&a[rows * w], w, MPI_DOUBLE, down, 1, &a[0], w, MPI_DOUBLE,
                   up, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
      if (up != MPI_PROC_NULL) {
#pragma omp target update to(a[0 : w])
      }
      if (down != MPI_PROC_NULL) {
#pragma omp target update to(a[(rows + 1) * w : w])
      }
    }
  }
  double t1 = MPI_Wtime();

  /* Affinity after the target regions: hetero has started by now. One line
     per rank, in rank order. */
  char cpus[1024];
  format_cpus(cpus, sizeof cpus);
  for (int r = 0; r < size; r++) {
    if (r == rank) {
      printf("rank %d of %d: cpus %s\n", rank, size, cpus);
      fflush(stdout);
    }
    MPI_Barrier(MPI_COMM_WORLD);
  }

  /* Gather the whole grid on rank 0: each rank sends its interior rows, the
     first rank also the top boundary row, the last the bottom one. */
  int send_lo = rank == 0 ? 0 : 1;
  int send_hi = rank == size - 1 ? rows + 2 : rows + 1; /* exclusive */
  int *counts = NULL, *displs = NULL;
  double *grid = NULL;
  const size_t total = (size_t)(ny + 2) * (size_t)w;
  if (rank == 0) {
    counts = malloc((size_t)size * sizeof *counts);
    displs = malloc((size_t)size * sizeof *displs);
    grid = malloc(total * sizeof *grid);
    if (counts == NULL || displs == NULL || grid == NULL) {
      fprintf(stderr, "mpi-jacobi: rank 0: out of memory\n");
      MPI_Abort(MPI_COMM_WORLD, 1);
    }
    for (int r = 0; r < size; r++) {
      int lo = r == 0 ? 0 : 1, hi = r == size - 1 ? rows + 2 : rows + 1;
      counts[r] = (hi - lo) * w;
      displs[r] = (r * rows + lo) * w;
    }
  }
  MPI_Gatherv(&a[send_lo * w], (send_hi - send_lo) * w, MPI_DOUBLE, grid,
              counts, displs, MPI_DOUBLE, 0, MPI_COMM_WORLD);

  int rc = 0;
  if (rank == 0) {
    double checksum = 0.0;
    for (size_t k = 0; k < total; k++)
      checksum += grid[k];
    uint64_t bits;
    memcpy(&bits, &checksum, sizeof bits);
    printf("mpi-jacobi: ranks=%d ny=%d nx=%d sweeps=%d checksum=%.17g "
           "bits=%016llx\n",
           size, ny, nx, sweeps, checksum, (unsigned long long)bits);
    fprintf(stderr, "mpi-jacobi: sweeps took %.6f s\n", t1 - t0);
    FILE *f = fopen(argv[1], "wb");
    int ok = f != NULL && fwrite(grid, sizeof *grid, total, f) == total;
    if (f != NULL && fclose(f) != 0)
      ok = 0;
    if (!ok) {
      fprintf(stderr, "mpi-jacobi: cannot write %s: %s\n", argv[1],
              strerror(errno));
      rc = 1;
    }
    free(grid);
    free(counts);
    free(displs);
  }
  free(a);
  free(b);
  MPI_Finalize();
  return rc;
}

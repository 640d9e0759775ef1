// The program of the exit stress test (run-exit-stress.sh): `target nowait`
// kernels (libomp then makes its hidden-helper team) split over every
// CPU-side member, so that each StarPU worker runs chunks and becomes a
// libomp root thread; then main returns, and exit stops StarPU's workers
// while the hidden-helper team still stands.
#include <stdio.h>
#include <stdlib.h>

int main(void) {
  const int n = 1 << 15;
  double *a = malloc(n * sizeof(double)), *b = malloc(n * sizeof(double));
  for (int i = 0; i < n; ++i)
    a[i] = b[i] = i % 13;
#pragma omp target data map(tofrom : a[0 : n], b[0 : n])
  {
#pragma omp target teams distribute parallel for nowait
    for (int i = 0; i < n; ++i)
      a[i] = 2 * a[i] + 1;
#pragma omp target teams distribute parallel for nowait
    for (int i = 0; i < n; ++i)
      b[i] = 3 * b[i] - 1;
#pragma omp taskwait
  }
  double s = 0;
  for (int i = 0; i < n; ++i)
    s += a[i] + b[i];
  printf("sum=%.1f\n", s);
  return 0;
}

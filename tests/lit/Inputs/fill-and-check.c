// A program of one offloaded loop that prints "ok" when every element came
// back right: for tests about how a process starts, not about splitting.
#include <stdio.h>

#define N 4096

int main(void) {
  static double a[N];
#pragma omp target teams distribute parallel for map(from : a)
  for (int i = 0; i < N; ++i)
    a[i] = 0.5 * i;
  int bad = 0;
  for (int i = 0; i < N; ++i)
    bad += a[i] != 0.5 * i;
  printf("%s\n", bad ? "FAIL" : "ok");
  return bad != 0;
}

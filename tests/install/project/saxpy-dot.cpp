// A saxpy and a dot product over one target data region: built by an
// out-of-tree CMake project against an installed hetero, it must give the
// host's answer; both loops split over the pool.
#include <cstdio>
#include <vector>

int main() {
  const int N = 1 << 20;
  std::vector<double> X(N), Y(N);
  for (int I = 0; I < N; ++I) {
    X[I] = (I % 13) * 0.25;
    Y[I] = (I % 7) * 0.5;
  }
  double *XP = X.data(), *YP = Y.data(), Dot = 0;
#pragma omp target data map(to : XP[0 : N]) map(tofrom : YP[0 : N])
  {
#pragma omp target teams distribute parallel for
    for (int I = 0; I < N; ++I)
      YP[I] = 2.0 * XP[I] + YP[I];
#pragma omp target teams distribute parallel for reduction(+ : Dot)
    for (int I = 0; I < N; ++I)
      Dot += XP[I] * YP[I];
  }
  double Sum = 0;
  for (int I = 0; I < N; ++I)
    Sum += Y[I];
  std::printf("sum=%.3f dot=%.3f\n", Sum, Dot);
  return 0;
}

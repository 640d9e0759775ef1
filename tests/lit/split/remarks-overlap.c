// Writes whose chunks' sections will overlap are predicted at compile time
// (WritePrediction.h) and said as a missed split, naming the array and its
// line, not as a split: a write spread by an inner loop's constant range,
// a write that no loop variable moves, a collapsed transpose; a transpose
// over an inner loop overlaps only where that loop has more than 64 values
// (the run takes fewer one row at a time), which is said beside the split.
// A row-major write, a write exactly as wide as the split loop's stride and
// a halo update over a constant depth are splits.
// REQUIRES: compiler
// RUN: %clang-hetero -c %s -o %t.o -Rpass=hetero -Rpass-missed=hetero 2>&1 | %FileCheck %s --implicit-check-not=remark:
void transpose(int n, int ld, const double *A, double *T) {
// CHECK: remarks-overlap.c:[[@LINE+2]]:1: remark: hetero: loop splits at run time only where 'j' takes at most 64 values: else the chunks' writes of 'T' at remarks-overlap.c:[[@LINE+6]] overlap (its offset moves by a stride set at run time along 'j' but 8 bytes along 'i', the loop the chunks split), and each launch runs whole [-Rpass-missed=hetero]
// CHECK: remarks-overlap.c:[[@LINE+1]]:1: remark: hetero: loop split across the pool's members (1 loop) [-Rpass=hetero]
#pragma omp target teams distribute parallel for map(to : A[0 : n * ld])       \
    map(from : T[0 : n * ld])
  for (int i = 0; i < n; ++i)
    for (int j = 0; j < n; ++j)
      T[j * ld + i] = A[i * ld + j];
}

void rows(int n, int ld, const double *A, double *B) {
// CHECK: remarks-overlap.c:[[@LINE+1]]:1: remark: hetero: loop split across the pool's members (1 loop) [-Rpass=hetero]
#pragma omp target teams distribute parallel for map(to : A[0 : n * ld])       \
    map(from : B[0 : n * ld])
  for (int i = 0; i < n; ++i)
    for (int j = 0; j < n; ++j)
      B[i * ld + j] = A[i * ld + j];
}

void spread(int n, const double *a, double *b) {
// CHECK: remarks-overlap.c:[[@LINE+1]]:1: remark: hetero: loop not split at run time: the chunks' writes of 'b' at remarks-overlap.c:[[@LINE+5]] will overlap (its offset moves by 8 bytes along 'k' but 8 bytes along 'i', the loop the chunks split), so each launch runs whole [-Rpass-missed=hetero]
#pragma omp target teams distribute parallel for map(to : a[0 : n])            \
    map(tofrom : b[0 : n + 2])
  for (int i = 0; i < n; ++i)
    for (int k = 0; k < 3; ++k)
      b[i + k] = a[i];
}

void pairs(int n, const double *a, double *b) {
// CHECK: remarks-overlap.c:[[@LINE+1]]:1: remark: hetero: loop split across the pool's members (1 loop) [-Rpass=hetero]
#pragma omp target teams distribute parallel for map(to : a[0 : n])            \
    map(from : b[0 : 2 * n])
  for (int i = 0; i < n; ++i)
    for (int k = 0; k < 2; ++k)
      b[2 * i + k] = a[i];
}

void same(int n, const double *a, double *b) {
// CHECK: remarks-overlap.c:[[@LINE+1]]:1: remark: hetero: loop not split at run time: the chunks' writes of 'b' at remarks-overlap.c:[[@LINE+4]] will overlap (the same bytes whatever the iteration), so each launch runs whole [-Rpass-missed=hetero]
#pragma omp target teams distribute parallel for map(to : a[0 : n])            \
    map(tofrom : b[0 : 1])
  for (int i = 0; i < n; ++i)
    b[0] = a[i];
}

void halo(int nx, double *f) {
// CHECK: remarks-overlap.c:[[@LINE+1]]:1: remark: hetero: loop split across the pool's members (1 loop) [-Rpass=hetero]
#pragma omp target teams distribute parallel for map(tofrom : f[0 : 4 * nx])
  for (int j = 0; j < nx; ++j)
    for (int k = 0; k < 2; ++k)
      f[j + (1 - k) * nx] = f[j + (2 + k) * nx];
}

void collapsed(int n, int ld, const double *A, double *T) {
// CHECK: remarks-overlap.c:[[@LINE+1]]:1: remark: hetero: loop not split at run time: the chunks' writes of 'T' at remarks-overlap.c:[[@LINE+5]] will overlap (its offset moves by a stride set at run time along 'j' but 8 bytes along 'i', the loop the chunks split), so each launch runs whole [-Rpass-missed=hetero]
#pragma omp target teams distribute parallel for collapse(2)                   \
    map(to : A[0 : n * ld]) map(from : T[0 : n * ld])
  for (int i = 0; i < n; ++i)
    for (int j = 0; j < n; ++j)
      T[j * ld + i] = A[i * ld + j];
}

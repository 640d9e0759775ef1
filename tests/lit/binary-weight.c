// What every hetero-built program pays: run without hetero, it costs what
// the stock runtime costs (at most 10 MiB of peak RSS and 10 ms more: hetero's
// libomptarget loads StarPU only when hetero is selected); under hetero on a
// machine whose pool has no GPU, at most 100 MiB, and no library of the CUDA
// toolkit but the CUDA runtime StarPU's CUDA workers link (StarPU loads
// cuBLAS and cuSPARSE only when asked, which hetero never does: cublasLt
// alone was 62 MiB resident; every hetero binary peaked at about 310 MiB).
// The program says which of StarPU's and CUDA's libraries it has mapped.
// REQUIRES: compiler
// RUN: %clang-hetero %s -o %t.hetero
// RUN: %clang-driver -O2 -fopenmp -fopenmp-targets=x86_64-unknown-linux-gnu %s -o %t.stock
// RUN: python3 %S/Inputs/binary-weight.py %t.stock %t.hetero | %FileCheck %s
// CHECK: PASS: without hetero, peak RSS at most 10 MiB over stock
// CHECK: PASS: without hetero, wall time at most 10 ms over stock
// CHECK: PASS: under hetero without GPUs, peak RSS at most 100 MiB
// CHECK: PASS: under hetero, no CUDA toolkit library mapped but the CUDA runtime
// CHECK: PASS: without hetero, neither StarPU nor a CUDA library mapped
#include <stdio.h>
#include <string.h>

int main(void) {
  int x = 0;
#pragma omp target map(tofrom : x)
  x = 42;
  FILE *Maps = fopen("/proc/self/maps", "r");
  char Line[4096], Seen[64][128];
  int NSeen = 0;
  while (Maps && fgets(Line, sizeof(Line), Maps)) {
    char *Name = strrchr(Line, '/');
    if (!Name)
      continue;
    ++Name;
    Name[strcspn(Name, "\n")] = 0;
    if (strncmp(Name, "libstarpu", 9) && strncmp(Name, "libcu", 5) &&
        strncmp(Name, "libnv", 5))
      continue;
    int Known = 0;
    for (int I = 0; I < NSeen; ++I)
      Known |= !strcmp(Seen[I], Name);
    if (!Known && NSeen < 64) {
      snprintf(Seen[NSeen++], sizeof(Seen[0]), "%s", Name);
      printf("mapped: %s\n", Name);
    }
  }
  if (Maps)
    fclose(Maps);
  printf("x=%d\n", x);
  return x != 42;
}

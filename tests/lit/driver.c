// The compiler entry points: plain clang-19 without "hetero"; with it, NVPTX
// images for every --offload-arch plus an x86_64 image, and clear errors.
// REQUIRES: compiler
// RUN: %clang-driver --version | %FileCheck %s --check-prefix=VERSION
// VERSION: clang version 19
//
// RUN: %clang-driver -O2 -fopenmp -fopenmp-targets=hetero --offload-arch=sm_80,sm_90 %s -o %t
// RUN: %llvm-objdump --offloading %t | %FileCheck %s --check-prefix=IMAGES
// IMAGES-DAG: triple x86_64-unknown-linux-gnu
// IMAGES-DAG: arch sm_80
// IMAGES-DAG: arch sm_90
//
// Linked against hetero's libomptarget by rpath: runs without LD_LIBRARY_PATH.
// RUN: env -u LD_LIBRARY_PATH LIBOMPTARGET_PLUGIN=hetero %t | %FileCheck %s
// CHECK: sum=4950 devices=1
//
// NVIDIA's offload flags, as a build system hard-codes them (Kokkos), mean
// hetero under --hetero-takes-nvptx: -Xopenmp-target -march picks the arch.
// RUN: %clang-driver -O2 -fopenmp --hetero-takes-nvptx -fopenmp-targets=nvptx64 -Xopenmp-target -march=sm_80 %s -o %t.nvptx
// RUN: %llvm-objdump --offloading %t.nvptx | %FileCheck %s --check-prefix=TAKEN
// TAKEN-DAG: triple x86_64-unknown-linux-gnu
// TAKEN-DAG: arch sm_80
// RUN: env -u LD_LIBRARY_PATH LIBOMPTARGET_PLUGIN=hetero %t.nvptx | %FileCheck %s
//
// RUN: env HETERO_CUDA_PATH=/nonexistent %not %clang-driver -fopenmp -fopenmp-targets=hetero %s -o %t.nocuda 2>&1 | %FileCheck %s --check-prefix=NOCUDA
// NOCUDA: hetero clang: -fopenmp-targets=hetero needs the CUDA toolkit
//
// An unknown plugin name is reported, and the program still runs (fallback).
// RUN: env LIBOMPTARGET_PLUGIN=nosuch %t 2>&1 | %FileCheck %s --check-prefix=UNKNOWN
// UNKNOWN: LIBOMPTARGET_PLUGIN names unknown plugin 'nosuch' (built: cuda,host,hetero)
#include <omp.h>
#include <stdio.h>

int main(void) {
  int sum = 0;
#pragma omp target teams distribute parallel for reduction(+ : sum)            \
    map(tofrom : sum)
  for (int i = 0; i < 100; i++)
    sum += i;
  printf("sum=%d devices=%d\n", sum, omp_get_num_devices());
  return 0;
}

// A program without offload code of its own dlopens a library that has some:
// hetero starts (init, then init_device, from libomptarget's registration)
// inside the library's constructor, under the dynamic loader's lock. The
// pool's start loads libraries itself (libcuda, StarPU's): started on a
// thread of its own and waited for there, it deadlocked (upstream
// offloading/dynamic_module_load.c hung), so it starts on the caller.
// REQUIRES: compiler
// RUN: %clang-hetero -DSHARED -fPIC -shared %s -o %t.so
// RUN: %clang-driver -O2 -fopenmp %s -o %t -ldl
// RUN: env HETERO_SIMULATE=2 timeout 120 %run-hetero %t %t.so | %FileCheck %s
// RUN: timeout 120 %run-hetero %t %t.so | %FileCheck %s
// CHECK: module: sum=4950
// CHECK: done
#ifdef SHARED
#include <stdio.h>
int moduleSum(void) {
  int a[100], sum = 0;
#pragma omp target teams distribute parallel for map(from : a)
  for (int i = 0; i < 100; ++i)
    a[i] = i;
  for (int i = 0; i < 100; ++i)
    sum += a[i];
  printf("module: sum=%d\n", sum);
  return sum;
}
#else
#include <dlfcn.h>
#include <stdio.h>
int main(int argc, char **argv) {
  if (argc < 2)
    return 2;
  void *Handle = dlopen(argv[1], RTLD_NOW);
  if (!Handle) {
    printf("dlopen failed: %s\n", dlerror());
    return 1;
  }
  int (*Sum)(void) = (int (*)(void))dlsym(Handle, "moduleSum");
  if (!Sum || Sum() != 4950)
    return 1;
  printf("done\n");
  return 0;
}
#endif

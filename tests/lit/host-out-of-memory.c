// Mapping more than the host (which holds every buffer of the hetero device)
// can give fails at once with one clear line, like the stock plugin's
// allocation failure on a GPU (libomptarget then stops the program), instead
// of committing host memory until the machine runs out: a 4 TB map(to:) (more
// than any of our machines has) from an address range that is only reserved.
// RUN: %clang-hetero %s -o %t
// RUN: %not --crash timeout 60 env %run-hetero %t 2>&1 | %FileCheck %s
// RUN: %not --crash timeout 60 env HETERO_SIMULATE=2 %run-hetero %t 2>&1 | %FileCheck %s
// CHECK: hetero: error: cannot allocate a 4.0 TB device buffer: the host, which holds every buffer of the hetero device, has {{[0-9.]+ [KMGT]?B}} available
// CHECK: omptarget fatal error 1: failure of target construct while offloading is mandatory
// CHECK-NOT: mapped
#include <stdio.h>
#include <sys/mman.h>

int main(void) {
  size_t n = (size_t)4000000000000 / sizeof(double);
  double *a = mmap(NULL, n * sizeof(double), PROT_READ | PROT_WRITE,
                   MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
  if (a == MAP_FAILED)
    return 2;
  double s = 0;
#pragma omp target map(to : a[0 : n]) map(from : s)
  s = a[n - 1];
  printf("mapped: %f\n", s);
  return 0;
}

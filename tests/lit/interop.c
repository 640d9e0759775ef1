// `interop init(targetsync: obj)` on the hetero device: the object is valid
// (its targetsync queue stands for the whole pool), the target region it
// orders runs, and destroy waits for it (OpenMP_VV 5.1 test_interop_target
// shape). LLVM 19's stock host plugin cannot create interop objects at all.
// RUN: %clang-hetero %s -o %t
// RUN: %run-hetero %t | %FileCheck %s
// RUN: env HETERO_SIMULATE=3 %run-hetero %t | %FileCheck %s
// RUN: env HETERO_SIMULATE=3 HETERO_MEMBER=sim:0 %run-hetero %t | %FileCheck %s
// CHECK: interop object: valid, targetsync set
// CHECK: errors=0
#include <omp.h>
#include <stdio.h>

#define N 1024

int main(void) {
  int A[N], errors = 0;
  int device = omp_get_default_device();
  omp_interop_t obj = omp_interop_none;
  for (int i = 0; i < N; i++)
    A[i] = 0;
#pragma omp interop init(targetsync : obj) device(device)                      \
    depend(inout : A[0 : N])
  int rc = 0;
  void *sync = obj == omp_interop_none
                   ? NULL
                   : omp_get_interop_ptr(obj, omp_ipr_targetsync, &rc);
  printf("interop object: %s, targetsync %s\n",
         obj == omp_interop_none ? "none" : "valid", sync ? "set" : "unset");
  {
#pragma omp target depend(inout : A[0 : N]) nowait map(tofrom : A[0 : N])      \
    device(device)
    for (int j = 0; j < N; j++) {
#pragma omp atomic
      A[j] += 5;
    }
  }
#pragma omp interop destroy(obj) nowait depend(out : A[0 : N])
  for (int i = 0; i < N; i++)
    errors += A[i] != 5;
  printf("errors=%d\n", errors);
  return errors != 0;
}

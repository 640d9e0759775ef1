// Pointers stored in mapped memory (pointer attachment): a struct with a
// pointer member mapped with map(to: s) map(tofrom: s.data[0:s.n]); an array
// of structs whose members point to different arrays, attached one by one
// with target enter data; an array of pointers double *ptrs[4] with every
// ptrs[k] attached; a linked list walked on the device. The kernels read and
// write through device-resident pointers.
// RUN: %clang-hetero %s -o %t
// RUN: env HETERO_INFO=1 %compare-fallback %t 2>%t.err | %FileCheck %s
// RUN: %FileCheck %s --check-prefix=INFO --implicit-check-not=error: < %t.err
// RUN: env HETERO_SIMULATE=2 HETERO_MEMBER=sim:0 HETERO_INFO=1 %compare-fallback %t 2>%t.sim.err | %FileCheck %s
// RUN: %FileCheck %s --check-prefix=SIM --implicit-check-not=error: --implicit-check-not=" on cpu" < %t.sim.err
// RUN: env HETERO_SIMULATE=2 HETERO_MEMBER=sim:1 %compare-fallback %t | %FileCheck %s
// CHECK: struct member: n=100 sum=10100 ok
// CHECK: host pointer member kept: ok
// CHECK: array of structs: 0 1 2 3 ok
// CHECK: array of structs, second kernel: ok
// CHECK: host pointers in the structs kept: ok
// CHECK: array of pointers: sums 4950 5450 5950 6450 ok
// CHECK: array of pointers written through: ok
// CHECK: linked list: length=5 sum=15 ok
// CHECK: linked list written through: ok
// CHECK: done failures=0
// INFO: hetero: launch {{.*}} {{(on (cpu|cuda:[0-9.]+) \(whole kernel:|split: )}}
// SIM: hetero: launch {{.*}} on sim:0 (whole kernel: pinned by HETERO_MEMBER)
#include <stdio.h>
#include <stdlib.h>

#include "Inputs/check.h"

struct S {
  int n;
  double *data;
};

struct Node {
  int value;
  struct Node *next;
};

int main(void) {
  // 1. One struct, its pointee mapped with it.
  struct S s;
  s.n = 100;
  s.data = malloc(s.n * sizeof(double));
  double *keep = s.data;
  for (int i = 0; i < s.n; ++i)
    s.data[i] = i;
  double total = 0;
#pragma omp target map(to : s) map(tofrom : s.data[0 : s.n]) map(tofrom : total)
  {
    for (int i = 0; i < s.n; ++i) {
      s.data[i] = 2 * s.data[i] + 1;
      total += s.data[i];
    }
  }
  {
    int ok = total == 10000;
    for (int i = 0; i < s.n; ++i)
      ok &= s.data[i] == 2 * i + 1;
    printf("struct member: n=%d sum=%.0f %s\n", s.n, total + s.n,
           ok ? "ok" : "FAIL");
    failures += !ok;
    check("host pointer member kept", s.data == keep);
  }

  // 2. An array of structs, each pointing to its own array; the pointees are
  // attached one at a time by enter data.
  enum { K = 4, M = 64 };
  struct S arr[K];
  double *orig[K];
  for (int k = 0; k < K; ++k) {
    arr[k].n = M + k;
    arr[k].data = malloc(arr[k].n * sizeof(double));
    orig[k] = arr[k].data;
    for (int i = 0; i < arr[k].n; ++i)
      arr[k].data[i] = k;
  }
#pragma omp target enter data map(to : arr)
  for (int k = 0; k < K; ++k) {
#pragma omp target enter data map(to : arr[k].data[0 : arr[k].n])
  }
  // The kernel finds every array through the pointers in the device's arr.
#pragma omp target teams distribute parallel for
  for (int k = 0; k < K; ++k)
    for (int i = 0; i < arr[k].n; ++i)
      arr[k].data[i] = arr[k].data[i] * 10 + i;
#pragma omp target teams distribute parallel for
  for (int k = 0; k < K; ++k)
    for (int i = 0; i < arr[k].n; ++i)
      arr[k].data[i] += 1;
  for (int k = 0; k < K; ++k) {
#pragma omp target exit data map(from : arr[k].data[0 : arr[k].n])
  }
#pragma omp target exit data map(release : arr)
  {
    int ok = 1;
    printf("array of structs:");
    for (int k = 0; k < K; ++k) {
      printf(" %d", (int)(arr[k].data[0] - 1) / 10);
      for (int i = 0; i < arr[k].n; ++i)
        ok &= arr[k].data[i] == k * 10 + i + 1;
    }
    printf(" %s\n", ok ? "ok" : "FAIL");
    failures += !ok;
    check("array of structs, second kernel",
          arr[K - 1].data[M + K - 2] == 30 + M + K - 2 + 1);
    ok = 1;
    for (int k = 0; k < K; ++k)
      ok &= arr[k].data == orig[k];
    check("host pointers in the structs kept", ok);
  }

  // 3. An array of pointers, each element attached to its own array.
  double *ptrs[4];
  for (int k = 0; k < 4; ++k) {
    ptrs[k] = malloc(100 * sizeof(double));
    for (int i = 0; i < 100; ++i)
      ptrs[k][i] = i + 5 * k;
  }
  double sums[4] = {0, 0, 0, 0};
#pragma omp target enter data map(to : ptrs)
  for (int k = 0; k < 4; ++k) {
#pragma omp target enter data map(to : ptrs[k][0 : 100])
  }
#pragma omp target teams distribute map(from : sums)
  for (int k = 0; k < 4; ++k) {
    double t = 0;
    for (int i = 0; i < 100; ++i)
      t += ptrs[k][i];
    sums[k] = t;
  }
#pragma omp target teams distribute parallel for collapse(2)
  for (int k = 0; k < 4; ++k)
    for (int i = 0; i < 100; ++i)
      ptrs[k][i] = -ptrs[k][i];
  for (int k = 0; k < 4; ++k) {
#pragma omp target exit data map(from : ptrs[k][0 : 100])
  }
#pragma omp target exit data map(release : ptrs)
  {
    int ok = sums[0] == 4950 && sums[1] == 5450 && sums[2] == 5950 &&
             sums[3] == 6450;
    printf("array of pointers: sums %.0f %.0f %.0f %.0f %s\n", sums[0], sums[1],
           sums[2], sums[3], ok ? "ok" : "FAIL");
    failures += !ok;
    ok = 1;
    for (int k = 0; k < 4; ++k)
      for (int i = 0; i < 100; ++i)
        ok &= ptrs[k][i] == -(i + 5 * k);
    check("array of pointers written through", ok);
  }

  // 4. A linked list: every node mapped on its own, then every next pointer
  // attached; the kernel walks the list from the head.
  struct Node *nodes[5];
  for (int k = 0; k < 5; ++k) {
    nodes[k] = malloc(sizeof(struct Node));
    nodes[k]->value = k + 1;
    nodes[k]->next = NULL;
  }
  for (int k = 0; k < 4; ++k)
    nodes[k]->next = nodes[k + 1];
  for (int k = 0; k < 5; ++k) {
    struct Node *p = nodes[k];
#pragma omp target enter data map(to : p[0 : 1])
  }
  for (int k = 0; k < 4; ++k) {
    struct Node *p = nodes[k];
#pragma omp target enter data map(to : p->next[0 : 1])
  }
  struct Node *head = nodes[0];
  int length = 0, vsum = 0;
#pragma omp target map(tofrom : length, vsum)
  {
    for (struct Node *p = head; p; p = p->next) {
      ++length;
      vsum += p->value;
      p->value *= 100;
    }
  }
  // Every node is mapped twice (on its own and as a pointee): fetch the
  // values, then drop the mappings.
  for (int k = 0; k < 5; ++k) {
    struct Node *p = nodes[k];
#pragma omp target update from(p[0 : 1])
  }
  for (int k = 0; k < 5; ++k) {
    struct Node *p = nodes[k];
#pragma omp target exit data map(delete : p[0 : 1])
  }
  {
    printf("linked list: length=%d sum=%d %s\n", length, vsum,
           length == 5 && vsum == 15 ? "ok" : "FAIL");
    failures += !(length == 5 && vsum == 15);
    int ok = 1;
    for (int k = 0; k < 5; ++k)
      ok &= nodes[k]->value == 100 * (k + 1) &&
            nodes[k]->next == (k < 4 ? nodes[k + 1] : NULL);
    check("linked list written through", ok);
  }

  free(s.data);
  for (int k = 0; k < K; ++k)
    free(arr[k].data);
  for (int k = 0; k < 4; ++k)
    free(ptrs[k]);
  for (int k = 0; k < 5; ++k)
    free(nodes[k]);
  printf("done failures=%d\n", failures);
  return failures != 0;
}

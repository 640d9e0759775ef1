// omp_target_memcpy host->device, device->host and device->device on the
// same device (whole buffers, with offsets, between two parts of one
// buffer), omp_target_memcpy_rect of a 2-D sub-block in every direction and
// omp_target_memcpy_async, with kernels reading and writing the copies.
// The program uses the device where its target regions run (the initial
// device in host fallback), so its output is the same in both.
// RUN: %clang-hetero %s -o %t
// RUN: env HETERO_INFO=1 %compare-fallback %t 2>%t.err | %FileCheck %s
// RUN: %FileCheck %s --check-prefix=INFO --implicit-check-not=error: < %t.err
// RUN: env HETERO_SIMULATE=2 HETERO_MEMBER=sim:0 HETERO_INFO=1 %compare-fallback %t 2>%t.sim.err | %FileCheck %s
// RUN: %FileCheck %s --check-prefix=SIM --implicit-check-not=error: --implicit-check-not=" on cpu" < %t.sim.err
// RUN: env HETERO_SIMULATE=2 HETERO_MEMBER=sim:1 %compare-fallback %t | %FileCheck %s
// CHECK: host to device: ok
// CHECK: device to host: sum=1498500 ok
// CHECK: device to device: ok
// CHECK: device to device with offsets: ok
// CHECK: copy inside one buffer: ok
// CHECK: rect host to device: ok
// CHECK: rect device to host: ok
// CHECK: rect device to device: ok
// CHECK: async copy: ok
// CHECK: done failures=0
// INFO: hetero: launch {{.*}} {{(on (cpu|cuda:[0-9.]+) \(whole kernel:|split: )}}
// SIM: hetero: launch {{.*}} on sim:0 (whole kernel: pinned by HETERO_MEMBER)
#include <omp.h>
#include <stdio.h>
#include <string.h>

#include "Inputs/check.h"

#define N 1000
#define R 12
#define C 10

int main(void) {
  int dev = target_device(), host = omp_get_initial_device();
  static int h[N], g[N];
  for (int i = 0; i < N; ++i)
    h[i] = i;
  int *d1 = omp_target_alloc(N * sizeof(int), dev);
  int *d2 = omp_target_alloc(N * sizeof(int), dev);

  // host -> device, checked by a kernel.
  int rc = omp_target_memcpy(d1, h, N * sizeof(int), 0, 0, dev, host);
  int bad = 0;
#pragma omp target teams distribute parallel for is_device_ptr(d1)             \
    reduction(+ : bad)
  for (int i = 0; i < N; ++i) {
    bad += d1[i] != i;
    d1[i] = 3 * d1[i];
  }
  check("host to device", rc == 0 && bad == 0);

  // device -> host.
  rc = omp_target_memcpy(g, d1, N * sizeof(int), 0, 0, host, dev);
  {
    long s = 0;
    int ok = rc == 0;
    for (int i = 0; i < N; ++i) {
      s += g[i];
      ok &= g[i] == 3 * i;
    }
    printf("device to host: sum=%ld %s\n", s, ok ? "ok" : "FAIL");
    failures += !ok;
  }

  // device -> device (same device), whole buffer, then checked on the device.
  rc = omp_target_memcpy(d2, d1, N * sizeof(int), 0, 0, dev, dev);
  bad = 0;
#pragma omp target teams distribute parallel for is_device_ptr(d2)             \
    reduction(+ : bad)
  for (int i = 0; i < N; ++i)
    bad += d2[i] != 3 * i;
  check("device to device", rc == 0 && bad == 0);

  // device -> device with offsets: d2[100:50] = d1[700:50].
  rc = omp_target_memcpy(d2, d1, 50 * sizeof(int), 100 * sizeof(int),
                         700 * sizeof(int), dev, dev);
  rc |= omp_target_memcpy(g, d2, N * sizeof(int), 0, 0, host, dev);
  {
    int ok = rc == 0;
    for (int i = 0; i < N; ++i)
      ok &= g[i] == (i >= 100 && i < 150 ? 3 * (i + 600) : 3 * i);
    check("device to device with offsets", ok);
  }

  // Copy between two parts of one device buffer: d1[500:100] = d1[0:100].
  rc = omp_target_memcpy(d1, d1, 100 * sizeof(int), 500 * sizeof(int), 0, dev,
                         dev);
  rc |= omp_target_memcpy(g, d1, N * sizeof(int), 0, 0, host, dev);
  {
    int ok = rc == 0;
    for (int i = 0; i < N; ++i)
      ok &= g[i] == (i >= 500 && i < 600 ? 3 * (i - 500) : 3 * i);
    check("copy inside one buffer", ok);
  }

  // 2-D: a R x C matrix on the device, a 4 x 3 block copied at (5, 2) from
  // a host matrix at (1, 6).
  int hm[R][C], dm_host[R][C], back[R][C];
  int *dm = omp_target_alloc(sizeof(int) * R * C, dev);
  for (int r = 0; r < R; ++r)
    for (int c = 0; c < C; ++c) {
      hm[r][c] = 100 * r + c;
      dm_host[r][c] = -1;
    }
  rc = omp_target_memcpy(dm, dm_host, sizeof(dm_host), 0, 0, dev, host);
  size_t volume[2] = {4, 3};
  size_t dst_off[2] = {5, 2}, src_off[2] = {1, 6};
  size_t dims[2] = {R, C};
  rc |= omp_target_memcpy_rect(dm, hm, sizeof(int), 2, volume, dst_off, src_off,
                               dims, dims, dev, host);
  bad = 0;
#pragma omp target teams distribute parallel for collapse(2) is_device_ptr(dm) \
    reduction(+ : bad)
  for (int r = 0; r < R; ++r)
    for (int c = 0; c < C; ++c) {
      int in = r >= 5 && r < 9 && c >= 2 && c < 5;
      int want = in ? 100 * (r - 4) + (c + 4) : -1;
      bad += dm[r * C + c] != want;
      dm[r * C + c] = r * C + c; // now dm holds its own linear index
    }
  check("rect host to device", rc == 0 && bad == 0);

  // device -> host: the block at (2, 3) of dm to (0, 0) of back.
  memset(back, 0, sizeof(back));
  size_t zero[2] = {0, 0}, from[2] = {2, 3};
  rc = omp_target_memcpy_rect(back, dm, sizeof(int), 2, volume, zero, from,
                              dims, dims, host, dev);
  {
    int ok = rc == 0;
    for (int r = 0; r < R; ++r)
      for (int c = 0; c < C; ++c)
        ok &= back[r][c] == (r < 4 && c < 3 ? (r + 2) * C + (c + 3) : 0);
    check("rect device to host", ok);
  }

  // device -> device: a 3-D copy between a 2 x R x C device array and dm.
  int *dd = omp_target_alloc(sizeof(int) * 2 * R * C, dev);
#pragma omp target teams distribute parallel for is_device_ptr(dd)
  for (int i = 0; i < 2 * R * C; ++i)
    dd[i] = 0;
  size_t vol3[3] = {1, 4, 3}, dst3[3] = {1, 8, 7}, src3[3] = {0, 0, 0};
  size_t dims3[3] = {2, R, C}, srcdims3[3] = {1, R, C};
  rc = omp_target_memcpy_rect(dd, dm, sizeof(int), 3, vol3, dst3, src3, dims3,
                              srcdims3, dev, dev);
  bad = 0;
#pragma omp target teams distribute parallel for is_device_ptr(dd)             \
    reduction(+ : bad)
  for (int i = 0; i < 2 * R * C; ++i) {
    int p = i / (R * C), r = (i / C) % R, c = i % C;
    int in = p == 1 && r >= 8 && c >= 7;
    bad += dd[i] != (in ? (r - 8) * C + (c - 7) : 0);
  }
  check("rect device to device", rc == 0 && bad == 0);

  // omp_target_memcpy_async, completed by taskwait.
  for (int i = 0; i < N; ++i)
    h[i] = 7 * i;
  rc =
      omp_target_memcpy_async(d2, h, N * sizeof(int), 0, 0, dev, host, 0, NULL);
#pragma omp taskwait
  bad = 0;
#pragma omp target teams distribute parallel for is_device_ptr(d2)             \
    reduction(+ : bad)
  for (int i = 0; i < N; ++i)
    bad += d2[i] != 7 * i;
  check("async copy", rc == 0 && bad == 0);

  omp_target_free(dd, dev);
  omp_target_free(dm, dev);
  omp_target_free(d2, dev);
  omp_target_free(d1, dev);
  printf("done failures=%d\n", failures);
  return failures != 0;
}

// Helpers shared by the lit test programs: ok/FAIL lines and the device that
// runs target regions.
#ifndef HETERO_LIT_CHECK_H
#define HETERO_LIT_CHECK_H

#include <omp.h>
#include <stdio.h>

static int failures;

__attribute__((unused)) static void check(const char *what, int ok) {
  printf("%s: %s\n", what, ok ? "ok" : "FAIL");
  failures += !ok;
}

// The device that runs target regions: the default device, or the host
// itself when offloading is disabled.
__attribute__((unused)) static int target_device(void) {
  int on_host = 1;
#pragma omp target map(from : on_host)
  on_host = omp_is_initial_device();
  return on_host ? omp_get_initial_device() : omp_get_default_device();
}

#endif

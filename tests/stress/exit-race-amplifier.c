// Test-only LD_PRELOAD library of the exit stress test (run-exit-stress.sh):
// lines up exiting libomp root threads at libomp's thread-specific-data
// destructor (__kmp_internal_end_dest), so that two of them reach
// __kmp_internal_end_thread's hidden-helper check at the same moment and the
// race hetero guards against (plugin/src/CpuTeam.h) shows in a few hundred
// runs instead of thousands. libomp itself is unchanged.
#define _GNU_SOURCE
#include <dlfcn.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static void (*omp_dtor)(void *);
static atomic_int arrived;
static atomic_int generation;

static long now_us(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return t.tv_sec * 1000000L + t.tv_nsec / 1000;
}

// Waits until a second exiting root arrives (or TSDSYNC_WAIT_US passes),
// then all waiting threads run libomp's destructor at once.
static void lined_up_dtor(void *v) {
  static long wait_us = -1;
  if (wait_us < 0) {
    const char *e = getenv("TSDSYNC_WAIT_US");
    wait_us = e ? atol(e) : 20000;
  }
  int gen = atomic_load(&generation);
  int n = atomic_fetch_add(&arrived, 1) + 1;
  if (n >= 2) {
    atomic_store(&arrived, 0);
    atomic_fetch_add(&generation, 1);
  } else {
    long until = now_us() + wait_us;
    while (atomic_load(&generation) == gen && now_us() < until)
      ;
    if (atomic_load(&generation) == gen) { // nobody came: go alone
      int one = 1;
      if (!atomic_compare_exchange_strong(&arrived, &one, 0))
        ; // someone arrived just now; it released us or will
    }
  }
  omp_dtor(v);
}

int pthread_key_create(pthread_key_t *key, void (*dtor)(void *)) {
  static int (*real)(pthread_key_t *, void (*)(void *));
  if (!real)
    real = dlsym(RTLD_NEXT, "pthread_key_create");
  Dl_info info;
  if (dtor && !omp_dtor && dladdr((void *)dtor, &info) && info.dli_fname &&
      strstr(info.dli_fname, "libomp")) {
    omp_dtor = dtor;
    return real(key, lined_up_dtor);
  }
  return real(key, dtor);
}

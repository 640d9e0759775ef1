// Helpers shared by the split/ lit programs: exact checksums of raw bytes
// (64-bit FNV-1a), ok/FAIL lines against a serial host reference, and the
// final "done failures=<n>" line. Host-only code: kernels never call these.
#ifndef HETERO_LIT_SPLIT_H
#define HETERO_LIT_SPLIT_H

#include <stdint.h>
#include <stdio.h>
#include <string.h>

static int failures;

// 64-bit FNV-1a over n raw bytes, continuing from h (start with FNV_INIT).
#define FNV_INIT 14695981039346656037ULL
__attribute__((unused)) static uint64_t fnv(uint64_t h, const void *p,
                                            size_t n) {
  const unsigned char *b = (const unsigned char *)p;
  for (size_t i = 0; i < n; ++i) {
    h ^= b[i];
    h *= 1099511628211ULL;
  }
  return h;
}

__attribute__((unused)) static uint64_t hash_bytes(const void *p, size_t n) {
  return fnv(FNV_INIT, p, n);
}

// Prints "<what>: hash=<fnv of got> ok|FAIL"; ok when the n bytes at got
// equal those at want (the host reference) bit for bit.
__attribute__((unused)) static void
check_bytes(const char *what, const void *got, const void *want, size_t n) {
  int ok = memcmp(got, want, n) == 0;
  printf("%s: hash=%016llx %s\n", what, (unsigned long long)hash_bytes(got, n),
         ok ? "ok" : "FAIL");
  failures += !ok;
}

__attribute__((unused)) static void check(const char *what, int ok) {
  printf("%s: %s\n", what, ok ? "ok" : "FAIL");
  failures += !ok;
}

__attribute__((unused)) static int done(void) {
  printf("done failures=%d\n", failures);
  return failures != 0;
}

#endif

/* Helpers the example programs share: argument parsing. */
#ifndef HETERO_EXAMPLE_UTIL_H
#define HETERO_EXAMPLE_UTIL_H

#include <errno.h>
#include <stdlib.h>

/* Parse a decimal integer in [lo, hi]; returns 0 on success. */
static inline int parse_int(const char *s, long lo, long hi, int *out) {
  char *end;
  long v;

  errno = 0;
  v = strtol(s, &end, 10);
  if (errno != 0 || end == s || *end != '\0' || v < lo || v > hi)
    return -1;
  *out = (int)v;
  return 0;
}

#endif

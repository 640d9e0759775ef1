/* Helpers the example programs share: argument parsing. */
#ifndef HETERO_EXAMPLE_UTIL_H
#define HETERO_EXAMPLE_UTIL_H

#include <errno.h>
#include <stdlib.h>

/* Parse a decimal integer in [lo, hi]; returns 0 on success. */
static inline int parse_long(const char *s, long lo, long hi, long *out) {
  char *end;
  long v;

  errno = 0;
  v = strtol(s, &end, 10);
  if (errno != 0 || end == s || *end != '\0' || v < lo || v > hi)
    return -1;
  *out = v;
  return 0;
}

/* The same for an int ([lo, hi] within int's range). */
static inline int parse_int(const char *s, long lo, long hi, int *out) {
  long v;

  if (parse_long(s, lo, hi, &v) != 0)
    return -1;
  *out = (int)v;
  return 0;
}

#endif

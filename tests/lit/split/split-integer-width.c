#pragma STDC FP_CONTRACT OFF
// Subscripts whose C arithmetic wraps or truncates: casts to narrower types,
// unsigned 32-bit wrap (a[i + 0xFFFFFFFFu] is a[i - 1]), shifts, masks and
// conditionals. The analysis writes each wrap into the descriptor, so the
// sections are those the kernel really touches; where they cannot be proved
// disjoint (a write through a truncating cast whose range wraps inside a
// chunk) the kernel runs unsplit and the statistics say why. Compared bit
// for bit with serial host loops on the CPU pool, simulated accelerators,
// several chunks and uneven shares.
// RUN: %clang-hetero %s -o %t
// RUN: %if compiler %{ env HETERO_DESC_DEBUG=1 %clang-hetero -c %s -o %t.o 2>%t.desc %}
// RUN: %if compiler %{ %FileCheck %s --check-prefix=DESC < %t.desc %}
// RUN: env HETERO_STATS=1 HETERO_CHUNKS=4 %compare-fallback %t 2>%t.cpu | %FileCheck %s
// RUN: env HETERO_STATS=1 HETERO_SIMULATE=3 %compare-fallback %t 2>%t.sim | %FileCheck %s
// RUN: %FileCheck %s --check-prefix=STATS < %t.sim
// RUN: env HETERO_STATS=1 HETERO_SIMULATE=3 HETERO_CHUNKS=3 %compare-fallback %t 2>%t.chunks | %FileCheck %s
// RUN: %FileCheck %s --check-prefix=STATS < %t.chunks
// RUN: env HETERO_STATS=1 HETERO_SIMULATE=3 HETERO_MEMBERS=sim:0=1,sim:1=7,sim:2=2,cpu=3 %compare-fallback %t 2>%t.uneven | %FileCheck %s
// RUN: %FileCheck %s --check-prefix=STATS < %t.uneven
// CHECK: uint8 lookup: hash={{[0-9a-f]+}} ok
// CHECK: unsigned wrap: hash={{[0-9a-f]+}} ok
// CHECK: uint8 scatter: hash={{[0-9a-f]+}} ok
// CHECK: uint8 times 3: hash={{[0-9a-f]+}} ok
// CHECK: uint16 wrap: hash={{[0-9a-f]+}} ok
// CHECK: int8 plus 128: hash={{[0-9a-f]+}} ok
// CHECK: shifts and masks: hash={{[0-9a-f]+}} ok
// CHECK: size_t minus one: hash={{[0-9a-f]+}} ok
// CHECK: u64 literal: hash={{[0-9a-f]+}} ok
// CHECK: done failures=0
// DESC: read 4 (arg 2) (+ 0 (* (wrap 8 0 (+ (c 0) 200)) 4))
// DESC: read 4 (arg 2) (+ 0 (* (wrap 32 0 (+ (wrap 32 0 (c 0)) (sarg 3 4 0))) 4))
// DESC: write 4 (arg 0) (+ 0 (* (wrap 8 0 (+ (c 0) 200)) 4))
// DESC: read 4 (arg 2) (+ 0 (* (wrap 8 0 (* (c 0) 3)) 4))
// DESC: read 4 (arg 2) (+ 0 (* (wrap 16 0 (+ (c 0) 65000)) 4))
// DESC: read 4 (arg 2) (+ 0 (* (+ (wrap 8 1 (c 0)) 128) 4))
// DESC: read 4 (arg 2) (+ 0 (* (and (- (neg (c 0)) 1) 4095) 4))
// DESC: read 4 (arg 2) (+ 0 (* (either (c 0) (- 4096 (c 0))) 4))
// DESC: read 4 (arg 2) (+ 0 (* (or (and (c 0) 63) 256) 4))
// DESC: read 4 (arg 2) (+ 0 (* (wrap 16 0 (neg (c 0))) 4))
// DESC: read 4 (arg 2) (+ 0 (* (xor (shr (c 0) 2) 5) 4))
// DESC: read 4 (arg 2) (+ 0 (* (wrap 64 0 (- (c 0) 1)) 4))
// DESC: read 4 (arg 2) (+ 0 (* (wrap 64 0 (- (c 0) 2)) 4)) when (gt (c 0) 1)
// DESC: readall (arg 2)
#include <stdint.h>
#include <stdlib.h>

#include "Inputs/split.h"

#define N 4096

int main(void) {
  const int n = N;
  int *lut = malloc(65536 * sizeof(int)), *a = malloc(n * sizeof(int));
  int *b = malloc(n * sizeof(int)), *r = malloc(n * sizeof(int));
  for (int k = 0; k < 65536; ++k)
    lut[k] = k * 7 + 1;
  for (int k = 0; k < n; ++k)
    a[k] = k * 3 - 5000;

// STATS-DAG: hetero-stats kernel={{.*}}_l[[@LINE+1]] launches=1 split=yes
#pragma omp target teams distribute parallel for map(to : lut[0 : 256])        \
    map(from : b[0 : n])
  for (int i = 0; i < n; ++i)
    b[i] = lut[(uint8_t)(i + 200)];
  for (int i = 0; i < n; ++i)
    r[i] = lut[(uint8_t)(i + 200)];
  check_bytes("uint8 lookup", b, r, n * sizeof(int));

  // i + u wraps to i - 1 in 32-bit unsigned arithmetic.
  unsigned u = 0xFFFFFFFFu;
// STATS-DAG: hetero-stats kernel={{.*}}_l[[@LINE+1]] launches=1 split=yes
#pragma omp target teams distribute parallel for map(to : a[0 : n])            \
    map(tofrom : b[0 : n])
  for (int i = 1; i < n; ++i)
    b[i] = a[i + u];
  for (int i = 1; i < n; ++i)
    r[i] = a[i + u];
  check_bytes("unsigned wrap", b, r, n * sizeof(int));

  // A permutation of 0..255 through a truncating cast: chunks whose range
  // wraps write anywhere in [0, 256), so the kernel must not be split. Its
  // chunks may run one after another (in order) where their writes overlap
  // little: a GPU's large share beside simulated members' slivers.
  for (int k = 0; k < 256; ++k)
    b[k] = r[k] = -1;
// STATS-DAG: hetero-stats kernel={{.*}}_l[[@LINE+1]] launches=1 split={{no\(the chunks' writes of 'b' at split-integer-width.c:[0-9]+ overlap\)|yes .*in_order_launches=1}}
#pragma omp target teams distribute parallel for map(to : a[0 : 256])          \
    map(tofrom : b[0 : 256])
  for (int i = 0; i < 256; ++i)
    b[(uint8_t)(i + 200)] = a[i];
  for (int i = 0; i < 256; ++i)
    r[(uint8_t)(i + 200)] = a[i];
  check_bytes("uint8 scatter", b, r, 256 * sizeof(int));

// STATS-DAG: hetero-stats kernel={{.*}}_l[[@LINE+1]] launches=1 split=yes
#pragma omp target teams distribute parallel for map(to : lut[0 : 256])        \
    map(from : b[0 : n])
  for (int i = 0; i < n; ++i)
    b[i] = lut[(uint8_t)(i * 3)];
  for (int i = 0; i < n; ++i)
    r[i] = lut[(uint8_t)(i * 3)];
  check_bytes("uint8 times 3", b, r, n * sizeof(int));

// STATS-DAG: hetero-stats kernel={{.*}}_l[[@LINE+1]] launches=1 split=yes
#pragma omp target teams distribute parallel for map(to : lut[0 : 65536])      \
    map(from : b[0 : n])
  for (int i = 0; i < n; ++i)
    b[i] = lut[(uint16_t)(i + 65000)];
  for (int i = 0; i < n; ++i)
    r[i] = lut[(uint16_t)(i + 65000)];
  check_bytes("uint16 wrap", b, r, n * sizeof(int));

// STATS-DAG: hetero-stats kernel={{.*}}_l[[@LINE+1]] launches=1 split=yes
#pragma omp target teams distribute parallel for map(to : lut[0 : 256])        \
    map(from : b[0 : n])
  for (int i = 0; i < n; ++i)
    b[i] = lut[(int8_t)i + 128];
  for (int i = 0; i < n; ++i)
    r[i] = lut[(int8_t)i + 128];
  check_bytes("int8 plus 128", b, r, n * sizeof(int));

// STATS-DAG: hetero-stats kernel={{.*}}_l[[@LINE+1]] launches=1 split=yes
#pragma omp target teams distribute parallel for map(to : lut[0 : 65536])      \
    map(from : b[0 : n])
  for (int i = 0; i < n; ++i)
    b[i] = lut[(i >> 2) ^ 5] + lut[(i & 63) | 256] + lut[i % 3 ? i : n - i] +
           lut[~i & 0xFFF] + lut[(unsigned short)-i];
  for (int i = 0; i < n; ++i)
    r[i] = lut[(i >> 2) ^ 5] + lut[(i & 63) | 256] + lut[i % 3 ? i : n - i] +
           lut[~i & 0xFFF] + lut[(unsigned short)-i];
  check_bytes("shifts and masks", b, r, n * sizeof(int));

  // size_t arithmetic: j - 1 for j >= 1 only.
  size_t m = n;
// STATS-DAG: hetero-stats kernel={{.*}}_l[[@LINE+1]] launches=1 split=yes
#pragma omp target teams distribute parallel for map(to : a[0 : n])            \
    map(from : b[0 : n])
  for (size_t j = 1; j < m; ++j)
    b[j] = a[j - 1] + (j > 1 ? a[j - 2] : 0);
  for (size_t j = 1; j < m; ++j)
    r[j] = a[j - 1] + (j > 1 ? a[j - 2] : 0);
  check_bytes("size_t minus one", b + 1, r + 1, (n - 1) * sizeof(int));

  // A 64-bit unsigned literal above 2^63 (a[j + 2^64 - 1] is a[j - 1]): no
  // int64 holds it, so the read is of the whole array, and the kernel splits.
// STATS-DAG: hetero-stats kernel={{.*}}_l[[@LINE+1]] launches=1 split=yes
#pragma omp target teams distribute parallel for map(to : a[0 : n])            \
    map(from : b[0 : n])
  for (int i = 1; i < n; ++i)
    b[i] = a[i + 18446744073709551615UL];
  for (int i = 1; i < n; ++i)
    r[i] = a[i + 18446744073709551615UL];
  check_bytes("u64 literal", b + 1, r + 1, (n - 1) * sizeof(int));
  free(lut);
  free(a);
  free(b);
  free(r);
  return done();
}
// STATS: hetero-stats total

//===- TestKernels.h - The kernels the engine tests launch ------*- C++ -*-===//
//
// Every engine test launches a made-up kernel that each member of its pool
// has loaded with a loop window; one place says what that takes, and holds
// the descriptors more than one test file launches.
//
//===----------------------------------------------------------------------===//
#ifndef HETERO_TESTS_TESTKERNELS_H
#define HETERO_TESTS_TESTKERNELS_H

#include "hetero/Engine.h"

#include <gtest/gtest.h>

namespace hetero {

/// What a test back end returns for a chunk that ran (Ok) or failed.
inline Status chunkStatus(bool Ok) {
  return Ok ? Status()
            : Status::error(StatusCode::KernelFailed, "the test kernel failed");
}

// b[i] = (a[i-1] + a[i] + a[i+1]) / 3 for i in [1, n-1); args: a, b, n.
inline const char *const StencilDesc = "hetero-kernel 1\n"
                                       "split yes\n"
                                       "nest 1\n"
                                       "loop 0 1 lt (- (sarg 2 4 1) 1) 1\n"
                                       "read 8 (arg 0) (* (- (c 0) 1) 8)\n"
                                       "read 8 (arg 0) (* (c 0) 8)\n"
                                       "read 8 (arg 0) (* (+ (c 0) 1) 8)\n"
                                       "write 8 (arg 1) (* (c 0) 8)\n";

// s += a[i] for i in [0, n); args: a, &s, n.
inline const char *const SumDesc = "hetero-kernel 1\n"
                                   "split yes\n"
                                   "nest 1\n"
                                   "loop 0 0 lt (sarg 2 4 1) 1\n"
                                   "read 8 (arg 0) (* (c 0) 8)\n"
                                   "reduce 1 + f64\n";

/// A descriptor the test wrote (a failed parse fails the test).
inline KernelDescriptor parseDescriptor(const char *Text) {
  KernelDescriptor D;
  std::string Err;
  EXPECT_TRUE(KernelDescriptor::parse(Text, D, Err)) << Err;
  return D;
}

/// A launch of K with arguments (X, Y, N), the shape of the kernels above.
inline LaunchRequest testRequest(const KernelTraits &K, void *X, void *Y,
                                 int N) {
  LaunchRequest R;
  R.Kernel = &K;
  R.Args = {reinterpret_cast<uintptr_t>(X), reinterpret_cast<uintptr_t>(Y),
            static_cast<uintptr_t>(N)};
  R.Offsets = {0, 0, 0};
  return R;
}

/// Descriptor D's kernel, loaded with a loop window on Members members.
inline KernelTraits testKernel(const KernelDescriptor &D, size_t Members) {
  KernelTraits K;
  K.Name = "kernel";
  K.Desc = &D;
  K.Loaded.assign(Members, true);
  K.Windowed.assign(Members, true);
  return K;
}

} // namespace hetero

#endif // HETERO_TESTS_TESTKERNELS_H

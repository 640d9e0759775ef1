//===- TestKernels.h - The kernels the engine tests launch ------*- C++ -*-===//
//
// Every engine test launches a made-up kernel that each member of its pool
// has loaded with a loop window; one place says what that takes.
//
//===----------------------------------------------------------------------===//
#ifndef HETERO_TESTS_TESTKERNELS_H
#define HETERO_TESTS_TESTKERNELS_H

#include "hetero/Engine.h"

namespace hetero {

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

//===- GpuLaunchEnvironments.cpp - Reduction kernels' launch envs ---------===//
#include "GpuLaunchEnvironments.h"

#include "PluginInterface.h"
#include "Shared/Environment.h"
#include "omptarget.h"

using llvm::omp::target::plugin::GenericKernelTy;

namespace hetero {

GpuLaunchEnvironments::~GpuLaunchEnvironments() {
  for (auto &[Key, E] : Envs)
    if (E.Ptr)
      Cuda.data_delete(E.Device, E.Ptr, TARGET_ALLOC_DEVICE);
}

void *GpuLaunchEnvironments::get(size_t Member, int Device, void *Kernel) {
  const auto &Config = static_cast<GenericKernelTy *>(Kernel)
                           ->getKernelEnvironmentForKernel()
                           .Configuration;
  if (Config.ReductionDataSize <= 0 || Config.ReductionBufferLength <= 0)
    return nullptr;
  std::lock_guard<std::mutex> Lock(Mutex);
  auto [It, New] = Envs.try_emplace({Member, Kernel});
  if (!New)
    return It->second.Ptr;
  // The environment, then its records (16 bytes in: aligned for them).
  static_assert(sizeof(KernelLaunchEnvironmentTy) % 16 == 0);
  auto Bytes = static_cast<int64_t>(sizeof(KernelLaunchEnvironmentTy) +
                                    size_t(Config.ReductionDataSize) *
                                        size_t(Config.ReductionBufferLength));
  void *P = Cuda.data_alloc(Device, Bytes, nullptr, TARGET_ALLOC_DEVICE);
  if (!P)
    return nullptr;
  KernelLaunchEnvironmentTy Env;
  Env.ReductionBuffer = static_cast<char *>(P) + sizeof(Env);
  if (Cuda.data_submit(Device, P, &Env, sizeof(Env)) != OFFLOAD_SUCCESS) {
    Cuda.data_delete(Device, P, TARGET_ALLOC_DEVICE);
    return nullptr;
  }
  It->second = {Device, P};
  return P;
}

} // namespace hetero

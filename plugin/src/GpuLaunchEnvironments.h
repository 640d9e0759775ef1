//===- GpuLaunchEnvironments.h - Reduction kernels' launch envs -*- C++ -*-===//
//
// An OpenMP kernel with a teams reduction takes, as its first parameter, a
// launch environment: two counters and a buffer of one record per team
// (offload/include/Shared/Environment.h). The cuda plugin allocates both,
// copies the environment up from pageable memory and frees them again for
// every launch, on the chunk's way (docs/measurements.md#reductions). Here
// each (member, kernel) keeps one for the process, made on first use. That
// is safe because a member runs one chunk at a time and the device
// runtime's last team sets the counters back to zero
// (__kmpc_nvptx_teams_reduce_nowait_v2); the records need no reset (the
// first team of each slot copies, the others combine).
//
//===----------------------------------------------------------------------===//
#ifndef HETERO_PLUGIN_GPULAUNCHENVIRONMENTS_H
#define HETERO_PLUGIN_GPULAUNCHENVIRONMENTS_H

#include <cstddef>
#include <map>
#include <mutex>
#include <utility>

namespace llvm::omp::target::plugin {
struct GenericPluginTy;
}

namespace hetero {

class GpuLaunchEnvironments {
public:
  explicit GpuLaunchEnvironments(
      llvm::omp::target::plugin::GenericPluginTy &Cuda)
      : Cuda(Cuda) {}
  GpuLaunchEnvironments(const GpuLaunchEnvironments &) = delete;
  GpuLaunchEnvironments &operator=(const GpuLaunchEnvironments &) = delete;
  /// Frees every environment: before the cuda plugin stops.
  ~GpuLaunchEnvironments();

  /// The device address of member Member's launch environment for Kernel
  /// (a cuda plugin kernel, GenericKernelTy) on Device; null where the
  /// kernel has no teams reduction, or where one could not be made (the
  /// plugin then makes its own per launch, as before).
  void *get(size_t Member, int Device, void *Kernel);

  /// KernelArgsTy::Version below the one whose kernels take a launch
  /// environment: the plugin then passes the arguments as they are, the
  /// environment first among them, and makes none of its own.
  static constexpr unsigned OwnEnvironmentVersion = 1;

private:
  struct Env {
    int Device = -1;
    void *Ptr = nullptr; // null: none could be made; not tried again
  };
  llvm::omp::target::plugin::GenericPluginTy &Cuda;
  std::mutex Mutex;
  std::map<std::pair<size_t, void *>, Env> Envs;
};

} // namespace hetero

#endif // HETERO_PLUGIN_GPULAUNCHENVIRONMENTS_H

//===- CudaStaging.h - Pinned buffers for GPU-to-host copies ----*- C++ -*-===//
//
// Two pinned staging buffers through which a large copy from a GPU into
// fresh host pages goes piece by piece (CudaNodeOps::copyToHost), shared by
// every GPU node of the process: pinned memory serves every device of the
// unified address space, and a buffer pair per GPU cost 32 MiB of resident
// memory each (docs/measurements.md#host-copies). One staged copy at a
// time: a copy that finds the buffers busy takes the driver's own path.
//
//===----------------------------------------------------------------------===//
#ifndef HETERO_PLUGIN_CUDASTAGING_H
#define HETERO_PLUGIN_CUDASTAGING_H

#include <cstddef>
#include <mutex>

namespace llvm::omp::target::plugin {
struct GenericPluginTy;
}

namespace hetero {

class CudaStaging {
public:
  static constexpr size_t Piece = size_t(16) << 20;

  explicit CudaStaging(llvm::omp::target::plugin::GenericPluginTy &Cuda)
      : Cuda(Cuda) {}
  /// Frees the buffers through the device that allocated them: before the
  /// cuda plugin is torn down (the nodes holding this go first).
  ~CudaStaging();
  CudaStaging(const CudaStaging &) = delete;
  CudaStaging &operator=(const CudaStaging &) = delete;

  /// Taken by a staged copy (try_lock: a busy pair means the driver's path).
  std::mutex Mutex;
  /// Whether the buffers exist, allocating them through Device on first
  /// use; false when there is no pinned memory. Under Mutex.
  bool have(int Device);
  /// Whether they exist yet. Under Mutex.
  bool allocated() const { return Buffer[0]; }
  char *buffer(size_t I) const { return Buffer[I % 2]; }

private:
  llvm::omp::target::plugin::GenericPluginTy &Cuda;
  int Owner = -1; // the device that allocated them
  char *Buffer[2] = {nullptr, nullptr};
  bool Unavailable = false;
};

} // namespace hetero

#endif // HETERO_PLUGIN_CUDASTAGING_H

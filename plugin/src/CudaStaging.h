//===- CudaStaging.h - Pinned buffers for GPU-to-host copies ----*- C++ -*-===//
//
// Pairs of pinned staging buffers through which a large copy from a GPU into
// fresh host pages goes piece by piece (CudaNodeOps::copyToHost), shared by
// every GPU node of the process: pinned memory serves every device of the
// unified address space, and a pair costs 32 MiB of resident memory
// (docs/measurements.md#host-copies). A staged copy holds one pair; the
// first is made by the first staged copy, another only when a copy finds
// every pair busy (a read back from several GPUs at once: DataLayer::read),
// up to MaxPairs (one per GPU). A copy that finds them all busy, and
// no room for another, takes the driver's own path.
//
//===----------------------------------------------------------------------===//
#ifndef HETERO_PLUGIN_CUDASTAGING_H
#define HETERO_PLUGIN_CUDASTAGING_H

#include <cstddef>
#include <memory>
#include <mutex>
#include <vector>

namespace llvm::omp::target::plugin {
struct GenericPluginTy;
}

namespace hetero {

class CudaStaging {
  struct Pair {
    std::mutex Busy;
    int Owner = -1; // the device that allocated them
    char *Buffer[2] = {nullptr, nullptr};
  };

public:
  static constexpr size_t Piece = size_t(16) << 20;

  CudaStaging(llvm::omp::target::plugin::GenericPluginTy &Cuda, size_t MaxPairs)
      : Cuda(Cuda), MaxPairs(MaxPairs ? MaxPairs : 1) {}
  /// Frees the buffers through the devices that allocated them: before the
  /// cuda plugin is torn down (the nodes holding this go first).
  ~CudaStaging();
  CudaStaging(const CudaStaging &) = delete;
  CudaStaging &operator=(const CudaStaging &) = delete;

  /// One pair, held for one staged copy until the lease goes.
  class Lease {
  public:
    Lease() = default;
    explicit operator bool() const { return Held.owns_lock(); }
    char *buffer(size_t I) const { return P->Buffer[I % 2]; }

  private:
    friend class CudaStaging;
    Pair *P = nullptr;
    std::unique_lock<std::mutex> Held;
  };
  /// A free pair, making one through Device where every pair is busy (or
  /// none exists yet and MayStart: the first pair's cost is paid by a copy
  /// large enough), below MaxPairs; none when there is no pinned memory.
  Lease take(int Device, bool MayStart);

private:
  llvm::omp::target::plugin::GenericPluginTy &Cuda;
  const size_t MaxPairs;
  std::mutex Mutex; // Pairs, Unavailable
  std::vector<std::unique_ptr<Pair>> Pairs;
  bool Unavailable = false;
};

} // namespace hetero

#endif // HETERO_PLUGIN_CUDASTAGING_H

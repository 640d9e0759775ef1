//===- CudaNode.h - A GPU's memory through LLVM's cuda plugin ---*- C++ -*-===//
#ifndef HETERO_PLUGIN_CUDANODE_H
#define HETERO_PLUGIN_CUDANODE_H

#include "CudaIndexRange.h"
#include "CudaStaging.h"
#include "CudaVirtualMemory.h"
#include "GpuLane.h"

#include "hetero/MemoryNode.h"

#include "omptarget.h"

#include <atomic>
#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <vector>

namespace llvm::omp::target::plugin {
struct GenericPluginTy;
}

namespace hetero {

/// The memory of CUDA device Device, reached through the upstream cuda
/// plugin (allocation, host copies, and peer copies between GPUs). A part of
/// a split GPU (HETERO_GPU_SPLIT; Part >= 0) is a node of its own holding at
/// most Capacity bytes (0: what the GPU has), so that several parts of one
/// GPU account for their memory as several GPUs would; their copies to each
/// other are device-to-device copies.
///
/// Copies of StagedMin bytes and more (StagedFirstMin before the first) from
/// the GPU into host memory that is mostly untouched go through two pinned
/// staging buffers (a pair of CudaStaging.h's, which all GPUs share): the DMA
/// of one piece overlaps the copy of the other out of its staging buffer,
/// done by several threads (ParallelCopy.h). The driver's own path for pageable
/// memory is slow into fresh host pages (the host node's storage for the CPU
/// side, which a kernel's first mixed launch fills;
/// docs/measurements.md#host-copies).
class CudaNodeOps : public NodeOps {
public:
  /// Staging: the pinned buffers every GPU node of the process shares.
  CudaNodeOps(llvm::omp::target::plugin::GenericPluginTy &Cuda,
              std::shared_ptr<CudaStaging> Staging, int Device, int Part = -1,
              uint64_t Capacity = 0);
  ~CudaNodeOps() override;
  NodeKind kind() const override { return NodeKind::Gpu; }
  std::string name() const override;
  int device() const { return Device; }
  /// Buffers of a granule and more are reserved address space, backed as
  /// their chunks touch them (CudaVirtualMemory.h); smaller ones, and all
  /// where the driver has no virtual memory management, are held whole.
  void *allocate(size_t Size) override;
  void release(void *Ptr) override;
  uint64_t backingGranule() const override { return Granule; }
  Status back(void *Ptr, uint64_t Lo, uint64_t Hi) override;
  /// Unmaps the mappings that start in [Lo, Hi) (the data layer gives back
  /// whole ranges it backed, and back() maps each range it is given as one).
  bool unback(void *Ptr, uint64_t Lo, uint64_t Hi) override;
  /// The part's share (Capacity), or the GPU's memory.
  uint64_t capacity() const override { return Capacity ? Capacity : Memory; }
  /// Page-locks the range for every GPU (CudaHostPins.h).
  void pinHost(const void *P, uint64_t Size) override;
  void unpinHost(const void *P, uint64_t Size) override;
  /// Cut where pinned host memory begins or ends (CudaHostPins.h).
  Status copyFromHost(void *Dst, const void *Src, size_t Size) override;
  Status copyToHost(void *Dst, const void *Src, size_t Size) override;
  /// The GPU's: its parts share it.
  int hostLink() const override { return Device; }
  /// From another GPU, or another part of this one.
  bool reachesPeer(const NodeOps &Src) const override {
    return Src.kind() == NodeKind::Gpu;
  }
  Status copyFromPeer(void *Dst, NodeOps &Src, const void *SrcPtr,
                      size_t Size) override;
  /// In a stream of the source GPU (one per source, from the cuda plugin's
  /// pool), held until waitQueuedCopies() synchronises it.
  Status queueCopyFromPeer(void *Dst, NodeOps &Src, const void *SrcPtr,
                           size_t Size) override;
  Status waitQueuedCopies() override;
  /// Kept in this GPU member's lane until its next chunk starts or the lane
  /// is waited for (GpuLane.h); false where this node has no lane or it
  /// failed, or Src is not a GPU.
  bool queueCopyInLane(void *Dst, NodeOps &Src, const void *SrcPtr,
                       size_t Size) override;
  /// This node's member's lane.
  void setLane(std::shared_ptr<GpuLane> L) { Lane = std::move(L); }
  /// By a kernel on this GPU (CudaIndexRange.h).
  Scan scanValues(const void *Ptr, unsigned Bytes, uint64_t Stride,
                  uint64_t Count, bool Signed, int64_t &Min,
                  int64_t &Max) override {
    return IndexRange.scan(Ptr, Bytes, Stride, Count, Signed, Min, Max);
  }

  static constexpr size_t StagedMin = size_t(8) << 20;
  /// The first staged copy sets the staging up, which a small copy does not
  /// win back; from this size on the staged path wins even so
  /// (docs/measurements.md#host-copies).
  static constexpr size_t StagedFirstMin = size_t(32) << 20;

private:
  Status stagedToHost(char *Dst, const char *Src, size_t Size,
                      const CudaStaging::Lease &Pair);
  /// What a copy of Size bytes is called in messages ("a copy of 8 bytes
  /// from cuda:1 to cuda:0").
  std::string copyName(const std::string &From, const std::string &To,
                       size_t Size) const;

  llvm::omp::target::plugin::GenericPluginTy &Cuda;
  int Device;
  int Part;
  uint64_t Capacity;
  uint64_t Granule;    // 0: buffers are held whole
  uint64_t Memory = 0; // the GPU's
  /// Counts Size more bytes held against Capacity; false when they do not
  /// fit (nothing counted).
  bool charge(uint64_t Size);
  void credit(uint64_t Size);
  struct Reservation {
    uint64_t Size = 0;
    std::vector<CudaVirtualMemory::Mapping> Maps;
  };
  std::mutex SizesMutex;                  // guards the three below
  std::map<void *, size_t> Sizes;         // held whole
  std::map<void *, Reservation> Reserved; // held in part
  uint64_t Used = 0;                      // bytes held
  /// Source device -> the stream its queued copies into this node are in
  /// (called under the data layer's lock).
  std::map<int, __tgt_async_info> Queued;
  std::shared_ptr<GpuLane> Lane;
  std::shared_ptr<CudaStaging> Staging;
  CudaIndexRange IndexRange;
};

} // namespace hetero

#endif // HETERO_PLUGIN_CUDANODE_H

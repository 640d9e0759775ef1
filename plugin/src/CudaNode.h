//===- CudaNode.h - A GPU's memory through LLVM's cuda plugin ---*- C++ -*-===//
#ifndef HETERO_PLUGIN_CUDANODE_H
#define HETERO_PLUGIN_CUDANODE_H

#include "hetero/MemoryNode.h"

#include <atomic>
#include <cstdint>
#include <map>
#include <mutex>

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
class CudaNodeOps : public NodeOps {
public:
  CudaNodeOps(llvm::omp::target::plugin::GenericPluginTy &Cuda, int Device,
              int Part = -1, uint64_t Capacity = 0)
      : Cuda(Cuda), Device(Device), Part(Part), Capacity(Capacity) {}
  NodeKind kind() const override { return NodeKind::Gpu; }
  std::string name() const override;
  int device() const { return Device; }
  void *allocate(size_t Size) override;
  void release(void *Ptr) override;
  bool copyFromHost(void *Dst, const void *Src, size_t Size) override;
  bool copyToHost(void *Dst, const void *Src, size_t Size) override;
  bool copyFromPeer(void *Dst, NodeOps &Src, const void *SrcPtr,
                    size_t Size) override;

private:
  llvm::omp::target::plugin::GenericPluginTy &Cuda;
  int Device;
  int Part;
  uint64_t Capacity;
  std::mutex SizesMutex; // allocation sizes, kept when Capacity is set
  std::map<void *, size_t> Sizes;
  uint64_t Used = 0;
};

} // namespace hetero

#endif // HETERO_PLUGIN_CUDANODE_H

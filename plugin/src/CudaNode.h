//===- CudaNode.h - A GPU's memory through LLVM's cuda plugin ---*- C++ -*-===//
#ifndef HETERO_PLUGIN_CUDANODE_H
#define HETERO_PLUGIN_CUDANODE_H

#include "hetero/MemoryNode.h"

namespace llvm::omp::target::plugin {
struct GenericPluginTy;
}

namespace hetero {

/// The memory of CUDA device Device, reached through the upstream cuda
/// plugin (allocation, host copies, and peer copies between GPUs).
class CudaNodeOps : public NodeOps {
public:
  CudaNodeOps(llvm::omp::target::plugin::GenericPluginTy &Cuda, int Device)
      : Cuda(Cuda), Device(Device) {}
  NodeKind kind() const override { return NodeKind::Gpu; }
  std::string name() const override { return "cuda:" + std::to_string(Device); }
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
};

} // namespace hetero

#endif // HETERO_PLUGIN_CUDANODE_H

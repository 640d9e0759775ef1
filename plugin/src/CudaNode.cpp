//===- CudaNode.cpp - A GPU's memory through LLVM's cuda plugin -----------===//
#include "CudaNode.h"

#include "PluginInterface.h"
#include "omptarget.h"

using llvm::omp::target::plugin::GenericPluginTy;

namespace hetero {

std::string CudaNodeOps::name() const {
  return "cuda:" + std::to_string(Device) +
         (Part < 0 ? "" : "." + std::to_string(Part));
}

void *CudaNodeOps::allocate(size_t Size) {
  if (Capacity) {
    std::lock_guard<std::mutex> Lock(SizesMutex);
    if (Used + Size > Capacity)
      return nullptr; // this part's share of the GPU is full
    Used += Size;
  }
  void *P = Cuda.data_alloc(Device, static_cast<int64_t>(Size), nullptr,
                            TARGET_ALLOC_DEVICE);
  if (Capacity) {
    std::lock_guard<std::mutex> Lock(SizesMutex);
    if (P)
      Sizes[P] = Size;
    else
      Used -= Size;
  }
  return P;
}

void CudaNodeOps::release(void *Ptr) {
  if (!Ptr)
    return;
  Cuda.data_delete(Device, Ptr, TARGET_ALLOC_DEVICE);
  if (Capacity) {
    std::lock_guard<std::mutex> Lock(SizesMutex);
    auto It = Sizes.find(Ptr);
    if (It != Sizes.end()) {
      Used -= It->second;
      Sizes.erase(It);
    }
  }
}

bool CudaNodeOps::copyFromHost(void *Dst, const void *Src, size_t Size) {
  return Cuda.data_submit(Device, Dst, const_cast<void *>(Src),
                          static_cast<int64_t>(Size)) == OFFLOAD_SUCCESS;
}

bool CudaNodeOps::copyToHost(void *Dst, const void *Src, size_t Size) {
  return Cuda.data_retrieve(Device, Dst, const_cast<void *>(Src),
                            static_cast<int64_t>(Size)) == OFFLOAD_SUCCESS;
}

bool CudaNodeOps::copyFromPeer(void *Dst, NodeOps &Src, const void *SrcPtr,
                               size_t Size) {
  if (Src.kind() != NodeKind::Gpu)
    return false;
  int SrcDevice = static_cast<CudaNodeOps &>(Src).device();
  // Synchronous (no async info): the copy is complete on return. Between two
  // parts of one GPU the cuda plugin copies device to device on that GPU.
  return Cuda.data_exchange(SrcDevice, const_cast<void *>(SrcPtr), Device, Dst,
                            static_cast<int64_t>(Size)) == OFFLOAD_SUCCESS;
}

} // namespace hetero

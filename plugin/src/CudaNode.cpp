//===- CudaNode.cpp - A GPU's memory through LLVM's cuda plugin -----------===//
#include "CudaNode.h"

#include "PluginInterface.h"
#include "omptarget.h"

using llvm::omp::target::plugin::GenericPluginTy;

namespace hetero {

void *CudaNodeOps::allocate(size_t Size) {
  return Cuda.data_alloc(Device, static_cast<int64_t>(Size), nullptr,
                         TARGET_ALLOC_DEVICE);
}

void CudaNodeOps::release(void *Ptr) {
  if (Ptr)
    Cuda.data_delete(Device, Ptr, TARGET_ALLOC_DEVICE);
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
  // Synchronous (no async info): the copy is complete on return.
  return Cuda.data_exchange(SrcDevice, const_cast<void *>(SrcPtr), Device, Dst,
                            static_cast<int64_t>(Size)) == OFFLOAD_SUCCESS;
}

} // namespace hetero

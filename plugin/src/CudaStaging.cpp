//===- CudaStaging.cpp - Pinned buffers for GPU-to-host copies ------------===//
#include "CudaStaging.h"

#include "PluginInterface.h"

#include <utility>

namespace hetero {

CudaStaging::~CudaStaging() {
  for (char *B : Buffer)
    if (B)
      Cuda.data_delete(Owner, B, TARGET_ALLOC_HOST);
}

bool CudaStaging::have(int Device) {
  if (Buffer[0] || Unavailable)
    return Buffer[0];
  for (char *&B : Buffer)
    B = static_cast<char *>(Cuda.data_alloc(Device, static_cast<int64_t>(Piece),
                                            nullptr, TARGET_ALLOC_HOST));
  if (Buffer[0] && Buffer[1]) {
    Owner = Device;
    return true;
  }
  for (char *&B : Buffer)
    if (B)
      Cuda.data_delete(Device, std::exchange(B, nullptr), TARGET_ALLOC_HOST);
  Unavailable = true; // no pinned memory: the driver's own path
  return false;
}

} // namespace hetero

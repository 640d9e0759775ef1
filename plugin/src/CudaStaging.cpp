//===- CudaStaging.cpp - Pinned buffers for GPU-to-host copies ------------===//
#include "CudaStaging.h"

#include "PluginInterface.h"

#include <utility>

namespace hetero {

CudaStaging::~CudaStaging() {
  for (auto &P : Pairs)
    for (char *B : P->Buffer)
      if (B)
        Cuda.data_delete(P->Owner, B, TARGET_ALLOC_HOST);
}

CudaStaging::Lease CudaStaging::take(int Device, bool MayStart) {
  Lease L;
  std::lock_guard<std::mutex> Hold(Mutex);
  for (auto &P : Pairs) {
    std::unique_lock<std::mutex> Busy(P->Busy, std::try_to_lock);
    if (Busy.owns_lock()) {
      L.P = P.get();
      L.Held = std::move(Busy);
      return L;
    }
  }
  if (Unavailable || Pairs.size() >= MaxPairs || (Pairs.empty() && !MayStart))
    return L;
  auto P = std::make_unique<Pair>();
  for (char *&B : P->Buffer)
    B = static_cast<char *>(Cuda.data_alloc(Device, static_cast<int64_t>(Piece),
                                            nullptr, TARGET_ALLOC_HOST));
  if (!P->Buffer[0] || !P->Buffer[1]) {
    for (char *&B : P->Buffer)
      if (B)
        Cuda.data_delete(Device, std::exchange(B, nullptr), TARGET_ALLOC_HOST);
    Unavailable = true; // no pinned memory: the driver's own path
    return L;
  }
  P->Owner = Device;
  L.P = P.get();
  L.Held = std::unique_lock<std::mutex>(P->Busy);
  Pairs.push_back(std::move(P));
  return L;
}

} // namespace hetero

//===- GpuPartialSlots.cpp - Reduction partials' storage on a GPU ---------===//
#include "GpuPartialSlots.h"

#include "PluginInterface.h"
#include "omptarget.h"

using llvm::omp::target::plugin::GenericPluginTy;

namespace hetero {

GpuPartialSlots::~GpuPartialSlots() {
  for (const Slot &B : Blocks) {
    Cuda.data_delete(Device, B.Device, TARGET_ALLOC_DEVICE);
    Cuda.data_delete(Device, B.Host, TARGET_ALLOC_HOST);
  }
}

bool GpuPartialSlots::grow() {
  constexpr int64_t Bytes = SlotBytes * SlotsPerBlock;
  void *D = Cuda.data_alloc(Device, Bytes, nullptr, TARGET_ALLOC_DEVICE);
  void *H = Cuda.data_alloc(Device, Bytes, nullptr, TARGET_ALLOC_HOST);
  if (!D || !H) {
    if (D)
      Cuda.data_delete(Device, D, TARGET_ALLOC_DEVICE);
    if (H)
      Cuda.data_delete(Device, H, TARGET_ALLOC_HOST);
    return false;
  }
  Blocks.push_back({D, static_cast<unsigned char *>(H)});
  for (size_t I = 0; I < SlotsPerBlock; ++I)
    Free.push_back({static_cast<char *>(D) + I * SlotBytes,
                    static_cast<unsigned char *>(H) + I * SlotBytes});
  return true;
}

bool GpuPartialSlots::take(size_t N, std::vector<Slot> &Out) {
  std::lock_guard<std::mutex> Lock(Mutex);
  Out.clear();
  while (Free.size() < N)
    if (!grow())
      return false;
  Out.assign(Free.end() - static_cast<std::ptrdiff_t>(N), Free.end());
  Free.resize(Free.size() - N);
  return true;
}

bool GpuPartialSlots::reserve() {
  std::lock_guard<std::mutex> Lock(Mutex);
  return !Free.empty() || grow();
}

void GpuPartialSlots::give(const std::vector<Slot> &Slots) {
  std::lock_guard<std::mutex> Lock(Mutex);
  Free.insert(Free.end(), Slots.begin(), Slots.end());
}

} // namespace hetero

//===- GpuPartialSlots.h - Reduction partials' storage on a GPU -*- C++ -*-===//
//
// A split kernel's chunk on a GPU keeps its reductions' private copies
// (Backend.h's ChunkPartial) here: 8-byte slots of device memory, each with
// a pinned host twin, taken for the chunk and given back when it finishes.
// The identity goes up from the twin and the partial comes back into it in
// the kernel's stream, so neither copy makes the launching thread wait; a
// chunk needs no allocation of its own (the data layer's buffers cost a
// synchronous copy each way and a free per launch).
//
//===----------------------------------------------------------------------===//
#ifndef HETERO_PLUGIN_GPUPARTIALSLOTS_H
#define HETERO_PLUGIN_GPUPARTIALSLOTS_H

#include <cstddef>
#include <mutex>
#include <vector>

namespace llvm::omp::target::plugin {
struct GenericPluginTy;
}

namespace hetero {

class GpuPartialSlots {
public:
  struct Slot {
    void *Device = nullptr;
    unsigned char *Host = nullptr; // pinned
  };

  GpuPartialSlots(llvm::omp::target::plugin::GenericPluginTy &Cuda, int Device)
      : Cuda(Cuda), Device(Device) {}
  GpuPartialSlots(const GpuPartialSlots &) = delete;
  GpuPartialSlots &operator=(const GpuPartialSlots &) = delete;
  /// Frees every block: before the cuda plugin stops.
  ~GpuPartialSlots();

  /// N slots into Out; false (Out empty) when the GPU or the host has no
  /// room for another block.
  bool take(size_t N, std::vector<Slot> &Out);
  void give(const std::vector<Slot> &Slots);
  /// Allocates the first block now: the pinned allocation took about a
  /// millisecond in a split kernel's first launch (per GPU, one after the
  /// other); the pool's start does it in the background instead.
  bool reserve();

  static constexpr size_t SlotBytes = 8;
  static constexpr size_t SlotsPerBlock = 64;

private:
  bool grow();

  llvm::omp::target::plugin::GenericPluginTy &Cuda;
  int Device;
  std::mutex Mutex;
  std::vector<Slot> Blocks; // each block's first slot
  std::vector<Slot> Free;
};

} // namespace hetero

#endif // HETERO_PLUGIN_GPUPARTIALSLOTS_H

//===- ImageTable.h - The images of each offload binary ---------*- C++ -*-===//
//
// libomptarget hands a plugin one image at a time, but hetero needs all the
// images of a binary (the x86_64 one for the CPU members, the NVPTX ones for
// the GPUs). Every image of one binary descriptor shares the host entry table,
// so images are grouped by EntriesBegin.
//
//===----------------------------------------------------------------------===//
#ifndef HETERO_PLUGIN_IMAGETABLE_H
#define HETERO_PLUGIN_IMAGETABLE_H

#include "ImageSymbols.h"
#include "Shared/APITypes.h"

#include <map>
#include <memory>
#include <mutex>
#include <vector>

namespace hetero {

struct ImageGroup {
  __tgt_device_image *HostImage = nullptr;
  std::vector<__tgt_device_image *> CudaImages;
  // Filled by load_binary.
  bool Loaded = false;
  __tgt_device_binary HostBinary{0};
  bool HostLoaded = false;
  // Per GPU slot (a GPU, or a part of one under HETERO_GPU_SPLIT: each part
  // loads its own copy, with its own globals and loop windows).
  std::vector<__tgt_device_binary> CudaBinaries;
  std::vector<bool> CudaLoaded;
  std::vector<__tgt_device_image *> CudaImageOf; // the image loaded
  // Per simulated accelerator: its own copy of the x86_64 image (its own
  // globals), loaded on host back-end device 1 + index.
  std::vector<__tgt_device_binary> SimBinaries;
  std::vector<bool> SimLoaded;
  // Its `declare target indirect` functions are known to the engine.
  bool IndirectLoaded = false;
  // What its images define (hetero's optional globals are asked by name).
  ImageSymbols Symbols;
};

enum class ImageKind { None, Host, Cuda };

class ImageTable {
public:
  /// Records Img under its binary; Kind says which backend it is for.
  void add(__tgt_device_image *Img, ImageKind Kind);
  /// The group of the binary Img belongs to, or null.
  ImageGroup *groupOf(const __tgt_device_image *Img);

private:
  std::mutex Mutex;
  std::map<const void *, std::unique_ptr<ImageGroup>> Groups;
};

} // namespace hetero

#endif // HETERO_PLUGIN_IMAGETABLE_H

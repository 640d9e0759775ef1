//===- CudaBatchCopy.h - A lane's copies in one driver call -----*- C++ -*-===//
//
// The copies from other GPUs into a lane (GpuLane.h) went in one by one
// through the cuda plugin's data_exchange_async (cuMemcpyPeerAsync), which
// cost the starting thread microseconds each, the largest part of an
// application's chunk starts (docs/measurements.md#chunk-starts). CUDA
// 12.8's driver takes a batch of copies in one call (cuMemcpyBatchAsync;
// this is its CUDA 13 signature, the symbol
// cuMemcpyBatchAsync_v2). Looked up in the libcuda the cuda plugin loaded;
// where the driver lacks it, or a batch is refused, the caller copies one
// by one as before.
//
//===----------------------------------------------------------------------===//
#ifndef HETERO_PLUGIN_CUDABATCHCOPY_H
#define HETERO_PLUGIN_CUDABATCHCOPY_H

#include "GpuLane.h"

#include <vector>

namespace hetero {

class CudaBatchCopy {
public:
  /// The driver's batch call, looked up once.
  static const CudaBatchCopy &get();
  bool available() const { return Batch != nullptr; }
  /// Queues Copies in Stream (a CUstream of the destination's GPU, whose
  /// context is current); false when the driver refused them (then none
  /// were queued).
  bool copy(void *Stream, const std::vector<GpuLane::Copy> &Copies) const;

private:
  CudaBatchCopy();
  using BatchFn = int (*)(unsigned long long *Dsts, unsigned long long *Srcs,
                          size_t *Sizes, size_t Count, void *Attrs,
                          size_t *AttrIdxs, size_t NumAttrs, void *Stream);
  BatchFn Batch = nullptr;
};

} // namespace hetero

#endif // HETERO_PLUGIN_CUDABATCHCOPY_H

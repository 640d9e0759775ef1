//===- CudaBatchCopy.cpp - A lane's copies in one driver call -------------===//
#include "CudaBatchCopy.h"
#include "CudaDriver.h"

namespace hetero {

namespace {
/// cuda.h's CUmemcpyAttributes (CUDA 12.8 and later), field for field.
struct MemcpyAttributes {
  int SrcAccessOrder; // CUmemcpySrcAccessOrder
  int SrcLocType, SrcLocId;
  int DstLocType, DstLocId;
  unsigned Flags;
};
/// CU_MEMCPY_SRC_ACCESS_ORDER_STREAM: the sources are read in stream order,
/// after what the lane holds before the batch (its waits on other lanes
/// included: PluginBackend::orderAfter).
constexpr int SrcAccessOrderStream = 1;
} // namespace

CudaBatchCopy::CudaBatchCopy()
    : Batch(reinterpret_cast<BatchFn>(
          cudaDriverSymbol("cuMemcpyBatchAsync_v2"))) {}

const CudaBatchCopy &CudaBatchCopy::get() {
  static const CudaBatchCopy Once;
  return Once;
}

bool CudaBatchCopy::copy(void *Stream,
                         const std::vector<GpuLane::Copy> &Copies) const {
  if (!Batch || !Stream || Copies.empty())
    return false;
  std::vector<unsigned long long> Dsts, Srcs;
  std::vector<size_t> Sizes;
  for (const GpuLane::Copy &C : Copies) {
    Dsts.push_back(reinterpret_cast<unsigned long long>(C.Dst));
    Srcs.push_back(reinterpret_cast<unsigned long long>(C.Src));
    Sizes.push_back(C.Size);
  }
  // One set of attributes for all; the location hints apply to managed
  // memory only, which these are not.
  MemcpyAttributes Attrs{SrcAccessOrderStream, 0, 0, 0, 0, 0};
  size_t First = 0;
  return Batch(Dsts.data(), Srcs.data(), Sizes.data(), Copies.size(), &Attrs,
               &First, 1, Stream) == 0;
}

} // namespace hetero

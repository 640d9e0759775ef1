//===- CudaIndexRange.h - The inspector's scan as a GPU kernel --*- C++ -*-===//
//
// CudaNodeOps::scanValues: the least and greatest of an index array's values
// read on the GPU that holds them, by the kernel of gpu/IndexRange.cu. The
// plugin carries that kernel as one cubin per GPU generation (built with
// the CUDA toolkit, embedded by cmake/EmbedBinary.cmake), loads the one the
// device accepts through the cuda plugin on first use, and launches it as a
// bare kernel: 256 threads a block, at most MaxBlocks blocks, each writing
// its least and greatest value; the host combines them. A GPU no cubin fits
// (or a failed load or launch) answers NotHere, and the values cross to the
// host as before.
//
//===----------------------------------------------------------------------===//
#ifndef HETERO_PLUGIN_CUDAINDEXRANGE_H
#define HETERO_PLUGIN_CUDAINDEXRANGE_H

#include "hetero/MemoryNode.h"

#include "omptarget.h"

#include <cstdint>
#include <mutex>
#include <vector>

namespace llvm::omp::target::plugin {
struct GenericPluginTy;
}

namespace hetero {

class CudaIndexRange {
public:
  CudaIndexRange(llvm::omp::target::plugin::GenericPluginTy &Cuda, int Device)
      : Cuda(Cuda), Device(Device) {}
  ~CudaIndexRange();
  CudaIndexRange(const CudaIndexRange &) = delete;
  CudaIndexRange &operator=(const CudaIndexRange &) = delete;

  /// NodeOps::scanValues for the values at device address Ptr.
  NodeOps::Scan scan(const void *Ptr, unsigned Bytes, uint64_t Stride,
                     uint64_t Count, bool Signed, int64_t &Min, int64_t &Max);

  static constexpr unsigned Threads = 256; // gpu/IndexRange.cu's block
  static constexpr unsigned MaxBlocks = 1024;

private:
  /// Loads the kernel and allocates the blocks' results, once; false when
  /// this GPU cannot run it. Under Mutex.
  bool ready();

  llvm::omp::target::plugin::GenericPluginTy &Cuda;
  int Device;
  std::mutex Mutex; // one scan at a time on this node
  enum class State { Unloaded, Ready, Unavailable } Loaded = State::Unloaded;
  __tgt_device_image Image{};
  void *Kernel = nullptr;
  int64_t *BlockResults = nullptr; // device: 2 * MaxBlocks values
  std::vector<int64_t> HostResults;
};

} // namespace hetero

#endif // HETERO_PLUGIN_CUDAINDEXRANGE_H

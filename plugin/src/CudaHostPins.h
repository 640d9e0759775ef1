//===- CudaHostPins.h - Host memory pinned for GPU copies -------*- C++ -*-===//
//
// From pageable memory the driver copies through its own staging, at a
// fraction of what the link carries from page-locked memory
// (docs/measurements.md#host-copies). A launch that streams through buffers
// larger than its GPU (eviction, rounds: DataLayer.h) moves the same host
// bytes across again and again, so the data layer asks for the host side
// of what it evicts to be pinned (NodeOps::pinHost), and here it is:
// cuMemHostRegister, portable (every GPU's copies see it), whole pages,
// never a page twice, at most half the host's memory; unregistered when
// the buffer is freed. A refusal by the driver (a memlock limit, no room)
// ends pinning for the process, said once at HETERO_INFO=1: copies stay
// pageable, as before. Copies through pinned memory are cut at the edges
// of registrations (HostPinRanges.h).
//
//===----------------------------------------------------------------------===//
#ifndef HETERO_PLUGIN_CUDAHOSTPINS_H
#define HETERO_PLUGIN_CUDAHOSTPINS_H

#include "HostPinRanges.h"

#include "hetero/Status.h"

#include <atomic>
#include <cstdint>
#include <mutex>
#include <vector>

namespace hetero {

class CudaHostPins {
public:
  /// The process's one instance.
  static CudaHostPins &get();

  /// Pins what it can of [P, P + Size) that is not pinned yet. The caller
  /// has a context of the cuda plugin current.
  void pin(const void *P, uint64_t Size);
  /// Unregisters every registration that starts in [P, P + Size).
  void unpin(const void *P, uint64_t Size);
  /// Copy(Offset, Bytes), a Status, for the pieces of [P, P + Size) that
  /// lie in one registration or in none, in order; the first that fails.
  template <typename Fn>
  Status inPieces(const void *P, uint64_t Size, Fn Copy) {
    if (!Any.load(std::memory_order_acquire))
      return Copy(uint64_t(0), Size);
    auto Lo = reinterpret_cast<uintptr_t>(P);
    std::vector<HostPinRanges::Span> Pieces;
    {
      std::lock_guard<std::mutex> Lock(Mutex);
      Pieces = Ranges.pieces(Lo, Lo + Size);
    }
    for (const auto &[From, To] : Pieces)
      if (Status S = Copy(uint64_t(From - Lo), uint64_t(To - From)); !S)
        return S;
    return Status();
  }
  /// Bytes pinned now.
  uint64_t bytes();

private:
  CudaHostPins();
  using RegisterFn = int (*)(void *, size_t, unsigned);
  using UnregisterFn = int (*)(void *);
  RegisterFn Register = nullptr;
  UnregisterFn Unregister = nullptr;
  std::mutex Mutex; // Ranges, Refused
  HostPinRanges Ranges;
  bool Refused = false;
  std::atomic<bool> Any{false};
};

} // namespace hetero

#endif // HETERO_PLUGIN_CUDAHOSTPINS_H

//===- DataLayerBuffer.h - A buffer's state, for the data layer's files -===//
//
// The data layer is one class (hetero/DataLayer.h) in several files, one
// per concern: DataLayer.cpp (the buffer table, the host's view, coherence
// between nodes, kernels' buffers), DataLayerResidency.cpp (storage on the
// nodes, backing, map-time placement, eviction), DataLayerGiveBack.cpp
// (what a launch in rounds gives back), DataLayerInspector.cpp
// (the run-time inspector's reads of index values) and DataLayerLanes.cpp
// (copy batches, copies in lanes, settling). This is what they share.
//
//===----------------------------------------------------------------------===//
#ifndef HETERO_DATALAYERBUFFER_H
#define HETERO_DATALAYERBUFFER_H

#include "hetero/DataLayer.h"

#include <algorithm>
#include <map>
#include <optional>
#include <thread>
#include <vector>

namespace hetero {

struct DataLayer::Buffer {
  uintptr_t Base = 0; // hetero device address == storage on the host node
  uint64_t Size = 0;
  /// Reserved, inaccessible host address space right before Base: a pointer
  /// in [Base - LeadIn, Base) can only be a base pointer of this buffer.
  uint64_t LeadIn = 0;
  bool External = false;
  bool ReadOnly = false;
  bool HostResident = false;
  /// A node was asked to pin (NodeOps::pinHost) a range of the host
  /// storage: every node is asked to unpin it before it is freed.
  bool HostPinned = false;
  /// Per node: storage (nullptr until first needed) and valid ranges.
  std::vector<void *> NodePtr;
  std::vector<RangeSet> Valid;
  /// Per node: ranges valid there whose copy is still queued (a copy batch).
  std::vector<RangeSet> Queued;
  /// Per node with a backing granule: the granules of its storage held
  /// (NodeOps::back); every byte valid there is inside.
  std::vector<RangeSet> Backed;
  /// Per node: the epoch (DataLayer::newEpoch) it was last used there.
  std::vector<uint64_t> UsedAt;
  /// Per node with a backing granule: the ranges made valid or held there
  /// in epoch UsedRangesAt (this launch's, when it is the current one):
  /// eviction keeps their blocks and may take the rest of the buffer.
  std::vector<RangeSet> UsedRanges;
  std::vector<uint64_t> UsedRangesAt;
  /// Offset -> hetero address stored there.
  std::map<uint64_t, uintptr_t> PointerSlots;
  /// loadRange()'s answers since the buffer was last written: (offset,
  /// bytes, stride, count, signed) -> (least, greatest), or none where the
  /// values cannot be read (pointer slots, an unsigned value >= 2^63).
  std::map<ScanKey, std::optional<std::pair<int64_t, int64_t>>> Scans;
  /// Changes whenever the buffer is written (unique over all buffers).
  uint64_t Generation = 0;
  /// Copies to or from the host under way without the layer's lock
  /// (DataLayer::unlockedCopy): its storage is neither freed nor evicted.
  unsigned Busy = 0;

  bool containsAddr(uintptr_t P) const { return P >= Base && P <= Base + Size; }
};

template <typename Fn>
void DataLayer::unlockedCopy(HeldLock *L, Buffer &B, uint64_t Bytes,
                             Fn &&Copy) {
  if (!L || Bytes < UnlockedCopyBytes) {
    Copy();
    return;
  }
  ++B.Busy;
  L->unlock();
  Copy();
  L->lock();
  --B.Busy;
  BusyDone.notify_all();
}

struct DataLayer::GiveBackCopies {
  /// Bytes only the node held, copied home on Copier.
  struct Home {
    Buffer *B;
    Range R;
    char *Dst;
    const char *Src;
    Status Copied;
  };
  std::vector<Home> Homes;
  /// What goes from the node once they are home.
  std::vector<std::pair<Buffer *, RangeSet>> Drops;
  /// The copies home were found (else nothing goes, each drop's buffer is
  /// only no longer busy).
  bool Ready = false;
  std::thread Copier;
};

/// Adds to Into the blocks of Block bytes (the last one ending at Size) that
/// From's ranges touch.
inline void addBlocks(RangeSet &Into, const RangeSet &From, uint64_t Block,
                      uint64_t Size) {
  for (const Range &R : From.ranges())
    Into.insert(R.Lo / Block * Block,
                std::min(Size, (R.Hi + Block - 1) / Block * Block));
}

/// A copy between two nodes, begun at BeginUs, in the trace: on the lane of
/// the node that is not the host (the destination's for d2d).
void traceCopy(const NodeOps &From, NodeId FromId, const NodeOps &To,
               NodeId ToId, uint64_t Bytes, double BeginUs,
               bool Queued = false);

} // namespace hetero

#endif // HETERO_DATALAYERBUFFER_H

//===- LaneReads.h - Bytes that queued copies have yet to read --*- C++ -*-===//
//
// A copy queued in its destination's lane (DataLayer::queueCopiesInLanes)
// reads its source's bytes only when that lane reaches it, which may be
// after later work on the source has started. Until the destination's lane
// is waited for, whatever writes those bytes (a kernel of a later launch, a
// copy into them, a write from the host, a free) must wait for that lane
// first. This is the list of such reads: per source node, buffer and byte
// range, the destinations whose lanes hold them.
//
//===----------------------------------------------------------------------===//
#ifndef HETERO_LANEREADS_H
#define HETERO_LANEREADS_H

#include "hetero/MemoryNode.h"

#include <cstdint>
#include <vector>

namespace hetero {

class LaneReads {
public:
  /// Dst's lane will read [Lo, Hi) of buffer Id on node Src. A read already
  /// kept is not kept twice (a loop's launches queue the same halos).
  void add(NodeId Src, NodeId Dst, uintptr_t Id, uint64_t Lo, uint64_t Hi);
  /// The destinations whose lanes read bytes of [Lo, Hi) of buffer Id on
  /// Src, each once; Id 0: of any buffer.
  std::vector<NodeId> readers(NodeId Src, uintptr_t Id, uint64_t Lo,
                              uint64_t Hi) const;
  /// Every destination with reads left.
  std::vector<NodeId> allReaders() const;
  /// Dst's lane was waited for: its reads are done.
  void settled(NodeId Dst);
  /// Src's lane runs after everything Dst's lane was given (ordered on the
  /// device): Dst's reads of Src's bytes are no one else's concern, since
  /// whatever else writes Src's memory waits for Src's lane first.
  void orderedAfter(NodeId Src, NodeId Dst);
  bool empty() const { return Reads.empty(); }
  size_t size() const { return Reads.size(); }

  /// Past this many reads the data layer waits for all of them, so that
  /// reads whose lanes were waited for elsewhere (a chunk's own wait) do
  /// not pile up.
  static constexpr size_t MaxReads = 4096;

private:
  struct Read {
    NodeId Src, Dst;
    uintptr_t Id;
    uint64_t Lo, Hi;
  };
  std::vector<Read> Reads;
};

} // namespace hetero

#endif // HETERO_LANEREADS_H

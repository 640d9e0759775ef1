//===- MemoryNode.h - One memory of the pool --------------------*- C++ -*-===//
//
// A memory node is one address space of the pool: the host (node 0, whose
// storage is the hetero device pointer space itself), a GPU, or a simulated
// accelerator (CPU memory private to one worker). NodeOps moves bytes in and
// out of it; the data layer decides what to move.
//
// What fails says so in a Status (Status.h) whose message names the node
// and what it could not do, in the driver's own words where there is a
// driver; the data layer adds the buffer and the range, and the engine
// prints it. Nothing here prints. Answers that are not failures (no direct
// path, no lane, nothing to give back) are plain bools.
//
//===----------------------------------------------------------------------===//
#ifndef HETERO_MEMORYNODE_H
#define HETERO_MEMORYNODE_H

#include "hetero/Status.h"

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <mutex>
#include <string>
#include <unordered_map>
#include <vector>

namespace hetero {

using NodeId = int;
constexpr NodeId HostNode = 0;

enum class NodeKind { Host, Gpu, Simulated };

/// Whether one lane (a node's or member's queue: a GPU's stream) now runs
/// after what another's holds, ordered on the device (Backend::orderAfter).
enum class LaneOrder {
  No,      ///< not ordered: the caller waits for the other on the host
  Ordered, ///< ordered, and the other holds nothing that is not yet issued
  Held,    ///< ordered, but the other holds copies for its next chunk, not
           ///< issued yet, which the order does not cover
};

const char *nodeKindName(NodeKind K);

class NodeOps {
public:
  virtual ~NodeOps();
  virtual NodeKind kind() const = 0;
  /// Short name for messages and statistics, e.g. "cuda:1", "sim:0".
  virtual std::string name() const = 0;
  /// Storage of Size bytes on this node, nullptr when it has no room. A
  /// node with a backing granule (below) only reserves it here.
  virtual void *allocate(size_t Size) = 0;
  virtual void release(void *Ptr) = 0;
  /// Nonzero: storage from allocate() holds memory only where back() was
  /// called for it, in granules of this many bytes, so a buffer larger than
  /// the node can be held in part (the ranges its chunks touch). Zero: all
  /// of it is held from allocate() on.
  virtual uint64_t backingGranule() const { return 0; }
  /// What one back() holds at most, and so what eviction gives back at
  /// least (NodeOps::unback takes whole ranges back() held): what a launch
  /// streaming through a buffer larger than the node keeps of the blocks
  /// it passed. A multiple of the granule.
  virtual uint64_t backingBlock() const { return backingGranule() * 32; }
  /// Holds [Lo, Hi) of storage Ptr (granule-aligned, not held before).
  /// StatusCode::NoRoom when the node has no room for it (the caller may
  /// evict and ask again); another code when the driver failed.
  virtual Status back(void *Ptr, uint64_t Lo, uint64_t Hi);
  /// Gives back what back() held of [Lo, Hi) of storage Ptr (the ranges
  /// given are whole ranges back() was called for, or unions of them); the
  /// bytes there are lost. False, nothing given back, where the node cannot
  /// (storage held whole).
  virtual bool unback(void *Ptr, uint64_t Lo, uint64_t Hi) { return false; }
  /// The most bytes this node holds (a GPU's memory, a part's share of it);
  /// 0 when not known or not bounded.
  virtual uint64_t capacity() const { return 0; }
  /// Host memory [P, P + Size) will cross this node's link again: its bytes
  /// were evicted from here, and a launch that streams through a buffer
  /// larger than the node reloads them. A node whose link is faster from
  /// page-locked memory locks what it can of it (and may refuse quietly);
  /// the memory stays where it is. By default nothing.
  virtual void pinHost(const void * /*P*/, uint64_t /*Size*/) {}
  /// Host memory [P, P + Size) is about to be freed: undoes pinHost() for
  /// every range inside it. By default nothing.
  virtual void unpinHost(const void * /*P*/, uint64_t /*Size*/) {}
  /// Host memory -> this node.
  virtual Status copyFromHost(void *Dst, const void *Src, size_t Size) = 0;
  /// This node -> host memory.
  virtual Status copyToHost(void *Dst, const void *Src, size_t Size) = 0;
  /// The link its copies to and from the host go over: nodes that give the
  /// same value share it (the parts of one GPU); -1, by default: its own.
  virtual int hostLink() const { return -1; }
  /// Whether this node copies from Src's storage without staging through
  /// the host (copyFromPeer, queueCopyFromPeer); where not, the caller
  /// stages through node 0. By default no.
  virtual bool reachesPeer(const NodeOps & /*Src*/) const { return false; }
  /// Another node -> this node, where reachesPeer(Src).
  virtual Status copyFromPeer(void *Dst, NodeOps &Src, const void *SrcPtr,
                              size_t Size);
  /// Like copyFromPeer(), but the copy may still be under way on return:
  /// its bytes are in place once waitQueuedCopies() has returned ok.
  /// Copies queued into different nodes, or from different nodes, overlap.
  /// The caller reads nothing at Dst and writes nothing at Dst or SrcPtr
  /// until then (DataLayer.h's copy batch). By default: copyFromPeer().
  virtual Status queueCopyFromPeer(void *Dst, NodeOps &Src, const void *SrcPtr,
                                   size_t Size);
  /// Waits for every copy queued into this node; an error if one failed.
  virtual Status waitQueuedCopies();
  /// Puts a copy from Src (another accelerator) in this node's lane, the
  /// queue its member's chunks run in (Engine.h's run-ahead): after the
  /// chunks queued there, before the next one. False where this node has
  /// no lane or Src is not of its kind: the caller copies another way. The
  /// copy is done once that lane is waited for (the engine's settle); until
  /// then the caller reads nothing at Dst from outside the lane and writes
  /// nothing at SrcPtr (LaneReads.h). By default: false.
  virtual bool queueCopyInLane(void *Dst, NodeOps &Src, const void *SrcPtr,
                               size_t Size);
  /// What scanValues() found.
  enum class Scan {
    NotHere, // this node cannot: the caller reads the values to the host
    Found,   // Min and Max are set
    NoAnswer // an unsigned 8-byte value is 2^63 or more
  };
  /// The least and greatest of Count values of Bytes bytes (1, 2, 4 or 8;
  /// sign- or zero-extended as Signed says) at Ptr, Ptr + Stride, ... in
  /// this node's storage, read where they lie: the run-time inspector's
  /// question (DataLayer::loadRange), so that an index array need not cross
  /// to the host to be bounded. Count > 0; the bytes are valid here and
  /// nothing writes them meanwhile. By default NotHere.
  virtual Scan scanValues(const void *Ptr, unsigned Bytes, uint64_t Stride,
                          uint64_t Count, bool Signed, int64_t &Min,
                          int64_t &Max);
  /// Writes one pointer-sized value into this node's storage.
  Status storePointer(void *Dst, const void *Value) {
    return copyFromHost(Dst, &Value, sizeof(Value));
  }
};

/// Bytes of memory the host can still give this process now: MemAvailable
/// of /proc/meminfo (plus free swap), or the free pages when that cannot be
/// read.
uint64_t availableHostMemory();

/// Node 0: plain host memory; copies are memcpy. Storage is reserved
/// address space whose pages are committed on first touch, so a request the
/// host cannot hold is refused at once (it would otherwise be found out by
/// the kernel's out-of-memory killer, gigabytes later).
///
/// Released mappings up to CheckedSize are kept for reuse by a request of
/// the same size and lead-in: an munmap (and the mmap and mprotect of the
/// next one) in a threaded process costs a TLB shootdown on every core,
/// which a program that maps a buffer per time step (CloverLeaf's halo
/// exchange) would pay at each map and unmap. Reused storage reads as
/// zeros, as a new mapping does: small ones are cleared, larger ones have
/// their pages dropped when kept (MADV_DONTNEED: nothing to do for pages
/// never touched, and no memory held while kept).
class HostNodeOps : public NodeOps {
public:
  /// Like allocate(), with LeadIn bytes of inaccessible address space
  /// reserved right before the storage (see DataLayer::allocate). Null when
  /// Size exceeds the host memory available (requests of 64 MiB and more
  /// are checked; smaller ones only against the address space). The
  /// storage is page aligned.
  void *allocateWithLeadIn(size_t Size, size_t LeadIn);
  /// Below this, allocations are not checked against availableHostMemory().
  static constexpr size_t CheckedSize = size_t(64) << 20;
  /// The bytes requested for storage from allocate(); 0 for a pointer this
  /// node did not allocate.
  size_t allocationSize(const void *Ptr) const;
  NodeKind kind() const override { return NodeKind::Host; }
  std::string name() const override { return "host"; }
  void *allocate(size_t Size) override;
  void release(void *Ptr) override;
  Status copyFromHost(void *Dst, const void *Src, size_t Size) override;
  Status copyToHost(void *Dst, const void *Src, size_t Size) override;
  ~HostNodeOps() override;

private:
  /// Up to this size, kept storage is cleared on reuse; above it, its pages
  /// are dropped when it is kept.
  static constexpr size_t ClearedSize = 64 << 10;
  static constexpr size_t MaxCached = 64;
  struct Mapping {
    char *Start = nullptr; ///< what mmap returned
    size_t Bytes = 0;      ///< what was mapped: lead-in and storage
    size_t LeadIn = 0;     ///< inaccessible bytes before the storage
    size_t Size = 0;       ///< the storage's requested size
  };
  void *reuse(size_t Bytes, size_t LeadIn, size_t Size);
  mutable std::mutex Mutex;
  std::unordered_map<const void *, Mapping> Live; ///< by storage address
  std::vector<Mapping> Cache;                     ///< oldest first
};

/// A simulated accelerator (HETERO_SIMULATE=n): its own CPU memory, reached
/// only through copies, so that the coherence code runs without a GPU.
/// Capacity (bytes, 0 = unlimited) lets tests run a node out of memory
/// (HETERO_SIMULATE_MEMORY). Its storage is reserved address space, held in
/// granules as it is used (back()) and counted against Capacity only then,
/// as a GPU's reserved virtual range is backed by physical granules: a
/// buffer larger than the node fits where its chunks touch less.
class SimulatedNodeOps : public HostNodeOps {
public:
  explicit SimulatedNodeOps(int Index, size_t Capacity = 0)
      : Index(Index), Capacity(Capacity) {}
  NodeKind kind() const override { return NodeKind::Simulated; }
  std::string name() const override { return "sim:" + std::to_string(Index); }
  // allocate() is the host's: address space, held as it is backed.
  void release(void *Ptr) override;
  /// Small against a GPU's (2 MiB), so that small test problems fit as
  /// whole buffers did.
  static constexpr uint64_t Granule = 64 << 10;
  uint64_t backingGranule() const override { return Granule; }
  /// Small, for members of a few MiB (the tests' tight memory).
  uint64_t backingBlock() const override { return 2 * Granule; }
  Status back(void *Ptr, uint64_t Lo, uint64_t Hi) override;
  /// The bytes given back are overwritten (0xA5), so that a data layer that
  /// reads what it evicted gets wrong answers in the simulated runs.
  bool unback(void *Ptr, uint64_t Lo, uint64_t Hi) override;
  uint64_t capacity() const override { return Capacity; }
  /// From another simulated accelerator.
  bool reachesPeer(const NodeOps &Src) const override {
    return Src.kind() == NodeKind::Simulated;
  }
  Status copyFromPeer(void *Dst, NodeOps &Src, const void *SrcPtr,
                      size_t Size) override;
  /// Deferred to waitQueuedCopies(), as late as a GPU's copy may land: a
  /// data layer that read or overwrote queued bytes too early is caught by
  /// the simulated runs' answers.
  Status queueCopyFromPeer(void *Dst, NodeOps &Src, const void *SrcPtr,
                           size_t Size) override;
  Status waitQueuedCopies() override;

private:
  struct QueuedCopy {
    void *Dst;
    const void *Src;
    size_t Size;
  };
  int Index;
  size_t Capacity;
  std::atomic<size_t> Used{0};
  std::mutex BackedMutex;
  std::unordered_map<const void *, uint64_t> Backed; ///< held, by storage
  std::vector<QueuedCopy> Queued; // under the data layer's lock
};

} // namespace hetero

#endif // HETERO_MEMORYNODE_H

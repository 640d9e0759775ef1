//===- DataLayer.h - Buffers over several memory nodes ----------*- C++ -*-===//
//
// Every buffer the hetero device hands out has one address in the hetero
// device pointer space (its storage on the host node, node 0) and, lazily,
// storage on every other memory node. Per buffer and node the layer keeps the
// set of valid byte ranges; making a range valid on a node copies exactly the
// missing parts from nodes that hold them (directly between peers when the
// nodes can, else staged through the host). Writing a range on a node makes
// it valid there only.
//
// Pointers stored in mapped memory (libomptarget's pointer attachment) are
// remembered as pointer slots and rewritten for each node whenever the bytes
// that hold them are copied there. A mapped pointer variable (a buffer of
// pointer size) that a kernel wrote is read back in the address space of
// whoever reads it: a kernel's `p = a` stores its node's address of a, the
// host reads a's hetero address. When a buffer is freed, the translated
// copies of pointers to it on other nodes become stale.
//
// Data moves when it is mapped: a write from the host (data_submit) goes
// straight from the user's memory to the home node, the member a whole
// launch would run on (the first GPU), or for a large array in blocks over
// the accelerators, each over its own link (setSpreadNodes); a read
// (data_retrieve) copies straight from the nodes that hold the bytes into
// the user's memory, from several at once. The
// host node's storage is reserved address space that is committed only
// where the host node itself holds bytes (CPU-side members, staging, small
// pointer-sized values), so a mapped array costs no second host copy.
//
// Every device address the host sees is a hetero address only where it comes
// back through mapped memory as a pointer-sized value: a device address a
// kernel stores inside a larger array keeps the running node's value.
//
// Buffers are named by their hetero base address (BufferId) and reached only
// through the layer, under its lock: a caller never holds a buffer itself,
// so a buffer freed meanwhile is an error (NotMapped), never a dangling
// pointer. A map-time copy (write(), read()) of UnlockedCopyBytes or more
// runs without the lock, its buffer marked busy: another thread's map,
// launch or read of other buffers goes on meanwhile; a free of that buffer
// waits for the copy, and eviction passes it by. The layer prints nothing:
// failures come back as a Status.
//
//===----------------------------------------------------------------------===//
#ifndef HETERO_DATALAYER_H
#define HETERO_DATALAYER_H

#include "hetero/HeldMutex.h"
#include "hetero/LaneReads.h"
#include "hetero/MemoryNode.h"
#include "hetero/RangeSet.h"
#include "hetero/Status.h"

#include <atomic>
#include <cassert>
#include <condition_variable>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <set>
#include <string>
#include <thread>
#include <tuple>
#include <vector>

namespace hetero {

struct TransferStats {
  std::atomic<uint64_t> BytesH2D{0};
  std::atomic<uint64_t> BytesD2H{0};
  std::atomic<uint64_t> BytesD2D{0};
};

/// The bytes of buffer storage one node holds: now, and the most it held
/// at once (HETERO_STATS). Storage the layer does not own (the images'
/// globals) is not counted; the host node counts the mapped buffers
/// themselves, whose storage is the hetero address space.
struct NodeBytes {
  uint64_t Held = 0;
  uint64_t Peak = 0;
  uint64_t Evicted = 0; // given back to make room (DataLayer::newEpoch)
};

/// A buffer's hetero base address: its name.
using BufferId = uintptr_t;

/// What a caller may know of a buffer (a copy, taken under the lock).
struct BufferInfo {
  BufferId Id = 0; // == its hetero base address
  uint64_t Size = 0;
  /// Storage not owned by the layer (globals of loaded images).
  bool External = false;
  /// A const global of the loaded images (read-only pages): every node
  /// holds its initial contents and nothing ever writes it.
  bool ReadOnly = false;
  /// Host-visible memory (omp_target_alloc_host/shared, or any
  /// omp_target_alloc under unified shared memory): the host may write it at
  /// any time, so its host copy is the truth around every kernel.
  bool HostResident = false;
  /// Changes whenever the buffer is written (unique over all buffers): a
  /// value read from it holds while this does.
  uint64_t Generation = 0;
  uintptr_t base() const { return Id; }
};

class DataLayer {
public:
  DataLayer();
  ~DataLayer();
  DataLayer(const DataLayer &) = delete;
  DataLayer &operator=(const DataLayer &) = delete;

  /// Adds a memory node; node 0 (the host) exists from the start.
  NodeId addNode(std::unique_ptr<NodeOps> Ops);
  int numNodes() const;
  std::string nodeName(NodeId N) const;

  /// A new buffer of Size bytes; null when the host cannot hold it.
  void *allocate(uint64_t Size);
  /// Frees a buffer and its storage on every node.
  Status release(void *Ptr);
  /// Registers storage the layer does not own: Base is the host node's copy
  /// (also the hetero address). Later calls add other nodes' copies.
  void registerExternal(void *Base, uint64_t Size, bool ReadOnly = false);
  void setExternalNodeStorage(void *Base, NodeId N, void *NodePtr);
  /// Marks the buffer at Ptr host-resident (see BufferInfo::HostResident).
  void setHostResident(void *Ptr);

  /// Where write() puts bytes: HostNode (the default) or a node that
  /// copies from host memory itself.
  void setHomeNode(NodeId N);
  NodeId homeNode() const;
  /// The accelerators' nodes, in the order split launches give them
  /// iterations. A buffer larger than 1/SpreadFraction of the home node's
  /// capacity, or of SpreadMinBytes or more where each of these nodes
  /// reaches every other directly (NodeOps::reachesPeer: a kernel that runs
  /// on fewer of them gathers the rest over those links), is not written to
  /// the home node but spread over these in equal consecutive blocks, each
  /// over its own link at once: a problem larger than one member starts
  /// where the first split launches need it, and a large array crosses at
  /// map time at the rate of all the links, not one's (NodeOps::capacity;
  /// fewer than two nodes: never spread).
  void setSpreadNodes(std::vector<NodeId> Ns);
  static constexpr uint64_t SpreadFraction = 4;
  static constexpr uint64_t SpreadMinBytes = uint64_t(64) << 20;

  /// Host memory -> hetero address (data_submit): valid on the home node
  /// only (on the host for a pointer-sized write, a pointer attachment, for
  /// host-resident buffers, and when the home node has no room).
  Status write(void *TgtPtr, const void *Src, uint64_t Size);
  /// Hetero address -> host memory (data_retrieve), from wherever the bytes
  /// are valid, over each link at once where the nodes that hold them
  /// cross several (NodeOps::hostLink) and it reads ParallelReadBytes or
  /// more; the host node's copy becomes valid only where it was.
  Status read(void *Dst, const void *TgtPtr, uint64_t Size);
  /// Hetero address -> hetero address (data_exchange within the device).
  Status copy(void *DstPtr, const void *SrcPtr, uint64_t Size);

  /// The buffer holding hetero address P (one past the end counts).
  std::optional<BufferInfo> find(uintptr_t P) const;
  /// Like find(), but also for a pointer into a buffer's lead-in: the buffer
  /// a pointer value belongs to (a section a[100:200] is attached and passed
  /// as &a[0], which may lie before the buffer).
  std::optional<BufferInfo> findForPointer(uintptr_t P) const;
  /// P translated to node N's storage into Out; P itself when it is no
  /// hetero address. Allocates node storage on first use.
  Status translate(NodeId N, uintptr_t P, uintptr_t &Out);
  /// translate() of each of In into Out (resized), under one hold.
  Status translateAll(NodeId N, const std::vector<uintptr_t> &In,
                      std::vector<uintptr_t> &Out);

  /// Makes [Lo, Hi) of buffer B valid on node N.
  ///
  /// Where N, holding buffers in part (NodeOps::backingGranule), has no
  /// room for the granules, it evicts: buffers it holds that nothing has
  /// used there since the last newEpoch() (this launch), least recently
  /// used first, each whole; then the blocks (NodeOps::backingBlock) of this
  /// launch's buffers that it has not touched there. Bytes only N holds are
  /// copied to the host first; what ran ahead on N, and copies in lanes
  /// that read the victim there, are waited for. Then NoRoom only if that
  /// was not enough.
  Status makeValid(NodeId N, BufferId B, uint64_t Lo, uint64_t Hi);
  /// What one chunk needs on node N (LaunchRun::prepareSections): Span of
  /// buffer Id, the bytes it reads (Read) and writes (Write) together.
  struct ChunkNeed {
    BufferId Id;
    const RangeSet *Read, *Write, *Span;
    /// Of Span, what the chunk overwrites whole without reading it
    /// (BufferAccess::Covered): held on N, not made valid there (the
    /// chunk's markWritten makes it so); null: nothing.
    const RangeSet *Covered = nullptr;
  };
  /// A chunk's needs under one hold of the layer (a launch's chunks made
  /// dozens of calls, each taking the lock): willUse() of every span, then
  /// per buffer beforeKernelWrites() of its writes and makeValid() of its
  /// span. Missing, where given, adds the bytes of the reads N did not hold
  /// (bytesMissing(), taken before that buffer is made valid).
  Status prepareChunk(NodeId N, const std::vector<ChunkNeed> &Needs,
                      uint64_t *Missing);
  /// A launch begins: what the previous ones used may be evicted now.
  void newEpoch();
  /// This launch will use these ranges of these buffers on N: none of them
  /// is evicted there to make room for another (called before making them
  /// valid one by one); the rest of those buffers may be.
  void willUse(NodeId N,
               const std::vector<std::pair<BufferId, RangeSet>> &Ranges);
  /// Ranges of buffers: a chunk's spans on a node, say.
  using BufferRanges = std::vector<std::pair<BufferId, RangeSet>>;
  /// Gives back N's storage of Ranges (rounded out to eviction blocks),
  /// but not of the blocks Keep's ranges touch, as eviction gives it back
  /// (bytes only N holds go home first, after what ran ahead there). A
  /// launch in rounds gives back what each streaming round used (Engine.h),
  /// so that the next round's room never comes from the part that stays.
  /// Nothing on a node that holds buffers whole.
  Status giveBack(NodeId N, const BufferRanges &Ranges,
                  const BufferRanges &Keep);
  /// giveBack(), later: in the next prepareChunk() on N, whose copies to
  /// the host then run while that chunk's data comes in (a link carries
  /// both ways at once), and never of the blocks that chunk needs; or in
  /// giveBackNow(). A second one for N runs the first now.
  Status giveBackLater(NodeId N, BufferRanges Ranges, BufferRanges Keep);
  /// Runs every node's pending giveBackLater() now.
  Status giveBackNow();
  /// Records that node N wrote [Lo, Hi) of B: valid there, stale elsewhere.
  void markWritten(NodeId N, BufferId B, uint64_t Lo, uint64_t Hi);
  /// The bytes of B valid on node N.
  RangeSet validOn(NodeId N, BufferId B) const;
  /// The bytes of B valid on node N and on no other node.
  RangeSet validOnlyOn(NodeId N, BufferId B) const;
  /// ... of those, the ones in [Lo, Hi) (offsets in B): scans only the
  /// ranges there (a buffer whose halo columns were copied holds
  /// thousands).
  RangeSet validOnlyOn(NodeId N, BufferId B, uint64_t Lo, uint64_t Hi) const;
  /// Whether node N holds any byte of B that no other node does.
  bool holdsAlone(NodeId N, BufferId B) const;
  /// The bytes of R (offsets in B) not valid on node N.
  uint64_t bytesMissing(NodeId N, BufferId B, const RangeSet &R) const;

  /// What a kernel with these arguments may reach: the arguments' buffers
  /// and every external buffer (globals of the loaded images, which kernels
  /// use without passing them), and whatever their pointer slots lead to.
  std::vector<BufferInfo> kernelBuffers(const std::vector<uintptr_t> &Args);
  /// The external buffers (globals of the loaded images).
  std::vector<BufferInfo> externalBuffers() const;

  /// Whole-buffer acquire for a kernel that runs on node N: every buffer it
  /// may reach becomes valid on N (a host-resident one from the host) and
  /// the arguments are translated for N.
  Status acquireWhole(NodeId N, std::vector<uintptr_t> &Args,
                      std::vector<BufferId> &Touched);
  /// After such a kernel: every touched buffer is valid on N only (a
  /// host-resident one goes back to the host).
  void releaseWhole(NodeId N, const std::vector<BufferId> &Touched);
  /// After a failed kernel on N: forgets N's copies of the touched buffers.
  /// False, changing nothing, if some bytes are valid only on N.
  bool discardNode(NodeId N, const std::vector<BufferId> &Touched);

  /// The least and greatest of Count values of Bytes bytes at hetero
  /// address Addr, Addr + Stride, ..., read where they are valid and
  /// extended as Signed says (DescEnv::LoadRange: the run-time inspector of
  /// indirect accesses, x[col[k]]). Remembered per buffer until the buffer
  /// is written, so that a CSR matrix's column indices are read once, not
  /// at every launch. Values that lie whole on a node able to read them
  /// itself (NodeOps::scanValues: a GPU's kernel) are read there, at once,
  /// in every mode but off; in the in-place mode nothing else is read. In
  /// the background and sync modes others cross to the host in pieces.
  /// False when the values do not lie in one buffer, the buffer is
  /// host-resident (the host may change it at any time) or holds pointer
  /// slots there, or an unsigned 8-byte value is 2^63 or more; in the
  /// in-place mode also when no node holds them whole; in the background
  /// mode also while they are being read (the caller reads the whole buffer
  /// meanwhile); and in the off mode always.
  bool loadRange(uintptr_t Addr, unsigned Bytes, uint64_t Stride,
                 uint64_t Count, bool Signed, int64_t &Min, int64_t &Max);
  enum class ScanMode { InPlace, Background, Sync, Off };
  /// How loadRange() reads what it has not read before (HETERO_INSPECT).
  void setScanMode(ScanMode M);
  /// Waits until the background reads queued so far are done (tests).
  void waitForScans();

  /// A copy batch: from beginCopyBatch() to endCopyBatch(), the copies
  /// between two accelerators' nodes that makeValid() makes on the calling
  /// thread are only queued (NodeOps::queueCopyFromPeer), so that a launch's
  /// copies into and out of several GPUs overlap: one after the other, each
  /// paid its whole round trip. endCopyBatch() waits for them all. Meanwhile a
  /// queued range is valid on its node for the bookkeeping only: a copy out of
  /// it first waits for the copies queued into that node, and so does every
  /// other operation that reads or writes node memory (another thread's
  /// included), which waits for all of them. One batch at a time; the
  /// launch lock keeps it so.
  void beginCopyBatch();
  /// Ends the batch; an error if a queued copy failed (the ranges it was
  /// to fill are then not valid on its node).
  Status endCopyBatch();
  /// For the rest of the open batch (a launch that runs ahead), a copy
  /// between two accelerators goes in the destination's lane
  /// (NodeOps::queueCopyInLane), behind the kernels there, with no wait for
  /// the copy: waited for on the host, each halo copy paid its own wait,
  /// with the GPUs idle. The copy's lane waits on the device for its
  /// source's lane (setOrderer()), except where this batch queued copies
  /// into the bytes it reads, not yet issued: then the host waits for the
  /// source. Without an orderer, or where it declines, the host waits: at
  /// the batch's first lane copy once for every node's kernels, later only
  /// where this batch queued copies into the bytes a copy reads. Not for
  /// bytes that Writes holds (what the launch's chunks may write: another
  /// chunk of it could write them while the copy reads) or that may hold
  /// pointer slots. The destination is then unsettled (setLaneNotice()),
  /// and until its lane is waited for, anything that writes the bytes the
  /// copy reads waits for it first (LaneReads.h): a copy into them, a host
  /// write, a free, and a later launch's kernel (beforeKernelWrites()); a
  /// copy in a lane and a kernel in a lane do so on the device, where the
  /// orderer can.
  void queueCopiesInLanes(std::map<BufferId, RangeSet> Writes);
  /// Before a kernel on node N writes [Lo, Hi) of buffer Id: waits for the
  /// lanes whose queued copies still read those bytes.
  Status beforeKernelWrites(NodeId N, BufferId Id, uint64_t Lo, uint64_t Hi);
  /// Before a kernel that may write anything of node N runs there.
  Status beforeKernelWrites(NodeId N);

  TransferStats &stats() { return Stats; }
  /// memcpy between host memory and the host's storage, over the shared
  /// copier's threads from ParallelHostCopy bytes on (ParallelCopy.h).
  static void hostCopy(void *Dst, const void *Src, uint64_t Size);
  static constexpr uint64_t ParallelHostCopy = uint64_t(16) << 20;
  /// A read() of this many bytes or more from several nodes copies from
  /// each on a thread of its own.
  static constexpr uint64_t ParallelReadBytes = uint64_t(16) << 20;
  /// The most bytes node N holds (NodeOps::capacity), 0 when unbounded.
  uint64_t capacity(NodeId N) const { return Nodes[N]->capacity(); }
  /// Per node, in NodeId order (NodeBytes).
  std::vector<NodeBytes> heldBytes() const {
    Lock L(Mutex);
    return Held;
  }
  /// Reads queued in lanes that writers still wait for (LaneReads.h).
  size_t laneReads() const {
    Lock L(Mutex);
    return Reads.size();
  }

  /// Waits for the kernels a launch left running on node N (Engine.h's
  /// run-ahead); an error, saying what failed, when one of them failed (the
  /// operation that needed them fails with it). Why says what needs them
  /// (the trace names it in the wait: what stopped a run-ahead).
  using Settler = std::function<Status(NodeId N, const char *Why)>;
  /// The layer calls S before it touches a node's memory from outside that
  /// node's kernels: a copy into or out of it, a read-back, a write from
  /// the host, a pointer written there, a scan, freeing storage there.
  /// Called under the layer's lock; S must not call the layer. Null: none.
  void setSettler(Settler S);
  /// Told, under the layer's lock, that a copy went in node N's lane: N is
  /// unsettled until the settler waits for it.
  using LaneNotice = std::function<void(NodeId N)>;
  void setLaneNotice(LaneNotice F);
  /// Called, under the layer's lock, before a copy goes in node N's lane:
  /// what the engine handed N's start threads goes in before it (Engine.h's
  /// posted starts). It must not call the layer. Null: none.
  using LaneFence = std::function<void(NodeId N)>;
  void setLaneFence(LaneFence F);
  /// Told of a failure the layer recovered from (a host write whose copy
  /// to its home node failed stays on the host): the layer prints nothing,
  /// its owner (the engine) says it. Called under the layer's lock; it must
  /// not call the layer. Null: not said.
  using Reporter = std::function<void(const std::string &What)>;
  void setReporter(Reporter F);
  /// Makes node W's lane wait, on the device, for the work issued to node
  /// S's lane so far (Backend::orderAfter). Called under the layer's lock;
  /// it must not call the layer. Null: none.
  using Orderer = std::function<LaneOrder(NodeId W, NodeId S)>;
  void setOrderer(Orderer F);

private:
  struct Buffer;
  /// A loadRange() question about one buffer: (offset, bytes, stride,
  /// count, signed).
  using ScanKey = std::tuple<uint64_t, unsigned, uint64_t, uint64_t, bool>;
  using Lock = std::lock_guard<HeldMutex>;
  using HeldLock = std::unique_lock<HeldMutex>;

  // The helpers below run under Mutex, taken by the public functions (the
  // *Locked ones assert it).
  void assertHeld() const {
    assert(Mutex.heldHere() && "a DataLayer helper ran without its Mutex");
  }
  Buffer *lookup(uintptr_t P) const;
  Buffer *lookupForPointer(uintptr_t P) const;
  Buffer *byId(BufferId Id) const;
  Status findRange(const void *Ptr, uint64_t Size, const char *What, Buffer *&B,
                   uint64_t &Offset) const;
  Status ensureStorage(NodeId N, Buffer &B);
  /// Before B's host storage is freed: every node undoes its pinHost().
  void unpinHostOf(Buffer &B);
  /// Holds [Lo, Hi) of B's storage on N (after ensureStorage), in N's
  /// backing granules: NoRoom when N cannot (NodeOps::backingGranule).
  Status backLocked(NodeId N, Buffer &B, uint64_t Lo, uint64_t Hi);
  /// Makes room for Bytes more on N by eviction (makeValid()); an error
  /// only when a copy or what ran ahead failed.
  Status evictLocked(NodeId N, uint64_t Bytes);
  /// giveBack()'s blocks, per buffer: of Ranges, those N holds that touch
  /// no range of Keep nor, where given, of Avoid's spans.
  std::vector<std::pair<Buffer *, RangeSet>>
  giveBackBlocksLocked(NodeId N, const BufferRanges &Ranges,
                       const BufferRanges &Keep,
                       const std::vector<ChunkNeed> *Avoid) const;
  Status giveBackLocked(NodeId N, const BufferRanges &Ranges,
                        const BufferRanges &Keep);
  /// A pending give-back's copies home, under way while a chunk is
  /// prepared (prepareChunk()), and what goes once they are done.
  struct GiveBackCopies;
  Status startGiveBackLocked(NodeId N, const std::vector<ChunkNeed> &Needs,
                             GiveBackCopies &G);
  /// Starts G's copies home (G.Copier).
  void copyHomeLocked(NodeId N, GiveBackCopies &G);
  Status finishGiveBackLocked(NodeId N, GiveBackCopies &G);
  /// Holds (holdLocked()) every span of Needs on N.
  Status holdNeedsLocked(NodeId N, const std::vector<ChunkNeed> &Needs);
  Status prepareChunkLocked(NodeId N, const std::vector<ChunkNeed> &Needs,
                            uint64_t *Missing);
  /// Gives back N's storage of R of B (within what N holds): waits for the
  /// lanes' reads of it, pins its host side, copies home what only N
  /// holds. Unbacked false: N holds B whole, and it stays.
  Status evictRangeLocked(NodeId N, Buffer &B, const Range &R, bool &Unbacked);
  /// evictRangeLocked()'s halves: before the copy home (Alone: the bytes
  /// of R only N holds) and after it (false: N holds B whole).
  Status beginEvictLocked(NodeId N, Buffer &B, const Range &R, RangeSet &Alone);
  bool endEvictLocked(NodeId N, Buffer &B, const Range &R);
  /// What of B's storage on N eviction may take: all of it when this
  /// launch has not used B there, else the blocks (NodeOps::backingBlock)
  /// it has not touched there.
  RangeSet evictableLocked(NodeId N, const Buffer &B) const;
  /// This launch uses [Lo, Hi) of B on N (Buffer::UsedAt, UsedRanges).
  void noteUseLocked(NodeId N, Buffer &B, uint64_t Lo, uint64_t Hi);
  /// willUse() and bytesMissing() of one buffer, under the layer's lock.
  void willUseLocked(NodeId N, Buffer &B, const RangeSet &Used);
  uint64_t bytesMissingLocked(NodeId N, const Buffer &B,
                              const RangeSet &R) const;
  /// Node storage is held (back()) and given back (eviction) in blocks of
  /// NodeOps::backingBlock() at most, so a launch that streams through a
  /// buffer larger than the node can drop the blocks it has passed.
  uint64_t evictionBlock(NodeId N) const;
  /// The bytes of B's storage N holds (for HETERO_STATS).
  uint64_t heldBytes(NodeId N, const Buffer &B) const;
  Status translateLocked(NodeId N, uintptr_t P, uintptr_t &Out);
  Status makeValidLocked(NodeId N, Buffer &B, uint64_t Lo, uint64_t Hi);
  /// makeValidLocked's first steps: [Lo, Hi) of B held on N for this
  /// launch, its contents left as they are.
  Status holdLocked(NodeId N, Buffer &B, uint64_t Lo, uint64_t Hi);
  void markWrittenLocked(NodeId N, Buffer &B, uint64_t Lo, uint64_t Hi);
  /// The bytes of R (in B) valid on some node other than N.
  RangeSet elsewhereLocked(NodeId N, const Buffer &B, const Range &R) const;
  RangeSet validOnlyOnLocked(NodeId N, const Buffer &B, uint64_t Lo = 0,
                             uint64_t Hi = UINT64_MAX) const;
  /// Copies [Lo, Hi) of B from Src to Dst: in Dst's lane where the batch
  /// allows (queued there, done when the lane is), else once what may still
  /// run on either end has finished; through the host's copy where the two
  /// have no direct path.
  Status copyRange(Buffer &B, NodeId Src, NodeId Dst, uint64_t Lo, uint64_t Hi);
  /// copyRange()'s waits before the copy: lanes reading the bytes at Dst,
  /// kernels left running on either end (unless InLane orders them on the
  /// device), copies still landing in Src. SrcSettled: Src was settled.
  Status settleForCopy(Buffer &B, NodeId Src, NodeId Dst, uint64_t Lo,
                       uint64_t Hi, bool InLane, bool &SrcSettled);
  /// Puts the copy in Dst's lane; false where Dst has no lane for it.
  bool queueInLane(Buffer &B, NodeId Src, NodeId Dst, uint64_t Lo, uint64_t Hi,
                   double TraceBegin);
  /// The copy itself, over a direct path (to or from the host, or between
  /// nodes that reach each other): queued into Dst inside a copy batch
  /// (Queued), else done on return.
  Status moveBytes(Buffer &B, NodeId Src, NodeId Dst, uint64_t Lo, uint64_t Hi,
                   bool &Queued);
  /// write() to the home node: Written says whether it went there (else
  /// nothing changed, and the host takes the bytes: no home device, no
  /// room there, a copy that failed, which is a warning). An error when
  /// what ran ahead on the home node failed.
  Status writeHome(Buffer &B, uint64_t Off, const void *Src, uint64_t Size,
                   bool &Written, HeldLock &L);
  /// Whether write()s to B go to the spread nodes (setSpreadNodes).
  bool spreads(const Buffer &B) const;
  /// write() over the spread nodes: each block that finds room (and a copy
  /// that succeeds) there, the rest on the host.
  Status writeSpread(Buffer &B, uint64_t Off, const void *Src, uint64_t Size,
                     HeldLock &L);
  /// Runs Copy (Bytes of B to or from the host) without the lock L holds
  /// where Bytes is UnlockedCopyBytes or more, B busy meanwhile (see the
  /// banner); under it otherwise, and where L is null.
  template <typename Fn>
  void unlockedCopy(HeldLock *L, Buffer &B, uint64_t Bytes, Fn &&Copy);
  static constexpr uint64_t UnlockedCopyBytes = uint64_t(1) << 20;
  /// A buffer's busy count fell (unlockedCopy).
  std::condition_variable_any BusyDone;
  /// Storage for [Lo, Hi) of B on N, and N settled for a host write there;
  /// Ready false when N has no room. An error when what ran ahead on N
  /// failed.
  Status prepareWrite(NodeId N, Buffer &B, uint64_t Lo, uint64_t Hi,
                      bool &Ready);
  /// After a host write's copy to N: counted and valid there only, or (a
  /// failed copy) a warning that says why; the host keeps the bytes.
  void noteWriteAt(NodeId N, Buffer &B, uint64_t Lo, uint64_t Hi,
                   const Status &Copied, double TraceBegin);
  /// read() of [Off, Off + Size) of B into Dst without the host's copy;
  /// false (nothing promised) when pointer slots need the host's view. The
  /// copies run without the lock L holds, where given (unlockedCopy).
  bool readDirect(Buffer &B, uint64_t Off, void *Dst, uint64_t Size,
                  Status &Result, HeldLock *L = nullptr);
  /// Where each byte of [Off, Hi) of B is read from, and how its copy went.
  struct ReadPiece {
    NodeId S;
    Range R;
    Status Copied;
  };
  std::vector<ReadPiece> readPieces(const Buffer &B, uint64_t Off,
                                    uint64_t Hi) const;
  /// The pieces' copies into Out (B's bytes from Off on): the host's, then
  /// the nodes From over their links, several links at once for a large
  /// read, without the lock L holds (unlockedCopy).
  void copyPieces(Buffer &B, uint64_t Off, char *Out, uint64_t Size,
                  std::vector<ReadPiece> &Pieces,
                  const std::vector<NodeId> &From, HeldLock *L);
  /// Whether [Lo, Hi) of B may hold pointer slots (hetero addresses only
  /// the host's view has).
  static bool mayHoldPointers(const Buffer &B, uint64_t Lo, uint64_t Hi);
  Status fixPointerSlots(Buffer &B, NodeId N, uint64_t Lo, uint64_t Hi);
  /// The pointer slots of a host write of Size bytes at Off of a buffer: each
  /// aligned word that holds a hetero address (a pointer attached to a
  /// mapped section, a struct's pointer member, a view's omp_target_alloc
  /// pointer in a mapped functor). Writes larger than MaxScannedWrite (the
  /// arrays themselves) are not scanned.
  std::vector<std::pair<uint64_t, uintptr_t>>
  pointersIn(uint64_t Off, const void *Src, uint64_t Size) const;
  static constexpr uint64_t MaxScannedWrite = 4096;
  /// A pointer-sized buffer copied from node Src: a device address that a
  /// kernel stored there is re-derived as a hetero address (its slot).
  Status notePointerValue(Buffer &B, NodeId Src);
  void growNodeVectors(Buffer &B);
  /// Waits for the copies queued into node N (the batch stays open).
  Status waitQueuedLocked(NodeId N);
  /// Waits for every queued copy: what anything but the batch's own
  /// makeValid() and translate() calls first.
  Status waitAllQueuedLocked();
  /// Runs the settler for node N (not the host); KernelFailed when a kernel
  /// left running there failed. Why: see Settler.
  Status settleLocked(NodeId N, const char *Why);
  /// Runs the settler for each of Ns without the lock L holds, B busy
  /// meanwhile (freed by nobody): a settle waits for the kernels queued on
  /// a GPU, and another thread's maps and launches go on meanwhile. The
  /// caller settles again under the lock (settleLocked), which finds
  /// nothing left but what was queued since; the first failure here is the
  /// error, with the settler's reason.
  Status settleUnlocked(HeldLock &L, Buffer &B, const std::vector<NodeId> &Ns,
                        const char *Why);
  Settler Settle;
  LaneNotice Notice;
  LaneFence Fence;
  Reporter Report;
  Orderer Order;
  /// Whether node W's lane now waits for node S's on the device (the
  /// orderer, asked once per pair in a batch).
  LaneOrder ordered(NodeId W, NodeId S);
  /// (W, S) ordered in this lane batch: S's lane has nothing new issued to
  /// it until the batch's chunks start.
  std::map<std::pair<NodeId, NodeId>, LaneOrder> OrderedInBatch;
  /// Settles the lanes whose queued copies read [Lo, Hi) of buffer Id on
  /// node N (Id 0: anything there); InLane: what writes them goes in N's
  /// lane, which waits for those lanes on the device where it can.
  Status settleLaneReadersLocked(NodeId N, BufferId Id, uint64_t Lo,
                                 uint64_t Hi, bool InLane = false);
  /// Whether a copy of [Lo, Hi) of B may go in its destination's lane.
  bool mayQueueInLane(const Buffer &B, uint64_t Lo, uint64_t Hi) const;
  /// Whether this lane batch queued a copy into [Lo, Hi) of B on node N.
  bool laneQueuedInto(NodeId N, const Buffer &B, uint64_t Lo,
                      uint64_t Hi) const;
  LaneReads Reads;
  bool LaneBatch = false;
  bool LaneBatchSettled = false; // every node, at the batch's first lane copy
  std::map<BufferId, RangeSet> LaneBatchWrites;
  std::map<std::pair<NodeId, BufferId>, RangeSet> LaneBatchInto;
  /// Whether the calling thread is outside an open batch.
  bool outsideBatch() const;
  void forgetSlots(Buffer &B, uint64_t Lo, uint64_t Hi);
  /// The buffers a kernel with these arguments reaches: theirs, those
  /// their pointer slots lead to, and the globals (registerExternal()).
  std::vector<Buffer *> closure(const std::vector<uintptr_t> &Args) const;
  static BufferInfo infoOf(const Buffer &B);

  std::vector<std::unique_ptr<NodeOps>> Nodes;
  std::map<uintptr_t, std::unique_ptr<Buffer>> Buffers; // by Base
  std::vector<Buffer *> Externals; // registered, never released
  TransferStats Stats;
  /// giveBackLater()'s, per node.
  std::map<NodeId, std::pair<BufferRanges, BufferRanges>> PendingGiveBacks;
  std::vector<NodeBytes> Held; // per node
  /// Counts Size bytes of storage more (Grow) or fewer on node N.
  void holdBytes(NodeId N, uint64_t Size, bool Grow);
  NodeId Home = HostNode;
  std::vector<NodeId> Spread;
  bool SpreadPeers = false; // each of Spread reaches every other directly
  uint64_t Epoch = 1;       // newEpoch()
  mutable HeldMutex Mutex;
  /// loadRange() answers kept per buffer (the windows of a few share
  /// choices, a few buffers each).
  static constexpr size_t MaxScansPerBuffer = 64;
  /// The background reads (under Mutex but for the scanning itself).
  struct ScanJob {
    BufferId Id;
    uint64_t Generation, Off, Stride, Count;
    unsigned Bytes;
    bool Signed;
  };
  ScanMode Scanning = ScanMode::Off;
  std::vector<ScanJob> ScanQueue;
  std::set<std::pair<BufferId, ScanKey>>
      ScanQueued; // queued or running: not queued twice
  bool ScanStop = false;
  bool ScanBusy = false;
  std::condition_variable_any ScanWake, ScanIdle;
  std::thread ScanThread; // started by the first background read
  uint64_t NextGeneration = 0;
  /// Reads and scans job J in pieces, taking the lock L for each piece's
  /// copy only; false when the buffer went away or was written meanwhile.
  bool runScan(const ScanJob &J, std::unique_lock<HeldMutex> &L, int64_t &Min,
               int64_t &Max);
  void scanLoop();
  static ScanKey scanKey(const ScanJob &J);
  /// J's answer from a node holding all of its values that reads them
  /// where they lie (NodeOps::scanValues): whether they could be bounded,
  /// or nothing when no such node answers.
  std::optional<bool> scanInPlace(const ScanJob &J, int64_t &Min, int64_t &Max);
  /// Keeps J's answer (none where !Ok) with its buffer; false, keeping
  /// nothing, when the buffer went away or was written since J was made.
  bool rememberScan(const ScanJob &J, bool Ok, int64_t Min, int64_t Max);
  /// The values of one piece [Off, Off + Len) of B, read where they are
  /// valid into Dst (under Mutex).
  bool readForScan(Buffer &B, uint64_t Off, unsigned char *Dst, uint64_t Len);
  // The copy batch, under Mutex.
  bool Batching = false;
  std::thread::id BatchOwner;
  /// Per node: the buffers with ranges queued into it (Buffer::Queued).
  std::vector<std::vector<Buffer *>> QueuedInto;
};

} // namespace hetero

#endif // HETERO_DATALAYER_H

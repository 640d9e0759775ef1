//===- DataLayerLanes.cpp - Copy batches and lanes ------------------------===//
#include "DataLayerBuffer.h"
#include "hetero/Trace.h"

#include <algorithm>
#include <thread>

namespace hetero {

//===--- Copy batches -----------------------------------------------------===//

void DataLayer::beginCopyBatch() {
  Lock L(Mutex);
  Batching = true;
  BatchOwner = std::this_thread::get_id();
  QueuedInto.assign(Nodes.size(), {});
}

Status DataLayer::endCopyBatch() {
  Lock L(Mutex);
  Status S = waitAllQueuedLocked();
  Batching = false;
  LaneBatch = false;
  OrderedInBatch.clear();
  LaneBatchWrites.clear();
  LaneBatchInto.clear();
  return S;
}

void DataLayer::queueCopiesInLanes(std::map<BufferId, RangeSet> Writes) {
  Lock L(Mutex);
  LaneBatch = Batching;
  LaneBatchSettled = false;
  OrderedInBatch.clear();
  LaneBatchInto.clear();
  LaneBatchWrites = std::move(Writes);
}

bool DataLayer::laneQueuedInto(NodeId N, const Buffer &B, uint64_t Lo,
                               uint64_t Hi) const {
  auto It = LaneBatchInto.find({N, B.Base});
  return It != LaneBatchInto.end() && !It->second.intersect(Lo, Hi).empty();
}

bool DataLayer::mayQueueInLane(const Buffer &B, uint64_t Lo,
                               uint64_t Hi) const {
  if (!LaneBatch || outsideBatch() || mayHoldPointers(B, Lo, Hi))
    return false;
  auto It = LaneBatchWrites.find(B.Base);
  return It == LaneBatchWrites.end() || It->second.intersect(Lo, Hi).empty();
}

Status DataLayer::beforeKernelWrites(NodeId N, BufferId Id, uint64_t Lo,
                                     uint64_t Hi) {
  Lock L(Mutex);
  return settleLaneReadersLocked(N, Id, Lo, Hi, /*InLane=*/true);
}

Status DataLayer::beforeKernelWrites(NodeId N) {
  Lock L(Mutex);
  return settleLaneReadersLocked(N, 0, 0, 0, /*InLane=*/true);
}

LaneOrder DataLayer::ordered(NodeId W, NodeId S) {
  if (W == S)
    return LaneOrder::Ordered; // one lane: in order
  if (!Order)
    return LaneOrder::No;
  // Inside this thread's batch nothing new is issued to S's lane before the
  // chunks start: once per pair is enough.
  bool InBatch = !outsideBatch();
  if (InBatch)
    if (auto It = OrderedInBatch.find({W, S}); It != OrderedInBatch.end())
      return It->second;
  LaneOrder O = Order(W, S);
  if (InBatch && O != LaneOrder::No)
    OrderedInBatch[{W, S}] = O;
  return O;
}

Status DataLayer::settleLaneReadersLocked(NodeId N, BufferId Id, uint64_t Lo,
                                          uint64_t Hi, bool InLane) {
  assertHeld();
  if (Reads.empty())
    return Status();
  // Reads whose lanes were waited for without the layer (a chunk's own
  // wait) are dropped only here: past the bound, all of them go.
  bool PastBound = Reads.size() > LaneReads::MaxReads;
  std::vector<NodeId> Readers =
      PastBound ? Reads.allReaders() : Reads.readers(N, Id, Lo, Hi);
  InLane = InLane && !PastBound; // only a settle drops reads
  for (NodeId D : Readers) {
    // N's lane after D's: what D's lane has issued is read before anything
    // in N's lane writes, and what else writes N's memory settles N first,
    // so those reads are done with; copies D holds unissued are not.
    LaneOrder O = InLane ? ordered(N, D) : LaneOrder::No;
    if (O == LaneOrder::Ordered)
      Reads.orderedAfter(N, D);
    else if (O == LaneOrder::No)
      if (Status S = settleLocked(D, "lane readers before a write"); !S)
        return S;
  }
  return Status();
}

void DataLayer::setLaneNotice(LaneNotice F) {
  Lock L(Mutex);
  Notice = std::move(F);
}

void DataLayer::setLaneFence(LaneFence F) {
  Lock L(Mutex);
  Fence = std::move(F);
}

void DataLayer::setReporter(Reporter F) {
  Lock L(Mutex);
  Report = std::move(F);
}

bool DataLayer::outsideBatch() const {
  return !Batching || std::this_thread::get_id() != BatchOwner;
}

Status DataLayer::waitQueuedLocked(NodeId N) {
  assertHeld();
  if (size_t(N) >= QueuedInto.size() || QueuedInto[N].empty())
    return Status();
  TraceSpan Wait("host", "wait", "");
  if (Wait.active())
    Wait.setName("wait for copies into " + Nodes[N]->name());
  Status Waited = Nodes[N]->waitQueuedCopies();
  for (Buffer *B : QueuedInto[N]) {
    if (!Waited) // those bytes never arrived
      for (const Range &R : B->Queued[N].ranges())
        B->Valid[N].erase(R.Lo, R.Hi);
    B->Queued[N].clear();
  }
  QueuedInto[N].clear();
  if (!Waited)
    return Status::error(StatusCode::CopyFailed,
                         "a copy into " + Nodes[N]->name() +
                             " failed: " + Waited.message());
  return Status();
}

void DataLayer::setOrderer(Orderer F) {
  Lock L(Mutex);
  Order = std::move(F);
}

void DataLayer::setSettler(Settler S) {
  Lock L(Mutex);
  Settle = std::move(S);
}

Status DataLayer::settleLocked(NodeId N, const char *Why) {
  assertHeld();
  if (N != HostNode && Settle)
    if (Status S = Settle(N, Why); !S)
      return S;
  Reads.settled(N); // its lane's copies are done
  return Status();
}

Status DataLayer::settleUnlocked(HeldLock &L, Buffer &B,
                                 const std::vector<NodeId> &Ns,
                                 const char *Why) {
  assertHeld();
  if (!Settle ||
      std::all_of(Ns.begin(), Ns.end(), [](NodeId N) { return N == HostNode; }))
    return Status();
  ++B.Busy;
  L.unlock();
  Status First;
  for (NodeId N : Ns)
    if (N != HostNode)
      if (Status S = Settle(N, Why); !S && First)
        First = S;
  L.lock();
  --B.Busy;
  BusyDone.notify_all();
  return First;
}

Status DataLayer::waitAllQueuedLocked() {
  assertHeld();
  Status First;
  for (NodeId N = 0; size_t(N) < QueuedInto.size(); ++N)
    if (Status S = waitQueuedLocked(N); !S && First)
      First = S;
  return First;
}

} // namespace hetero

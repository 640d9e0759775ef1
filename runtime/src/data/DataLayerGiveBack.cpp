//===- DataLayerGiveBack.cpp - What a launch in rounds gives back ---------===//
//
// A launch in rounds (Engine.h) keeps its first round's data on the members
// and streams the rest through a window of their memory: each streaming
// round gives back what it used once it ends, but the first round's blocks.
// Given back later, in the next round's prepareChunk(), the bytes only the
// node held go home on a thread of their own while that round's data comes
// in: over a quarter of an H200, 11.4 GB out and 11.4 GB in a launch took
// 0.206 s and 0.215 s one after the other (measurements.md, "Out of core").
//
//===----------------------------------------------------------------------===//
#include "DataLayerBuffer.h"
#include "hetero/Trace.h"

#include <algorithm>

namespace hetero {

std::vector<std::pair<DataLayer::Buffer *, RangeSet>>
DataLayer::giveBackBlocksLocked(NodeId N, const BufferRanges &Ranges,
                                const BufferRanges &Keep,
                                const std::vector<ChunkNeed> *Avoid) const {
  assertHeld();
  std::vector<std::pair<Buffer *, RangeSet>> Out;
  if (!Nodes[N]->backingGranule())
    return Out; // whole buffers: nothing to give back in part
  uint64_t Block = evictionBlock(N);
  for (const auto &[Id, Used] : Ranges) {
    Buffer *B = byId(Id);
    if (!B || B->External || !B->NodePtr[N] || B->Busy)
      continue; // a busy one is being copied without the lock
    RangeSet Kept, Go, Gone;
    for (const auto &[KeepId, KeepRanges] : Keep)
      if (KeepId == Id)
        addBlocks(Kept, KeepRanges, Block, B->Size);
    if (Avoid)
      for (const ChunkNeed &Need : *Avoid)
        if (Need.Id == Id)
          addBlocks(Kept, *Need.Span, Block, B->Size);
    addBlocks(Go, Used, Block, B->Size);
    for (const Range &R : Go.ranges())
      for (const Range &Free : Kept.missing(R.Lo, R.Hi))
        for (const Range &Held : B->Backed[N].intersect(Free.Lo, Free.Hi))
          Gone.insert(Held.Lo, Held.Hi);
    if (!Gone.empty())
      Out.emplace_back(B, std::move(Gone));
  }
  return Out;
}

Status DataLayer::giveBack(NodeId N, const BufferRanges &Ranges,
                           const BufferRanges &Keep) {
  Lock L(Mutex);
  return giveBackLocked(N, Ranges, Keep);
}

Status DataLayer::giveBackLocked(NodeId N, const BufferRanges &Ranges,
                                 const BufferRanges &Keep) {
  auto Out = giveBackBlocksLocked(N, Ranges, Keep, nullptr);
  if (Out.empty())
    return Status();
  // Nothing in flight reads or writes N's storage.
  if (Status S = waitAllQueuedLocked(); !S)
    return S;
  if (Status S = settleLocked(N, "a round's give-back"); !S)
    return S;
  for (auto &[B, Gone] : Out)
    for (const Range &R : Gone.ranges()) {
      bool Unbacked = false;
      if (Status S = evictRangeLocked(N, *B, R, Unbacked); !S)
        return S;
      if (!Unbacked)
        break; // held whole
    }
  return Status();
}

Status DataLayer::giveBackLater(NodeId N, BufferRanges Ranges,
                                BufferRanges Keep) {
  Lock L(Mutex);
  Status First;
  auto &Job = PendingGiveBacks[N];
  if (!Job.first.empty())
    First = giveBackLocked(N, Job.first, Job.second);
  Job = {std::move(Ranges), std::move(Keep)};
  return First;
}

Status DataLayer::giveBackNow() {
  Lock L(Mutex);
  Status First;
  auto Pending = std::move(PendingGiveBacks);
  PendingGiveBacks.clear();
  for (const auto &[N, Job] : Pending)
    if (Status S = giveBackLocked(N, Job.first, Job.second); !S && First)
      First = S;
  return First;
}

Status DataLayer::startGiveBackLocked(NodeId N,
                                      const std::vector<ChunkNeed> &Needs,
                                      GiveBackCopies &G) {
  assertHeld();
  auto It = PendingGiveBacks.find(N);
  if (It == PendingGiveBacks.end())
    return Status();
  auto Job = std::move(It->second);
  PendingGiveBacks.erase(It);
  G.Drops = giveBackBlocksLocked(N, Job.first, Job.second, &Needs);
  if (G.Drops.empty())
    return Status();
  // Neither evicted nor freed while its bytes go home (Buffer::Busy); the
  // chunk prepared meanwhile needs none of these blocks.
  for (auto &Drop : G.Drops)
    ++Drop.first->Busy;
  if (Status S = waitAllQueuedLocked(); !S)
    return S;
  if (Status S = settleLocked(N, "a round's give-back"); !S)
    return S;
  for (auto &[B, Gone] : G.Drops) {
    for (const Range &R : Gone.ranges()) {
      RangeSet Alone;
      if (Status S = beginEvictLocked(N, *B, R, Alone); !S)
        return S;
      for (const Range &Only : Alone.ranges())
        G.Homes.push_back(
            {B, Only, static_cast<char *>(B->NodePtr[HostNode]) + Only.Lo,
             static_cast<const char *>(B->NodePtr[N]) + Only.Lo, Status()});
    }
  }
  G.Ready = true;
  return Status();
}

Status DataLayer::holdNeedsLocked(NodeId N,
                                  const std::vector<ChunkNeed> &Needs) {
  assertHeld();
  for (const ChunkNeed &Need : Needs)
    if (Buffer *B = byId(Need.Id))
      willUseLocked(N, *B, *Need.Span);
  for (const ChunkNeed &Need : Needs)
    if (Buffer *B = byId(Need.Id))
      for (const Range &R : Need.Span->ranges())
        if (Status S = holdLocked(N, *B, R.Lo, R.Hi); !S)
          return S;
  return Status();
}

void DataLayer::copyHomeLocked(NodeId N, GiveBackCopies &G) {
  assertHeld();
  if (G.Homes.empty())
    return;
  NodeOps &From = *Nodes[N];
  const NodeOps &Host = *Nodes[HostNode];
  G.Copier = std::thread([&G, &From, &Host, N] {
    for (GiveBackCopies::Home &H : G.Homes) {
      double Begin = trace::on() ? trace::now() : 0;
      H.Copied = From.copyToHost(H.Dst, H.Src, H.R.Hi - H.R.Lo);
      if (H.Copied && trace::on())
        traceCopy(From, N, Host, HostNode, H.R.Hi - H.R.Lo, Begin);
    }
  });
}

Status DataLayer::finishGiveBackLocked(NodeId N, GiveBackCopies &G) {
  assertHeld();
  bool Copied = G.Copier.joinable();
  if (Copied)
    G.Copier.join();
  // Nothing goes unless its bytes went home: a start that failed, or a
  // chunk whose storage could not be held, leaves every block there.
  bool Go = G.Ready && (Copied || G.Homes.empty());
  Status First;
  // Where a copy home failed, the node keeps its bytes.
  std::vector<std::pair<Buffer *, Range>> Kept;
  for (const GiveBackCopies::Home &H : G.Homes) {
    if (!Go)
      break;
    if (!H.Copied) {
      if (First)
        First = Status::error(StatusCode::CopyFailed,
                              "a copy of " + std::to_string(H.R.Hi - H.R.Lo) +
                                  " bytes from " + Nodes[N]->name() +
                                  " to the host failed: " + H.Copied.message());
      Kept.emplace_back(H.B, H.R);
      continue;
    }
    H.B->Valid[HostNode].insert(H.R.Lo, H.R.Hi);
    Stats.BytesD2H += H.R.Hi - H.R.Lo;
  }
  for (auto &[B, Gone] : G.Drops) {
    for (const Range &R : Gone.ranges()) {
      Buffer *Of = B;
      bool Failed = std::any_of(Kept.begin(), Kept.end(), [&](const auto &K) {
        return K.first == Of && K.second.Lo < R.Hi && R.Lo < K.second.Hi;
      });
      if (Go && !Failed)
        (void)endEvictLocked(N, *B, R);
    }
    --B->Busy;
  }
  if (!G.Drops.empty())
    BusyDone.notify_all();
  return First;
}

} // namespace hetero

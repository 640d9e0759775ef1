//===- DataLayerResidency.cpp - Where a buffer's bytes live ---------------===//
#include "DataLayerBuffer.h"
#include "hetero/Trace.h"

#include <algorithm>
#include <cstring>
#include <thread>

namespace hetero {

void DataLayer::holdBytes(NodeId N, uint64_t Size, bool Grow) {
  NodeBytes &B = Held[static_cast<size_t>(N)];
  B.Held = Grow ? B.Held + Size : B.Held - std::min(B.Held, Size);
  B.Peak = std::max(B.Peak, B.Held);
}

void DataLayer::setSpreadNodes(std::vector<NodeId> Ns) {
  Lock L(Mutex);
  Spread = std::move(Ns);
  SpreadPeers = Spread.size() >= 2;
  for (NodeId To : Spread)
    for (NodeId From : Spread)
      SpreadPeers =
          SpreadPeers && (To == From || Nodes[To]->reachesPeer(*Nodes[From]));
}

bool DataLayer::spreads(const Buffer &B) const {
  if (Spread.size() < 2 || Home == HostNode || B.HostResident || B.External)
    return false;
  if (SpreadPeers && B.Size >= SpreadMinBytes)
    return true;
  uint64_t Room = Nodes[Home]->capacity();
  return Room && B.Size > Room / SpreadFraction;
}

Status DataLayer::prepareWrite(NodeId N, Buffer &B, uint64_t Lo, uint64_t Hi,
                               bool &Ready) {
  Ready = false;
  if (!ensureStorage(N, B) || !backLocked(N, B, Lo, Hi))
    return Status(); // no room there: the host keeps the bytes
  // What ran ahead there failed: the write fails with it, as any other
  // operation that needs the node would.
  if (Status S = settleLocked(N, "host writes"); !S)
    return S;
  if (Status S = settleLaneReadersLocked(N, B.Base, Lo, Hi); !S)
    return S;
  Ready = true;
  return Status();
}

void DataLayer::noteWriteAt(NodeId N, Buffer &B, uint64_t Lo, uint64_t Hi,
                            const Status &Copied, double TraceBegin) {
  if (!Copied) {
    if (Report)
      Report("a copy of " + std::to_string(Hi - Lo) + " bytes to " +
             Nodes[N]->name() + " failed (" + Copied.message() +
             "); the host keeps them");
    return;
  }
  if (trace::on())
    traceCopy(*Nodes[HostNode], HostNode, *Nodes[N], N, Hi - Lo, TraceBegin);
  Stats.BytesH2D += Hi - Lo;
  markWrittenLocked(N, B, Lo, Hi);
}

Status DataLayer::writeHome(Buffer &B, uint64_t Off, const void *Src,
                            uint64_t Size, bool &Written, HeldLock &L) {
  Written = false;
  // Pointer-sized writes may be pointer attachments, whose slots are kept in
  // the host's view; host-resident buffers live on the host.
  if (Home == HostNode || Size == sizeof(void *) || B.HostResident ||
      B.External)
    return Status();
  bool Ready;
  if (Status S = prepareWrite(Home, B, Off, Off + Size, Ready); !S || !Ready)
    return S;
  char *Dst = static_cast<char *>(B.NodePtr[Home]) + Off;
  double TraceBegin = trace::on() ? trace::now() : 0;
  Status Copied;
  unlockedCopy(&L, B, Size,
               [&] { Copied = Nodes[Home]->copyFromHost(Dst, Src, Size); });
  Written = Copied.ok();
  noteWriteAt(Home, B, Off, Off + Size, Copied, TraceBegin);
  return Status();
}

Status DataLayer::writeSpread(Buffer &B, uint64_t Off, const void *Src,
                              uint64_t Size, HeldLock &L) {
  struct Piece {
    NodeId N;
    uint64_t Lo, Hi;
    bool Ready;
    Status Copied;
  };
  std::vector<Piece> Pieces;
  const uint64_t K = Spread.size();
  for (uint64_t I = 0; I < K; ++I) {
    Piece P{Spread[I], std::max(Off, B.Size / K * I),
            std::min(Off + Size, I + 1 == K ? B.Size : B.Size / K * (I + 1)),
            false, Status()};
    if (P.Lo >= P.Hi)
      continue;
    if (Status S = prepareWrite(P.N, B, P.Lo, P.Hi, P.Ready); !S)
      return S;
    Pieces.push_back(P);
  }
  const char *From = static_cast<const char *>(Src) - Off;
  auto Copy = [&](Piece &P) {
    if (P.Ready)
      P.Copied = Nodes[P.N]->copyFromHost(
          static_cast<char *>(B.NodePtr[P.N]) + P.Lo, From + P.Lo, P.Hi - P.Lo);
  };
  double TraceBegin = trace::on() ? trace::now() : 0;
  // Each member over its own link, at once.
  unlockedCopy(&L, B, Size, [&] {
    std::vector<std::thread> Others;
    for (size_t I = 1; I < Pieces.size(); ++I)
      Others.emplace_back(Copy, std::ref(Pieces[I]));
    if (!Pieces.empty())
      Copy(Pieces[0]);
    for (std::thread &T : Others)
      T.join();
  });
  for (const Piece &P : Pieces) {
    if (P.Ready) // else no room there
      noteWriteAt(P.N, B, P.Lo, P.Hi, P.Copied, TraceBegin);
    if (!P.Ready || !P.Copied) {
      std::memcpy(reinterpret_cast<char *>(B.Base) + P.Lo, From + P.Lo,
                  P.Hi - P.Lo);
      markWrittenLocked(HostNode, B, P.Lo, P.Hi);
    }
  }
  return Status();
}

Status DataLayer::ensureStorage(NodeId N, Buffer &B) {
  if (B.NodePtr[N])
    return Status();
  uint64_t Size = B.Size ? B.Size : 1;
  void *P = Nodes[N]->allocate(Size);
  if (!P) {
    if (Status S = evictLocked(N, Size); !S)
      return S;
    P = Nodes[N]->allocate(Size);
  }
  if (!P)
    return Status::error(StatusCode::NoRoom,
                         Nodes[N]->name() + " cannot hold " +
                             std::to_string(B.Size) + " more bytes");
  B.NodePtr[N] = P;
  if (!Nodes[N]->backingGranule())
    holdBytes(N, B.Size, true);
  return Status();
}

uint64_t DataLayer::heldBytes(NodeId N, const Buffer &B) const {
  return Nodes[N]->backingGranule() ? B.Backed[N].bytes() : B.Size;
}

uint64_t DataLayer::evictionBlock(NodeId N) const {
  return Nodes[N]->backingBlock();
}

void DataLayer::noteUseLocked(NodeId N, Buffer &B, uint64_t Lo, uint64_t Hi) {
  assertHeld();
  B.UsedAt[N] = Epoch;
  if (!Nodes[N]->backingGranule() || Lo >= Hi)
    return;
  if (B.UsedRangesAt[N] != Epoch) {
    B.UsedRanges[N].clear();
    B.UsedRangesAt[N] = Epoch;
  }
  B.UsedRanges[N].insert(Lo, Hi);
}

Status DataLayer::backLocked(NodeId N, Buffer &B, uint64_t Lo, uint64_t Hi) {
  assertHeld();
  noteUseLocked(N, B, Lo, Hi);
  uint64_t G = Nodes[N]->backingGranule();
  if (!G || B.External || Lo >= Hi)
    return Status();
  Lo = Lo / G * G;
  Hi = std::min((Hi + G - 1) / G * G, B.Size); // a small buffer: its size
  // One back() per block at most, so that eviction can give back the
  // blocks a launch does not use (NodeOps::unback takes whole ranges).
  // Eviction is asked for all that is still missing, so that it refuses
  // (evicting nothing) what the node cannot hold at all; a refusal gives
  // back what this call held.
  uint64_t Block = evictionBlock(N);
  std::vector<Range> Missing = B.Backed[N].missing(Lo, Hi);
  uint64_t Left = 0;
  for (const Range &M : Missing)
    Left += M.Hi - M.Lo;
  // What cannot fit even after eviction is refused before anything is held.
  uint64_t Room = Nodes[N]->capacity();
  auto Over = [&] { return Room && Held[size_t(N)].Held + Left > Room; };
  if (Over()) {
    if (Status S = evictLocked(N, Left); !S)
      return S;
    if (Over())
      return Status::error(StatusCode::NoRoom,
                           Nodes[N]->name() + " cannot hold " +
                               std::to_string(Left) + " more bytes");
  }
  std::vector<Range> Took;
  for (const Range &M : Missing)
    for (uint64_t At = M.Lo; At < M.Hi;) {
      uint64_t End = std::min(M.Hi, (At / Block + 1) * Block);
      Status Mapped = Nodes[N]->back(B.NodePtr[N], At, End);
      if (Mapped.code() == StatusCode::NoRoom) {
        if (Status S = evictLocked(N, Left); !S)
          return S;
        Mapped = Nodes[N]->back(B.NodePtr[N], At, End);
      }
      if (!Mapped) {
        for (const Range &T : Took) {
          Nodes[N]->unback(B.NodePtr[N], T.Lo, T.Hi);
          B.Backed[N].erase(T.Lo, T.Hi);
          holdBytes(N, T.Hi - T.Lo, false);
        }
        return Status::error(Mapped.code(), Nodes[N]->name() + " cannot hold " +
                                                std::to_string(Left) +
                                                " more bytes (" +
                                                Mapped.message() + ")");
      }
      B.Backed[N].insert(At, End);
      holdBytes(N, End - At, true);
      Took.push_back({At, End});
      Left -= End - At;
      At = End;
    }
  return Status();
}

void DataLayer::newEpoch() {
  Lock L(Mutex);
  ++Epoch;
}

void DataLayer::willUse(
    NodeId N, const std::vector<std::pair<BufferId, RangeSet>> &Ranges) {
  Lock L(Mutex);
  for (const auto &[Id, Used] : Ranges)
    if (Buffer *B = byId(Id))
      willUseLocked(N, *B, Used);
}

void DataLayer::willUseLocked(NodeId N, Buffer &B, const RangeSet &Used) {
  assertHeld();
  B.UsedAt[N] = Epoch;
  for (const Range &R : Used.ranges())
    noteUseLocked(N, B, R.Lo, std::min(R.Hi, B.Size));
}

RangeSet DataLayer::evictableLocked(NodeId N, const Buffer &B) const {
  assertHeld();
  RangeSet Out;
  if (B.UsedAt[N] != Epoch) {
    Out = B.Backed[N];
    return Out;
  }
  if (B.UsedRangesAt[N] != Epoch)
    return Out; // used whole this launch (willUse), ranges not yet known
  // The blocks this launch has not touched.
  RangeSet Keep;
  addBlocks(Keep, B.UsedRanges[N], evictionBlock(N), B.Size);
  for (const Range &R : B.Backed[N].ranges())
    for (const Range &Free : Keep.missing(R.Lo, R.Hi))
      Out.insert(Free.Lo, Free.Hi);
  return Out;
}

Status DataLayer::evictLocked(NodeId N, uint64_t Bytes) {
  assertHeld();
  struct Victim {
    Buffer *B;
    RangeSet Ranges;
  };
  std::vector<Victim> Victims;
  uint64_t Kept = 0; // what this launch uses there
  for (auto &[Base, B] : Buffers) {
    if (B->External || !B->NodePtr[N] || B->Busy)
      continue; // a busy one is being copied without the lock
    RangeSet Free;
    if (!B->Backed[N].empty())
      Free = evictableLocked(N, *B);
    uint64_t FreeBytes = Free.bytes();
    if (B->UsedAt[N] == Epoch)
      Kept += heldBytes(N, *B) - FreeBytes;
    if (FreeBytes)
      Victims.push_back({B.get(), std::move(Free)});
  }
  // Where even all of the node would not hold this launch's data with the
  // request, eviction would only write back what later launches reload.
  if (uint64_t Room = Nodes[N]->capacity(); Room && Kept + Bytes > Room)
    return Status();
  // Least recently used first; the unused blocks of this launch's buffers
  // last (their UsedAt is this epoch).
  std::sort(Victims.begin(), Victims.end(),
            [&](const Victim &X, const Victim &Y) {
              return std::make_pair(X.B->UsedAt[N], X.B->Base) <
                     std::make_pair(Y.B->UsedAt[N], Y.B->Base);
            });
  uint64_t Freed = 0;
  bool Settled = false;
  for (Victim &V : Victims) {
    if (Freed >= Bytes)
      break;
    if (!Settled) { // nothing in flight reads or writes N's storage
      if (Status S = waitAllQueuedLocked(); !S)
        return S;
      if (Status S = settleLocked(N, "eviction"); !S)
        return S;
      Settled = true;
    }
    for (const Range &R : V.Ranges.ranges()) {
      if (Freed >= Bytes && V.B->UsedAt[N] == Epoch)
        break; // of a buffer in use: no more than needed
      bool Unbacked = false;
      if (Status S = evictRangeLocked(N, *V.B, R, Unbacked); !S)
        return S;
      if (!Unbacked)
        break; // held whole (a GPU's small buffer): it stays
      Freed += R.Hi - R.Lo;
    }
  }
  return Status();
}

Status DataLayer::evictRangeLocked(NodeId N, Buffer &B, const Range &R,
                                   bool &Unbacked) {
  Unbacked = false;
  RangeSet Alone;
  if (Status S = beginEvictLocked(N, B, R, Alone); !S)
    return S;
  for (const Range &Only : Alone.ranges())
    if (Status S = makeValidLocked(HostNode, B, Only.Lo, Only.Hi); !S)
      return S;
  Unbacked = endEvictLocked(N, B, R);
  return Status();
}

Status DataLayer::beginEvictLocked(NodeId N, Buffer &B, const Range &R,
                                   RangeSet &Alone) {
  assertHeld();
  if (Status S = settleLaneReadersLocked(N, B.Base, R.Lo, R.Hi); !S)
    return S;
  // Evicted bytes come back when a later launch (or round) needs them:
  // the host side of that traffic is pinned from now on, so that it runs
  // at the link's rate (the write home included).
  Nodes[N]->pinHost(reinterpret_cast<void *>(B.Base + R.Lo), R.Hi - R.Lo);
  B.HostPinned = true;
  Alone = validOnlyOnLocked(N, B, R.Lo, R.Hi);
  return Status();
}

bool DataLayer::endEvictLocked(NodeId N, Buffer &B, const Range &R) {
  assertHeld();
  if (!Nodes[N]->unback(B.NodePtr[N], R.Lo, R.Hi))
    return false; // held whole (a GPU's small buffer): it stays
  B.Valid[N].erase(R.Lo, R.Hi);
  B.Backed[N].erase(R.Lo, R.Hi);
  holdBytes(N, R.Hi - R.Lo, false);
  Held[static_cast<size_t>(N)].Evicted += R.Hi - R.Lo;
  return true;
}

} // namespace hetero

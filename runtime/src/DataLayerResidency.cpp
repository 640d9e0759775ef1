//===- DataLayerResidency.cpp - Where a buffer's bytes live
//-----------------===//
#include "DataLayerBuffer.h"
#include "hetero/Log.h"
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
}

bool DataLayer::spreads(const Buffer &B) const {
  if (Spread.size() < 2 || Home == HostNode || B.HostResident || B.External)
    return false;
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
                            bool Copied, double TraceBegin) {
  if (!Copied) {
    warning("a copy of %llu bytes to %s failed; the host keeps them",
            static_cast<unsigned long long>(Hi - Lo), Nodes[N]->name().c_str());
    return;
  }
  if (trace::on())
    traceCopy(*Nodes[HostNode], HostNode, *Nodes[N], N, Hi - Lo, TraceBegin);
  Stats.BytesH2D += Hi - Lo;
  markWrittenLocked(N, B, Lo, Hi);
}

Status DataLayer::writeHome(Buffer &B, uint64_t Off, const void *Src,
                            uint64_t Size, bool &Written) {
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
  Written = Nodes[Home]->copyFromHost(Dst, Src, Size);
  noteWriteAt(Home, B, Off, Off + Size, Written, TraceBegin);
  return Status();
}

Status DataLayer::writeSpread(Buffer &B, uint64_t Off, const void *Src,
                              uint64_t Size) {
  struct Piece {
    NodeId N;
    uint64_t Lo, Hi;
    bool Ready, Ok;
  };
  std::vector<Piece> Pieces;
  const uint64_t K = Spread.size();
  for (uint64_t I = 0; I < K; ++I) {
    Piece P{Spread[I], std::max(Off, B.Size / K * I),
            std::min(Off + Size, I + 1 == K ? B.Size : B.Size / K * (I + 1)),
            false, false};
    if (P.Lo >= P.Hi)
      continue;
    if (Status S = prepareWrite(P.N, B, P.Lo, P.Hi, P.Ready); !S)
      return S;
    Pieces.push_back(P);
  }
  const char *From = static_cast<const char *>(Src) - Off;
  auto Copy = [&](Piece &P) {
    P.Ok = P.Ready &&
           Nodes[P.N]->copyFromHost(static_cast<char *>(B.NodePtr[P.N]) + P.Lo,
                                    From + P.Lo, P.Hi - P.Lo);
  };
  double TraceBegin = trace::on() ? trace::now() : 0;
  // Each member over its own link, at once.
  std::vector<std::thread> Others;
  for (size_t I = 1; I < Pieces.size(); ++I)
    Others.emplace_back(Copy, std::ref(Pieces[I]));
  if (!Pieces.empty())
    Copy(Pieces[0]);
  for (std::thread &T : Others)
    T.join();
  for (const Piece &P : Pieces) {
    if (P.Ready) // else no room there
      noteWriteAt(P.N, B, P.Lo, P.Hi, P.Ok, TraceBegin);
    if (!P.Ok) {
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

Status DataLayer::backLocked(NodeId N, Buffer &B, uint64_t Lo, uint64_t Hi) {
  B.UsedAt[N] = Epoch;
  uint64_t G = Nodes[N]->backingGranule();
  if (!G || B.External || Lo >= Hi)
    return Status();
  Lo = Lo / G * G;
  Hi = std::min((Hi + G - 1) / G * G, B.Size); // a small buffer: its size
  for (const Range &R : B.Backed[N].missing(Lo, Hi)) {
    bool Held = Nodes[N]->back(B.NodePtr[N], R.Lo, R.Hi);
    if (!Held) {
      if (Status S = evictLocked(N, R.Hi - R.Lo); !S)
        return S;
      Held = Nodes[N]->back(B.NodePtr[N], R.Lo, R.Hi);
    }
    if (!Held)
      return Status::error(StatusCode::NoRoom,
                           Nodes[N]->name() + " cannot hold " +
                               std::to_string(R.Hi - R.Lo) + " more bytes");
    B.Backed[N].insert(R.Lo, R.Hi);
    holdBytes(N, R.Hi - R.Lo, true);
  }
  return Status();
}

void DataLayer::newEpoch() {
  Lock L(Mutex);
  ++Epoch;
}

void DataLayer::willUse(NodeId N, const std::vector<BufferId> &Ids) {
  Lock L(Mutex);
  for (BufferId Id : Ids)
    if (Buffer *B = byId(Id))
      B->UsedAt[N] = Epoch;
}

Status DataLayer::evictLocked(NodeId N, uint64_t Bytes) {
  std::vector<Buffer *> Victims;
  uint64_t Kept = 0; // what this launch uses there
  for (auto &[Base, B] : Buffers) {
    if (B->External || !B->NodePtr[N])
      continue;
    if (B->UsedAt[N] == Epoch)
      Kept += heldBytes(N, *B);
    else if (!B->Backed[N].empty())
      Victims.push_back(B.get());
  }
  // Where even all of the node would not hold this launch's data with the
  // request, eviction would only write back what later launches reload.
  if (uint64_t Room = Nodes[N]->capacity(); Room && Kept + Bytes > Room)
    return Status();
  std::sort(Victims.begin(), Victims.end(),
            [&](Buffer *X, Buffer *Y) { return X->UsedAt[N] < Y->UsedAt[N]; });
  uint64_t Freed = 0;
  bool Settled = false;
  for (Buffer *V : Victims) {
    if (Freed >= Bytes)
      break;
    if (!Settled) { // nothing in flight reads or writes N's storage
      if (Status S = waitAllQueuedLocked(); !S)
        return S;
      if (Status S = settleLocked(N, "eviction"); !S)
        return S;
      Settled = true;
    }
    if (Status S = settleLaneReadersLocked(N, V->Base, 0, V->Size); !S)
      return S;
    for (const Range &R : validOnlyOnLocked(N, *V).ranges())
      if (Status S = makeValidLocked(HostNode, *V, R.Lo, R.Hi); !S)
        return S;
    bool Given = true;
    for (const Range &R : V->Backed[N].ranges())
      Given = Nodes[N]->unback(V->NodePtr[N], R.Lo, R.Hi) && Given;
    if (!Given)
      continue; // held whole (a GPU's small buffer): it stays
    uint64_t Dropped = V->Backed[N].bytes();
    V->Valid[N].clear();
    V->Backed[N].clear();
    holdBytes(N, Dropped, false);
    Held[static_cast<size_t>(N)].Evicted += Dropped;
    Freed += Dropped;
  }
  return Status();
}

} // namespace hetero

//===- DataLayer.cpp - Buffers over several memory nodes ------------------===//
#include "hetero/DataLayer.h"
#include "DataLayerBuffer.h"
#include "hetero/DescriptorEval.h"
#include "hetero/Log.h"
#include "hetero/ParallelCopy.h"
#include "hetero/Trace.h"

#include <algorithm>
#include <cstring>
#include <set>
#include <thread>
#include <tuple>
#include <utility>

namespace hetero {

/// A copy between two nodes, begun at BeginUs, in the trace: on the lane of
/// the node that is not the host (the destination's for d2d).
void traceCopy(const NodeOps &From, NodeId FromId, const NodeOps &To,
               NodeId ToId, uint64_t Bytes, double BeginUs, bool Queued) {
  bool FromHost = FromId == HostNode, ToHost = ToId == HostNode;
  const char *Dir =
      FromHost ? (ToHost ? "h2h" : "h2d") : (ToHost ? "d2h" : "d2d");
  std::string FromName = From.name(), ToName = To.name();
  trace::event(ToHost ? FromName : ToName, "copy",
               std::string(Dir) + " " + binaryBytesText(Bytes), BeginUs,
               trace::now(),
               "\"bytes\":" + std::to_string(Bytes) +
                   ",\"from\":" + trace::quoted(FromName) + ",\"to\":" +
                   trace::quoted(ToName) + (Queued ? ",\"queued\":true" : ""));
}

DataLayer::DataLayer() {
  Nodes.push_back(std::make_unique<HostNodeOps>());
  Held.resize(1);
}

DataLayer::~DataLayer() {
  {
    Lock L(Mutex);
    ScanStop = true;
  }
  ScanWake.notify_all();
  if (ScanThread.joinable())
    ScanThread.join();
  for (auto &[Base, B] : Buffers) {
    for (size_t N = 1; N < B->NodePtr.size(); ++N)
      if (B->NodePtr[N] && !B->External)
        Nodes[N]->release(B->NodePtr[N]);
    if (!B->External) {
      unpinHostOf(*B);
      Nodes[HostNode]->release(reinterpret_cast<void *>(B->Base));
    }
  }
}

void DataLayer::unpinHostOf(Buffer &B) {
  if (!std::exchange(B.HostPinned, false))
    return;
  for (size_t N = 1; N < Nodes.size(); ++N)
    Nodes[N]->unpinHost(reinterpret_cast<void *>(B.Base), B.Size);
}

NodeId DataLayer::addNode(std::unique_ptr<NodeOps> Ops) {
  Lock L(Mutex);
  Nodes.push_back(std::move(Ops));
  Held.resize(Nodes.size());
  for (auto &[Base, B] : Buffers)
    growNodeVectors(*B);
  return static_cast<NodeId>(Nodes.size() - 1);
}

int DataLayer::numNodes() const {
  Lock L(Mutex);
  return static_cast<int>(Nodes.size());
}

std::string DataLayer::nodeName(NodeId N) const {
  Lock L(Mutex);
  return N >= 0 && size_t(N) < Nodes.size() ? Nodes[N]->name() : "?";
}

void DataLayer::growNodeVectors(Buffer &B) {
  B.NodePtr.resize(Nodes.size(), nullptr);
  B.Valid.resize(Nodes.size());
  B.Queued.resize(Nodes.size());
  B.Backed.resize(Nodes.size());
  B.UsedAt.resize(Nodes.size(), 0);
  B.UsedRanges.resize(Nodes.size());
  B.UsedRangesAt.resize(Nodes.size(), 0);
}

BufferInfo DataLayer::infoOf(const Buffer &B) {
  BufferInfo I;
  I.Id = B.Base;
  I.Size = B.Size;
  I.External = B.External;
  I.ReadOnly = B.ReadOnly;
  I.HostResident = B.HostResident;
  I.Generation = B.Generation;
  return I;
}

//===--- Buffers ----------------------------------------------------------===//

void *DataLayer::allocate(uint64_t Size) {
  Lock L(Mutex);
  // Sections start inside their arrays: reserve room for the base pointers
  // in front (4x the size, at least 1 MiB; address space only).
  uint64_t LeadIn = std::max<uint64_t>(4 * Size, 1 << 20);
  void *P = static_cast<HostNodeOps &>(*Nodes[HostNode])
                .allocateWithLeadIn(Size, LeadIn);
  if (!P)
    return nullptr;
  auto B = std::make_unique<Buffer>();
  B->Base = reinterpret_cast<uintptr_t>(P);
  B->Size = Size;
  B->LeadIn = LeadIn;
  growNodeVectors(*B);
  B->Generation = ++NextGeneration;
  B->NodePtr[HostNode] = P;
  holdBytes(HostNode, Size, true);
  // Fresh memory is valid nowhere: the first node to use it just takes it.
  Buffers.emplace(B->Base, std::move(B));
  return P;
}

Status DataLayer::release(void *Ptr) {
  HeldLock L(Mutex);
  // The nodes holding its storage are waited for first without the lock.
  if (auto It = Buffers.find(reinterpret_cast<uintptr_t>(Ptr));
      It != Buffers.end() && !It->second->External) {
    std::vector<NodeId> Holding;
    for (size_t N = 1; N < It->second->NodePtr.size(); ++N)
      if (It->second->NodePtr[N])
        Holding.push_back(static_cast<NodeId>(N));
    if (Status S = settleUnlocked(L, *It->second, Holding, "buffer freed"); !S)
      return S;
  }
  // A copy to or from the host without the lock finishes first.
  BusyDone.wait(L, [&] {
    auto It = Buffers.find(reinterpret_cast<uintptr_t>(Ptr));
    return It == Buffers.end() || !It->second->Busy;
  });
  (void)waitAllQueuedLocked(); // a failed copy's ranges are dropped anyway
  auto It = Buffers.find(reinterpret_cast<uintptr_t>(Ptr));
  if (It == Buffers.end() || It->second->External)
    return Status::error(StatusCode::NotMapped,
                         "no hetero buffer starts at the address freed");
  Buffer &B = *It->second;
  // Every node holding storage settles, so copies queued between them have
  // read it before it goes (the long wait was above, without the lock).
  for (size_t N = 1; N < B.NodePtr.size(); ++N)
    if (B.NodePtr[N])
      if (Status S = settleLocked(static_cast<NodeId>(N), "buffer freed"); !S)
        return S;
  for (size_t N = 1; N < B.NodePtr.size(); ++N)
    if (B.NodePtr[N]) {
      Nodes[N]->release(B.NodePtr[N]);
      holdBytes(static_cast<NodeId>(N), heldBytes(static_cast<NodeId>(N), B),
                false);
    }
  // Pointers to it that other nodes hold translated would point into freed
  // node storage (and a later buffer may take its hetero address): those
  // copies are stale; the host's, with the hetero address, is not.
  uintptr_t From = B.Base - B.LeadIn, To = B.Base + B.Size;
  for (auto &[Base, X] : Buffers)
    for (const auto &[Off, Value] : X->PointerSlots)
      if (X.get() != &B && Value >= From && Value <= To &&
          X->Valid[HostNode].contains(Off, Off + sizeof(void *)))
        for (size_t N = 1; N < Nodes.size(); ++N)
          X->Valid[N].erase(Off, Off + sizeof(void *));
  unpinHostOf(B);
  Nodes[HostNode]->release(Ptr);
  holdBytes(HostNode, B.Size, false);
  Buffers.erase(It);
  return Status();
}

void DataLayer::registerExternal(void *Base, uint64_t Size, bool ReadOnly) {
  Lock L(Mutex);
  uintptr_t Key = reinterpret_cast<uintptr_t>(Base);
  if (Buffers.count(Key))
    return;
  auto B = std::make_unique<Buffer>();
  B->Base = Key;
  B->Size = Size;
  B->External = true;
  B->ReadOnly = ReadOnly;
  B->Generation = ++NextGeneration;
  growNodeVectors(*B);
  B->NodePtr[HostNode] = Base;
  // The image's initial contents live on every node that loaded it.
  B->Valid[HostNode].insert(0, Size);
  Externals.push_back(B.get());
  Buffers.emplace(Key, std::move(B));
}

void DataLayer::setExternalNodeStorage(void *Base, NodeId N, void *NodePtr) {
  Lock L(Mutex);
  auto It = Buffers.find(reinterpret_cast<uintptr_t>(Base));
  if (It == Buffers.end())
    return;
  Buffer &B = *It->second;
  B.NodePtr[N] = NodePtr;
  B.Valid[N].insert(0, B.Size);
}

void DataLayer::setHostResident(void *Ptr) {
  Lock L(Mutex);
  if (Buffer *B = lookup(reinterpret_cast<uintptr_t>(Ptr)))
    B->HostResident = true;
}

DataLayer::Buffer *DataLayer::lookup(uintptr_t P) const {
  auto It = Buffers.upper_bound(P);
  if (It == Buffers.begin())
    return nullptr;
  --It;
  return It->second->containsAddr(P) ? It->second.get() : nullptr;
}

DataLayer::Buffer *DataLayer::lookupForPointer(uintptr_t P) const {
  if (Buffer *B = lookup(P))
    return B;
  auto It = Buffers.upper_bound(P);
  if (It != Buffers.end() && P >= It->first - It->second->LeadIn)
    return It->second.get();
  return nullptr;
}

DataLayer::Buffer *DataLayer::byId(BufferId Id) const {
  auto It = Buffers.find(Id);
  return It == Buffers.end() ? nullptr : It->second.get();
}

std::optional<BufferInfo> DataLayer::find(uintptr_t P) const {
  Lock L(Mutex);
  if (Buffer *B = lookup(P))
    return infoOf(*B);
  return std::nullopt;
}

std::optional<BufferInfo> DataLayer::findForPointer(uintptr_t P) const {
  Lock L(Mutex);
  if (Buffer *B = lookupForPointer(P))
    return infoOf(*B);
  return std::nullopt;
}

void DataLayer::forgetSlots(Buffer &B, uint64_t Lo, uint64_t Hi) {
  // A slot overlapping [Lo, Hi) starts at most 7 bytes before Lo.
  auto It = B.PointerSlots.lower_bound(Lo >= 7 ? Lo - 7 : 0);
  while (It != B.PointerSlots.end() && It->first < Hi) {
    if (It->first + sizeof(void *) > Lo)
      It = B.PointerSlots.erase(It);
    else
      ++It;
  }
}

Status DataLayer::findRange(const void *Ptr, uint64_t Size, const char *What,
                            Buffer *&B, uint64_t &Offset) const {
  uintptr_t P = reinterpret_cast<uintptr_t>(Ptr);
  B = lookup(P);
  if (!B || P + Size > B->Base + B->Size)
    return Status::error(StatusCode::NotMapped,
                         std::string(What) + " of " + std::to_string(Size) +
                             " bytes outside every hetero buffer");
  Offset = P - B->Base;
  return Status();
}

//===--- The host's view: data_submit, data_retrieve, data_exchange -------===//

void DataLayer::setHomeNode(NodeId N) {
  Lock L(Mutex);
  Home = N >= 0 && size_t(N) < Nodes.size() ? N : HostNode;
}

NodeId DataLayer::homeNode() const {
  Lock L(Mutex);
  return Home;
}

void DataLayer::hostCopy(void *Dst, const void *Src, uint64_t Size) {
  // One thread fills fresh pages at about 1.5 GB/s (the faults and the
  // zeroing: two lines of 27 GB took 37 s to map on an H200 node's CPU
  // pool); the shared copier's threads at the memory's rate.
  if (Size >= ParallelHostCopy)
    sharedCopier().copy(Dst, Src, Size);
  else
    std::memcpy(Dst, Src, Size);
}

Status DataLayer::write(void *TgtPtr, const void *Src, uint64_t Size) {
  HeldLock L(Mutex);
  if (Status S = waitAllQueuedLocked(); !S)
    return S;
  Buffer *B;
  uint64_t Off;
  if (Status S = findRange(TgtPtr, Size, "write", B, Off); !S)
    return S;
  if (B->ReadOnly)
    return Status::error(StatusCode::ReadOnly,
                         "write of " + std::to_string(Size) +
                             " bytes to a const global of the device image");
  forgetSlots(*B, Off, Off + Size);
  std::vector<std::pair<uint64_t, uintptr_t>> Slots =
      pointersIn(Off, Src, Size);
  bool AtHome = false;
  if (Slots.empty() && Size != sizeof(void *) && spreads(*B))
    return writeSpread(*B, Off, Src, Size, L);
  if (Slots.empty())
    if (Status S = writeHome(*B, Off, Src, Size, AtHome, L); !S)
      return S;
  if (AtHome)
    return Status();
  unlockedCopy(&L, *B, Size, [&] { hostCopy(TgtPtr, Src, Size); });
  for (const auto &[At, Value] : Slots)
    B->PointerSlots[At] = Value;
  markWrittenLocked(HostNode, *B, Off, Off + Size);
  return Status();
}

std::vector<std::pair<uint64_t, uintptr_t>>
DataLayer::pointersIn(uint64_t Off, const void *Src, uint64_t Size) const {
  std::vector<std::pair<uint64_t, uintptr_t>> Out;
  if (Size > MaxScannedWrite || Size < sizeof(void *))
    return Out;
  // Aligned words of the buffer, as a pointer member lies in a struct.
  uint64_t First = (Off + sizeof(void *) - 1) / sizeof(void *) * sizeof(void *);
  for (uint64_t At = First; At + sizeof(void *) <= Off + Size;
       At += sizeof(void *)) {
    uintptr_t Value;
    std::memcpy(&Value, static_cast<const char *>(Src) + (At - Off),
                sizeof(Value));
    if (Value && lookupForPointer(Value))
      Out.emplace_back(At, Value);
  }
  return Out;
}

bool DataLayer::mayHoldPointers(const Buffer &B, uint64_t Lo, uint64_t Hi) {
  // A pointer slot reads as its hetero address, which only the host's view
  // has; a pointer-sized buffer may hold one a kernel stored.
  return B.Size == sizeof(void *) ||
         B.PointerSlots.lower_bound(Lo >= 7 ? Lo - 7 : 0) !=
             B.PointerSlots.lower_bound(Hi);
}

std::vector<DataLayer::ReadPiece>
DataLayer::readPieces(const Buffer &B, uint64_t Off, uint64_t Hi) const {
  // The host first (a memcpy), then the other nodes in order; bytes valid
  // nowhere were never written and read as the host's (untouched) storage.
  std::vector<ReadPiece> Pieces;
  std::vector<Range> Missing = {{Off, Hi}};
  for (NodeId S = 0; S < NodeId(Nodes.size()) && !Missing.empty(); ++S) {
    std::vector<Range> StillMissing;
    for (const Range &M : Missing) {
      uint64_t Cursor = M.Lo;
      for (const Range &Have : B.Valid[S].intersect(M.Lo, M.Hi)) {
        if (Have.Lo > Cursor)
          StillMissing.push_back({Cursor, Have.Lo});
        Pieces.push_back({S, Have, Status()});
        Cursor = Have.Hi;
      }
      if (Cursor < M.Hi)
        StillMissing.push_back({Cursor, M.Hi});
    }
    Missing.swap(StillMissing);
  }
  for (const Range &M : Missing)
    Pieces.push_back({HostNode, M, Status()});
  return Pieces;
}

void DataLayer::copyPieces(Buffer &B, uint64_t Off, char *Out, uint64_t Size,
                           std::vector<ReadPiece> &Pieces,
                           const std::vector<NodeId> &From, HeldLock *L) {
  // The nodes by the link they cross (NodeOps::hostLink), each link's in
  // turn.
  std::vector<std::vector<NodeId>> Links;
  for (NodeId S : From) {
    int Link = Nodes[S]->hostLink();
    auto It = std::find_if(Links.begin(), Links.end(), [&](const auto &Ns) {
      return Link >= 0 && Nodes[Ns.front()]->hostLink() == Link;
    });
    if (It == Links.end())
      Links.push_back({S});
    else
      It->push_back(S);
  }
  auto CopyOver = [&](const std::vector<NodeId> &Link) {
    for (ReadPiece &P : Pieces)
      if (std::find(Link.begin(), Link.end(), P.S) != Link.end())
        P.Copied = Nodes[P.S]->copyToHost(
            Out + (P.R.Lo - Off), static_cast<char *>(B.NodePtr[P.S]) + P.R.Lo,
            P.R.Hi - P.R.Lo);
  };
  unlockedCopy(L, B, Size, [&] {
    for (const ReadPiece &P : Pieces)
      if (P.S == HostNode)
        hostCopy(Out + (P.R.Lo - Off),
                 reinterpret_cast<char *>(B.Base) + P.R.Lo, P.R.Hi - P.R.Lo);
    // Several links at once (as writeSpread).
    std::vector<std::thread> Others;
    if (Links.size() > 1 && Size >= ParallelReadBytes)
      for (size_t I = 1; I < Links.size(); ++I)
        Others.emplace_back(CopyOver, std::cref(Links[I]));
    for (size_t I = 0; I < Links.size(); ++I)
      if (I == 0 || Others.empty())
        CopyOver(Links[I]);
    for (std::thread &T : Others)
      T.join();
  });
}

bool DataLayer::readDirect(Buffer &B, uint64_t Off, void *Dst, uint64_t Size,
                           Status &Result, HeldLock *L) {
  uint64_t Hi = Off + Size;
  if (mayHoldPointers(B, Off, Hi))
    return false;
  std::vector<ReadPiece> Pieces = readPieces(B, Off, Hi);
  // What ran ahead on a node that holds some of them writes them first.
  std::vector<NodeId> From;
  for (const ReadPiece &P : Pieces)
    if (P.S != HostNode &&
        std::find(From.begin(), From.end(), P.S) == From.end()) {
      if (Status Settled = settleLocked(P.S, "host reads"); !Settled) {
        Result = Settled;
        return true;
      }
      From.push_back(P.S);
    }
  double TraceBegin = trace::on() ? trace::now() : 0;
  copyPieces(B, Off, static_cast<char *>(Dst), Size, Pieces, From, L);
  Result = Status();
  for (const ReadPiece &P : Pieces) {
    if (P.S == HostNode)
      continue;
    uint64_t Len = P.R.Hi - P.R.Lo;
    if (!P.Copied) {
      if (Result)
        Result =
            Status::error(StatusCode::CopyFailed,
                          "a copy of " + std::to_string(Len) + " bytes from " +
                              Nodes[P.S]->name() +
                              " to the host failed: " + P.Copied.message());
      continue;
    }
    if (trace::on())
      traceCopy(*Nodes[P.S], P.S, *Nodes[HostNode], HostNode, Len, TraceBegin);
    Stats.BytesD2H += Len;
  }
  return true;
}

Status DataLayer::read(void *Dst, const void *TgtPtr, uint64_t Size) {
  HeldLock L(Mutex);
  if (Status S = waitAllQueuedLocked(); !S)
    return S;
  Buffer *B;
  uint64_t Off;
  if (Status S = findRange(TgtPtr, Size, "read", B, Off); !S)
    return S;
  // What ran ahead on the nodes that hold its bytes, waited for first
  // without the lock (readDirect and makeValidLocked settle again).
  std::vector<NodeId> Holding;
  for (const ReadPiece &P : readPieces(*B, Off, Off + Size))
    if (std::find(Holding.begin(), Holding.end(), P.S) == Holding.end())
      Holding.push_back(P.S);
  if (Status S = settleUnlocked(L, *B, Holding, "host reads"); !S)
    return S;
  Status Direct;
  if (readDirect(*B, Off, Dst, Size, Direct, &L))
    return Direct;
  if (Status S = makeValidLocked(HostNode, *B, Off, Off + Size); !S)
    return S;
  unlockedCopy(&L, *B, Size, [&] { hostCopy(Dst, TgtPtr, Size); });
  return Status();
}

Status DataLayer::copy(void *DstPtr, const void *SrcPtr, uint64_t Size) {
  Lock L(Mutex);
  if (Status S = waitAllQueuedLocked(); !S)
    return S;
  Buffer *SB, *DB;
  uint64_t SOff, DOff;
  if (Status S = findRange(SrcPtr, Size, "device-to-device copy", SB, SOff); !S)
    return S;
  if (Status S = findRange(DstPtr, Size, "device-to-device copy", DB, DOff); !S)
    return S;
  if (DB->ReadOnly)
    return Status::error(StatusCode::ReadOnly,
                         "copy of " + std::to_string(Size) +
                             " bytes to a const global of the device image");
  if (Status S = makeValidLocked(HostNode, *SB, SOff, SOff + Size); !S)
    return S;
  std::memmove(DstPtr, SrcPtr, Size);
  forgetSlots(*DB, DOff, DOff + Size);
  markWrittenLocked(HostNode, *DB, DOff, DOff + Size);
  return Status();
}

//===--- Nodes ------------------------------------------------------------===//

Status DataLayer::translateLocked(NodeId N, uintptr_t P, uintptr_t &Out) {
  assertHeld();
  Out = P;
  if (N == HostNode || !P)
    return Status();
  Buffer *B = lookupForPointer(P);
  if (!B)
    return Status();
  if (Status S = ensureStorage(N, *B); !S)
    return S;
  Out = reinterpret_cast<uintptr_t>(B->NodePtr[N]) + (P - B->Base);
  return Status();
}

Status DataLayer::translate(NodeId N, uintptr_t P, uintptr_t &Out) {
  Lock L(Mutex);
  if (outsideBatch())
    if (Status S = waitAllQueuedLocked(); !S)
      return S;
  return translateLocked(N, P, Out);
}

Status DataLayer::translateAll(NodeId N, const std::vector<uintptr_t> &In,
                               std::vector<uintptr_t> &Out) {
  Lock L(Mutex);
  if (outsideBatch())
    if (Status S = waitAllQueuedLocked(); !S)
      return S;
  Out.resize(In.size());
  for (size_t I = 0; I < In.size(); ++I)
    if (Status S = translateLocked(N, In[I], Out[I]); !S)
      return S;
  return Status();
}

Status DataLayer::fixPointerSlots(Buffer &B, NodeId N, uint64_t Lo,
                                  uint64_t Hi) {
  auto It = B.PointerSlots.lower_bound(Lo);
  for (; It != B.PointerSlots.end() && It->first + sizeof(void *) <= Hi; ++It) {
    uintptr_t Value;
    if (Status S = translateLocked(N, It->second, Value); !S)
      return S;
    char *Slot = static_cast<char *>(B.NodePtr[N]) + It->first;
    if (Status S = backLocked(N, B, It->first, It->first + sizeof(void *)); !S)
      return S;
    if (Status S = settleLocked(N, "pointer slot written"); !S)
      return S;
    if (Status S = settleLaneReadersLocked(N, B.Base, It->first,
                                           It->first + sizeof(void *));
        !S)
      return S;
    if (Status Stored =
            Nodes[N]->storePointer(Slot, reinterpret_cast<void *>(Value));
        !Stored)
      return Status::error(StatusCode::CopyFailed,
                           "a pointer could not be written to " +
                               Nodes[N]->name() + ": " + Stored.message());
  }
  return Status();
}

Status DataLayer::notePointerValue(Buffer &B, NodeId Src) {
  uintptr_t V;
  if (Src == HostNode)
    std::memcpy(&V, B.NodePtr[HostNode], sizeof(V));
  else if (Status Read = Nodes[Src]->copyToHost(&V, B.NodePtr[Src], sizeof(V));
           !Read)
    return Status::error(StatusCode::CopyFailed,
                         "a pointer could not be read from " +
                             Nodes[Src]->name() + ": " + Read.message());
  uintptr_t Hetero = 0;
  if (Src == HostNode) {
    if (V && lookupForPointer(V))
      Hetero = V;
  } else {
    for (auto &[Base, X] : Buffers) {
      auto At = reinterpret_cast<uintptr_t>(X->NodePtr[Src]);
      if (At && V >= At && V <= At + X->Size) {
        Hetero = X->Base + (V - At);
        break;
      }
    }
  }
  if (Hetero)
    B.PointerSlots[0] = Hetero;
  else
    B.PointerSlots.erase(0);
  return Status();
}

Status DataLayer::copyRange(Buffer &B, NodeId Src, NodeId Dst, uint64_t Lo,
                            uint64_t Hi) {
  B.UsedAt[Src] = Epoch; // a source of this launch's copies stays
  bool InLane = Src != HostNode && Dst != HostNode && mayQueueInLane(B, Lo, Hi);
  bool SrcSettled = false;
  if (Status S = settleForCopy(B, Src, Dst, Lo, Hi, InLane, SrcSettled); !S)
    return S;
  double TraceBegin = trace::on() ? trace::now() : 0;
  if (InLane && Fence)
    Fence(Dst);
  if (InLane && queueInLane(B, Src, Dst, Lo, Hi, TraceBegin))
    return Status();
  if (InLane) { // no lane after all: the copy waits as any other
    if (Status S = settleLaneReadersLocked(Dst, B.Base, Lo, Hi); !S)
      return S;
    if (!SrcSettled)
      if (Status S = settleLocked(Src, "no lane for a copy"); !S)
        return S;
    if (Status S = settleLocked(Dst, "no lane for a copy"); !S)
      return S;
  }
  if (Src != HostNode && Dst != HostNode &&
      !Nodes[Dst]->reachesPeer(*Nodes[Src])) {
    // No direct path: stage through the host copy, which becomes valid too.
    if (Status S = copyRange(B, Src, HostNode, Lo, Hi); !S)
      return S;
    B.Valid[HostNode].insert(Lo, Hi);
    return copyRange(B, HostNode, Dst, Lo, Hi);
  }
  bool Queued = false;
  if (Status S = moveBytes(B, Src, Dst, Lo, Hi, Queued); !S)
    return S;
  if (trace::on())
    traceCopy(*Nodes[Src], Src, *Nodes[Dst], Dst, Hi - Lo, TraceBegin, Queued);
  if (B.Size == sizeof(void *) && Lo == 0 && Hi == B.Size)
    if (Status S = notePointerValue(B, Src); !S)
      return S;
  // Pointer slots are written over a queued copy's bytes: once it landed.
  if (Queued && B.PointerSlots.lower_bound(Lo >= 7 ? Lo - 7 : 0) !=
                    B.PointerSlots.lower_bound(Hi))
    if (Status S = waitQueuedLocked(Dst); !S)
      return S;
  return fixPointerSlots(B, Dst, Lo, Hi);
}

Status DataLayer::settleForCopy(Buffer &B, NodeId Src, NodeId Dst, uint64_t Lo,
                                uint64_t Hi, bool InLane, bool &SrcSettled) {
  // Lanes whose copies still read these bytes of Dst read them first.
  if (Status S = settleLaneReadersLocked(Dst, B.Base, Lo, Hi, InLane); !S)
    return S;
  // Kernels left running on either end finish first. A copy in the
  // destination's lane queues behind those there, and waits for the
  // source's lane on the device. Without that, the first such copy of a
  // lane batch waits for every node's kernels, once, instead of each copy
  // for its source's, which would also wait for the copies queued into it
  // meanwhile. Bytes this batch queued into the source, not yet issued
  // there, are waited for on the host.
  bool IntoSrc = InLane && laneQueuedInto(Src, B, Lo, Hi);
  bool OnDevice = InLane && !IntoSrc && ordered(Dst, Src) != LaneOrder::No;
  if (InLane && !OnDevice && !LaneBatchSettled) {
    for (NodeId N = HostNode + 1; size_t(N) < Nodes.size(); ++N)
      if (Status S = settleLocked(N, "first unordered lane copy"); !S)
        return S;
    LaneBatchSettled = true;
  }
  if (!InLane || IntoSrc) {
    if (Status S = settleLocked(
            Src, IntoSrc ? "copy out of bytes queued into its source"
                         : "copy outside a lane");
        !S)
      return S;
    SrcSettled = true;
  }
  if (!InLane)
    if (Status S = settleLocked(Dst, "copy outside a lane"); !S)
      return S;
  // Bytes still on their way into Src are waited for before they leave.
  if (!B.Queued[Src].intersect(Lo, Hi).empty())
    if (Status S = waitQueuedLocked(Src); !S)
      return S;
  return Status();
}

bool DataLayer::queueInLane(Buffer &B, NodeId Src, NodeId Dst, uint64_t Lo,
                            uint64_t Hi, double TraceBegin) {
  uint64_t Len = Hi - Lo;
  if (!Nodes[Dst]->queueCopyInLane(
          static_cast<char *>(B.NodePtr[Dst]) + Lo, *Nodes[Src],
          static_cast<char *>(B.NodePtr[Src]) + Lo, Len))
    return false;
  Reads.add(Src, Dst, B.Base, Lo, Hi);
  LaneBatchInto[{Dst, B.Base}].insert(Lo, Hi);
  if (Notice)
    Notice(Dst);
  Stats.BytesD2D += Len;
  if (trace::on())
    traceCopy(*Nodes[Src], Src, *Nodes[Dst], Dst, Len, TraceBegin, true);
  return true;
}

Status DataLayer::moveBytes(Buffer &B, NodeId Src, NodeId Dst, uint64_t Lo,
                            uint64_t Hi, bool &Queued) {
  uint64_t Len = Hi - Lo;
  char *SrcP = static_cast<char *>(B.NodePtr[Src]) + Lo;
  char *DstP = static_cast<char *>(B.NodePtr[Dst]) + Lo;
  Status Copied;
  if (Src == HostNode) {
    Copied = Nodes[Dst]->copyFromHost(DstP, SrcP, Len);
    Stats.BytesH2D += Len;
  } else if (Dst == HostNode) {
    Copied = Nodes[Src]->copyToHost(DstP, SrcP, Len);
    Stats.BytesD2H += Len;
  } else if (!outsideBatch()) {
    Copied = Nodes[Dst]->queueCopyFromPeer(DstP, *Nodes[Src], SrcP, Len);
    Queued = Copied.ok();
    if (Queued && B.Queued[Dst].empty())
      QueuedInto[Dst].push_back(&B);
    if (Queued)
      B.Queued[Dst].insert(Lo, Hi);
    Stats.BytesD2D += Len;
  } else {
    Copied = Nodes[Dst]->copyFromPeer(DstP, *Nodes[Src], SrcP, Len);
    Stats.BytesD2D += Len;
  }
  if (!Copied)
    return Status::error(StatusCode::CopyFailed,
                         "a copy of " + std::to_string(Len) + " bytes from " +
                             Nodes[Src]->name() + " to " + Nodes[Dst]->name() +
                             " failed: " + Copied.message());
  return Status();
}

Status DataLayer::holdLocked(NodeId N, Buffer &B, uint64_t Lo, uint64_t Hi) {
  assertHeld();
  Hi = std::min(Hi, B.Size);
  noteUseLocked(N, B, Lo, Hi); // kept there for this launch (evictLocked)
  if (B.Valid[N].contains(Lo, Hi))
    return Status();
  if (Status S = ensureStorage(N, B); !S)
    return S;
  return backLocked(N, B, Lo, Hi);
}

Status DataLayer::makeValidLocked(NodeId N, Buffer &B, uint64_t Lo,
                                  uint64_t Hi) {
  assertHeld();
  Hi = std::min(Hi, B.Size);
  if (Status S = holdLocked(N, B, Lo, Hi); !S)
    return S;
  if (B.Valid[N].contains(Lo, Hi))
    return Status();
  std::vector<Range> Missing = B.Valid[N].missing(Lo, Hi);
  // Sources in order of preference: nodes of the destination's kind (peer
  // copies between GPUs), then the host, then the rest (staged).
  std::vector<NodeId> Order;
  NodeKind DstKind = Nodes[N]->kind();
  NodeId Count = static_cast<NodeId>(Nodes.size());
  for (NodeId S = 1; S < Count; ++S)
    if (S != N && Nodes[S]->kind() == DstKind)
      Order.push_back(S);
  if (N != HostNode)
    Order.push_back(HostNode);
  for (NodeId S = 1; S < Count; ++S)
    if (S != N && Nodes[S]->kind() != DstKind)
      Order.push_back(S);
  for (NodeId S : Order) {
    std::vector<Range> StillMissing;
    for (const Range &M : Missing) {
      uint64_t Cursor = M.Lo;
      for (const Range &Have : B.Valid[S].intersect(M.Lo, M.Hi)) {
        if (Have.Lo > Cursor)
          StillMissing.push_back({Cursor, Have.Lo});
        if (Status St = copyRange(B, S, N, Have.Lo, Have.Hi); !St)
          return St;
        B.Valid[N].insert(Have.Lo, Have.Hi);
        Cursor = Have.Hi;
      }
      if (Cursor < M.Hi)
        StillMissing.push_back({Cursor, M.Hi});
    }
    Missing.swap(StillMissing);
    if (Missing.empty())
      break;
  }
  // Bytes valid nowhere were never written: any contents will do, but the
  // pointer slots among them must still be right for this node.
  for (const Range &M : Missing) {
    if (Status S = fixPointerSlots(B, N, M.Lo, M.Hi); !S)
      return S;
    B.Valid[N].insert(M.Lo, M.Hi);
  }
  return Status();
}

Status DataLayer::makeValid(NodeId N, BufferId Id, uint64_t Lo, uint64_t Hi) {
  Lock L(Mutex);
  if (outsideBatch())
    if (Status S = waitAllQueuedLocked(); !S)
      return S;
  Buffer *B = byId(Id);
  if (!B)
    return Status::error(StatusCode::NotMapped, "a buffer was freed");
  return makeValidLocked(N, *B, Lo, Hi);
}

Status DataLayer::prepareChunk(NodeId N, const std::vector<ChunkNeed> &Needs,
                               uint64_t *Missing) {
  Lock L(Mutex);
  // What the last round on N gave back goes home meanwhile
  // (giveBackLater()).
  GiveBackCopies Giving;
  Status Started = startGiveBackLocked(N, Needs, Giving);
  // The chunk's storage is held before they start: on an H200 the chunk's
  // first copy in waited for most of a copy home under way while its
  // storage was mapped (7.5 of 8.8 ms).
  if (Started && !Giving.Homes.empty())
    if ((Started = holdNeedsLocked(N, Needs)))
      copyHomeLocked(N, Giving);
  Status Prepared = Started ? prepareChunkLocked(N, Needs, Missing) : Started;
  Status Given = finishGiveBackLocked(N, Giving);
  return Prepared ? Given : Prepared;
}

Status DataLayer::prepareChunkLocked(NodeId N,
                                     const std::vector<ChunkNeed> &Needs,
                                     uint64_t *Missing) {
  assertHeld();
  // None of them makes room for another (willUse()).
  for (const ChunkNeed &Need : Needs)
    if (Buffer *B = byId(Need.Id))
      willUseLocked(N, *B, *Need.Span);
  for (const ChunkNeed &Need : Needs) {
    Buffer *B = byId(Need.Id);
    if (!B && Need.Span->empty())
      continue;
    if (!B)
      return Status::error(StatusCode::NotMapped, "a buffer was freed");
    if (Missing)
      *Missing += bytesMissingLocked(N, *B, *Need.Read);
    for (const Range &W : Need.Write->ranges())
      if (Status S = settleLaneReadersLocked(N, Need.Id, W.Lo, W.Hi,
                                             /*InLane=*/true);
          !S)
        return S;
    for (const Range &R : Need.Span->ranges()) {
      if (outsideBatch())
        if (Status S = waitAllQueuedLocked(); !S)
          return S;
      // A freed buffer is not found again (settling may have waited).
      if (!(B = byId(Need.Id)))
        return Status::error(StatusCode::NotMapped, "a buffer was freed");
      if (!Need.Covered) {
        if (Status S = makeValidLocked(N, *B, R.Lo, R.Hi); !S)
          return S;
        continue;
      }
      // What the chunk overwrites whole is only held; the rest arrives.
      for (const Range &C : Need.Covered->intersect(R.Lo, R.Hi))
        if (Status S = holdLocked(N, *B, C.Lo, C.Hi); !S)
          return S;
      for (const Range &M : Need.Covered->missing(R.Lo, R.Hi))
        if (Status S = makeValidLocked(N, *B, M.Lo, M.Hi); !S)
          return S;
    }
  }
  return Status();
}

void DataLayer::markWrittenLocked(NodeId N, Buffer &B, uint64_t Lo,
                                  uint64_t Hi) {
  assertHeld();
  if (B.ReadOnly)
    return; // valid everywhere, for good
  B.Scans.clear();
  B.Generation = ++NextGeneration;
  Hi = std::min(Hi, B.Size);
  for (size_t S = 0; S < Nodes.size(); ++S)
    if (NodeId(S) != N)
      B.Valid[S].erase(Lo, Hi);
  B.Valid[N].insert(Lo, Hi);
}

void DataLayer::markWritten(NodeId N, BufferId Id, uint64_t Lo, uint64_t Hi) {
  Lock L(Mutex);
  (void)waitAllQueuedLocked(); // a failed copy's ranges are dropped anyway
  if (Buffer *B = byId(Id))
    markWrittenLocked(N, *B, Lo, Hi);
}

RangeSet DataLayer::validOn(NodeId N, BufferId Id) const {
  Lock L(Mutex);
  Buffer *B = byId(Id);
  return B ? B->Valid[N] : RangeSet();
}

RangeSet DataLayer::elsewhereLocked(NodeId N, const Buffer &B,
                                    const Range &R) const {
  assertHeld();
  RangeSet Elsewhere;
  for (size_t S = 0; S < Nodes.size(); ++S)
    if (NodeId(S) != N)
      for (const Range &H : B.Valid[S].intersect(R.Lo, R.Hi))
        Elsewhere.insert(H.Lo, H.Hi);
  return Elsewhere;
}

RangeSet DataLayer::validOnlyOnLocked(NodeId N, const Buffer &B, uint64_t Lo,
                                      uint64_t Hi) const {
  assertHeld();
  RangeSet Only;
  for (const Range &R : B.Valid[N].intersect(Lo, Hi))
    for (const Range &M : elsewhereLocked(N, B, R).missing(R.Lo, R.Hi))
      Only.insert(M.Lo, M.Hi);
  return Only;
}

RangeSet DataLayer::validOnlyOn(NodeId N, BufferId Id) const {
  Lock L(Mutex);
  Buffer *B = byId(Id);
  return B ? validOnlyOnLocked(N, *B) : RangeSet();
}

uint64_t DataLayer::bytesMissing(NodeId N, BufferId Id,
                                 const RangeSet &R) const {
  Lock L(Mutex);
  Buffer *B = byId(Id);
  return B ? bytesMissingLocked(N, *B, R) : 0;
}

uint64_t DataLayer::bytesMissingLocked(NodeId N, const Buffer &B,
                                       const RangeSet &R) const {
  assertHeld();
  uint64_t Missing = 0;
  for (const Range &G : R.ranges())
    for (const Range &M : B.Valid[N].missing(G.Lo, G.Hi))
      Missing += M.Hi - M.Lo;
  return Missing;
}

bool DataLayer::holdsAlone(NodeId N, BufferId Id) const {
  Lock L(Mutex);
  Buffer *B = byId(Id);
  if (!B)
    return false;
  // Stops at the first such byte, where validOnlyOn would collect them all.
  for (const Range &R : B->Valid[N].ranges())
    if (!elsewhereLocked(N, *B, R).contains(R.Lo, R.Hi))
      return true;
  return false;
}

RangeSet DataLayer::validOnlyOn(NodeId N, BufferId Id, uint64_t Lo,
                                uint64_t Hi) const {
  Lock L(Mutex);
  Buffer *B = byId(Id);
  return B ? validOnlyOnLocked(N, *B, Lo, Hi) : RangeSet();
}

//===--- Kernels ----------------------------------------------------------===//

std::vector<DataLayer::Buffer *>
DataLayer::closure(const std::vector<uintptr_t> &Args) const {
  std::vector<Buffer *> Out;
  std::set<Buffer *> Seen;
  for (uintptr_t P : Args)
    if (Buffer *B = lookupForPointer(P); B && Seen.insert(B).second)
      Out.push_back(B);
  // Globals are reached without being passed.
  for (Buffer *B : Externals)
    if (Seen.insert(B).second)
      Out.push_back(B);
  for (size_t I = 0; I < Out.size(); ++I)
    for (const auto &[Off, Value] : Out[I]->PointerSlots)
      if (Buffer *B = lookupForPointer(Value); B && Seen.insert(B).second)
        Out.push_back(B);
  return Out;
}

std::vector<BufferInfo>
DataLayer::kernelBuffers(const std::vector<uintptr_t> &Args) {
  Lock L(Mutex);
  std::vector<BufferInfo> Out;
  for (Buffer *B : closure(Args))
    Out.push_back(infoOf(*B));
  return Out;
}

std::vector<BufferInfo> DataLayer::externalBuffers() const {
  Lock L(Mutex);
  std::vector<BufferInfo> Out;
  for (const Buffer *B : Externals)
    Out.push_back(infoOf(*B));
  return Out;
}

Status DataLayer::acquireWhole(NodeId N, std::vector<uintptr_t> &Args,
                               std::vector<BufferId> &Touched) {
  Lock L(Mutex);
  if (Status S = waitAllQueuedLocked(); !S)
    return S;
  Touched.clear();
  std::vector<Buffer *> All = closure(Args);
  uint64_t Whole = 0;
  for (Buffer *B : All) { // none of them makes room for another
    B->UsedAt[N] = Epoch;
    Whole += B->External ? 0 : B->Size;
  }
  // More than the node holds: nothing is moved (or evicted) for it.
  if (uint64_t Room = Nodes[N]->capacity(); Room && Whole > Room)
    return Status::error(StatusCode::NoRoom,
                         Nodes[N]->name() + " cannot hold " +
                             std::to_string(Whole) + " more bytes");
  for (Buffer *B : All) {
    Touched.push_back(B->Base);
    if (B->HostResident)
      markWrittenLocked(HostNode, *B, 0, B->Size);
    if (Status S = makeValidLocked(N, *B, 0, B->Size); !S)
      return S;
  }
  for (uintptr_t &A : Args)
    if (Status S = translateLocked(N, A, A); !S)
      return S;
  return Status();
}

void DataLayer::releaseWhole(NodeId N, const std::vector<BufferId> &Touched) {
  Lock L(Mutex);
  (void)waitAllQueuedLocked(); // a failed copy's ranges are dropped anyway
  for (BufferId Id : Touched) {
    Buffer *B = byId(Id);
    if (!B)
      continue;
    markWrittenLocked(N, *B, 0, B->Size);
    // The host copy of host-resident memory is the truth: the kernel's
    // writes go back at once (a failed copy is seen at the next read).
    if (B->HostResident)
      (void)makeValidLocked(HostNode, *B, 0, B->Size);
  }
}

bool DataLayer::discardNode(NodeId N, const std::vector<BufferId> &Touched) {
  Lock L(Mutex);
  (void)waitAllQueuedLocked(); // a failed copy's ranges are dropped anyway
  for (BufferId Id : Touched)
    if (Buffer *B = byId(Id); B && !validOnlyOnLocked(N, *B).empty())
      return false;
  for (BufferId Id : Touched)
    if (Buffer *B = byId(Id))
      B->Valid[N].clear();
  return true;
}

} // namespace hetero

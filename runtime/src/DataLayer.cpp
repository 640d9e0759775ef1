//===- DataLayer.cpp - Buffers over several memory nodes ------------------===//
#include "hetero/DataLayer.h"

#include "hetero/Log.h"

#include <algorithm>
#include <cstring>
#include <set>

namespace hetero {

using Lock = std::lock_guard<std::recursive_mutex>;

DataLayer::DataLayer() { Nodes.push_back(std::make_unique<HostNodeOps>()); }

DataLayer::~DataLayer() {
  for (auto &[Base, B] : Buffers) {
    for (size_t N = 1; N < B->NodePtr.size(); ++N)
      if (B->NodePtr[N] && !B->External)
        Nodes[N]->release(B->NodePtr[N]);
    if (!B->External)
      Nodes[HostNode]->release(reinterpret_cast<void *>(B->Base));
  }
}

NodeId DataLayer::addNode(std::unique_ptr<NodeOps> Ops) {
  Lock L(Mutex);
  Nodes.push_back(std::move(Ops));
  for (auto &[Base, B] : Buffers)
    growNodeVectors(*B);
  return static_cast<NodeId>(Nodes.size() - 1);
}

void DataLayer::growNodeVectors(Buffer &B) {
  B.NodePtr.resize(Nodes.size(), nullptr);
  B.Valid.resize(Nodes.size());
}

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
  B->NodePtr[HostNode] = P;
  // Fresh memory is valid nowhere: the first node to use it just takes it.
  Buffers.emplace(B->Base, std::move(B));
  return P;
}

bool DataLayer::release(void *Ptr) {
  Lock L(Mutex);
  auto It = Buffers.find(reinterpret_cast<uintptr_t>(Ptr));
  if (It == Buffers.end() || It->second->External)
    return false;
  Buffer &B = *It->second;
  for (size_t N = 1; N < B.NodePtr.size(); ++N)
    if (B.NodePtr[N])
      Nodes[N]->release(B.NodePtr[N]);
  // Pointers to it that other nodes hold translated would point into freed
  // node storage (and a later buffer may take its hetero address): those
  // copies are stale; the host's, with the hetero address, is not.
  uintptr_t From = B.Base - B.LeadIn, To = B.Base + B.Size;
  for (auto &[Base, X] : Buffers)
    for (const auto &[Off, Value] : X->PointerSlots)
      if (X.get() != &B && Value >= From && Value <= To &&
          X->Valid[HostNode].contains(Off, Off + sizeof(void *)))
        for (NodeId N = 1; N < numNodes(); ++N)
          X->Valid[N].erase(Off, Off + sizeof(void *));
  Nodes[HostNode]->release(Ptr);
  Buffers.erase(It);
  return true;
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
  growNodeVectors(*B);
  B->NodePtr[HostNode] = Base;
  // The image's initial contents live on every node that loaded it.
  B->Valid[HostNode].insert(0, Size);
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

Buffer *DataLayer::findForPointer(uintptr_t P) {
  Lock L(Mutex);
  if (Buffer *B = find(P))
    return B;
  auto It = Buffers.upper_bound(P);
  if (It != Buffers.end() && P >= It->first - It->second->LeadIn)
    return It->second.get();
  return nullptr;
}

Buffer *DataLayer::find(uintptr_t P) {
  Lock L(Mutex);
  auto It = Buffers.upper_bound(P);
  if (It == Buffers.begin())
    return nullptr;
  --It;
  return It->second->containsAddr(P) ? It->second.get() : nullptr;
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

Buffer *DataLayer::findRange(const void *Ptr, uint64_t Size, const char *What,
                             uint64_t &Offset) {
  uintptr_t P = reinterpret_cast<uintptr_t>(Ptr);
  Buffer *B = find(P);
  if (!B || P + Size > B->Base + B->Size) {
    error("%s of %llu bytes at %p outside any hetero buffer", What,
          (unsigned long long)Size, Ptr);
    return nullptr;
  }
  Offset = P - B->Base;
  return B;
}

bool DataLayer::write(void *TgtPtr, const void *Src, uint64_t Size) {
  Lock L(Mutex);
  uint64_t Off;
  Buffer *B = findRange(TgtPtr, Size, "write", Off);
  if (!B)
    return false;
  if (B->ReadOnly) {
    error("write of %llu bytes to a const global of the device image",
          (unsigned long long)Size);
    return false;
  }
  std::memcpy(TgtPtr, Src, Size);
  forgetSlots(*B, Off, Off + Size);
  // A pointer-sized write of a hetero address is a pointer attachment.
  if (Size == sizeof(void *)) {
    uintptr_t Value;
    std::memcpy(&Value, Src, sizeof(Value));
    if (Value && findForPointer(Value))
      B->PointerSlots[Off] = Value;
  }
  markWritten(HostNode, *B, Off, Off + Size);
  return true;
}

bool DataLayer::read(void *Dst, const void *TgtPtr, uint64_t Size) {
  Lock L(Mutex);
  uint64_t Off;
  Buffer *B = findRange(TgtPtr, Size, "read", Off);
  if (!B)
    return false;
  if (!makeValid(HostNode, *B, Off, Off + Size))
    return false;
  std::memcpy(Dst, TgtPtr, Size);
  return true;
}

bool DataLayer::copy(void *DstPtr, const void *SrcPtr, uint64_t Size) {
  Lock L(Mutex);
  uintptr_t S = reinterpret_cast<uintptr_t>(SrcPtr);
  uintptr_t D = reinterpret_cast<uintptr_t>(DstPtr);
  Buffer *SB = find(S), *DB = find(D);
  if (!SB || !DB || S + Size > SB->Base + SB->Size ||
      D + Size > DB->Base + DB->Size) {
    error("device-to-device copy of %llu bytes outside hetero buffers",
          (unsigned long long)Size);
    return false;
  }
  if (DB->ReadOnly) {
    error("copy of %llu bytes to a const global of the device image",
          (unsigned long long)Size);
    return false;
  }
  if (!makeValid(HostNode, *SB, S - SB->Base, S - SB->Base + Size))
    return false;
  std::memmove(DstPtr, SrcPtr, Size);
  uint64_t Off = D - DB->Base;
  forgetSlots(*DB, Off, Off + Size);
  markWritten(HostNode, *DB, Off, Off + Size);
  return true;
}

bool DataLayer::ensureStorage(NodeId N, Buffer &B) {
  if (B.NodePtr[N])
    return true;
  void *P = Nodes[N]->allocate(B.Size ? B.Size : 1);
  if (!P) {
    error("out of memory on %s: cannot allocate %llu bytes",
          Nodes[N]->name().c_str(), (unsigned long long)B.Size);
    return false;
  }
  B.NodePtr[N] = P;
  return true;
}

uintptr_t DataLayer::translate(NodeId N, uintptr_t P, bool &Ok) {
  Lock L(Mutex);
  Ok = true;
  if (N == HostNode || !P)
    return P;
  Buffer *B = findForPointer(P);
  if (!B)
    return P;
  if (!ensureStorage(N, *B)) {
    Ok = false;
    return 0;
  }
  return reinterpret_cast<uintptr_t>(B->NodePtr[N]) + (P - B->Base);
}

bool DataLayer::fixPointerSlots(Buffer &B, NodeId N, uint64_t Lo, uint64_t Hi) {
  auto It = B.PointerSlots.lower_bound(Lo);
  for (; It != B.PointerSlots.end() && It->first + sizeof(void *) <= Hi; ++It) {
    bool Ok;
    uintptr_t Value = translate(N, It->second, Ok);
    if (!Ok)
      return false;
    char *Slot = static_cast<char *>(B.NodePtr[N]) + It->first;
    if (!Nodes[N]->storePointer(Slot, reinterpret_cast<void *>(Value)))
      return false;
  }
  return true;
}

bool DataLayer::copyRange(Buffer &B, NodeId Src, NodeId Dst, uint64_t Lo,
                          uint64_t Hi) {
  uint64_t Len = Hi - Lo;
  char *SrcP = static_cast<char *>(B.NodePtr[Src]) + Lo;
  char *DstP = static_cast<char *>(B.NodePtr[Dst]) + Lo;
  bool Ok;
  if (Src == HostNode) {
    Ok = Nodes[Dst]->copyFromHost(DstP, SrcP, Len);
    Stats.BytesH2D += Len;
  } else if (Dst == HostNode) {
    Ok = Nodes[Src]->copyToHost(DstP, SrcP, Len);
    Stats.BytesD2H += Len;
  } else if (Nodes[Dst]->copyFromPeer(DstP, *Nodes[Src], SrcP, Len)) {
    Ok = true;
    Stats.BytesD2D += Len;
  } else {
    // No direct path: stage through the host copy, which becomes valid too.
    Ok = copyRange(B, Src, HostNode, Lo, Hi);
    if (Ok) {
      B.Valid[HostNode].insert(Lo, Hi);
      Ok = copyRange(B, HostNode, Dst, Lo, Hi);
    }
    return Ok;
  }
  if (!Ok) {
    error("copy of %llu bytes from %s to %s failed", (unsigned long long)Len,
          Nodes[Src]->name().c_str(), Nodes[Dst]->name().c_str());
    return false;
  }
  if (B.Size == sizeof(void *) && Lo == 0 && Hi == B.Size &&
      !notePointerValue(B, Src))
    return false;
  return fixPointerSlots(B, Dst, Lo, Hi);
}

bool DataLayer::notePointerValue(Buffer &B, NodeId Src) {
  uintptr_t V;
  if (Src == HostNode)
    std::memcpy(&V, B.NodePtr[HostNode], sizeof(V));
  else if (!Nodes[Src]->copyToHost(&V, B.NodePtr[Src], sizeof(V)))
    return false;
  uintptr_t Hetero = 0;
  if (Src == HostNode) {
    if (V && findForPointer(V))
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
  return true;
}

bool DataLayer::makeValid(NodeId N, Buffer &B, uint64_t Lo, uint64_t Hi) {
  Lock L(Mutex);
  Hi = std::min(Hi, B.Size);
  if (B.Valid[N].contains(Lo, Hi))
    return true;
  if (!ensureStorage(N, B))
    return false;
  std::vector<Range> Missing = B.Valid[N].missing(Lo, Hi);
  // Sources in order of preference: nodes of the destination's kind (peer
  // copies between GPUs), then the host, then the rest (staged).
  std::vector<NodeId> Order;
  NodeKind DstKind = Nodes[N]->kind();
  for (NodeId S = 1; S < numNodes(); ++S)
    if (S != N && Nodes[S]->kind() == DstKind)
      Order.push_back(S);
  if (N != HostNode)
    Order.push_back(HostNode);
  for (NodeId S = 1; S < numNodes(); ++S)
    if (S != N && Nodes[S]->kind() != DstKind)
      Order.push_back(S);
  for (NodeId S : Order) {
    std::vector<Range> StillMissing;
    for (const Range &M : Missing) {
      uint64_t Cursor = M.Lo;
      for (const Range &Have : B.Valid[S].intersect(M.Lo, M.Hi)) {
        if (Have.Lo > Cursor)
          StillMissing.push_back({Cursor, Have.Lo});
        if (!copyRange(B, S, N, Have.Lo, Have.Hi))
          return false;
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
    if (!fixPointerSlots(B, N, M.Lo, M.Hi))
      return false;
    B.Valid[N].insert(M.Lo, M.Hi);
  }
  return true;
}

void DataLayer::markWritten(NodeId N, Buffer &B, uint64_t Lo, uint64_t Hi) {
  Lock L(Mutex);
  if (B.ReadOnly)
    return; // valid everywhere, for good
  Hi = std::min(Hi, B.Size);
  for (NodeId S = 0; S < numNodes(); ++S)
    if (S != N)
      B.Valid[S].erase(Lo, Hi);
  B.Valid[N].insert(Lo, Hi);
}

std::vector<Buffer *> DataLayer::closure(const std::vector<uintptr_t> &Roots) {
  Lock L(Mutex);
  std::vector<Buffer *> Out;
  std::set<Buffer *> Seen;
  for (uintptr_t P : Roots)
    if (Buffer *B = findForPointer(P); B && Seen.insert(B).second)
      Out.push_back(B);
  for (size_t I = 0; I < Out.size(); ++I)
    for (const auto &[Off, Value] : Out[I]->PointerSlots)
      if (Buffer *B = findForPointer(Value); B && Seen.insert(B).second)
        Out.push_back(B);
  return Out;
}

std::vector<Buffer *>
DataLayer::kernelBuffers(const std::vector<uintptr_t> &Args) {
  Lock L(Mutex);
  std::vector<uintptr_t> Roots = Args;
  for (auto &[Base, B] : Buffers)
    if (B->External)
      Roots.push_back(Base);
  return closure(Roots);
}

std::vector<Buffer *> DataLayer::externalBuffers() {
  Lock L(Mutex);
  std::vector<Buffer *> Out;
  for (auto &[Base, B] : Buffers)
    if (B->External)
      Out.push_back(B.get());
  return Out;
}

bool DataLayer::acquireWhole(NodeId N, std::vector<uintptr_t> &Args,
                             std::vector<Buffer *> &Touched) {
  Lock L(Mutex);
  Touched = kernelBuffers(Args);
  for (Buffer *B : Touched) {
    if (B->HostResident)
      markWritten(HostNode, *B, 0, B->Size);
    if (!makeValid(N, *B, 0, B->Size))
      return false;
  }
  for (uintptr_t &A : Args) {
    bool Ok;
    A = translate(N, A, Ok);
    if (!Ok)
      return false;
  }
  return true;
}

void DataLayer::releaseWhole(NodeId N, const std::vector<Buffer *> &Touched) {
  Lock L(Mutex);
  for (Buffer *B : Touched) {
    markWritten(N, *B, 0, B->Size);
    if (B->HostResident)
      makeValid(HostNode, *B, 0, B->Size);
  }
}

RangeSet DataLayer::validOnlyOn(NodeId N, Buffer &B) {
  Lock L(Mutex);
  RangeSet Only;
  for (const Range &R : B.Valid[N].ranges()) {
    RangeSet Elsewhere;
    for (NodeId S = 0; S < numNodes(); ++S)
      if (S != N)
        for (const Range &H : B.Valid[S].intersect(R.Lo, R.Hi))
          Elsewhere.insert(H.Lo, H.Hi);
    for (const Range &M : Elsewhere.missing(R.Lo, R.Hi))
      Only.insert(M.Lo, M.Hi);
  }
  return Only;
}

bool DataLayer::discardNode(NodeId N, const std::vector<Buffer *> &Touched) {
  Lock L(Mutex);
  for (Buffer *B : Touched)
    if (!validOnlyOn(N, *B).empty())
      return false;
  for (Buffer *B : Touched)
    B->Valid[N].clear();
  return true;
}

void DataLayer::setHostResident(void *Ptr) {
  Lock L(Mutex);
  if (Buffer *B = find(reinterpret_cast<uintptr_t>(Ptr)))
    B->HostResident = true;
}

} // namespace hetero

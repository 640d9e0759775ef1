//===- MemoryNode.cpp - Host and simulated memory nodes -------------------===//
#include "hetero/MemoryNode.h"

#include <cstdio>
#include <cstring>
#include <sys/mman.h>
#include <unistd.h>

namespace hetero {

const char *nodeKindName(NodeKind K) {
  switch (K) {
  case NodeKind::Host:
    return "host";
  case NodeKind::Gpu:
    return "gpu";
  case NodeKind::Simulated:
    return "simulated";
  }
  return "?";
}

NodeOps::~NodeOps() = default;

Status NodeOps::copyFromPeer(void *, NodeOps &Src, const void *, size_t) {
  return Status::error(StatusCode::Invalid,
                       name() + " has no direct path from " + Src.name());
}

Status NodeOps::queueCopyFromPeer(void *Dst, NodeOps &Src, const void *SrcPtr,
                                  size_t Size) {
  return copyFromPeer(Dst, Src, SrcPtr, Size);
}

Status NodeOps::waitQueuedCopies() { return Status(); }

Status NodeOps::back(void *, uint64_t, uint64_t) { return Status(); }

bool NodeOps::queueCopyInLane(void *, NodeOps &, const void *, size_t) {
  return false;
}

NodeOps::Scan NodeOps::scanValues(const void *, unsigned, uint64_t, uint64_t,
                                  bool, int64_t &, int64_t &) {
  return Scan::NotHere;
}

uint64_t availableHostMemory() {
  uint64_t Available = 0, SwapFree = 0;
  bool Found = false;
  if (FILE *F = fopen("/proc/meminfo", "r")) {
    char Key[64];
    unsigned long long Kb;
    while (fscanf(F, "%63s %llu kB\n", Key, &Kb) == 2) {
      if (strcmp(Key, "MemAvailable:") == 0) {
        Available = uint64_t(Kb) << 10;
        Found = true;
      } else if (strcmp(Key, "SwapFree:") == 0) {
        SwapFree = uint64_t(Kb) << 10;
      }
    }
    fclose(F);
  }
  if (!Found)
    Available =
        uint64_t(sysconf(_SC_AVPHYS_PAGES)) * uint64_t(sysconf(_SC_PAGESIZE));
  return Available + SwapFree;
}

void *HostNodeOps::reuse(size_t Bytes, size_t LeadIn, size_t Size) {
  std::lock_guard<std::mutex> Lock(Mutex);
  for (size_t I = 0; I < Cache.size(); ++I) {
    if (Cache[I].Bytes != Bytes || Cache[I].LeadIn != LeadIn)
      continue;
    Mapping M = Cache[I];
    Cache.erase(Cache.begin() + I);
    M.Size = Size;
    char *Storage = M.Start + LeadIn;
    // Storage kept with its pages dropped reads as zeros already.
    if (Size <= ClearedSize)
      memset(Storage, 0, Size);
    Live[Storage] = M;
    return Storage;
  }
  return nullptr;
}

void *HostNodeOps::allocateWithLeadIn(size_t Size, size_t LeadIn) {
  if (Size >= CheckedSize && Size > availableHostMemory())
    return nullptr;
  size_t Page = static_cast<size_t>(sysconf(_SC_PAGESIZE));
  LeadIn = (LeadIn + Page - 1) / Page * Page;
  size_t Bytes = LeadIn + (Size ? Size : 1);
  if (Size <= CheckedSize)
    if (void *P = reuse(Bytes, LeadIn, Size))
      return P;
  void *P = mmap(nullptr, Bytes, PROT_READ | PROT_WRITE,
                 MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
  if (P == MAP_FAILED)
    return nullptr;
  char *Start = static_cast<char *>(P);
  if (LeadIn && mprotect(Start, LeadIn, PROT_NONE) != 0) {
    munmap(P, Bytes);
    return nullptr;
  }
  std::lock_guard<std::mutex> Lock(Mutex);
  Live[Start + LeadIn] = Mapping{Start, Bytes, LeadIn, Size};
  return Start + LeadIn;
}

size_t HostNodeOps::allocationSize(const void *Ptr) const {
  std::lock_guard<std::mutex> Lock(Mutex);
  auto It = Live.find(Ptr);
  return It == Live.end() ? 0 : It->second.Size;
}

void *HostNodeOps::allocate(size_t Size) { return allocateWithLeadIn(Size, 0); }

void HostNodeOps::release(void *Ptr) {
  if (!Ptr)
    return;
  Mapping M, Evicted;
  {
    std::lock_guard<std::mutex> Lock(Mutex);
    auto It = Live.find(Ptr);
    if (It == Live.end())
      return;
    M = It->second;
    Live.erase(It);
  }
  if (M.Size > CheckedSize) {
    munmap(M.Start, M.Bytes);
    return;
  }
  size_t Page = static_cast<size_t>(sysconf(_SC_PAGESIZE));
  if (M.Size > ClearedSize &&
      madvise(M.Start + M.LeadIn, (M.Size + Page - 1) / Page * Page,
              MADV_DONTNEED) != 0) {
    munmap(M.Start, M.Bytes);
    return;
  }
  {
    std::lock_guard<std::mutex> Lock(Mutex);
    if (Cache.size() == MaxCached) {
      Evicted = Cache.front();
      Cache.erase(Cache.begin());
    }
    Cache.push_back(M);
  }
  if (Evicted.Start)
    munmap(Evicted.Start, Evicted.Bytes);
}

HostNodeOps::~HostNodeOps() {
  for (const Mapping &M : Cache)
    munmap(M.Start, M.Bytes);
}

Status HostNodeOps::copyFromHost(void *Dst, const void *Src, size_t Size) {
  memmove(Dst, Src, Size);
  return Status();
}

Status HostNodeOps::copyToHost(void *Dst, const void *Src, size_t Size) {
  memmove(Dst, Src, Size);
  return Status();
}

Status SimulatedNodeOps::back(void *Ptr, uint64_t Lo, uint64_t Hi) {
  uint64_t Bytes = Hi - Lo;
  if (Capacity) {
    size_t Now = Used.fetch_add(Bytes);
    if (Now + Bytes > Capacity) {
      Used.fetch_sub(Bytes);
      return Status::error(StatusCode::NoRoom,
                           name() + " holds " + std::to_string(Now) +
                               " of its " + std::to_string(Capacity) +
                               " bytes");
    }
  }
  std::lock_guard<std::mutex> Lock(BackedMutex);
  Backed[Ptr] += Bytes;
  return Status();
}

bool SimulatedNodeOps::unback(void *Ptr, uint64_t Lo, uint64_t Hi) {
  uint64_t Bytes = Hi - Lo;
  {
    std::lock_guard<std::mutex> Lock(BackedMutex);
    auto It = Backed.find(Ptr);
    if (It == Backed.end() || It->second < Bytes)
      return false;
    It->second -= Bytes;
  }
  std::memset(static_cast<char *>(Ptr) + Lo, 0xA5, Bytes);
  if (Capacity)
    Used.fetch_sub(Bytes);
  return true;
}

void SimulatedNodeOps::release(void *Ptr) {
  if (!Ptr)
    return;
  uint64_t Held = 0;
  {
    std::lock_guard<std::mutex> Lock(BackedMutex);
    if (auto It = Backed.find(Ptr); It != Backed.end()) {
      Held = It->second;
      Backed.erase(It);
    }
  }
  if (Capacity)
    Used.fetch_sub(Held);
  HostNodeOps::release(Ptr);
}

Status SimulatedNodeOps::copyFromPeer(void *Dst, NodeOps &Src,
                                      const void *SrcPtr, size_t Size) {
  if (!reachesPeer(Src))
    return NodeOps::copyFromPeer(Dst, Src, SrcPtr, Size);
  memmove(Dst, SrcPtr, Size);
  return Status();
}

Status SimulatedNodeOps::queueCopyFromPeer(void *Dst, NodeOps &Src,
                                           const void *SrcPtr, size_t Size) {
  if (!reachesPeer(Src))
    return NodeOps::copyFromPeer(Dst, Src, SrcPtr, Size);
  Queued.push_back({Dst, SrcPtr, Size});
  return Status();
}

Status SimulatedNodeOps::waitQueuedCopies() {
  for (const QueuedCopy &C : Queued)
    memmove(C.Dst, C.Src, C.Size);
  Queued.clear();
  return Status();
}

} // namespace hetero

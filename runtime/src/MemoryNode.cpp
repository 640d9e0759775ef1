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

bool NodeOps::copyFromPeer(void *, NodeOps &, const void *, size_t) {
  return false;
}

bool NodeOps::queueCopyFromPeer(void *Dst, NodeOps &Src, const void *SrcPtr,
                                size_t Size) {
  return copyFromPeer(Dst, Src, SrcPtr, Size);
}

bool NodeOps::waitQueuedCopies() { return true; }

bool NodeOps::queueCopyInLane(void *, NodeOps &, const void *, size_t) {
  return false;
}

NodeOps::Scan NodeOps::scanValues(const void *, unsigned, uint64_t, uint64_t,
                                  bool, int64_t &, int64_t &) {
  return Scan::NotHere;
}

// Pages are committed on first touch, so a large mapped array costs host
// memory only where it is really used. A 16-byte header in front of the
// storage keeps the mapping's start and length for release(); it also keeps
// the storage 16-byte aligned.
static constexpr size_t HeaderBytes = 16;

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

void *HostNodeOps::allocateWithLeadIn(size_t Size, size_t LeadIn) {
  if (Size >= CheckedSize && Size > availableHostMemory())
    return nullptr;
  size_t Page = static_cast<size_t>(sysconf(_SC_PAGESIZE));
  LeadIn = (LeadIn + Page - 1) / Page * Page;
  size_t Bytes = LeadIn + HeaderBytes + (Size ? Size : 1);
  if (Size <= CachedSize) {
    std::lock_guard<std::mutex> Lock(CacheMutex);
    for (size_t I = 0; I < Cache.size(); ++I)
      if (Cache[I].Bytes == Bytes && Cache[I].LeadIn == LeadIn) {
        char *Start = static_cast<char *>(Cache[I].Start);
        Cache[I] = Cache.back();
        Cache.pop_back();
        // Fresh storage reads as zeros, as a new mapping would.
        memset(Start + LeadIn + HeaderBytes, 0, Size);
        return Start + LeadIn + HeaderBytes;
      }
  }
  void *P = mmap(nullptr, Bytes, PROT_READ | PROT_WRITE,
                 MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
  if (P == MAP_FAILED)
    return nullptr;
  char *Start = static_cast<char *>(P);
  if (LeadIn && mprotect(Start, LeadIn, PROT_NONE) != 0) {
    munmap(P, Bytes);
    return nullptr;
  }
  size_t *Header = reinterpret_cast<size_t *>(Start + LeadIn);
  Header[0] = reinterpret_cast<size_t>(Start);
  Header[1] = Bytes;
  return Start + LeadIn + HeaderBytes;
}

size_t HostNodeOps::allocationSize(const void *Ptr) {
  const size_t *Header = reinterpret_cast<const size_t *>(
      static_cast<const char *>(Ptr) - HeaderBytes);
  size_t LeadIn = reinterpret_cast<const char *>(Header) -
                  reinterpret_cast<const char *>(Header[0]);
  return Header[1] - LeadIn - HeaderBytes;
}

void *HostNodeOps::allocate(size_t Size) { return allocateWithLeadIn(Size, 0); }

void HostNodeOps::release(void *Ptr) {
  if (!Ptr)
    return;
  size_t *Header =
      reinterpret_cast<size_t *>(static_cast<char *>(Ptr) - HeaderBytes);
  if (allocationSize(Ptr) <= CachedSize) {
    std::lock_guard<std::mutex> Lock(CacheMutex);
    if (Cache.size() < MaxCached) {
      size_t LeadIn = reinterpret_cast<char *>(Header) -
                      reinterpret_cast<char *>(Header[0]);
      Cache.push_back({reinterpret_cast<void *>(Header[0]), Header[1], LeadIn});
      return;
    }
  }
  munmap(reinterpret_cast<void *>(Header[0]), Header[1]);
}

HostNodeOps::~HostNodeOps() {
  for (const CachedMapping &M : Cache)
    munmap(M.Start, M.Bytes);
}

bool HostNodeOps::copyFromHost(void *Dst, const void *Src, size_t Size) {
  memmove(Dst, Src, Size);
  return true;
}

bool HostNodeOps::copyToHost(void *Dst, const void *Src, size_t Size) {
  memmove(Dst, Src, Size);
  return true;
}

void *SimulatedNodeOps::allocate(size_t Size) {
  if (Capacity) {
    size_t Now = Used.fetch_add(Size);
    if (Now + Size > Capacity) {
      Used.fetch_sub(Size);
      return nullptr;
    }
  }
  void *P = HostNodeOps::allocate(Size);
  if (!P && Capacity)
    Used.fetch_sub(Size);
  return P;
}

void SimulatedNodeOps::release(void *Ptr) {
  if (!Ptr)
    return;
  if (Capacity)
    Used.fetch_sub(allocationSize(Ptr));
  HostNodeOps::release(Ptr);
}

bool SimulatedNodeOps::copyFromPeer(void *Dst, NodeOps &Src, const void *SrcPtr,
                                    size_t Size) {
  if (Src.kind() != NodeKind::Simulated)
    return false;
  memmove(Dst, SrcPtr, Size);
  return true;
}

bool SimulatedNodeOps::queueCopyFromPeer(void *Dst, NodeOps &Src,
                                         const void *SrcPtr, size_t Size) {
  if (Src.kind() != NodeKind::Simulated)
    return false;
  Queued.push_back({Dst, SrcPtr, Size});
  return true;
}

bool SimulatedNodeOps::waitQueuedCopies() {
  for (const QueuedCopy &C : Queued)
    memmove(C.Dst, C.Src, C.Size);
  Queued.clear();
  return true;
}

} // namespace hetero

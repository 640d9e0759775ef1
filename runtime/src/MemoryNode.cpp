//===- MemoryNode.cpp - Host and simulated memory nodes -------------------===//
#include "hetero/MemoryNode.h"

#include <cstring>
#include <sys/mman.h>

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

// Pages are committed on first touch, so a large mapped array costs host
// memory only where it is really used. A 16-byte header in front of the
// storage keeps the mapping's length for release() and the alignment.
static constexpr size_t HeaderBytes = 16;

void *HostNodeOps::allocate(size_t Size) {
  size_t Bytes = (Size ? Size : 1) + HeaderBytes;
  void *P = mmap(nullptr, Bytes, PROT_READ | PROT_WRITE,
                 MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
  if (P == MAP_FAILED)
    return nullptr;
  *static_cast<size_t *>(P) = Bytes;
  return static_cast<char *>(P) + HeaderBytes;
}

void HostNodeOps::release(void *Ptr) {
  if (!Ptr)
    return;
  char *Base = static_cast<char *>(Ptr) - HeaderBytes;
  munmap(Base, *reinterpret_cast<size_t *>(Base));
}

bool HostNodeOps::copyFromHost(void *Dst, const void *Src, size_t Size) {
  memmove(Dst, Src, Size);
  return true;
}

bool HostNodeOps::copyToHost(void *Dst, const void *Src, size_t Size) {
  memmove(Dst, Src, Size);
  return true;
}

bool SimulatedNodeOps::copyFromPeer(void *Dst, NodeOps &Src, const void *SrcPtr,
                                    size_t Size) {
  if (Src.kind() != NodeKind::Simulated)
    return false;
  memmove(Dst, SrcPtr, Size);
  return true;
}

} // namespace hetero

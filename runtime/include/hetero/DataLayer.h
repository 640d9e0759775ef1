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
// Every device address the host sees is a hetero address only where it comes
// back through mapped memory as a pointer-sized value: a device address a
// kernel stores inside a larger array keeps the running node's value.
//
//===----------------------------------------------------------------------===//
#ifndef HETERO_DATALAYER_H
#define HETERO_DATALAYER_H

#include "hetero/MemoryNode.h"
#include "hetero/RangeSet.h"

#include <atomic>
#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <vector>

namespace hetero {

struct TransferStats {
  std::atomic<uint64_t> BytesH2D{0};
  std::atomic<uint64_t> BytesD2H{0};
  std::atomic<uint64_t> BytesD2D{0};
};

struct Buffer {
  uintptr_t Base = 0; // hetero device address == storage on the host node
  uint64_t Size = 0;
  /// Reserved, inaccessible host address space right before Base: a pointer
  /// in [Base - LeadIn, Base) can only be a base pointer of this buffer (a
  /// section a[100:200] is attached and passed as &a[0]).
  uint64_t LeadIn = 0;
  /// Storage not owned by the layer (globals of loaded images).
  bool External = false;
  /// A const global of the loaded images (read-only pages): every node
  /// holds its initial contents and nothing ever writes it.
  bool ReadOnly = false;
  /// Per node: storage (nullptr until first needed) and valid ranges.
  std::vector<void *> NodePtr;
  std::vector<RangeSet> Valid;
  /// Host-visible memory (omp_target_alloc_host/shared): the host may write
  /// it at any time, so its host copy is the truth around every kernel.
  bool HostResident = false;
  /// Offset -> hetero address stored there.
  std::map<uint64_t, uintptr_t> PointerSlots;

  bool containsAddr(uintptr_t P) const { return P >= Base && P <= Base + Size; }
};

class DataLayer {
public:
  DataLayer();
  ~DataLayer();
  DataLayer(const DataLayer &) = delete;
  DataLayer &operator=(const DataLayer &) = delete;

  /// Adds a memory node; node 0 (the host) exists from the start.
  NodeId addNode(std::unique_ptr<NodeOps> Ops);
  int numNodes() const { return static_cast<int>(Nodes.size()); }
  NodeOps &node(NodeId N) { return *Nodes[N]; }

  /// A new buffer of Size bytes; returns its hetero address, nullptr when the
  /// host cannot provide the address space.
  void *allocate(uint64_t Size);
  /// Frees a buffer and its storage on every node. False if Ptr is not the
  /// start of a buffer.
  bool release(void *Ptr);
  /// Registers storage the layer does not own: Base is the host node's copy
  /// (also the hetero address). Later calls add other nodes' copies.
  /// ReadOnly: see Buffer::ReadOnly.
  void registerExternal(void *Base, uint64_t Size, bool ReadOnly = false);
  void setExternalNodeStorage(void *Base, NodeId N, void *NodePtr);

  /// Host memory -> hetero address (data_submit). Valid on node 0 only.
  bool write(void *TgtPtr, const void *Src, uint64_t Size);
  /// Hetero address -> host memory (data_retrieve).
  bool read(void *Dst, const void *TgtPtr, uint64_t Size);
  /// Hetero address -> hetero address (data_exchange within the device).
  bool copy(void *DstPtr, const void *SrcPtr, uint64_t Size);

  /// The buffer holding hetero address P (one past the end counts), or null.
  Buffer *find(uintptr_t P);
  /// Like find(), but also for a pointer into a buffer's lead-in: the buffer
  /// a pointer value belongs to.
  Buffer *findForPointer(uintptr_t P);
  /// P translated to node N's storage; P itself when it is no hetero address.
  /// Allocates node storage on first use; 0 with Ok=false when out of memory.
  uintptr_t translate(NodeId N, uintptr_t P, bool &Ok);

  /// Makes [Lo, Hi) of B valid on node N. False (and a message) when N has no
  /// room or a copy fails.
  bool makeValid(NodeId N, Buffer &B, uint64_t Lo, uint64_t Hi);
  /// Records that node N wrote [Lo, Hi) of B: valid there, stale elsewhere.
  void markWritten(NodeId N, Buffer &B, uint64_t Lo, uint64_t Hi);

  /// The buffers reachable from Roots through pointer slots, Roots first.
  std::vector<Buffer *> closure(const std::vector<uintptr_t> &Roots);

  /// What a kernel with these arguments may reach: closure() of the
  /// arguments and of every external buffer (globals of the loaded images,
  /// which kernels use without passing them).
  std::vector<Buffer *> kernelBuffers(const std::vector<uintptr_t> &Args);
  /// The external buffers (globals of the loaded images).
  std::vector<Buffer *> externalBuffers();

  /// Whole-buffer acquire for a kernel that runs on node N: translates the
  /// arguments and makes every reachable buffer valid on N. Globals of the
  /// loaded images (external buffers) are always included: kernels use them
  /// without passing them as arguments. Returns false
  /// when node N cannot hold them.
  bool acquireWhole(NodeId N, std::vector<uintptr_t> &Args,
                    std::vector<Buffer *> &Touched);
  /// After such a kernel: every touched buffer is valid on N only.
  void releaseWhole(NodeId N, const std::vector<Buffer *> &Touched);
  /// The bytes of B valid on node N and on no other node.
  RangeSet validOnlyOn(NodeId N, Buffer &B);
  /// After a failed kernel on N: forgets N's copies of the touched buffers.
  /// False, changing nothing, if some bytes are valid only on N.
  bool discardNode(NodeId N, const std::vector<Buffer *> &Touched);
  /// Marks the buffer at Ptr host-resident (see Buffer::HostResident).
  void setHostResident(void *Ptr);

  TransferStats &stats() { return Stats; }

private:
  /// The buffer holding all of [Ptr, Ptr + Size) and Ptr's offset in it, or
  /// null and a message naming the operation.
  Buffer *findRange(const void *Ptr, uint64_t Size, const char *What,
                    uint64_t &Offset);
  bool ensureStorage(NodeId N, Buffer &B);
  bool copyRange(Buffer &B, NodeId Src, NodeId Dst, uint64_t Lo, uint64_t Hi);
  bool fixPointerSlots(Buffer &B, NodeId N, uint64_t Lo, uint64_t Hi);
  /// A pointer-sized buffer (a mapped pointer variable) copied from node Src:
  /// a device address that a kernel stored there is re-derived as a hetero
  /// address (its slot), so that every node, the host included, reads it in
  /// its own address space; any other value clears the slot.
  bool notePointerValue(Buffer &B, NodeId Src);
  void growNodeVectors(Buffer &B);
  void forgetSlots(Buffer &B, uint64_t Lo, uint64_t Hi);

  std::vector<std::unique_ptr<NodeOps>> Nodes;
  std::map<uintptr_t, std::unique_ptr<Buffer>> Buffers; // by Base
  TransferStats Stats;
  // Public operations lock; acquireWhole calls makeValid, hence recursive.
  std::recursive_mutex Mutex;
};

} // namespace hetero

#endif // HETERO_DATALAYER_H

//===- CudaNode.cpp - A GPU's memory through LLVM's cuda plugin -----------===//
#include "CudaNode.h"
#include "CudaHostPins.h"

#include "CudaVirtualMemory.h"
#include "DriverStatus.h"

#include "hetero/ParallelCopy.h"

#include "PluginInterface.h"
#include "omptarget.h"
#include "llvm/Support/MathExtras.h"

#include <algorithm>
#include <iterator>
#include <sys/mman.h>
#include <unistd.h>
#include <utility>

using llvm::omp::target::plugin::GenericPluginTy;

namespace hetero {

std::string CudaNodeOps::name() const {
  return "cuda:" + std::to_string(Device) +
         (Part < 0 ? "" : "." + std::to_string(Part));
}

CudaNodeOps::CudaNodeOps(GenericPluginTy &Cuda,
                         std::shared_ptr<CudaStaging> Staging, int Device,
                         int Part, uint64_t Capacity)
    : Cuda(Cuda), Device(Device), Part(Part), Capacity(Capacity),
      Granule(CudaVirtualMemory::get().granule(Device)),
      Staging(std::move(Staging)), IndexRange(Cuda, Device) {
  if (auto Err = Cuda.getDevice(Device).getDeviceMemorySize(Memory))
    llvm::consumeError(std::move(Err));
}

bool CudaNodeOps::charge(uint64_t Size) {
  std::lock_guard<std::mutex> Lock(SizesMutex);
  if (Capacity && Used + Size > Capacity)
    return false; // this part's share of the GPU is full
  Used += Size;
  return true;
}

void CudaNodeOps::credit(uint64_t Size) {
  std::lock_guard<std::mutex> Lock(SizesMutex);
  Used -= std::min(Used, Size);
}

void *CudaNodeOps::allocate(size_t Size) {
  if (Granule && Size >= Granule) {
    void *P = CudaVirtualMemory::get().reserve(Device, Size);
    if (P) {
      std::lock_guard<std::mutex> Lock(SizesMutex);
      Reserved[P].Size = Size;
      return P;
    }
  }
  if (!charge(Size))
    return nullptr;
  void *P = Cuda.data_alloc(Device, static_cast<int64_t>(Size), nullptr,
                            TARGET_ALLOC_DEVICE);
  std::lock_guard<std::mutex> Lock(SizesMutex);
  if (P)
    Sizes[P] = Size;
  else
    Used -= Size;
  return P;
}

Status CudaNodeOps::back(void *Ptr, uint64_t Lo, uint64_t Hi) {
  uint64_t Bytes = llvm::alignTo(Hi - Lo, Granule);
  {
    std::lock_guard<std::mutex> Lock(SizesMutex);
    if (!Reserved.count(Ptr))
      return Status(); // allocated whole
  }
  if (!charge(Bytes))
    return Status::error(StatusCode::NoRoom,
                         name() + "'s share of its GPU is full");
  CudaVirtualMemory::Mapping M;
  // The driver's refusal to create or map physical memory is, in practice,
  // a GPU out of memory: the caller evicts and asks again.
  if (!CudaVirtualMemory::get().map(Device, Ptr, Lo, Hi, M)) {
    credit(Bytes);
    return Status::error(StatusCode::NoRoom,
                         "the driver gave " + name() + " no memory for " +
                             std::to_string(Bytes) + " bytes");
  }
  std::lock_guard<std::mutex> Lock(SizesMutex);
  Reserved[Ptr].Maps.push_back(M);
  return Status();
}

bool CudaNodeOps::unback(void *Ptr, uint64_t Lo, uint64_t Hi) {
  std::vector<CudaVirtualMemory::Mapping> Gone;
  {
    std::lock_guard<std::mutex> Lock(SizesMutex);
    auto It = Reserved.find(Ptr);
    if (It == Reserved.end())
      return false; // allocated whole
    auto &Maps = It->second.Maps;
    auto Inside = [&](const CudaVirtualMemory::Mapping &M) {
      return M.Lo >= Lo && M.Lo < Hi;
    };
    std::copy_if(Maps.begin(), Maps.end(), std::back_inserter(Gone), Inside);
    Maps.erase(std::remove_if(Maps.begin(), Maps.end(), Inside), Maps.end());
  }
  for (const CudaVirtualMemory::Mapping &M : Gone) {
    CudaVirtualMemory::get().unmap(Device, Ptr, M);
    credit(M.Hi - M.Lo);
  }
  return true;
}

void CudaNodeOps::release(void *Ptr) {
  if (!Ptr)
    return;
  std::unique_lock<std::mutex> Lock(SizesMutex);
  if (auto It = Reserved.find(Ptr); It != Reserved.end()) {
    Reservation R = std::move(It->second);
    Reserved.erase(It);
    Lock.unlock();
    for (const CudaVirtualMemory::Mapping &M : R.Maps) {
      CudaVirtualMemory::get().unmap(Device, Ptr, M);
      credit(M.Hi - M.Lo);
    }
    CudaVirtualMemory::get().free(Device, Ptr, R.Size);
    return;
  }
  auto It = Sizes.find(Ptr);
  if (It != Sizes.end()) {
    Used -= std::min(Used, uint64_t(It->second));
    Sizes.erase(It);
  }
  Lock.unlock();
  Cuda.data_delete(Device, Ptr, TARGET_ALLOC_DEVICE);
}

CudaNodeOps::~CudaNodeOps() {
  if (!Queued.empty()) // a batch always ends first; its streams go back
    (void)waitQueuedCopies();
}

// Host to GPU stays on the driver's path: staged the same way, Himeno L's
// 1.1 GB of inputs reached the GPU in 70 ms instead of 250 ms, but its
// kernels then ran 4-5% slower for the rest of the run (with one copy
// thread as with 16, and with the staging buffers freed after the copy;
// the cause is not known), which a program's timed region pays.
Status CudaNodeOps::copyFromHost(void *Dst, const void *Src, size_t Size) {
  return CudaHostPins::get().inPieces(Src, Size, [&](uint64_t At, uint64_t N) {
    return statusOf(Cuda.getDevice(Device).dataSubmit(
                        static_cast<char *>(Dst) + At,
                        static_cast<const char *>(Src) + At,
                        static_cast<int64_t>(N), /*AsyncInfo=*/nullptr),
                    StatusCode::CopyFailed,
                    [&] { return copyName("the host", name(), N); });
  });
}

std::string CudaNodeOps::copyName(const std::string &From,
                                  const std::string &To, size_t Size) const {
  return "a copy of " + std::to_string(Size) + " bytes from " + From + " to " +
         To;
}

void CudaNodeOps::pinHost(const void *P, uint64_t Size) {
  if (auto Err = Cuda.getDevice(Device).setContext()) {
    llvm::consumeError(std::move(Err)); // it stays pageable
    return;
  }
  CudaHostPins::get().pin(P, Size);
}

void CudaNodeOps::unpinHost(const void *P, uint64_t Size) {
  CudaHostPins::get().unpin(P, Size);
}

namespace {
/// Whether most of [P, P + Size) has no pages yet (never touched), sampled
/// at up to 64 pages: only there does the staged path pay for itself (into
/// touched pages the driver's own path runs at 11 GB/s on an H100 node).
bool mostlyUntouched(const void *P, size_t Size) {
  const uintptr_t Page = static_cast<uintptr_t>(sysconf(_SC_PAGESIZE));
  uintptr_t Lo = reinterpret_cast<uintptr_t>(P) & ~(Page - 1);
  uintptr_t Hi = reinterpret_cast<uintptr_t>(P) + Size;
  size_t Pages = (Hi - Lo + Page - 1) / Page,
         Step = std::max<size_t>(1, Pages / 64);
  size_t Sampled = 0, Absent = 0;
  for (size_t I = 0; I < Pages; I += Step, ++Sampled) {
    unsigned char Resident = 0;
    if (mincore(reinterpret_cast<void *>(Lo + I * Page), Page, &Resident) != 0)
      return false; // not a mapping mincore knows: leave it to the driver
    Absent += !(Resident & 1);
  }
  return 2 * Absent > Sampled;
}
} // namespace

Status CudaNodeOps::copyToHost(void *Dst, const void *Src, size_t Size) {
  if (Size >= StagedMin && mostlyUntouched(Dst, Size)) {
    // Setting the staging buffers up (pinned memory, the copy threads) is
    // paid by the first staged copy: below StagedFirstMin the driver's path
    // is faster.
    if (CudaStaging::Lease Pair =
            Staging->take(Device, /*MayStart=*/Size >= StagedFirstMin))
      return stagedToHost(static_cast<char *>(Dst),
                          static_cast<const char *>(Src), Size, Pair);
  }
  return CudaHostPins::get().inPieces(Dst, Size, [&](uint64_t At, uint64_t N) {
    return statusOf(Cuda.getDevice(Device).dataRetrieve(
                        static_cast<char *>(Dst) + At,
                        static_cast<const char *>(Src) + At,
                        static_cast<int64_t>(N), /*AsyncInfo=*/nullptr),
                    StatusCode::CopyFailed,
                    [&] { return copyName(name(), "the host", N); });
  });
}

// Piece I is retrieved into buffer I % 2 while piece I - 1 is copied out of
// the other buffer into Dst.
Status CudaNodeOps::stagedToHost(char *Dst, const char *Src, size_t Size,
                                 const CudaStaging::Lease &Pair) {
  auto &Gpu = Cuda.getDevice(Device);
  __tgt_async_info Queue[2] = {};
  size_t Pieces = (Size + CudaStaging::Piece - 1) / CudaStaging::Piece;
  auto Bytes = [&](size_t I) {
    return std::min(CudaStaging::Piece, Size - I * CudaStaging::Piece);
  };
  auto What = [&] { return copyName(name(), "the host (staged)", Size); };
  auto Retrieve = [&](size_t I) {
    return statusOf(
        Gpu.dataRetrieve(Pair.buffer(I), Src + I * CudaStaging::Piece,
                         static_cast<int64_t>(Bytes(I)), &Queue[I % 2]),
        StatusCode::CopyFailed, What);
  };
  Status Done = Retrieve(0);
  for (size_t I = 0; I < Pieces && Done; ++I) {
    Done =
        statusOf(Gpu.synchronize(&Queue[I % 2]), StatusCode::CopyFailed, What);
    if (Done && I + 1 < Pieces)
      Done = Retrieve(I + 1);
    if (Done)
      sharedCopier().copy(Dst + I * CudaStaging::Piece, Pair.buffer(I),
                          Bytes(I));
  }
  // A failed step may leave the other piece in flight: wait for it.
  for (__tgt_async_info &Q : Queue)
    if (Q.Queue)
      llvm::consumeError(Gpu.synchronize(&Q));
  return Done;
}

Status CudaNodeOps::copyFromPeer(void *Dst, NodeOps &Src, const void *SrcPtr,
                                 size_t Size) {
  if (!reachesPeer(Src))
    return NodeOps::copyFromPeer(Dst, Src, SrcPtr, Size);
  int SrcDevice = static_cast<CudaNodeOps &>(Src).device();
  // Synchronous (no async info): the copy is complete on return. Between two
  // parts of one GPU the cuda plugin copies device to device on that GPU.
  return statusOf(Cuda.getDevice(SrcDevice).dataExchange(
                      SrcPtr, Cuda.getDevice(Device), Dst,
                      static_cast<int64_t>(Size), /*AsyncInfo=*/nullptr),
                  StatusCode::CopyFailed,
                  [&] { return copyName(Src.name(), name(), Size); });
}

Status CudaNodeOps::queueCopyFromPeer(void *Dst, NodeOps &Src,
                                      const void *SrcPtr, size_t Size) {
  if (!reachesPeer(Src))
    return NodeOps::copyFromPeer(Dst, Src, SrcPtr, Size);
  int SrcDevice = static_cast<CudaNodeOps &>(Src).device();
  return statusOf(Cuda.getDevice(SrcDevice).dataExchange(
                      SrcPtr, Cuda.getDevice(Device), Dst,
                      static_cast<int64_t>(Size), &Queued[SrcDevice]),
                  StatusCode::CopyFailed,
                  [&] { return copyName(Src.name(), name(), Size); });
}

Status CudaNodeOps::waitQueuedCopies() {
  Status First;
  for (auto &[SrcDevice, Q] : Queued) {
    if (!Q.Queue)
      continue;
    Status Waited =
        statusOf(Cuda.getDevice(SrcDevice).synchronize(&Q),
                 StatusCode::CopyFailed, [&, SrcDevice = SrcDevice] {
                   return "copies from cuda:" + std::to_string(SrcDevice) +
                          " to " + name();
                 });
    if (First && !Waited)
      First = std::move(Waited);
  }
  Queued.clear();
  return First;
}

bool CudaNodeOps::queueCopyInLane(void *Dst, NodeOps &Src, const void *SrcPtr,
                                  size_t Size) {
  if (!Lane || Src.kind() != NodeKind::Gpu)
    return false;
  std::lock_guard<std::mutex> Hold(Lane->Mutex);
  if (Lane->Failed)
    return false;
  Lane->Copies.push_back(
      {static_cast<CudaNodeOps &>(Src).device(), SrcPtr, Dst, Size});
  return true;
}

} // namespace hetero

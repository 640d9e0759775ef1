//===- CudaHostPins.cpp - Host memory pinned for GPU copies ---------------===//
#include "CudaHostPins.h"
#include "CudaDriver.h"
#include "hetero/Log.h"

#include <unistd.h>

namespace hetero {

namespace {
/// CU_MEMHOSTREGISTER_PORTABLE: pinned for every context of the process.
constexpr unsigned RegisterPortable = 0x01;

uint64_t pageSize() { return static_cast<uint64_t>(sysconf(_SC_PAGESIZE)); }

/// Half of the host's memory: pinned pages cannot be paged out.
uint64_t pinLimit() {
  return static_cast<uint64_t>(sysconf(_SC_PHYS_PAGES)) * pageSize() / 2;
}
} // namespace

CudaHostPins::CudaHostPins()
    : Register(reinterpret_cast<RegisterFn>(
          cudaDriverSymbol("cuMemHostRegister_v2"))),
      Unregister(reinterpret_cast<UnregisterFn>(
          cudaDriverSymbol("cuMemHostUnregister"))),
      Ranges(pageSize(), pinLimit()) {}

CudaHostPins &CudaHostPins::get() {
  static CudaHostPins Once;
  return Once;
}

void CudaHostPins::pin(const void *P, uint64_t Size) {
  std::lock_guard<std::mutex> Lock(Mutex);
  if (Refused || !Register || !Unregister)
    return;
  auto Lo = reinterpret_cast<uintptr_t>(P);
  for (const auto &[From, To] : Ranges.toPin(Lo, Lo + Size)) {
    if (int Err = Register(reinterpret_cast<void *>(From), To - From,
                           RegisterPortable)) {
      Refused = true;
      info(1,
           "host memory for GPU copies stays pageable: the driver did not "
           "pin %s (CUDA error %d)",
           binaryBytesText(To - From).c_str(), Err);
      return;
    }
    if (Ranges.empty())
      info(1,
           "host memory evicted from GPUs is pinned for their copies "
           "(first %s)",
           binaryBytesText(To - From).c_str());
    Ranges.added(From, To);
    Any.store(true, std::memory_order_release);
  }
}

void CudaHostPins::unpin(const void *P, uint64_t Size) {
  if (!Any.load(std::memory_order_acquire))
    return;
  std::lock_guard<std::mutex> Lock(Mutex);
  auto Lo = reinterpret_cast<uintptr_t>(P);
  for (const auto &Span : Ranges.removeInside(Lo, Lo + Size))
    (void)Unregister(reinterpret_cast<void *>(Span.first));
  Any.store(!Ranges.empty(), std::memory_order_release);
}

uint64_t CudaHostPins::bytes() {
  std::lock_guard<std::mutex> Lock(Mutex);
  return Ranges.bytes();
}

} // namespace hetero

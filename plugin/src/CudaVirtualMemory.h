//===- CudaVirtualMemory.h - GPU buffers held in part -----------*- C++ -*-===//
//
// A GPU member used to allocate every buffer it touched whole (cuMemAlloc),
// so the pool had the memory of its smallest GPU: a problem larger than one
// GPU ran on the CPU (issue 39). CUDA's virtual memory management separates
// the address range from the memory behind it: a buffer's whole range is
// reserved on the GPU (cuMemAddressReserve, no memory), and only the
// granules a member's chunks touch are backed (cuMemCreate + cuMemMap), so
// device pointers and base-pointer arithmetic stay as they were while each
// GPU holds its part. Every GPU that can reach this one is given read and
// write access to what is mapped (cuMemSetAccess), so peer copies and
// batched lane copies work on it as on cuMemAlloc memory.
//
// The driver entry points come from the libcuda the cuda plugin loaded
// (none: available() is false and GPUs hold whole buffers, as before).
// Calls are made in the device's primary context, the one the cuda plugin
// uses, and the calling thread's current context is put back afterwards.
//
//===----------------------------------------------------------------------===//
#ifndef HETERO_PLUGIN_CUDAVIRTUALMEMORY_H
#define HETERO_PLUGIN_CUDAVIRTUALMEMORY_H

#include <cstdint>
#include <map>
#include <mutex>
#include <vector>

namespace hetero {

class CudaVirtualMemory {
public:
  /// The process's one instance.
  static CudaVirtualMemory &get();

  /// Physical memory mapped into a reservation.
  struct Mapping {
    uint64_t Lo = 0, Hi = 0;       // offsets in the reservation
    unsigned long long Handle = 0; // CUmemGenericAllocationHandle
  };

  /// The granule Device backs in (a multiple of 2 MiB on current GPUs); 0
  /// where the driver or the device has no virtual memory management.
  uint64_t granule(int Device);
  /// Address range of Size bytes (rounded up to the granule) on Device,
  /// nothing behind it; nullptr when refused.
  void *reserve(int Device, uint64_t Size);
  /// Backs [Lo, Hi) of reservation Ptr (Lo a granule multiple; Hi is
  /// rounded up to one) with memory of Device; false with nothing mapped
  /// when the device has no room (or the driver refuses).
  bool map(int Device, void *Ptr, uint64_t Lo, uint64_t Hi, Mapping &Out);
  /// Undoes map() (the driver waits for work on the range first).
  void unmap(int Device, void *Ptr, const Mapping &M);
  /// Gives back a reservation whose mappings are gone.
  void free(int Device, void *Ptr, uint64_t Size);

private:
  CudaVirtualMemory();
  struct DeviceState {
    bool Known = false;
    uint64_t Granule = 0;
    void *Context = nullptr;        // CUcontext: the primary context
    std::vector<int> AccessDevices; // this one and the GPUs that reach it
  };
  /// Device's state, looked up on first use (under Mutex).
  DeviceState &state(int Device);
  class Current; // makes a context current for a scope

  std::mutex Mutex;
  std::map<int, DeviceState> Devices;
  struct Entry;
  Entry *Api = nullptr; // the driver's entry points; nullptr: none
};

} // namespace hetero

#endif // HETERO_PLUGIN_CUDAVIRTUALMEMORY_H

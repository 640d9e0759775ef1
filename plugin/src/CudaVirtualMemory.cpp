//===- CudaVirtualMemory.cpp - GPU buffers held in part -------------------===//
#include "CudaVirtualMemory.h"

// LLVM's declarations of the driver API (types and prototypes only: the
// functions are looked up below, whichever way the cuda plugin was built).
#include "dynamic_cuda/cuda.h"

#include "llvm/Support/MathExtras.h"

#include <dlfcn.h>

namespace hetero {

struct CudaVirtualMemory::Entry {
  decltype(&::cuDeviceGetAttribute) DeviceGetAttribute;
  decltype(&::cuDeviceGetCount) DeviceGetCount;
  decltype(&::cuDeviceCanAccessPeer) DeviceCanAccessPeer;
  decltype(&::cuDevicePrimaryCtxRetain) PrimaryCtxRetain;
  CUresult (*CtxGetCurrent)(CUcontext *);
  decltype(&::cuCtxSetCurrent) CtxSetCurrent;
  decltype(&::cuMemGetAllocationGranularity) GetGranularity;
  decltype(&::cuMemAddressReserve) AddressReserve;
  decltype(&::cuMemAddressFree) AddressFree;
  decltype(&::cuMemCreate) Create;
  decltype(&::cuMemRelease) Release;
  decltype(&::cuMemMap) Map;
  decltype(&::cuMemUnmap) Unmap;
  decltype(&::cuMemSetAccess) SetAccess;
};

namespace {
template <typename Fn> bool lookUp(void *Lib, const char *Name, Fn &Out) {
  Out = reinterpret_cast<Fn>(dlsym(Lib, Name));
  return Out != nullptr;
}

CUmemAllocationProp deviceMemory(int Device) {
  CUmemAllocationProp P = {};
  P.type = CU_MEM_ALLOCATION_TYPE_PINNED;
  P.location.type = CU_MEM_LOCATION_TYPE_DEVICE;
  P.location.id = Device;
  return P;
}
} // namespace

CudaVirtualMemory::CudaVirtualMemory() {
  void *Lib = nullptr;
  for (const char *Name : {"libcuda.so.1", "libcuda.so"})
    if ((Lib = dlopen(Name, RTLD_LAZY | RTLD_NOLOAD)))
      break;
  if (!Lib)
    return;
  static Entry E;
  bool All = lookUp(Lib, "cuDeviceGetAttribute", E.DeviceGetAttribute) &&
             lookUp(Lib, "cuDeviceGetCount", E.DeviceGetCount) &&
             lookUp(Lib, "cuDeviceCanAccessPeer", E.DeviceCanAccessPeer) &&
             lookUp(Lib, "cuDevicePrimaryCtxRetain", E.PrimaryCtxRetain) &&
             lookUp(Lib, "cuCtxGetCurrent", E.CtxGetCurrent) &&
             lookUp(Lib, "cuCtxSetCurrent", E.CtxSetCurrent) &&
             lookUp(Lib, "cuMemGetAllocationGranularity", E.GetGranularity) &&
             lookUp(Lib, "cuMemAddressReserve", E.AddressReserve) &&
             lookUp(Lib, "cuMemAddressFree", E.AddressFree) &&
             lookUp(Lib, "cuMemCreate", E.Create) &&
             lookUp(Lib, "cuMemRelease", E.Release) &&
             lookUp(Lib, "cuMemMap", E.Map) &&
             lookUp(Lib, "cuMemUnmap", E.Unmap) &&
             lookUp(Lib, "cuMemSetAccess", E.SetAccess);
  dlclose(Lib); // the cuda plugin keeps it loaded
  if (All)
    Api = &E;
}

CudaVirtualMemory &CudaVirtualMemory::get() {
  static CudaVirtualMemory Once;
  return Once;
}

/// Device's primary context current on this thread for the scope; the
/// thread's own comes back at its end.
class CudaVirtualMemory::Current {
public:
  Current(const Entry &E, void *Context) : E(E) {
    Ok = E.CtxGetCurrent(&Saved) == CUDA_SUCCESS &&
         E.CtxSetCurrent(static_cast<CUcontext>(Context)) == CUDA_SUCCESS;
  }
  ~Current() {
    if (Ok)
      E.CtxSetCurrent(Saved);
  }
  bool Ok = false;

private:
  const Entry &E;
  CUcontext Saved = nullptr;
};

CudaVirtualMemory::DeviceState &CudaVirtualMemory::state(int Device) {
  DeviceState &S = Devices[Device];
  if (S.Known || !Api)
    return S;
  S.Known = true;
  int Supported = 0, Count = 0;
  CUcontext Context = nullptr;
  if (Api->DeviceGetAttribute(
          &Supported, CU_DEVICE_ATTRIBUTE_VIRTUAL_MEMORY_MANAGEMENT_SUPPORTED,
          Device) != CUDA_SUCCESS ||
      !Supported || Api->DeviceGetCount(&Count) != CUDA_SUCCESS ||
      // Retained for the process: the cuda plugin holds it too, and memory
      // mapped in it must outlive the plugin's own release at exit.
      Api->PrimaryCtxRetain(&Context, Device) != CUDA_SUCCESS)
    return S;
  size_t Granule = 0;
  CUmemAllocationProp Prop = deviceMemory(Device);
  if (Api->GetGranularity(&Granule, &Prop, CU_MEM_ALLOC_GRANULARITY_MINIMUM) !=
          CUDA_SUCCESS ||
      !Granule)
    return S;
  S.AccessDevices.push_back(Device);
  for (int Peer = 0; Peer < Count; ++Peer) {
    int Can = 0;
    if (Peer != Device &&
        Api->DeviceCanAccessPeer(&Can, Peer, Device) == CUDA_SUCCESS && Can)
      S.AccessDevices.push_back(Peer);
  }
  S.Context = Context;
  S.Granule = Granule;
  return S;
}

uint64_t CudaVirtualMemory::granule(int Device) {
  std::lock_guard<std::mutex> Lock(Mutex);
  return state(Device).Granule;
}

void *CudaVirtualMemory::reserve(int Device, uint64_t Size) {
  std::lock_guard<std::mutex> Lock(Mutex);
  DeviceState &S = state(Device);
  if (!S.Granule)
    return nullptr;
  Current In(*Api, S.Context);
  CUdeviceptr P = 0;
  if (!In.Ok || Api->AddressReserve(&P, llvm::alignTo(Size, S.Granule),
                                    S.Granule, 0, 0) != CUDA_SUCCESS)
    return nullptr;
  return reinterpret_cast<void *>(P);
}

bool CudaVirtualMemory::map(int Device, void *Ptr, uint64_t Lo, uint64_t Hi,
                            Mapping &Out) {
  std::lock_guard<std::mutex> Lock(Mutex);
  DeviceState &S = state(Device);
  if (!S.Granule || Lo % S.Granule || Hi <= Lo)
    return false;
  Current In(*Api, S.Context);
  if (!In.Ok)
    return false;
  Hi = llvm::alignTo(Hi, S.Granule);
  CUmemAllocationProp Prop = deviceMemory(Device);
  CUmemGenericAllocationHandle Handle = 0;
  if (Api->Create(&Handle, Hi - Lo, &Prop, 0) != CUDA_SUCCESS)
    return false; // no room
  CUdeviceptr At = reinterpret_cast<CUdeviceptr>(Ptr) + Lo;
  if (Api->Map(At, Hi - Lo, 0, Handle, 0) != CUDA_SUCCESS) {
    Api->Release(Handle);
    return false;
  }
  std::vector<CUmemAccessDesc> Access;
  for (int D : S.AccessDevices)
    Access.push_back(
        {{CU_MEM_LOCATION_TYPE_DEVICE, D}, CU_MEM_ACCESS_FLAGS_PROT_READWRITE});
  if (Api->SetAccess(At, Hi - Lo, Access.data(), Access.size()) !=
      CUDA_SUCCESS) {
    Api->Unmap(At, Hi - Lo);
    Api->Release(Handle);
    return false;
  }
  Out.Lo = Lo;
  Out.Hi = Hi;
  Out.Handle = Handle;
  return true;
}

void CudaVirtualMemory::unmap(int Device, void *Ptr, const Mapping &M) {
  std::lock_guard<std::mutex> Lock(Mutex);
  DeviceState &S = state(Device);
  Current In(*Api, S.Context);
  Api->Unmap(reinterpret_cast<CUdeviceptr>(Ptr) + M.Lo, M.Hi - M.Lo);
  Api->Release(M.Handle);
}

void CudaVirtualMemory::free(int Device, void *Ptr, uint64_t Size) {
  std::lock_guard<std::mutex> Lock(Mutex);
  DeviceState &S = state(Device);
  Current In(*Api, S.Context);
  Api->AddressFree(reinterpret_cast<CUdeviceptr>(Ptr),
                   llvm::alignTo(Size, S.Granule));
}

} // namespace hetero

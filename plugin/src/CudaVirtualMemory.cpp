//===- CudaVirtualMemory.cpp - GPU buffers held in part -------------------===//
#include "CudaVirtualMemory.h"
#include "CudaDriver.h"

// LLVM's declarations of the driver API (types and prototypes only: the
// functions are looked up below, whichever way the cuda plugin was built).
#include "dynamic_cuda/cuda.h"

#include "llvm/Support/MathExtras.h"

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
template <typename Fn> bool lookUp(const char *Name, Fn &Out) {
  Out = reinterpret_cast<Fn>(cudaDriverSymbol(Name));
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
  static Entry E;
  bool All = lookUp("cuDeviceGetAttribute", E.DeviceGetAttribute) &&
             lookUp("cuDeviceGetCount", E.DeviceGetCount) &&
             lookUp("cuDeviceCanAccessPeer", E.DeviceCanAccessPeer) &&
             lookUp("cuDevicePrimaryCtxRetain", E.PrimaryCtxRetain) &&
             lookUp("cuCtxGetCurrent", E.CtxGetCurrent) &&
             lookUp("cuCtxSetCurrent", E.CtxSetCurrent) &&
             lookUp("cuMemGetAllocationGranularity", E.GetGranularity) &&
             lookUp("cuMemAddressReserve", E.AddressReserve) &&
             lookUp("cuMemAddressFree", E.AddressFree) &&
             lookUp("cuMemCreate", E.Create) &&
             lookUp("cuMemRelease", E.Release) && lookUp("cuMemMap", E.Map) &&
             lookUp("cuMemUnmap", E.Unmap) &&
             lookUp("cuMemSetAccess", E.SetAccess);
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

//===- PluginBackendImages.cpp - A binary's images on every member --------===//
//
// libomptarget offers a binary's images one at a time; hetero loads them all
// on every member the first time one is asked for: the x86_64 image on the
// CPU pool and (a copy each) on the simulated accelerators, the NVPTX image
// of its architecture on each GPU. Kernels, their loop windows and
// descriptors, globals and indirect functions are then found per member
// (names and layout: hetero/CompilerAbi.h).
//
//===----------------------------------------------------------------------===//
#include "PluginBackend.h"

#include "HostMappings.h"
#include "ImageSymbols.h"

#include "hetero/KernelNames.h"
#include "hetero/Log.h"

#include "omptarget.h"

#include "llvm/BinaryFormat/ELF.h"

#include <algorithm>
#include <cstring>

namespace hetero {

namespace {
uint16_t elfMachine(const __tgt_device_image *Img) {
  size_t Size = static_cast<const char *>(Img->ImageEnd) -
                static_cast<const char *>(Img->ImageStart);
  const auto *Bytes = static_cast<const unsigned char *>(Img->ImageStart);
  if (Size < 20 || memcmp(Bytes, "\177ELF", 4) != 0)
    return 0;
  uint16_t Machine;
  memcpy(&Machine, Bytes + 18, sizeof(Machine));
  return Machine;
}
} // namespace

bool PluginBackend::addImage(__tgt_device_image *Image) {
  // The back ends only read the ELF header here; they need not be started.
  uint16_t Machine = elfMachine(Image);
  info(3, "image %p: ELF machine %u", Image->ImageStart, Machine);
  if (Machine == llvm::ELF::EM_X86_64) {
    Images.add(Image, ImageKind::Host);
    return true;
  }
  if (Machine != llvm::ELF::EM_CUDA)
    return false;
  if (!gpuRuns(Image)) {
    info(2, "an NVPTX image (%p) that no GPU of this process runs: not taken",
         Image->ImageStart);
    return false;
  }
  Images.add(Image, ImageKind::Cuda);
  return true;
}

bool PluginBackend::gpuRuns(__tgt_device_image *Image) const {
  for (int D = 0; Cuda && D < NumCudaDevices; ++D)
    if (CudaGiven[D] && Cuda->is_device_compatible(D, Image))
      return true;
  return false;
}

ImageGroup *PluginBackend::loadBinary(__tgt_device_image *Image) {
  ImageGroup *G = Images.groupOf(Image);
  info(3, "load_binary %p: %s", Image->ImageStart, G ? "known" : "unknown");
  if (G && !G->Loaded) {
    loadOnMembers(*G);
    G->Loaded = true;
  }
  if (G && !G->HostLoaded &&
      std::find(G->CudaLoaded.begin(), G->CudaLoaded.end(), true) ==
          G->CudaLoaded.end()) {
    error("no member of the pool runs this binary's offload images (%s); its "
          "target regions cannot run under hetero",
          G->HostImage ? "its x86_64 image did not load"
                       : "no GPU loaded its NVPTX images, and it has no "
                         "x86_64 image: build it with -fopenmp-targets=hetero");
    return nullptr;
  }
  return G;
}

void PluginBackend::loadOnMembers(ImageGroup &G) {
  PhaseTimes Times;
  if (G.HostImage) {
    G.HostLoaded =
        Host->load_binary(0, G.HostImage, &G.HostBinary) == OFFLOAD_SUCCESS;
    if (!G.HostLoaded)
      error("the x86_64 image did not load; CPU members cannot run it");
  } else {
    warning("binary has no x86_64 offload image (build with "
            "-fopenmp-targets=hetero): only GPUs can run its kernels");
  }
  G.SimBinaries.assign(NumSimulated, __tgt_device_binary{0});
  G.SimLoaded.assign(NumSimulated, false);
  for (int S = 0; G.HostImage && S < NumSimulated; ++S)
    G.SimLoaded[S] = Host->load_binary(1 + S, G.HostImage, &G.SimBinaries[S]) ==
                     OFFLOAD_SUCCESS;
  Times.mark("x86_64 image");
  G.CudaBinaries.assign(numGpuSlots(), __tgt_device_binary{0});
  G.CudaLoaded.assign(numGpuSlots(), false);
  G.CudaImageOf.assign(numGpuSlots(), nullptr);
  // Each slot loads its own copy (a module of its own: its globals and loop
  // windows are its own, as on separate GPUs).
  for (int S = 0; S < numGpuSlots(); ++S) {
    int D = deviceOf(S);
    if (!CudaUsable[D])
      continue;
    bool Compatible = false;
    for (__tgt_device_image *Img : G.CudaImages) {
      if (!Cuda->is_device_compatible(D, Img))
        continue;
      Compatible = true;
      if (Cuda->load_binary(D, Img, &G.CudaBinaries[S]) == OFFLOAD_SUCCESS) {
        G.CudaLoaded[S] = true;
        G.CudaImageOf[S] = Img;
        break;
      }
    }
    if (!G.CudaLoaded[S])
      error(
          "GPU %d%s cannot run this binary (%s); its kernels run elsewhere", D,
          GpuSplit > 1 ? (" part " + std::to_string(S % GpuSplit)).c_str() : "",
          Compatible ? "image failed to load"
                     : "no NVPTX image for its architecture");
  }
  Times.mark("NVPTX images");
  Times.report("load");
}

HeteroKernel *PluginBackend::kernel(ImageGroup &G, const char *Name) {
  auto K = std::make_unique<HeteroKernel>();
  K->Traits.Name = Name;
  if (G.HostLoaded &&
      Host->get_function(G.HostBinary, Name, &K->HostKernel) != OFFLOAD_SUCCESS)
    K->HostKernel = nullptr;
  K->SimKernels.assign(NumSimulated, nullptr);
  for (int S = 0; S < NumSimulated; ++S)
    if (G.SimLoaded[S] &&
        Host->get_function(G.SimBinaries[S], Name, &K->SimKernels[S]) !=
            OFFLOAD_SUCCESS)
      K->SimKernels[S] = nullptr;
  K->CudaKernels.assign(numGpuSlots(), nullptr);
  for (int S = 0; S < numGpuSlots(); ++S)
    if (G.CudaLoaded[S] &&
        Cuda->get_function(G.CudaBinaries[S], Name, &K->CudaKernels[S]) !=
            OFFLOAD_SUCCESS)
      K->CudaKernels[S] = nullptr;
  bool Any = false;
  for (const Member &M : Members) {
    void *On = K->compiledOn(M);
    K->Traits.Loaded.push_back(On != nullptr);
    Any |= On != nullptr;
  }
  if (!Any)
    return nullptr;
  loadDescriptor(G, *K);
  K->Traits.Display =
      kernelDisplayName(Name, K->Desc ? K->Desc->source() : std::string());
  findWindows(G, *K);
  std::lock_guard<std::mutex> Lock(KernelsMutex);
  Known.insert(K.get());
  Kernels.push_back(std::move(K));
  return Kernels.back().get();
}

HeteroKernel *PluginBackend::knownKernel(void *Entry) {
  std::lock_guard<std::mutex> Lock(KernelsMutex);
  return Known.count(Entry) ? static_cast<HeteroKernel *>(Entry) : nullptr;
}

void PluginBackend::loadDescriptor(ImageGroup &G, HeteroKernel &K) {
  std::string Name = abi::descriptorSymbol(K.Traits.Name);
  void *Text = nullptr;
  if (!G.HostLoaded || !G.Symbols.defines(G.HostImage, Name) ||
      Host->get_global(G.HostBinary, 0, Name.c_str(), &Text) !=
          OFFLOAD_SUCCESS ||
      !Text) {
    K.Traits.NoDesc =
        "no descriptor (not compiled with -fopenmp-targets=hetero)";
    return;
  }
  auto D = std::make_unique<KernelDescriptor>();
  std::string Err;
  if (!KernelDescriptor::parse(static_cast<const char *>(Text), *D, Err)) {
    warning("kernel %s: unreadable descriptor (%s); it runs unsplit",
            K.Traits.Name.c_str(), Err.c_str());
    K.Traits.NoDesc = "unreadable descriptor";
    return;
  }
  K.Desc = std::move(D);
  K.Traits.Desc = K.Desc.get();
}

void PluginBackend::findWindows(ImageGroup &G, HeteroKernel &K) {
  K.Windows.assign(Members.size(), {});
  K.Traits.Windowed.assign(Members.size(), false);
  if (!K.Desc || !K.Desc->splittable())
    return;
  std::string Name = abi::windowSymbol(K.Traits.Name);
  std::string Params = abi::windowParamsSymbol(K.Traits.Name);
  std::string Copy = abi::windowedKernelSymbol(K.Traits.Name);
  std::string With;
  for (size_t I = 0; I < Members.size(); ++I) {
    const Member &M = Members[I];
    void *Addr = nullptr, *Entry = K.compiledOn(M);
    int32_t Rc = OFFLOAD_FAIL;
    bool ParamsAbi = false;
    if (!K.Traits.Loaded[I])
      continue;
    if (M.Kind == MemberKind::Gpu) {
      __tgt_device_image *Img = G.CudaImageOf[M.Index];
      __tgt_device_binary Bin = G.CudaBinaries[M.Index];
      // The window as the copy's parameters (no global), or as a global.
      ParamsAbi =
          Img && G.Symbols.defines(Img, Params) && G.Symbols.defines(Img, Copy);
      if (ParamsAbi)
        Rc = OFFLOAD_SUCCESS;
      else if (Img && G.Symbols.defines(Img, Name))
        Rc =
            Cuda->get_global(Bin, sizeof(abi::LoopWindow), Name.c_str(), &Addr);
      if (Rc == OFFLOAD_SUCCESS && G.Symbols.defines(Img, Copy) &&
          Cuda->get_function(Bin, Copy.c_str(), &Entry) != OFFLOAD_SUCCESS)
        Rc = OFFLOAD_FAIL;
    } else if (G.Symbols.defines(G.HostImage, Name)) {
      __tgt_device_binary Bin = M.Kind == MemberKind::Simulated
                                    ? G.SimBinaries[M.Index]
                                    : G.HostBinary;
      Rc = Host->get_global(Bin, sizeof(abi::LoopWindow), Name.c_str(), &Addr);
      if (Rc == OFFLOAD_SUCCESS && G.Symbols.defines(G.HostImage, Copy) &&
          Host->get_function(Bin, Copy.c_str(), &Entry) != OFFLOAD_SUCCESS)
        Rc = OFFLOAD_FAIL;
    }
    K.Windows[I].Addr = Rc == OFFLOAD_SUCCESS ? Addr : nullptr;
    K.Windows[I].Entry = Rc == OFFLOAD_SUCCESS ? Entry : nullptr;
    K.Windows[I].Params = Rc == OFFLOAD_SUCCESS && ParamsAbi;
    K.Traits.Windowed[I] = K.Windows[I].Addr || K.Windows[I].Params;
    With += (K.Traits.Windowed[I] ? " " : " no-") + M.name();
  }
  info(2, "kernel %s: splittable; loop window on:%s", K.Traits.Name.c_str(),
       With.c_str());
}

void *PluginBackend::global(ImageGroup &G, uint64_t Size, const char *Name) {
  if (!G.HostLoaded) {
    error("global '%s' needs the x86_64 image", Name);
    return nullptr;
  }
  // The host image's copy is the global's hetero address.
  void *HostAddr = nullptr;
  if (Host->get_global(G.HostBinary, Size, Name, &HostAddr) != OFFLOAD_SUCCESS)
    return nullptr;
  // A const global (read-only pages) is never written on any member.
  Layer.registerExternal(HostAddr, Size, !isHostMemoryWritable(HostAddr, Size));
  for (const Member &M : Members) {
    void *At = nullptr;
    if (M.Kind == MemberKind::Simulated && G.SimLoaded[M.Index] &&
        Host->get_global(G.SimBinaries[M.Index], Size, Name, &At) ==
            OFFLOAD_SUCCESS)
      Layer.setExternalNodeStorage(HostAddr, M.Node, At);
    if (M.Kind == MemberKind::Gpu && G.CudaLoaded[M.Index] &&
        Cuda->get_global(G.CudaBinaries[M.Index], Size, Name, &At) ==
            OFFLOAD_SUCCESS)
      Layer.setExternalNodeStorage(HostAddr, M.Node, At);
  }
  return HostAddr;
}

void PluginBackend::loadIndirectFunctions(ImageGroup &G,
                                          IndirectFunctions &Out) {
  if (!G.HostLoaded)
    return; // the address kernels are handed is the x86_64 image's
  for (const __tgt_offload_entry *E = G.HostImage->EntriesBegin;
       E && E != G.HostImage->EntriesEnd; ++E) {
    if (!(E->flags & OMP_DECLARE_TARGET_INDIRECT) || E->size != sizeof(void *))
      continue;
    // The entry names a global of each image that holds the function's
    // address in that image.
    void *Slot = nullptr;
    if (Host->get_global(G.HostBinary, sizeof(void *), E->name, &Slot) !=
        OFFLOAD_SUCCESS)
      continue;
    uintptr_t Key;
    memcpy(&Key, Slot, sizeof(Key));
    std::vector<uintptr_t> PerMember(Members.size(), 0);
    for (size_t I = 0; I < Members.size(); ++I) {
      const Member &M = Members[I];
      Slot = nullptr;
      if (M.Kind == MemberKind::CpuPool)
        PerMember[I] = Key;
      else if (M.Kind == MemberKind::Simulated && G.SimLoaded[M.Index] &&
               Host->get_global(G.SimBinaries[M.Index], sizeof(void *), E->name,
                                &Slot) == OFFLOAD_SUCCESS)
        memcpy(&PerMember[I], Slot, sizeof(uintptr_t));
      else if (M.Kind == MemberKind::Gpu && G.CudaLoaded[M.Index] &&
               (Cuda->get_global(G.CudaBinaries[M.Index], sizeof(void *),
                                 E->name, &Slot) != OFFLOAD_SUCCESS ||
                Cuda->data_retrieve(M.Device, &PerMember[I], Slot,
                                    sizeof(uintptr_t)) != OFFLOAD_SUCCESS))
        PerMember[I] = 0;
    }
    info(2, "indirect function %s: %zu member addresses", E->name,
         PerMember.size());
    Out.add(Key, std::move(PerMember));
  }
}

} // namespace hetero

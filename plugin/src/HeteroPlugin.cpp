//===- HeteroPlugin.cpp - libomptarget plugin "hetero" --------------------===//
//
// One OpenMP device made of every GPU and CPU core of the node. This file only
// speaks libomptarget: it keeps LLVM's cuda and host plugins as back ends (so
// kernel and launch environments, reduction buffers and grid sizing stay
// upstream's), and leaves data placement to the runtime's DataLayer and the
// choice of member to the runtime's scheduler.
//
//===----------------------------------------------------------------------===//
#include "CpuTeam.h"
#include "CudaNode.h"
#include "HostMappings.h"
#include "ImageSymbols.h"
#include "ImageTable.h"
#include "IndirectCalls.h"

#include "hetero/DataLayer.h"
#include "hetero/KernelDescriptor.h"
#include "hetero/KernelStats.h"
#include "hetero/Log.h"
#include "hetero/Scheduler.h"
#include "hetero/Settings.h"
#include "hetero/SplitLaunch.h"
#include "hetero/StarPUPool.h"

#include "PluginInterface.h"
#include "Shared/Environment.h"
#include "Shared/Requirements.h"
#include "omptarget.h"

#include "llvm/BinaryFormat/ELF.h"

#include <atomic>
#include <chrono>
#include <climits>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <map>
#include <memory>
#include <string>
#include <unistd.h>

using namespace llvm::omp::target::plugin;

extern "C" GenericPluginTy *createPlugin_cuda();
extern "C" GenericPluginTy *createPlugin_host();

namespace hetero {
namespace {

/// A kernel's loop window (<kernel>_hetero_window in each member's image:
/// {lo, hi, active}) and what this plugin last wrote there.
struct WindowSlot {
  void *Addr = nullptr; // null: the member's image has no window
  int64_t Value[3] = {0, 0, 0};
};

/// What get_function hands libomptarget: the kernel in every back end.
struct HeteroKernel {
  std::string Name;
  void *HostKernel = nullptr;
  std::vector<void *> SimKernels;  // per simulated accelerator
  std::vector<void *> CudaKernels; // per CUDA device, null when absent
  /// The compiler's descriptor (<kernel>_hetero_desc); null when the binary
  /// has none, NoSplit then says why.
  std::unique_ptr<KernelDescriptor> Desc;
  std::string NoSplit;
  std::vector<WindowSlot> Windows; // per pool member
};

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

/// "200.0 GB", "512.0 MB": sizes in messages.
std::string byteText(uint64_t Bytes) {
  const char *Units[] = {"bytes", "KB", "MB", "GB", "TB"};
  double V = static_cast<double>(Bytes);
  unsigned U = 0;
  while (V >= 1000 && U + 1 < sizeof(Units) / sizeof(Units[0])) {
    V /= 1000;
    ++U;
  }
  char Buf[32];
  snprintf(Buf, sizeof(Buf), U ? "%.1f %s" : "%.0f %s", V, Units[U]);
  return Buf;
}

/// A member's share of a split when HETERO_MEMBERS does not give one: a
/// static estimate, the memory bandwidth of a GPU over the node's cores.
double defaultWeight(const Member &M) {
  return M.Kind == MemberKind::Gpu ? 32 : 1;
}

/// A setting that is not accepted stops the program before any kernel runs:
/// a wrong setting must never become a different run. One line each.
[[noreturn]] void stopOnSettings(const std::vector<std::string> &Errors) {
  for (const std::string &E : Errors)
    error("%s", E.c_str());
  fflush(stdout);
  fflush(stderr);
  _Exit(EXIT_FAILURE);
}

std::vector<std::string> environment() {
  std::vector<std::string> Out;
  for (char **E = environ; E && *E; ++E)
    Out.emplace_back(*E);
  return Out;
}

class HeteroPluginTy final : public GenericPluginTy {
public:
  HeteroPluginTy() : GenericPluginTy(llvm::Triple::x86_64) {}

  // Never used: hetero implements the entry points itself.
  llvm::Expected<int32_t> initImpl() override { return 1; }
  llvm::Error deinitImpl() override { return llvm::Error::success(); }
  GenericDeviceTy *createDevice(GenericPluginTy &, int32_t, int32_t) override {
    return nullptr;
  }
  GenericGlobalHandlerTy *createGlobalHandler() override { return nullptr; }
  uint16_t getMagicElfBits() const override { return llvm::ELF::EM_X86_64; }
  llvm::Triple::ArchType getTripleArch() const override {
    return llvm::Triple::x86_64;
  }
  const char *getName() const override { return "hetero"; }
  llvm::Expected<bool> isELFCompatible(uint32_t,
                                       llvm::StringRef) const override {
    return true;
  }

  llvm::Error init() override;
  llvm::Error deinit() override;
  int32_t is_initialized() const override { return Initialized; }
  int32_t number_of_devices() override { return 1; }
  int32_t is_plugin_compatible(__tgt_device_image *Image) override;
  int32_t is_device_compatible(int32_t, __tgt_device_image *Image) override {
    return Images.groupOf(Image) != nullptr;
  }
  int32_t is_device_initialized(int32_t DeviceId) const override {
    return DeviceId == 0 && DeviceInitialized;
  }
  int32_t init_device(int32_t DeviceId) override {
    if (DeviceId != 0 || !Initialized)
      return OFFLOAD_FAIL;
    DeviceInitialized = true;
    return OFFLOAD_SUCCESS;
  }
  int32_t load_binary(int32_t DeviceId, __tgt_device_image *TgtImage,
                      __tgt_device_binary *Binary) override;
  int32_t get_function(__tgt_device_binary Binary, const char *Name,
                       void **KernelPtr) override;
  int32_t get_global(__tgt_device_binary Binary, uint64_t Size,
                     const char *Name, void **DevicePtr) override;

  void *data_alloc(int32_t, int64_t Size, void *, int32_t Kind) override;
  int32_t data_delete(int32_t, void *TgtPtr, int32_t) override {
    return Layer->release(TgtPtr) ? OFFLOAD_SUCCESS : OFFLOAD_FAIL;
  }
  int32_t data_submit(int32_t, void *TgtPtr, void *HstPtr,
                      int64_t Size) override {
    return Layer->write(TgtPtr, HstPtr, Size) ? OFFLOAD_SUCCESS : OFFLOAD_FAIL;
  }
  int32_t data_submit_async(int32_t Id, void *TgtPtr, void *HstPtr,
                            int64_t Size, __tgt_async_info *) override {
    return data_submit(Id, TgtPtr, HstPtr, Size);
  }
  int32_t data_retrieve(int32_t, void *HstPtr, void *TgtPtr,
                        int64_t Size) override {
    return Layer->read(HstPtr, TgtPtr, Size) ? OFFLOAD_SUCCESS : OFFLOAD_FAIL;
  }
  int32_t data_retrieve_async(int32_t Id, void *HstPtr, void *TgtPtr,
                              int64_t Size, __tgt_async_info *) override {
    return data_retrieve(Id, HstPtr, TgtPtr, Size);
  }
  int32_t is_data_exchangable(int32_t Src, int32_t Dst) override {
    return Src == 0 && Dst == 0;
  }
  int32_t data_exchange(int32_t, void *SrcPtr, int32_t, void *DstPtr,
                        int64_t Size) override {
    return Layer->copy(DstPtr, SrcPtr, Size) ? OFFLOAD_SUCCESS : OFFLOAD_FAIL;
  }
  int32_t data_exchange_async(int32_t S, void *SrcPtr, int D, void *DstPtr,
                              int64_t Size, __tgt_async_info *) override {
    return data_exchange(S, SrcPtr, D, DstPtr, Size);
  }
  // hetero buffers live in pageable host memory and device copies managed
  // by the data layer; there is nothing to pin or to notify.
  int32_t data_lock(int32_t, void *Ptr, int64_t, void **LockedPtr) override {
    *LockedPtr = Ptr;
    return OFFLOAD_SUCCESS;
  }
  int32_t data_unlock(int32_t, void *) override { return OFFLOAD_SUCCESS; }
  int32_t data_notify_mapped(int32_t, void *, int64_t) override {
    return OFFLOAD_SUCCESS;
  }
  int32_t data_notify_unmapped(int32_t, void *) override {
    return OFFLOAD_SUCCESS;
  }

  int32_t launch_kernel(int32_t DeviceId, void *TgtEntryPtr, void **TgtArgs,
                        ptrdiff_t *TgtOffsets, KernelArgsTy *KernelArgs,
                        __tgt_async_info *AsyncInfoPtr) override;
  // Every operation completes before it returns: queues are always empty.
  // The interop queue stands for the whole pool: waiting on it waits until
  // no launch is running on any member.
  int32_t synchronize(int32_t, __tgt_async_info *AsyncInfo) override {
    if (AsyncInfo && AsyncInfo->Queue == &PoolQueue)
      std::lock_guard<std::mutex> Idle(LaunchMutex);
    return OFFLOAD_SUCCESS;
  }
  int32_t query_async(int32_t Id, __tgt_async_info *AsyncInfo) override {
    return synchronize(Id, AsyncInfo);
  }
  int32_t create_event(int32_t, void **EventPtr) override {
    *EventPtr = nullptr;
    return OFFLOAD_SUCCESS;
  }
  int32_t record_event(int32_t, void *, __tgt_async_info *) override {
    return OFFLOAD_SUCCESS;
  }
  int32_t wait_event(int32_t, void *, __tgt_async_info *) override {
    return OFFLOAD_SUCCESS;
  }
  int32_t sync_event(int32_t, void *) override { return OFFLOAD_SUCCESS; }
  int32_t destroy_event(int32_t, void *) override { return OFFLOAD_SUCCESS; }
  // `interop init(targetsync: obj)`: a queue that stands for the pool (see
  // synchronize). libomptarget passes the OpenMP device number here.
  int32_t init_async_info(int32_t, __tgt_async_info **AsyncInfo) override {
    *AsyncInfo = new __tgt_async_info();
    (*AsyncInfo)->Queue = &PoolQueue;
    return OFFLOAD_SUCCESS;
  }
  // The device is a pool, not one native device: no context or device
  // handle to give out; the message says why.
  int32_t init_device_info(int32_t, __tgt_device_info *Info,
                           const char **ErrStr) override {
    Info->Context = nullptr;
    Info->Device = nullptr;
    *ErrStr = "hetero: the device is a pool of GPUs and CPU cores";
    return OFFLOAD_SUCCESS;
  }
  void print_device_info(int32_t) override;
  void set_info_flag(uint32_t Level) override {
    if (Cuda)
      Cuda->set_info_flag(Level);
    if (Host)
      Host->set_info_flag(Level);
  }
  // OMPT callbacks of the back ends report the OpenMP device number: every
  // back-end device stands for the one hetero device.
  int32_t set_device_identifier(int32_t UserId, int32_t) override {
    for (int D = 0; Host && D <= NumSimulated; ++D)
      Host->set_device_identifier(UserId, D);
    for (int D = 0; D < NumCudaDevices; ++D)
      Cuda->set_device_identifier(UserId, D);
    return OFFLOAD_SUCCESS;
  }
  int32_t use_auto_zero_copy(int32_t) override { return 0; }
  int32_t initialize_record_replay(int32_t, int64_t, void *, bool, bool,
                                   uint64_t &) override {
    error("record and replay are not supported by hetero");
    return OFFLOAD_FAIL;
  }

private:
  void initCuda();
  void initCudaDevices();
  void initMembers();
  /// Records the per-member addresses of the binary's `declare target
  /// indirect` functions (IndirectCalls.h).
  void loadIndirectFunctions(ImageGroup &G);
  void loadDescriptor(ImageGroup &G, HeteroKernel &K);
  bool hasKernel(const Member &M, const HeteroKernel &K) const;
  /// The descriptor keeps K off GPUs (host-only) and a CPU member has it.
  bool offGpu(const HeteroKernel &K) const;
  /// With a one-kind descriptor, narrows a split's members to the GPUs, or
  /// to the CPU-side members when no GPU takes part.
  void keepOneKind(const HeteroKernel &K, std::vector<size_t> &Index,
                   std::vector<SplitMember> &Split) const;
  bool setWindow(const Member &M, WindowSlot &W, uint64_t Lo, uint64_t Hi,
                 bool Active);
  /// Launches K on M's back end from the calling thread.
  bool launchOn(const Member &M, HeteroKernel &K, std::vector<uintptr_t> &Args,
                KernelArgsTy KA);
  bool runOn(const Member &M, HeteroKernel &K, std::vector<uintptr_t> &Args,
             const KernelArgsTy &KernelArgs);
  SplitOutcome trySplit(HeteroKernel &K, void **TgtArgs, ptrdiff_t *TgtOffsets,
                        const KernelArgsTy &KernelArgs,
                        KernelStats::Launch &Rec);
  int32_t launchWhole(HeteroKernel &K, void **TgtArgs, ptrdiff_t *TgtOffsets,
                      KernelArgsTy *KernelArgs, KernelStats::Launch &Rec);

  bool Initialized = false;
  bool DeviceInitialized = false;
  std::unique_ptr<GenericPluginTy> Cuda, Host;
  int NumCudaDevices = 0;
  int NumSimulated = 0;
  std::vector<bool> CudaUsable;
  std::unique_ptr<DataLayer> Layer;
  StarPUPool Pool;
  std::vector<Member> Members;
  ImageTable Images;
  std::mutex KernelsMutex;
  std::vector<std::unique_ptr<HeteroKernel>> Kernels;
  // Read once at init and checked (hetero/Settings.h).
  Settings Config;
  // OpenMP threads of the CPU pool's kernels (HETERO_CPU_THREADS; default:
  // a core per GPU left to its StarPU worker).
  int CpuThreads = 0;
  // One launch at a time, so that the bytes copied during a launch are its.
  std::mutex LaunchMutex;
  // What interop's targetsync queue points to (never dereferenced).
  int PoolQueue = 0;
  // `requires` flags of the loaded binaries (OMP_REQ_*).
  std::atomic<int64_t> Requires{0};
  IndirectFunctions Indirect;
  KernelStats Stats;
};

llvm::Error HeteroPluginTy::init() {
  if (Initialized)
    return llvm::Error::success();
  std::vector<std::string> Errors;
  Config = readSettings(getenv, Errors);
  if (!Errors.empty())
    stopOnSettings(Errors);
  setInfoLevel(Config.Info);
  if (Config.Backtrace)
    installCrashHandler();
  for (const std::string &W : misspeltSettings(environment()))
    warning("%s", W.c_str());
  Layer = std::make_unique<DataLayer>();
  Host.reset(createPlugin_host());
  if (auto Err = Host->init())
    return Err;
  if (Host->number_of_devices() < 1 || Host->init_device(0) != OFFLOAD_SUCCESS)
    return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                   "hetero: the host back end did not start");
  initCuda();
  initMembers();
  if (Members.empty()) {
    Pool.stop();
    return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                   "hetero: no GPU and no CPU member to run "
                                   "kernels on");
  }
  std::vector<std::string> Names;
  for (const Member &M : Members)
    Names.push_back(M.name());
  checkSettingsAgainstPool(Config, Names, availableCores(), Errors);
  if (!Errors.empty())
    stopOnSettings(Errors);
  Initialized = true;
  return llvm::Error::success();
}

void HeteroPluginTy::initCuda() {
  if (Config.DisableCuda)
    return;
  Cuda.reset(createPlugin_cuda());
  if (auto Err = Cuda->init()) {
    info(1, "no CUDA driver usable (%s): the pool has CPU cores only",
         llvm::toString(std::move(Err)).c_str());
    Cuda.reset();
    return;
  }
  NumCudaDevices = Cuda->number_of_devices();
  if (NumCudaDevices == 0)
    info(1, "no CUDA device found: the pool has CPU cores only");
  CudaUsable.assign(NumCudaDevices, false);
}

// After StarPU: its first start calibrates the bus and resets each device's
// primary context, which would pull the context from under the cuda plugin.
void HeteroPluginTy::initCudaDevices() {
  for (int D = 0; D < NumCudaDevices; ++D) {
    if (Cuda->init_device(D) != OFFLOAD_SUCCESS) {
      error("GPU %d failed to initialise; the pool carries on without it", D);
      continue;
    }
    CudaUsable[D] = true;
  }
}

void HeteroPluginTy::initMembers() {
  int NumGpus = NumCudaDevices;
  int NumSim = static_cast<int>(Config.Simulate);
  // The x86_64 image is built with FMA (see LoopWindowPass); without it the
  // CPU side runs nothing, and with no GPU either init fails, so libomptarget
  // runs the program's host fallback.
  bool CpuSide = __builtin_cpu_supports("fma");
  if (!CpuSide) {
    error("this CPU has no FMA instructions, which the x86_64 image of "
          "hetero programs uses: CPU cores and simulated accelerators stay "
          "out of the pool");
    NumSim = 0;
  }
  // Each simulated accelerator runs its own copy of the x86_64 image (own
  // globals, like a GPU), on its own device of the host back end.
  int MaxSim = Host->number_of_devices() - 1;
  if (NumSim > MaxSim)
    stopOnSettings({"HETERO_SIMULATE=" + std::to_string(NumSim) +
                    ": expected an integer from 0 to " +
                    std::to_string(MaxSim) +
                    " (the host back end's devices less the CPU pool's)"});
  for (int S = 0; S < NumSim; ++S)
    if (Host->init_device(1 + S) != OFFLOAD_SUCCESS) {
      error("simulated accelerator %d did not start", S);
      NumSim = S;
      break;
    }
  NumSimulated = NumSim;
  // One StarPU CPU worker per CPU-side member (each simulated accelerator,
  // and the CPU pool, whose kernels fork their own OpenMP team over the
  // cores). Tasks go to named workers, so more workers would only spin
  // (StarPU's drivers poll) against that team: on an H200 node the CPU
  // pool's chunks ran 12x slower with one worker per core.
  int Cores = availableCores();
  StarPUPool::Config C;
  C.NumGpus = NumGpus;
  C.NumCpus = NumSim + 1;
  std::string Err;
  bool HavePool = Pool.start(C, Err);
  if (!HavePool)
    error("StarPU did not start (%s); kernels run on the calling thread",
          Err.c_str());
  initCudaDevices();

  std::vector<int> CpuWorkers;
  std::map<int, int> CudaWorker; // device -> worker
  for (const StarPUPool::Worker &W : Pool.workers()) {
    if (W.IsCuda)
      CudaWorker[W.DeviceId] = W.Id;
    else
      CpuWorkers.push_back(W.Id);
  }
  for (int D = 0; D < NumCudaDevices; ++D) {
    if (!CudaUsable[D])
      continue;
    Member M;
    M.Kind = MemberKind::Gpu;
    M.Index = D;
    auto It = CudaWorker.find(D);
    if (HavePool && It == CudaWorker.end()) {
      error("StarPU has no worker for GPU %d; the pool carries on without it",
            D);
      continue;
    }
    M.WorkerId = HavePool ? It->second : -1;
    M.Node = Layer->addNode(std::make_unique<CudaNodeOps>(*Cuda, D));
    Members.push_back(M);
  }
  size_t NextCpu = 0;
  for (int S = 0; S < NumSim; ++S) {
    Member M;
    M.Kind = MemberKind::Simulated;
    M.Index = S;
    M.WorkerId = NextCpu < CpuWorkers.size() ? CpuWorkers[NextCpu++] : -1;
    M.Node = Layer->addNode(std::make_unique<SimulatedNodeOps>(
        S, static_cast<size_t>(Config.SimulateMemory)));
    Members.push_back(M);
  }
  if (CpuSide) {
    Member Cpu;
    Cpu.Kind = MemberKind::CpuPool;
    Cpu.WorkerId = NextCpu < CpuWorkers.size() ? CpuWorkers[NextCpu] : -1;
    Cpu.Node = HostNode;
    Members.push_back(Cpu);
  }

  CpuThreads = Config.CpuThreads ? static_cast<int>(Config.CpuThreads)
                                 : std::max(1, Cores - NumGpus);

  std::string List;
  for (const Member &M : Members)
    List += (List.empty() ? "" : ", ") + M.name();
  info(1,
       "pool: %s (%d cores, %d StarPU CPU workers, CPU pool kernels on "
       "%d threads)",
       List.c_str(), Cores, static_cast<int>(CpuWorkers.size()), CpuThreads);
}

llvm::Error HeteroPluginTy::deinit() {
  if (!Initialized)
    return llvm::Error::success();
  if (Config.Stats) {
    TransferStats &T = Layer->stats();
    Stats.print(stderr, T.BytesH2D, T.BytesD2D, T.BytesD2H);
    fflush(stderr);
  }
  Pool.stop();
  // Device storage goes back before the back ends tear their devices down.
  Layer.reset();
  if (Cuda)
    if (auto Err = Cuda->deinit())
      llvm::consumeError(std::move(Err));
  if (auto Err = Host->deinit())
    llvm::consumeError(std::move(Err));
  Initialized = DeviceInitialized = false;
  return llvm::Error::success();
}

int32_t HeteroPluginTy::is_plugin_compatible(__tgt_device_image *Image) {
  // libomptarget no longer tells plugins the `requires` flags: they come as
  // an entry of the binary's offload table.
  for (const __tgt_offload_entry *E = Image->EntriesBegin;
       E && E != Image->EntriesEnd; ++E)
    if (E->flags == OMP_REGISTER_REQUIRES)
      Requires |= E->data;
  // The back ends only read the ELF header here; they need not be started.
  uint16_t Machine = elfMachine(Image);
  info(3, "image %p: ELF machine %u", Image->ImageStart, Machine);
  if (Machine == llvm::ELF::EM_X86_64) {
    Images.add(Image, ImageKind::Host);
    return true;
  }
  if (Machine == llvm::ELF::EM_CUDA) {
    Images.add(Image, ImageKind::Cuda);
    return true;
  }
  return false;
}

int32_t HeteroPluginTy::load_binary(int32_t, __tgt_device_image *TgtImage,
                                    __tgt_device_binary *Binary) {
  ImageGroup *G = Images.groupOf(TgtImage);
  info(3, "load_binary %p: %s", TgtImage->ImageStart, G ? "known" : "unknown");
  if (!G)
    return OFFLOAD_FAIL;
  if (!G->Loaded) {
    if (G->HostImage) {
      G->HostLoaded =
          Host->load_binary(0, G->HostImage, &G->HostBinary) == OFFLOAD_SUCCESS;
      if (!G->HostLoaded)
        error("the x86_64 image did not load; CPU members cannot run it");
    } else {
      warning("binary has no x86_64 offload image (build with "
              "-fopenmp-targets=hetero): only GPUs can run its kernels");
    }
    G->SimBinaries.assign(NumSimulated, __tgt_device_binary{0});
    G->SimLoaded.assign(NumSimulated, false);
    for (int S = 0; G->HostImage && S < NumSimulated; ++S)
      G->SimLoaded[S] =
          Host->load_binary(1 + S, G->HostImage, &G->SimBinaries[S]) ==
          OFFLOAD_SUCCESS;
    G->CudaBinaries.assign(NumCudaDevices, __tgt_device_binary{0});
    G->CudaLoaded.assign(NumCudaDevices, false);
    G->CudaImageOf.assign(NumCudaDevices, nullptr);
    for (int D = 0; D < NumCudaDevices; ++D) {
      if (!CudaUsable[D])
        continue;
      bool Compatible = false;
      for (__tgt_device_image *Img : G->CudaImages) {
        if (!Cuda->is_device_compatible(D, Img))
          continue;
        Compatible = true;
        if (Cuda->load_binary(D, Img, &G->CudaBinaries[D]) == OFFLOAD_SUCCESS) {
          G->CudaLoaded[D] = true;
          G->CudaImageOf[D] = Img;
          break;
        }
      }
      if (!G->CudaLoaded[D])
        error("GPU %d cannot run this binary (%s); its kernels run elsewhere",
              D,
              Compatible ? "image failed to load"
                         : "no NVPTX image for its architecture");
    }
    G->Loaded = true;
    loadIndirectFunctions(*G);
  }
  Binary->handle = reinterpret_cast<uintptr_t>(G);
  return OFFLOAD_SUCCESS;
}

void HeteroPluginTy::loadIndirectFunctions(ImageGroup &G) {
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
      if (M.Kind == MemberKind::CpuPool) {
        PerMember[I] = Key;
      } else if (M.Kind == MemberKind::Simulated) {
        if (G.SimLoaded[M.Index] &&
            Host->get_global(G.SimBinaries[M.Index], sizeof(void *), E->name,
                             &Slot) == OFFLOAD_SUCCESS)
          memcpy(&PerMember[I], Slot, sizeof(uintptr_t));
      } else if (G.CudaLoaded[M.Index] &&
                 Cuda->get_global(G.CudaBinaries[M.Index], sizeof(void *),
                                  E->name, &Slot) == OFFLOAD_SUCCESS &&
                 Cuda->data_retrieve(M.Index, &PerMember[I], Slot,
                                     sizeof(uintptr_t)) != OFFLOAD_SUCCESS) {
        PerMember[I] = 0;
      }
    }
    info(2, "indirect function %s: %zu member addresses", E->name,
         PerMember.size());
    Indirect.add(Key, std::move(PerMember));
  }
}

int32_t HeteroPluginTy::get_function(__tgt_device_binary Binary,
                                     const char *Name, void **KernelPtr) {
  auto *G = reinterpret_cast<ImageGroup *>(Binary.handle);
  auto K = std::make_unique<HeteroKernel>();
  K->Name = Name;
  bool Any = false;
  if (G->HostLoaded)
    Any |= Host->get_function(G->HostBinary, Name, &K->HostKernel) ==
           OFFLOAD_SUCCESS;
  K->SimKernels.assign(NumSimulated, nullptr);
  for (int S = 0; S < NumSimulated; ++S)
    if (G->SimLoaded[S] &&
        Host->get_function(G->SimBinaries[S], Name, &K->SimKernels[S]) !=
            OFFLOAD_SUCCESS)
      K->SimKernels[S] = nullptr;
  K->CudaKernels.assign(NumCudaDevices, nullptr);
  for (int D = 0; D < NumCudaDevices; ++D)
    if (G->CudaLoaded[D] &&
        Cuda->get_function(G->CudaBinaries[D], Name, &K->CudaKernels[D]) !=
            OFFLOAD_SUCCESS)
      K->CudaKernels[D] = nullptr;
    else
      Any |= K->CudaKernels[D] != nullptr;
  if (!Any)
    return OFFLOAD_FAIL;
  loadDescriptor(*G, *K);
  std::lock_guard<std::mutex> Lock(KernelsMutex);
  *KernelPtr = K.get();
  Kernels.push_back(std::move(K));
  return OFFLOAD_SUCCESS;
}

int32_t HeteroPluginTy::get_global(__tgt_device_binary Binary, uint64_t Size,
                                   const char *Name, void **DevicePtr) {
  auto *G = reinterpret_cast<ImageGroup *>(Binary.handle);
  if (!G->HostLoaded) {
    error("global '%s' needs the x86_64 image", Name);
    return OFFLOAD_FAIL;
  }
  // The host image's copy is the global's hetero address.
  void *HostAddr = nullptr;
  if (Host->get_global(G->HostBinary, Size, Name, &HostAddr) != OFFLOAD_SUCCESS)
    return OFFLOAD_FAIL;
  // A const global (read-only pages) is never written on any member.
  Layer->registerExternal(HostAddr, Size,
                          !isHostMemoryWritable(HostAddr, Size));
  for (const Member &M : Members) {
    if (M.Kind == MemberKind::Simulated && G->SimLoaded[M.Index]) {
      void *SimAddr = nullptr;
      if (Host->get_global(G->SimBinaries[M.Index], Size, Name, &SimAddr) ==
          OFFLOAD_SUCCESS)
        Layer->setExternalNodeStorage(HostAddr, M.Node, SimAddr);
    }
    if (M.Kind == MemberKind::Gpu && G->CudaLoaded[M.Index]) {
      void *GpuAddr = nullptr;
      if (Cuda->get_global(G->CudaBinaries[M.Index], Size, Name, &GpuAddr) ==
          OFFLOAD_SUCCESS)
        Layer->setExternalNodeStorage(HostAddr, M.Node, GpuAddr);
    }
  }
  *DevicePtr = HostAddr;
  return OFFLOAD_SUCCESS;
}

void *HeteroPluginTy::data_alloc(int32_t, int64_t Size, void *HostPtr,
                                 int32_t Kind) {
  if (Size < 0)
    return nullptr;
  void *P = Layer->allocate(static_cast<uint64_t>(Size));
  if (!P) {
    error("cannot allocate a %s device buffer: the host, which holds every "
          "buffer of the hetero device, has %s available",
          byteText(static_cast<uint64_t>(Size)).c_str(),
          byteText(availableHostMemory()).c_str());
    return nullptr;
  }
  // Memory the host touches directly: the data layer then treats the host
  // copy as the truth around every kernel. TARGET_ALLOC_HOST/SHARED memory,
  // and, under `requires unified_shared_memory`, omp_target_alloc memory
  // (no host pointer: maps pass theirs), which the host may dereference.
  bool Usm = Requires & OMP_REQ_UNIFIED_SHARED_MEMORY;
  if (Kind == TARGET_ALLOC_HOST || Kind == TARGET_ALLOC_SHARED ||
      (Usm && !HostPtr))
    Layer->setHostResident(P);
  return P;
}

void HeteroPluginTy::loadDescriptor(ImageGroup &G, HeteroKernel &K) {
  K.Windows.assign(Members.size(), {});
  std::string DescName = K.Name + "_hetero_desc";
  void *Text = nullptr;
  if (!G.HostLoaded || !imageDefinesSymbol(G.HostImage, DescName) ||
      Host->get_global(G.HostBinary, 0, DescName.c_str(), &Text) !=
          OFFLOAD_SUCCESS ||
      !Text) {
    K.NoSplit = "no descriptor (not compiled with -fopenmp-targets=hetero)";
    return;
  }
  auto D = std::make_unique<KernelDescriptor>();
  std::string Err;
  if (!KernelDescriptor::parse(static_cast<const char *>(Text), *D, Err)) {
    warning("kernel %s: unreadable descriptor (%s); it runs unsplit",
            K.Name.c_str(), Err.c_str());
    K.NoSplit = "unreadable descriptor";
    return;
  }
  K.Desc = std::move(D);
  if (!K.Desc->splittable())
    return;
  std::string WindowName = K.Name + "_hetero_window";
  const uint64_t WindowSize = 3 * sizeof(int64_t);
  for (size_t I = 0; I < Members.size(); ++I) {
    const Member &M = Members[I];
    void *Addr = nullptr;
    int32_t Rc = OFFLOAD_FAIL;
    if (!hasKernel(M, K))
      continue;
    if (M.Kind == MemberKind::Gpu) {
      __tgt_device_image *Img = G.CudaImageOf[M.Index];
      if (Img && imageDefinesSymbol(Img, WindowName))
        Rc = Cuda->get_global(G.CudaBinaries[M.Index], WindowSize,
                              WindowName.c_str(), &Addr);
    } else if (imageDefinesSymbol(G.HostImage, WindowName)) {
      __tgt_device_binary Bin = M.Kind == MemberKind::Simulated
                                    ? G.SimBinaries[M.Index]
                                    : G.HostBinary;
      Rc = Host->get_global(Bin, WindowSize, WindowName.c_str(), &Addr);
    }
    if (Rc == OFFLOAD_SUCCESS)
      K.Windows[I].Addr = Addr;
  }
  std::string With;
  for (size_t I = 0; I < Members.size(); ++I)
    With += (K.Windows[I].Addr ? " " : " no-") + Members[I].name();
  info(2, "kernel %s: splittable; loop window on:%s", K.Name.c_str(),
       With.c_str());
}

bool HeteroPluginTy::offGpu(const HeteroKernel &K) const {
  if (!K.Desc || K.Desc->hostOnly().empty())
    return false;
  // Only when a CPU member can run it: else the GPU is the only way.
  for (int S = 0; S < NumSimulated; ++S)
    if (K.SimKernels[S])
      return true;
  return K.HostKernel != nullptr;
}

bool HeteroPluginTy::hasKernel(const Member &M, const HeteroKernel &K) const {
  switch (M.Kind) {
  case MemberKind::Gpu:
    return K.CudaKernels[M.Index] != nullptr;
  case MemberKind::Simulated:
    return K.SimKernels[M.Index] != nullptr;
  case MemberKind::CpuPool:
    return K.HostKernel != nullptr;
  }
  return false;
}

bool HeteroPluginTy::setWindow(const Member &M, WindowSlot &W, uint64_t Lo,
                               uint64_t Hi, bool Active) {
  int64_t V[3] = {0, 0, 0};
  if (Active) {
    V[0] = static_cast<int64_t>(Lo);
    V[1] = static_cast<int64_t>(Hi);
    V[2] = 1;
  }
  if (!W.Addr || memcmp(V, W.Value, sizeof(V)) == 0)
    return true;
  if (M.Kind == MemberKind::Gpu) {
    if (Cuda->data_submit(M.Index, W.Addr, V, sizeof(V)) != OFFLOAD_SUCCESS)
      return false;
  } else {
    memcpy(W.Addr, V, sizeof(V)); // the image's global, in this process
  }
  memcpy(W.Value, V, sizeof(V));
  return true;
}

bool HeteroPluginTy::launchOn(const Member &M, HeteroKernel &K,
                              std::vector<uintptr_t> &NodeArgs,
                              KernelArgsTy KA) {
  // KA is a copy: the back ends adjust the argument count in place.
  std::vector<uintptr_t> Args = NodeArgs;
  Indirect.translate(static_cast<size_t>(&M - Members.data()), Args);
  std::vector<ptrdiff_t> Offsets(Args.size(), 0);
  void **ArgPtrs = reinterpret_cast<void **>(Args.data());
  if (M.Kind == MemberKind::Gpu)
    return Cuda->launch_kernel(M.Index, K.CudaKernels[M.Index], ArgPtrs,
                               Offsets.data(), &KA, nullptr) == OFFLOAD_SUCCESS;
  // The kernel's thread_limit clause (libomptarget passes it, or a
  // num_threads clause, in ThreadLimit[0]); else the CPU pool's own size.
  int Clause = static_cast<int>(std::min<uint32_t>(KA.ThreadLimit[0], INT_MAX));
  ScopedThreadLimit Limit(Clause > 0                      ? Clause
                          : M.Kind == MemberKind::CpuPool ? CpuThreads
                                                          : 0);
  if (M.Kind == MemberKind::Simulated)
    return Host->launch_kernel(1 + M.Index, K.SimKernels[M.Index], ArgPtrs,
                               Offsets.data(), &KA, nullptr) == OFFLOAD_SUCCESS;
  return Host->launch_kernel(0, K.HostKernel, ArgPtrs, Offsets.data(), &KA,
                             nullptr) == OFFLOAD_SUCCESS;
}

bool HeteroPluginTy::runOn(const Member &M, HeteroKernel &K,
                           std::vector<uintptr_t> &Args,
                           const KernelArgsTy &KernelArgs) {
  size_t Index = &M - Members.data();
  auto Launch = [&]() -> bool {
    // A whole launch: the window from an earlier split must be off.
    if (!setWindow(M, K.Windows[Index], 0, 0, /*Active=*/false))
      return false;
    return launchOn(M, K, Args, KernelArgs);
  };
  if (M.WorkerId < 0)
    return Launch();
  return Pool.runOn(M.WorkerId, Launch);
}

void HeteroPluginTy::keepOneKind(const HeteroKernel &K,
                                 std::vector<size_t> &Index,
                                 std::vector<SplitMember> &Split) const {
  if (K.Desc->oneKind().empty())
    return;
  auto IsGpu = [&](size_t I) {
    return Members[Index[I]].Kind == MemberKind::Gpu;
  };
  bool AnyGpu = false;
  for (size_t I = 0; I < Split.size(); ++I)
    AnyGpu |= IsGpu(I);
  // The GPUs when they take part (they have the throughput), else the
  // CPU-side members, which all run the same x86_64 code.
  size_t Kept = 0;
  for (size_t I = 0; I < Split.size(); ++I)
    if (IsGpu(I) == AnyGpu) {
      Index[Kept] = Index[I];
      Split[Kept++] = Split[I];
    }
  if (Kept < Split.size())
    info(2, "kernel %s: %s only (%s)", K.Name.c_str(),
         AnyGpu ? "GPUs" : "CPU-side members", K.Desc->oneKind().c_str());
  Index.resize(Kept);
  Split.resize(Kept);
}

SplitOutcome HeteroPluginTy::trySplit(HeteroKernel &K, void **TgtArgs,
                                      ptrdiff_t *TgtOffsets,
                                      const KernelArgsTy &KernelArgs,
                                      KernelStats::Launch &Rec) {
  if (!Config.Member.empty()) {
    Rec.Reason = "HETERO_MEMBER runs every kernel whole on one member";
    return SplitOutcome::NotSplit;
  }
  if (!K.Desc || !K.Desc->splittable()) {
    Rec.Reason = K.Desc ? K.Desc->reason() : K.NoSplit;
    return SplitOutcome::NotSplit;
  }
  std::vector<uintptr_t> Raw(KernelArgs.NumArgs);
  for (uint32_t A = 0; A < KernelArgs.NumArgs; ++A)
    Raw[A] = reinterpret_cast<uintptr_t>(TgtArgs[A]);
  std::vector<size_t> Index; // split member -> pool member
  std::vector<SplitMember> Split;
  for (size_t I = 0; I < Members.size(); ++I) {
    const Member &M = Members[I];
    if (M.Failed || !K.Windows[I].Addr || !hasKernel(M, K) ||
        (M.Kind == MemberKind::Gpu && offGpu(K)) || !Indirect.covers(I, Raw))
      continue;
    // A static estimate (memory bandwidth of a GPU over the node's cores);
    // HETERO_MEMBERS overrides it.
    double Weight = Config.weightOf(M.name(), defaultWeight(M));
    if (Weight <= 0)
      continue;
    Index.push_back(I);
    Split.push_back({M.Node, M.WorkerId, Weight, M.name()});
  }
  if (Split.empty()) {
    Rec.Reason = "no member that takes chunks has the kernel's loop window";
    return SplitOutcome::NotSplit;
  }
  keepOneKind(K, Index, Split);
  SplitLaunchInput In;
  In.Desc = K.Desc.get();
  In.Args.resize(KernelArgs.NumArgs);
  In.Offsets.resize(KernelArgs.NumArgs);
  for (uint32_t A = 0; A < KernelArgs.NumArgs; ++A) {
    In.Args[A] = reinterpret_cast<uintptr_t>(TgtArgs[A]);
    In.Offsets[A] = TgtOffsets[A];
  }
  In.TripCount = KernelArgs.Tripcount;
  In.ChunksPerMember = Config.Chunks;
  In.MinChunk = Config.MinChunk;
  auto Launch = [&](size_t S, uint64_t Lo, uint64_t Hi,
                    std::vector<uintptr_t> &NodeArgs) {
    const Member &M = Members[Index[S]];
    if (!setWindow(M, K.Windows[Index[S]], Lo, Hi, /*Active=*/true))
      return false;
    KernelArgsTy KA = KernelArgs;
    KA.Tripcount = Hi - Lo; // sizes the GPU grid for the window
    return launchOn(M, K, NodeArgs, KA);
  };
  auto Run =
      [&](const std::vector<std::pair<int, std::function<bool()>>> &Tasks) {
        return Pool.runAll(Tasks);
      };
  SplitResult R = launchSplit(*Layer, In, Split, Launch, Run);
  for (size_t F : R.NoRoomMembers)
    warning("kernel %s: %s has no room for its chunks' data; the other "
            "members take its iterations",
            K.Name.c_str(), Split[F].Name.c_str());
  for (size_t F : R.FailedMembers) {
    Member &M = Members[Index[F]];
    M.Failed = true;
    error("kernel %s failed on %s; %s leaves the pool, its chunks ran "
          "elsewhere",
          K.Name.c_str(), M.name().c_str(), M.name().c_str());
  }
  Rec.Split = R.Outcome == SplitOutcome::Done;
  Rec.Reason = R.Reason;
  for (size_t S = 0; S < Split.size() && S < R.Usage.size(); ++S)
    if (R.Usage[S].Iterations || R.Usage[S].BusySeconds > 0)
      Rec.Members.push_back({Split[S].Name, R.Usage[S]});
  if (R.Outcome == SplitOutcome::Done) {
    std::string Who;
    for (const auto &[Name, U] : Rec.Members)
      Who +=
          (Who.empty() ? "" : ", ") + Name + ":" + std::to_string(U.Iterations);
    info(1, "launch %s split: %s", K.Name.c_str(), Who.c_str());
  } else if (R.Outcome == SplitOutcome::Failed) {
    error("kernel %s: %s", K.Name.c_str(), R.Reason.c_str());
  } else {
    info(2, "launch %s not split: %s", K.Name.c_str(), R.Reason.c_str());
  }
  return R.Outcome;
}

int32_t HeteroPluginTy::launch_kernel(int32_t, void *TgtEntryPtr,
                                      void **TgtArgs, ptrdiff_t *TgtOffsets,
                                      KernelArgsTy *KernelArgs,
                                      __tgt_async_info *) {
  auto &K = *static_cast<HeteroKernel *>(TgtEntryPtr);
  std::lock_guard<std::mutex> Lock(LaunchMutex);
  TransferStats &T = Layer->stats();
  uint64_t H2D = T.BytesH2D, D2D = T.BytesD2D, D2H = T.BytesD2H;
  KernelStats::Launch Rec;
  int32_t Rc = OFFLOAD_SUCCESS;
  switch (trySplit(K, TgtArgs, TgtOffsets, *KernelArgs, Rec)) {
  case SplitOutcome::Done:
    break;
  case SplitOutcome::Failed:
    Rc = OFFLOAD_FAIL;
    break;
  case SplitOutcome::NotSplit:
    Rc = launchWhole(K, TgtArgs, TgtOffsets, KernelArgs, Rec);
    break;
  }
  Rec.H2D = T.BytesH2D - H2D;
  Rec.D2D = T.BytesD2D - D2D;
  Rec.D2H = T.BytesD2H - D2H;
  if (Config.Stats)
    Stats.record(K.Name, Rec);
  return Rc;
}

int32_t HeteroPluginTy::launchWhole(HeteroKernel &K, void **TgtArgs,
                                    ptrdiff_t *TgtOffsets,
                                    KernelArgsTy *KernelArgs,
                                    KernelStats::Launch &Rec) {
  // TgtArgs hold begin addresses, inside their buffers; the offsets lead to
  // the bases, which may lie outside (a[100:200] passes &a[0]). Translate
  // first, offset after.
  std::vector<uintptr_t> Args(KernelArgs->NumArgs);
  for (uint32_t I = 0; I < KernelArgs->NumArgs; ++I)
    Args[I] = reinterpret_cast<uintptr_t>(TgtArgs[I]);

  bool NoGpu = offGpu(K);
  if (NoGpu)
    info(1, "launch %s: CPU members only (%s)", K.Name.c_str(),
         K.Desc->hostOnly().c_str());
  LaunchChoice Choice = chooseMembers(
      Members,
      [&](const Member &M) {
        return hasKernel(M, K) && !(NoGpu && M.Kind == MemberKind::Gpu) &&
               Indirect.covers(static_cast<size_t>(&M - Members.data()), Args);
      },
      Config.Member,
      [&](const Member &M) { return Config.weightOf(M.name(), 1) > 0; });
  if (Choice.Order.empty()) {
    error("no pool member can run kernel %s", K.Name.c_str());
    return OFFLOAD_FAIL;
  }
  for (size_t I = 0; I < Choice.Order.size(); ++I) {
    const Member &M = *Choice.Order[I];
    std::vector<uintptr_t> Translated = Args;
    std::vector<Buffer *> Touched;
    info(2, "launch %s: moving its data to %s", K.Name.c_str(),
         M.name().c_str());
    if (!Layer->acquireWhole(M.Node, Translated, Touched)) {
      warning("kernel %s does not fit on %s; trying the next member",
              K.Name.c_str(), M.name().c_str());
      continue;
    }
    for (size_t A = 0; A < Translated.size(); ++A)
      Translated[A] += TgtOffsets[A];
    info(2, "launch %s: %zu buffers on %s, running", K.Name.c_str(),
         Touched.size(), M.name().c_str());
    auto Start = std::chrono::steady_clock::now();
    if (runOn(M, K, Translated, *KernelArgs)) {
      Layer->releaseWhole(M.Node, Touched);
      MemberUsage U;
      U.Iterations = KernelArgs->Tripcount;
      U.BusySeconds = std::chrono::duration<double>(
                          std::chrono::steady_clock::now() - Start)
                          .count();
      Rec.Members.push_back({M.name(), U});
      info(1, "launch %s on %s (whole kernel: %s), not split: %s",
           K.Name.c_str(), M.name().c_str(),
           I == 0 ? Choice.Reason.c_str() : "fallback", Rec.Reason.c_str());
      return OFFLOAD_SUCCESS;
    }
    // The member's copies may be half written: drop them if every buffer
    // still has a valid copy elsewhere, then retry on the next member.
    if (!Layer->discardNode(M.Node, Touched)) {
      error("kernel %s failed on %s and its data lived only there",
            K.Name.c_str(), M.name().c_str());
      return OFFLOAD_FAIL;
    }
    const_cast<Member &>(M).Failed = true;
    error("kernel %s failed on %s; %s leaves the pool", K.Name.c_str(),
          M.name().c_str(), M.name().c_str());
  }
  error("kernel %s could not run on any pool member", K.Name.c_str());
  return OFFLOAD_FAIL;
}

void HeteroPluginTy::print_device_info(int32_t) {
  printf("hetero device: one OpenMP device over %zu pool members\n",
         Members.size());
  for (const Member &M : Members)
    printf("    %-8s memory node %d%s\n", M.name().c_str(), M.Node,
           M.Failed ? " (failed)" : "");
}

} // namespace
} // namespace hetero

extern "C" GenericPluginTy *createPlugin_hetero() {
  return new hetero::HeteroPluginTy();
}

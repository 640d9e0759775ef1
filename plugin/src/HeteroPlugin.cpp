//===- HeteroPlugin.cpp - libomptarget plugin "hetero" --------------------===//
//
// One OpenMP device made of every GPU and CPU core of the node. This file
// only speaks libomptarget: each entry point becomes a call to the engine
// (runtime/: Engine.h decides and runs launches, DataLayer.h keeps the data)
// or to the back ends (PluginBackend.h: LLVM's cuda and host plugins, which run
// the kernels), and a failure becomes libomptarget's error code, with its
// message printed here, once.
//
//===----------------------------------------------------------------------===//
#include "CpuTeam.h"
#include "PluginBackend.h"
#include "PoolStart.h"
#include "WorkersAtExit.h"

#include "hetero/Log.h"
#include "hetero/Settings.h"
#include "hetero/Trace.h"

#include "PluginInterface.h"
#include "Shared/Requirements.h"
#include "omptarget.h"

#include "llvm/BinaryFormat/ELF.h"

#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <unistd.h>

using namespace llvm::omp::target::plugin;

namespace hetero {
namespace {

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

/// A data entry point's result; its failure printed here.
int32_t result(const Status &S) {
  if (S)
    return OFFLOAD_SUCCESS;
  error("%s", S.message().c_str());
  return OFFLOAD_FAIL;
}

class HeteroPluginTy final : public GenericPluginTy {
public:
  HeteroPluginTy()
      : GenericPluginTy(llvm::Triple::x86_64),
        Layer(std::make_unique<DataLayer>()), Back(Config, *Layer) {}
  ~HeteroPluginTy() override {
    // Without deinit: the start's thread must not outlive the workers it
    // hands to the exit handler.
    (void)Start.wait([](const std::string &) {});
    forgetWorkersAtExit();
  }

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
  int32_t is_device_compatible(int32_t, __tgt_device_image *) override {
    return true; // is_plugin_compatible took only images hetero can run
  }
  int32_t is_device_initialized(int32_t DeviceId) const override {
    return DeviceId == 0 && DeviceInitialized;
  }
  // At registration, before main(): answered without waiting for the
  // pool's start (PoolStart.h). The device exists whatever the start finds:
  // init() starts in the background only where a CPU member is certain.
  int32_t init_device(int32_t DeviceId) override {
    if (DeviceId != 0 || !Initialized)
      return OFFLOAD_FAIL;
    DeviceInitialized = true;
    return OFFLOAD_SUCCESS;
  }
  int32_t load_binary(int32_t, __tgt_device_image *TgtImage,
                      __tgt_device_binary *Binary) override;
  int32_t get_function(__tgt_device_binary Binary, const char *Name,
                       void **KernelPtr) override;
  int32_t get_global(__tgt_device_binary Binary, uint64_t Size,
                     const char *Name, void **DevicePtr) override;

  void *data_alloc(int32_t, int64_t Size, void *HostPtr, int32_t Kind) override;
  int32_t data_delete(int32_t, void *TgtPtr, int32_t) override {
    return ready() ? result(Layer->release(TgtPtr)) : OFFLOAD_FAIL;
  }
  int32_t data_submit(int32_t, void *TgtPtr, void *HstPtr,
                      int64_t Size) override {
    return ready() ? result(Layer->write(TgtPtr, HstPtr, Size)) : OFFLOAD_FAIL;
  }
  int32_t data_submit_async(int32_t Id, void *TgtPtr, void *HstPtr,
                            int64_t Size, __tgt_async_info *) override {
    return data_submit(Id, TgtPtr, HstPtr, Size);
  }
  int32_t data_retrieve(int32_t, void *HstPtr, void *TgtPtr,
                        int64_t Size) override {
    return ready() ? result(Layer->read(HstPtr, TgtPtr, Size)) : OFFLOAD_FAIL;
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
    return ready() ? result(Layer->copy(DstPtr, SrcPtr, Size)) : OFFLOAD_FAIL;
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

  int32_t launch_kernel(int32_t, void *TgtEntryPtr, void **TgtArgs,
                        ptrdiff_t *TgtOffsets, KernelArgsTy *KernelArgs,
                        __tgt_async_info *) override;
  // Every operation completes before it returns, but for launches that ran
  // ahead (Engine.h), which whatever touches their data waits for: queues
  // are always empty. The interop queue stands for the whole pool: waiting
  // on it waits until no launch is running on any member, run-ahead ones
  // included (foreign code may touch device memory through it).
  int32_t synchronize(int32_t, __tgt_async_info *AsyncInfo) override {
    if (AsyncInfo && AsyncInfo->Queue == &PoolQueue && ready())
      return result(Run->waitIdle());
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
  /// hetero-info's report; false when the pool has no member.
  bool describe(FILE *Out) {
    if (!ready())
      return false;
    Back.describe(Out, Workers);
    return !Back.members().empty();
  }
  void set_info_flag(uint32_t Level) override {
    if (ready())
      Back.setInfoFlag(Level);
  }
  // Called at registration (with OMPT): kept until the pool has started.
  int32_t set_device_identifier(int32_t UserId, int32_t) override {
    DeviceIdentifier = UserId;
    if (Start.done() && Start.wait([](const std::string &) {}).empty())
      Back.setDeviceIdentifier(UserId);
    return OFFLOAD_SUCCESS;
  }
  int32_t use_auto_zero_copy(int32_t) override { return 0; }
  int32_t initialize_record_replay(int32_t, int64_t, void *, bool, bool,
                                   uint64_t &) override {
    error("record and replay are not supported by hetero");
    return OFFLOAD_FAIL;
  }

private:
  /// Starts the back ends and the engine (on PoolStart's thread, or here);
  /// returns why the pool cannot run kernels, "" when it can. Settings the
  /// pool cannot honour go to StartSettingErrors.
  std::string startPool();
  /// Waits for the pool's start; false (said once) when it failed. A
  /// setting the pool cannot honour stops the program here, before any
  /// data or kernel reaches the device.
  bool ready();

  bool Initialized = false;
  bool DeviceInitialized = false;
  Settings Config;
  std::unique_ptr<DataLayer> Layer;
  PluginBackend Back;
  StarPUWorkers Workers;
  std::unique_ptr<Engine> Run;
  PoolStart Start;
  std::vector<std::string> StartSettingErrors;
  std::atomic<int32_t> DeviceIdentifier{-1};
  // `requires` flags of the loaded binaries (OMP_REQ_*).
  std::atomic<int64_t> Requires{0};
  // What interop's targetsync queue points to (never dereferenced).
  int PoolQueue = 0;
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
  for (const std::string &W : unknownSettings(environment()))
    warning("%s", W.c_str());
  if (!Config.TraceFile.empty())
    if (Status S = trace::start(Config.TraceFile); !S)
      stopOnSettings({S.message()});
  Back.prepare();
  // The pool starts on a thread of its own, while the program runs
  // (PoolStart.h), but here where it may turn out empty (libomptarget can
  // then leave the plugin out and run the host fallback), and where a
  // setting names members or counts them: that is checked against the pool
  // now, before main, like a malformed one, not at the first offload after
  // the program has run for a while. (Here, not on the thread and waited
  // for: a library dlopen'ed with offload code registers under the dynamic
  // loader's lock, which the start needs.)
  bool Certain = PluginBackend::cpuSideAvailable();
  if (Certain && !Config.dependsOnPool()) {
    Start.begin([this] { return startPool(); });
  } else {
    std::string Why = startPool();
    if (!StartSettingErrors.empty())
      stopOnSettings(StartSettingErrors);
    if (!Why.empty()) {
      llvm::StringRef Text(Why);
      Text.consume_front("hetero: "); // the back ends' own prefix
      if (Certain) // a pool with CPU cores that did not start: say why
        error("the pool did not start: %s", Text.str().c_str());
      return llvm::createStringError(llvm::inconvertibleErrorCode(), "%s",
                                     Why.c_str());
    }
    Start.ranHere(Why);
  }
  Initialized = true;
  return llvm::Error::success();
}

std::string HeteroPluginTy::startPool() {
  std::vector<std::string> Errors;
  if (auto Err = Back.start(Workers, Errors))
    return llvm::toString(std::move(Err));
  std::vector<std::string> Names;
  for (const Member &M : Back.members())
    Names.push_back(M.name());
  if (Errors.empty())
    checkSettingsAgainstPool(Config, Names, availableCores(), Errors);
  if (!Errors.empty()) {
    StartSettingErrors = std::move(Errors);
    return "a setting the pool cannot honour";
  }
  auto Runner =
      [this](const std::vector<std::pair<int, std::function<bool()>>> &Tasks) {
        return Workers.runAll(Tasks);
      };
  Run = std::make_unique<Engine>(Config, *Layer, Back.members(), Back, Runner);
  if (Workers.started())
    stopWorkersAtExit(Workers);
  return "";
}

bool HeteroPluginTy::ready() {
  const std::string &Why = Start.wait([this](const std::string &Error) {
    if (!StartSettingErrors.empty())
      stopOnSettings(StartSettingErrors);
    if (!Run) {
      // The back ends' messages begin with "hetero: " already.
      llvm::StringRef Text(Error);
      Text.consume_front("hetero: ");
      error("the pool did not start: %s", Text.str().c_str());
    } else if (DeviceIdentifier >= 0) {
      Back.setDeviceIdentifier(DeviceIdentifier);
    }
  });
  return Why.empty() && Run;
}

llvm::Error HeteroPluginTy::deinit() {
  if (!Initialized)
    return llvm::Error::success();
  // A program that never used the device still waits for the start here,
  // before the pool is taken down.
  bool Started = ready();
  PhaseTimes Times;
  if (Started) {
    Run->printStats(stderr);
    Run->saveShares();
  }
  if (Status S = trace::finish(); !S)
    warning("%s", S.message().c_str());
  reportRepeatedWarnings();
  Times.mark("statistics and shares");
  forgetWorkersAtExit();
  retireOpenMPHelpers(); // before the workers exit (CpuTeam.h)
  Workers.stop();
  Times.mark("StarPU");
  Run.reset();
  // Device storage goes back before the back ends tear their devices down.
  Layer.reset();
  Times.mark("device storage");
  Back.stop();
  Times.mark("back ends");
  Times.report("stop");
  Initialized = DeviceInitialized = false;
  return llvm::Error::success();
}

int32_t HeteroPluginTy::is_plugin_compatible(__tgt_device_image *Image) {
  // Whether a GPU of this process runs an NVPTX image is known once the
  // CUDA driver has started (init, which libomptarget calls next anyway):
  // an image no member can run is not claimed, so that a binary with NVPTX
  // images only falls back to the host where no GPU runs them, as it does
  // under the stock plugins.
  if (!Initialized)
    if (auto Err = init()) {
      llvm::consumeError(std::move(Err));
      return false;
    }
  // libomptarget no longer tells plugins the `requires` flags: they come as
  // an entry of the binary's offload table.
  for (const __tgt_offload_entry *E = Image->EntriesBegin;
       E && E != Image->EntriesEnd; ++E)
    if (E->flags == OMP_REGISTER_REQUIRES)
      Requires |= E->data;
  return Back.addImage(Image);
}

int32_t HeteroPluginTy::load_binary(int32_t, __tgt_device_image *TgtImage,
                                    __tgt_device_binary *Binary) {
  if (!ready())
    return OFFLOAD_FAIL;
  ImageGroup *G = Back.loadBinary(TgtImage);
  if (!G)
    return OFFLOAD_FAIL;
  if (!G->IndirectLoaded) {
    Back.loadIndirectFunctions(*G, Run->indirect());
    G->IndirectLoaded = true;
  }
  Binary->handle = reinterpret_cast<uintptr_t>(G);
  return OFFLOAD_SUCCESS;
}

int32_t HeteroPluginTy::get_function(__tgt_device_binary Binary,
                                     const char *Name, void **KernelPtr) {
  if (!ready())
    return OFFLOAD_FAIL;
  auto *G = reinterpret_cast<ImageGroup *>(Binary.handle);
  HeteroKernel *K = Back.kernel(*G, Name);
  if (!K)
    return OFFLOAD_FAIL;
  *KernelPtr = K;
  return OFFLOAD_SUCCESS;
}

int32_t HeteroPluginTy::get_global(__tgt_device_binary Binary, uint64_t Size,
                                   const char *Name, void **DevicePtr) {
  if (!ready())
    return OFFLOAD_FAIL;
  auto *G = reinterpret_cast<ImageGroup *>(Binary.handle);
  *DevicePtr = Back.global(*G, Size, Name);
  return *DevicePtr ? OFFLOAD_SUCCESS : OFFLOAD_FAIL;
}

void *HeteroPluginTy::data_alloc(int32_t, int64_t Size, void *HostPtr,
                                 int32_t Kind) {
  if (Size < 0 || !ready())
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

int32_t HeteroPluginTy::launch_kernel(int32_t, void *TgtEntryPtr,
                                      void **TgtArgs, ptrdiff_t *TgtOffsets,
                                      KernelArgsTy *KernelArgs,
                                      __tgt_async_info *) {
  if (!ready())
    return OFFLOAD_FAIL;
  BackEndLaunch Launch;
  Launch.Kernel = Back.knownKernel(TgtEntryPtr);
  if (!Launch.Kernel) {
    error("a target region whose kernel did not load was launched (see "
          "the message above); it cannot run");
    return OFFLOAD_FAIL;
  }
  Launch.Args = KernelArgs;
  LaunchRequest R;
  R.Kernel = &Launch.Kernel->Traits;
  R.BackendLaunch = &Launch;
  R.TripCount = KernelArgs->Tripcount;
  R.Args.reserve(KernelArgs->NumArgs);
  R.Offsets.reserve(KernelArgs->NumArgs);
  for (uint32_t A = 0; A < KernelArgs->NumArgs; ++A) {
    R.Args.push_back(reinterpret_cast<uintptr_t>(TgtArgs[A]));
    R.Offsets.push_back(TgtOffsets[A]);
  }
  return Run->launch(R) ? OFFLOAD_SUCCESS : OFFLOAD_FAIL;
}

void HeteroPluginTy::print_device_info(int32_t) {
  (void)ready(); // the members, as far as the start got
  const Pool &P = Run ? Run->pool() : Back.members();
  printf("hetero device: one OpenMP device over %zu pool members\n", P.size());
  for (const Member &M : P)
    printf("    %-8s memory node %d%s\n", M.name().c_str(), M.Node,
           M.Failed ? " (failed)" : "");
}

} // namespace
} // namespace hetero

extern "C" GenericPluginTy *createPlugin_hetero() {
  return new hetero::HeteroPluginTy();
}

// Exported from libomptarget.so (clang-patches/llvm/0005).

/// Whose libomptarget this is: a hetero-built program checks for it when it
/// starts under LIBOMPTARGET_PLUGIN=hetero (clang-patches/driver).
extern "C" __attribute__((visibility("default"))) const char *
__hetero_runtime_version() {
  return "hetero " HETERO_VERSION;
}

/// hetero-info: starts a pool of its own (not libomptarget's device), as a
/// program would, prints what it found and stops it. 0 when the pool has a
/// member; a pool that cannot start says why and returns 1.
extern "C" __attribute__((visibility("default"))) int __hetero_info(FILE *Out) {
  // The report gives the bus's bandwidths: StarPU measures them here where
  // it has none yet (programs leave them unmeasured, StarPUWorkers.cpp), and
  // the programs after it read them.
  setenv("STARPU_BUS_SAMPLING", "1", /*overwrite=*/0);
  hetero::HeteroPluginTy Plugin;
  if (auto Err = Plugin.init()) {
    fprintf(Out, "hetero-info: the pool did not start: %s\n",
            llvm::toString(std::move(Err)).c_str());
    return 1;
  }
  bool HasMembers = Plugin.describe(Out);
  fflush(Out);
  if (auto Err = Plugin.deinit())
    llvm::consumeError(std::move(Err));
  return HasMembers ? 0 : 1;
}

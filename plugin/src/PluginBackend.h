//===- PluginBackend.h - LLVM's plugins as pool members ---------*- C++ -*-===//
//
// hetero runs kernels through LLVM's own plugins: the cuda plugin (a device
// per GPU) and the host plugin (device 0 for the CPU pool, devices 1..n for
// the simulated accelerators, each with its own copy of the x86_64 image).
// This class starts them and StarPU's workers, makes their devices the pool's
// members (with memory nodes in the data layer; HETERO_GPU_SPLIT makes each
// GPU several members, its "slots"), loads every binary on every
// member, finds kernels, loop windows, descriptors, globals and indirect
// functions there (PluginBackendImages.cpp), and runs one chunk of a launch
// on one member: the engine's Backend, over LLVM's plugins. A CPU-side
// member's chunk runs here, on the host plugin; a GPU member's goes to its
// lane (GpuLanes.h) with its launch worked out here (prepareChunk).
// CudaNodeOps is its adapter of a GPU's memory.
//
//===----------------------------------------------------------------------===//
#ifndef HETERO_PLUGIN_PLUGINBACKEND_H
#define HETERO_PLUGIN_PLUGINBACKEND_H

#include "GpuLanes.h"
#include "ImageTable.h"

#include "hetero/Backend.h"
#include "hetero/CompilerAbi.h"
#include "hetero/DataLayer.h"
#include "hetero/Engine.h"
#include "hetero/Log.h"
#include "hetero/NodeShare.h"
#include "hetero/Settings.h"
#include "hetero/StarPUWorkers.h"

#include "PluginInterface.h"

#include "llvm/Support/Error.h"

#include <memory>
#include <mutex>
#include <string>
#include <unordered_set>
#include <vector>

namespace hetero {

class CudaStaging;

/// What get_function hands libomptarget: the kernel on every member.
struct HeteroKernel {
  KernelTraits Traits;
  std::unique_ptr<KernelDescriptor> Desc;
  void *HostKernel = nullptr;
  std::vector<void *> SimKernels;  // per simulated accelerator
  std::vector<void *> CudaKernels; // per GPU slot, null when absent
  /// The kernel as compiled on member M's back end (null: not loaded).
  void *compiledOn(const Member &M) const {
    return M.Kind == MemberKind::Gpu         ? CudaKernels[M.Index]
           : M.Kind == MemberKind::Simulated ? SimKernels[M.Index]
                                             : HostKernel;
  }
  /// Per member: its image's loop window (null: none), what was last
  /// written there, and the kernel's copy that reads it (CompilerAbi.h; the
  /// kernel itself in images from before the copy).
  struct Window {
    void *Addr = nullptr; // the image's window global, if it has one
    abi::LoopWindow Value;
    void *Entry = nullptr;
    /// The copy takes the window as arguments after the kernel's own
    /// (CompilerAbi.h: K_hetero_window_params) instead of from Addr.
    bool Params = false;
  };
  std::vector<Window> Windows;
};

/// What the plugin hands the engine with a launch (LaunchRequest's
/// BackendLaunch): the kernel and libomptarget's launch arguments.
struct BackEndLaunch {
  HeteroKernel *Kernel = nullptr;
  const KernelArgsTy *Args = nullptr;
};

class PluginBackend final : public Backend {
public:
  using GenericPluginTy = llvm::omp::target::plugin::GenericPluginTy;

  PluginBackend(const Settings &S, DataLayer &Layer)
      : Config(S), Layer(Layer) {}
  ~PluginBackend() override;

  /// The pool report of hetero-info (PoolReport.cpp): members, memories,
  /// peer access, bandwidths, versions, settings, what was left out.
  void describe(FILE *Out, const StarPUWorkers &Workers) const;

  /// What start() needs done before other threads run, on the thread that
  /// loads the plugin: the node's share of cores for this rank (the
  /// process's CPU affinity), the CUDA driver's start (whose exit handler
  /// must come before libomptarget's) and the environment StarPU reads.
  void prepare();
  /// Whether a CPU-side member can exist (the x86_64 image needs FMA): the
  /// pool then has a member whatever start() finds.
  static bool cpuSideAvailable();
  /// Starts the back ends and StarPU; fills the pool. An error when nothing
  /// can run kernels; a setting the back ends cannot honour goes to
  /// SettingErrors (the plugin then stops). May run on a thread of its own,
  /// after prepare(), while the program runs; nothing else may touch the
  /// back ends, the pool or the data layer's nodes until it returns.
  llvm::Error start(StarPUWorkers &Workers,
                    std::vector<std::string> &SettingErrors);
  void stop();
  const Pool &members() const { return Members; }
  GenericPluginTy &host() { return *Host; }

  /// Records an image libomptarget offers; false for a kind hetero cannot
  /// run, and for an NVPTX image no GPU of this process runs (after
  /// prepare()).
  bool addImage(__tgt_device_image *Image);
  /// Loads the binary of Image on every member (once).
  ImageGroup *loadBinary(__tgt_device_image *Image);
  /// Kernel Name of the binary on every member, with its descriptor and
  /// windows; null when no member has it.
  HeteroKernel *kernel(ImageGroup &G, const char *Name);
  /// Entry as a kernel kernel() made; null for anything else (libomptarget
  /// launches the host entry's address when get_function failed).
  HeteroKernel *knownKernel(void *Entry);
  /// Global Name of the binary: its hetero address (the x86_64 image's
  /// copy), every member's copy registered with the data layer.
  void *global(ImageGroup &G, uint64_t Size, const char *Name);
  /// The binary's `declare target indirect` functions on every member.
  void loadIndirectFunctions(ImageGroup &G, IndirectFunctions &Out);

  Status run(const void *Launch, const ChunkRun &C) override;
  /// GPU members' chunks start on a stream of their GPU.
  bool startsChunks(size_t M) const override;
  Status start(const void *Launch, const ChunkRun &C, StartedChunk &S) override;
  Status finish(StartedChunk &S) override;
  void release(StartedChunk &S) override;
  std::shared_ptr<const void> keepLaunch(const void *Launch) override;
  Status settle(size_t M) override;
  LaneOrder orderAfter(size_t W, size_t S) override;
  void issueHeld() override;

  void setInfoFlag(uint32_t Level);
  void setDeviceIdentifier(int32_t UserId);

private:
  /// Whether a GPU this process may use runs the NVPTX image.
  bool gpuRuns(__tgt_device_image *Image) const;
  void startCuda();
  void startCudaDevices();
  void addMembers(StarPUWorkers &Workers, int NumSim, bool CpuSide,
                  PhaseTimes &Times);
  /// Starts StarPU's workers for the pool's members; false (said) when
  /// StarPU did not start: kernels then run on the calling thread.
  bool startWorkers(StarPUWorkers &Workers, int NumSim);
  /// StarPU's CPU workers, handed out in order to the CPU-side members.
  struct WorkerQueue {
    std::vector<int> Ids;
    size_t Next = 0;
    /// The next worker, taken; -1 when none is left.
    int next() { return Next < Ids.size() ? Ids[Next++] : -1; }
    /// The next worker, not taken (the CPU pool's, the last member).
    int peek() const { return Next < Ids.size() ? Ids[Next] : -1; }
  };
  /// GPU D's members (one, or a part each under HETERO_GPU_SPLIT): the
  /// first runs on GpuWorker, StarPU's CUDA worker, the others on CPU
  /// workers of their own.
  void addGpuMembers(int D, int GpuWorker, bool HavePool,
                     WorkerQueue &CpuWorkers,
                     const std::shared_ptr<CudaStaging> &Staging);
  /// The CPU pool's team size and blocktime beside the pool's GPUs, and
  /// HETERO_INFO's pool line.
  void setCpuTeams(const StarPUWorkers &Workers, size_t CpuWorkers);
  /// StarPU's measured bandwidth (GB/s) between the members' memories: the
  /// CPU pool's to and from each physical GPU, and GPU to GPU.
  struct BusLink {
    const Member *From, *To;
    double GBs;
  };
  std::vector<BusLink> busLinks(const StarPUWorkers &Workers) const;
  /// HETERO_INFO=1's line of them: what a halo or a first touch costs here.
  void reportBus(const StarPUWorkers &Workers) const;
  /// This rank's cores and GPUs when MPI ranks share the node.
  void shareNode();
  NodeRank Rank;
  void loadOnMembers(ImageGroup &G);
  void loadDescriptor(ImageGroup &G, HeteroKernel &K);
  void findWindows(ImageGroup &G, HeteroKernel &K);
  Status setWindow(size_t M, HeteroKernel &K, const ChunkRun &C,
                   __tgt_async_info *Lane);
  using ChunkLaunch = GpuLanes::ChunkLaunch;
  /// The entry, arguments and window of chunk C (an error: none to
  /// launch); a GPU's window goes in its Lane.
  Status prepareChunk(const void *Launch, const ChunkRun &C, ChunkLaunch &Out,
                      __tgt_async_info *Lane);

  const Settings &Config;
  DataLayer &Layer;
  std::unique_ptr<GenericPluginTy> Cuda, Host;
  int NumCudaDevices = 0;
  // Members per GPU (HETERO_GPU_SPLIT): GPU slot S is part S % GpuSplit of
  // device S / GpuSplit, with its own copy of each NVPTX image.
  int GpuSplit = 1;
  int numGpuSlots() const { return NumCudaDevices * GpuSplit; }
  int deviceOf(int Slot) const { return Slot / GpuSplit; }
  int NumSimulated = 0;
  std::vector<bool> CudaUsable;
  // The GPUs this process may use: all, or its rank's (NodeShare.h).
  std::vector<bool> CudaGiven;
  // OpenMP threads of the CPU pool's kernels without a thread_limit clause
  // (HETERO_CPU_THREADS; default: a core per GPU member left to its StarPU
  // worker).
  int CpuThreads = 0;
  // Blocktime of the CPU pool's teams (CpuTeam.h): 1 ms beside GPU members
  // unless the user set KMP_BLOCKTIME; -1 leaves libomp's.
  int CpuBlocktime = -1;
  Pool Members;
  /// The GPU members' lanes, their chunks and copies.
  GpuLanes Gpus{Members};
  // What kept a device or the CPU out of the pool, for hetero-info.
  std::vector<std::string> LeftOut;
  ImageTable Images;
  std::mutex KernelsMutex;
  std::vector<std::unique_ptr<HeteroKernel>> Kernels;
  std::unordered_set<const void *> Known; // Kernels' addresses
};

} // namespace hetero

#endif // HETERO_PLUGIN_PLUGINBACKEND_H

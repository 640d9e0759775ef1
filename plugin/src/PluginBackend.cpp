//===- PluginBackend.cpp - Starting the pool, running chunks --------------===//
#include "PluginBackend.h"

#include "CpuTeam.h"
#include "CudaNode.h"
#include "DriverStatus.h"

#include "hetero/Log.h"
#include "hetero/PoolPlan.h"

#include "omptarget.h"

#include <algorithm>
#include <climits>
#include <cstdlib>
#include <cstring>
#include <map>
#include <memory>

extern "C" llvm::omp::target::plugin::GenericPluginTy *createPlugin_cuda();
extern "C" llvm::omp::target::plugin::GenericPluginTy *createPlugin_host();

namespace hetero {

namespace {
llvm::Error failure(const std::string &Why) {
  return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                 "hetero: " + Why);
}
} // namespace

llvm::Error PluginBackend::start(StarPUWorkers &Workers,
                                 std::vector<std::string> &SettingErrors) {
  PhaseTimes Times;
  Host.reset(createPlugin_host());
  if (auto Err = Host->init())
    return Err;
  if (Host->number_of_devices() < 1 || Host->init_device(0) != OFFLOAD_SUCCESS)
    return failure("the host back end did not start");
  Times.mark("host back end");
  GpuSplit = static_cast<int>(Config.GpuSplit);
  int NumSim = static_cast<int>(Config.Simulate);
  // The x86_64 image is built with FMA (see LoopWindowPass); without it the
  // CPU side runs nothing, and with no GPU either start fails, so
  // libomptarget runs the program's host fallback.
  bool CpuSide = cpuSideAvailable();
  if (!CpuSide) {
    error("this CPU has no FMA instructions, which the x86_64 image of "
          "hetero programs uses: CPU cores and simulated accelerators stay "
          "out of the pool");
    LeftOut.push_back("cpu: this CPU has no FMA instructions");
    NumSim = 0;
  }
  // Each simulated accelerator runs its own copy of the x86_64 image (own
  // globals, like a GPU), on its own device of the host back end.
  int MaxSim = Host->number_of_devices() - 1;
  if (NumSim > MaxSim) {
    SettingErrors.push_back(
        "HETERO_SIMULATE=" + std::to_string(NumSim) +
        ": expected an integer from 0 to " + std::to_string(MaxSim) +
        " (the host back end's devices less the CPU pool's)");
    return llvm::Error::success();
  }
  for (int S = 0; S < NumSim; ++S)
    if (Host->init_device(1 + S) != OFFLOAD_SUCCESS) {
      error("simulated accelerator %d did not start", S);
      NumSim = S;
      break;
    }
  NumSimulated = NumSim;
  Times.mark("simulated accelerators");
  addMembers(Workers, NumSim, CpuSide, Times);
  Times.report("start");
  if (Members.empty())
    return failure("no GPU and no CPU member to run kernels on");
  return llvm::Error::success();
}

void PluginBackend::prepare() {
  PhaseTimes Times;
  shareNode();
  // cuInit registers the CUDA driver's exit handler. Here, it comes before
  // the one libomptarget registers to take the plugins down at exit, and so
  // runs after it: on the start's thread the driver was gone when the pool
  // freed its device memory ("CUDA error: Unrecognized CUDA error code 4").
  startCuda();
  Times.mark("CUDA driver");
  StarPUWorkers::prepareEnvironment();
  Times.report("prepare");
}

bool PluginBackend::cpuSideAvailable() { return __builtin_cpu_supports("fma"); }

void PluginBackend::startCuda() {
  if (Config.DisableCuda) {
    LeftOut.push_back("GPUs: HETERO_DISABLE_CUDA=1");
    return;
  }
  Cuda.reset(createPlugin_cuda());
  if (auto Err = Cuda->init()) {
    std::string Why = llvm::toString(std::move(Err));
    info(1, "no CUDA driver usable (%s): the pool has CPU cores only",
         Why.c_str());
    LeftOut.push_back("GPUs: no CUDA driver usable (" + Why + ")");
    Cuda.reset();
    return;
  }
  NumCudaDevices = Cuda->number_of_devices();
  if (NumCudaDevices == 0) {
    info(1, "no CUDA device found: the pool has CPU cores only");
    LeftOut.push_back("GPUs: the CUDA driver found none");
  }
  CudaUsable.assign(NumCudaDevices, false);
  // A launcher that set CUDA_VISIBLE_DEVICES chose this rank's GPUs.
  const char *Visible = getenv("CUDA_VISIBLE_DEVICES");
  std::vector<int> Given =
      rankGpus(NumCudaDevices, Visible ? NodeRank() : Rank);
  CudaGiven.assign(NumCudaDevices, false);
  for (int G : Given)
    CudaGiven[G] = true;
  for (int D = 0; D < NumCudaDevices; ++D)
    if (!CudaGiven[D])
      LeftOut.push_back(
          "cuda:" + std::to_string(D) + ": another rank's (node rank " +
          std::to_string(Rank.Rank) + " of " + std::to_string(Rank.Size) + ")");
  if (Rank.shared() && NumCudaDevices)
    info(1, "node rank %u of %u: GPUs %s of %d%s", Rank.Rank, Rank.Size,
         idListText(Given).c_str(), NumCudaDevices,
         Visible ? " (CUDA_VISIBLE_DEVICES chose them)" : "");
}

void PluginBackend::shareNode() {
  if (!Config.NodeSplit)
    return;
  Rank = nodeRankFromEnv(getenv);
  if (!Rank.shared())
    return;
  std::vector<int> Mask = processCores(), Online = onlineCores();
  std::vector<int> Mine = rankCores(Mask, Online, Rank);
  bool Narrowed = Mine != Mask;
  std::string Err;
  if (Narrowed && !restrictProcessTo(Mine, Err)) {
    warning("node rank %u of %u: could not keep to cores %s (%s); the pool "
            "uses cores %s",
            Rank.Rank, Rank.Size, idListText(Mine).c_str(), Err.c_str(),
            idListText(Mask).c_str());
    return;
  }
  info(1, "node rank %u of %u (%s): cores %s%s", Rank.Rank, Rank.Size,
       Rank.Source.c_str(), idListText(Mine).c_str(),
       Narrowed ? " (its part of the node; HETERO_NODE_SPLIT=off keeps all)"
                : " (as the launcher bound it)");
}

// After StarPU: its first start calibrates the bus and resets each device's
// primary context, which would pull the context from under the cuda plugin.
void PluginBackend::startCudaDevices() {
  Gpus.begin(*Cuda, NumCudaDevices);
  for (int D = 0; D < NumCudaDevices; ++D) {
    if (!CudaGiven[D])
      continue; // another rank's
    if (Cuda->init_device(D) != OFFLOAD_SUCCESS) {
      error("GPU %d failed to initialise; the pool carries on without it", D);
      LeftOut.push_back("cuda:" + std::to_string(D) + ": failed to initialise");
      continue;
    }
    CudaUsable[D] = true;
    Gpus.addDevice(D);
  }
}

bool PluginBackend::startWorkers(StarPUWorkers &Workers, int NumSim) {
  // Their count is PoolPlan's rule. Parts of a split GPU past the first run
  // on CPU workers of their own; they make the GPU's context current before
  // each chunk.
  StarPUWorkers::Config C;
  for (int D = 0; D < NumCudaDevices; ++D)
    if (CudaGiven[D])
      C.GpuIds.push_back(D);
  C.NumGpus = static_cast<int>(C.GpuIds.size());
  if (C.NumGpus == NumCudaDevices)
    C.GpuIds.clear(); // StarPU's own numbering: all of them
  C.NumCpus = poolplan::starpuCpuWorkers(NumSim, C.NumGpus, GpuSplit);
  C.KeepUserCpus = Config.StarPUCpusSet;
  C.KeepUserCuda = Config.StarPUCudaSet;
  std::string Err;
  if (Workers.start(C, Err))
    return true;
  error("StarPU did not start (%s); kernels run on the calling thread",
        Err.c_str());
  return false;
}

void PluginBackend::addGpuMembers(int D, int GpuWorker, bool HavePool,
                                  WorkerQueue &CpuWorkers,
                                  const std::shared_ptr<CudaStaging> &Staging) {
  uint64_t PartBytes = 0;
  // The cuda plugin's hardware parallelism is in warps.
  uint64_t Resident = Cuda->getDevice(D).getHardwareParallelism() * 32 /
                      static_cast<uint64_t>(GpuSplit);
  if (GpuSplit > 1) {
    if (auto Err = Cuda->getDevice(D).getDeviceMemorySize(PartBytes))
      llvm::consumeError(std::move(Err));
    PartBytes /= static_cast<uint64_t>(GpuSplit);
  }
  for (int P = 0; P < GpuSplit; ++P) {
    Member M;
    M.Kind = MemberKind::Gpu;
    M.Index = D * GpuSplit + P;
    M.Device = D;
    M.Part = GpuSplit > 1 ? P : -1;
    M.Share = poolplan::gpuMemberWeight(GpuSplit);
    M.ResidentThreads = Resident;
    M.WorkerId = !HavePool ? -1 : P == 0 ? GpuWorker : CpuWorkers.next();
    auto Node =
        std::make_unique<CudaNodeOps>(*Cuda, Staging, D, M.Part, PartBytes);
    Members.push_back(M);
    Node->setLane(Gpus.addMember(/*Gpu=*/true));
    Members.back().Node = Layer.addNode(std::move(Node));
  }
}

void PluginBackend::addMembers(StarPUWorkers &Workers, int NumSim, bool CpuSide,
                               PhaseTimes &Times) {
  bool HavePool = startWorkers(Workers, NumSim);
  Times.mark("StarPU");
  startCudaDevices();
  Times.mark("GPUs");
  WorkerQueue CpuWorkers;
  std::map<int, int> CudaWorker; // device -> worker
  for (const StarPUWorkers::Worker &W : Workers.workers())
    (W.IsCuda ? CudaWorker[W.DeviceId] : CpuWorkers.Ids.emplace_back()) = W.Id;
  // Held by the GPU nodes only: it goes with the last of them, while the
  // cuda plugin still runs. A pair per GPU at most (a read back from all
  // of them at once: DataLayer::read).
  auto Staging = Cuda ? std::make_shared<CudaStaging>(
                            *Cuda, static_cast<size_t>(NumCudaDevices))
                      : nullptr;
  for (int D = 0; D < NumCudaDevices; ++D) {
    auto It = CudaWorker.find(D);
    if (!CudaGiven[D])
      continue;
    if (!CudaUsable[D] || (HavePool && It == CudaWorker.end())) {
      if (CudaUsable[D]) {
        error("StarPU has no worker for GPU %d; the pool carries on without "
              "it",
              D);
        LeftOut.push_back("cuda:" + std::to_string(D) +
                          ": StarPU has no worker for it");
      }
      continue;
    }
    addGpuMembers(D, It == CudaWorker.end() ? -1 : It->second, HavePool,
                  CpuWorkers, Staging);
  }
  for (int S = 0; S < NumSim; ++S) {
    Member M;
    M.Kind = MemberKind::Simulated;
    M.Index = S;
    M.WorkerId = CpuWorkers.next();
    M.Node = Layer.addNode(std::make_unique<SimulatedNodeOps>(
        S, static_cast<size_t>(Config.SimulateMemory)));
    Members.push_back(M);
    (void)Gpus.addMember(/*Gpu=*/false);
  }
  if (CpuSide) {
    Member Cpu;
    Cpu.Kind = MemberKind::CpuPool;
    Cpu.WorkerId = CpuWorkers.peek();
    Members.push_back(Cpu);
    (void)Gpus.addMember(/*Gpu=*/false);
  }
  setCpuTeams(Workers, CpuWorkers.Ids.size());
}

void PluginBackend::setCpuTeams(const StarPUWorkers &Workers,
                                size_t CpuWorkers) {
  int Cores = availableCores();
  int GpuMembers = static_cast<int>(
      std::count_if(Members.begin(), Members.end(),
                    [](const Member &M) { return M.Kind == MemberKind::Gpu; }));
  CpuThreads = poolplan::cpuPoolThreads(Config.CpuThreads, Cores, GpuMembers);
  CpuBlocktime =
      poolplan::cpuPoolBlocktime(GpuMembers, std::getenv("KMP_BLOCKTIME"));
  std::string List;
  for (const Member &M : Members)
    List += (List.empty() ? "" : ", ") + M.name();
  info(1,
       "pool: %s (%d cores, %d StarPU CPU workers, CPU pool kernels on "
       "%d threads)",
       List.c_str(), Cores, static_cast<int>(CpuWorkers), CpuThreads);
  reportBus(Workers);
  if (infoLevel() >= 2)
    for (const std::string &Line : Workers.topology())
      info(2, "topology (hwloc, StarPU): %s", Line.c_str());
}

/// StarPU's bus calibration between the members' memories: what a halo or
/// a first touch costs on this node.
std::vector<PluginBackend::BusLink>
PluginBackend::busLinks(const StarPUWorkers &Workers) const {
  std::vector<BusLink> Links;
  if (Members.empty())
    return Links;
  const Member &Cpu = Members.back();
  auto Add = [&](const Member &A, const Member &B) {
    double MBs = Workers.bandwidth(A.WorkerId, B.WorkerId);
    if (MBs > 0)
      Links.push_back({&A, &B, MBs / 1000});
  };
  // Per physical GPU (the first part of a split one: the others run on CPU
  // workers, whose memory StarPU takes for the host's).
  for (const Member &G : Members) {
    if (G.Kind != MemberKind::Gpu || G.Part > 0)
      continue;
    if (Cpu.Kind == MemberKind::CpuPool) {
      Add(Cpu, G);
      Add(G, Cpu);
    }
    for (const Member &H : Members)
      if (H.Kind == MemberKind::Gpu && H.Part <= 0 && H.Device != G.Device)
        Add(G, H);
  }
  return Links;
}

void PluginBackend::reportBus(const StarPUWorkers &Workers) const {
  if (infoLevel() < 1)
    return;
  std::string Line;
  for (const BusLink &L : busLinks(Workers)) {
    char Buf[96];
    snprintf(Buf, sizeof(Buf), "%s%s->%s %.1f GB/s", Line.empty() ? "" : ", ",
             L.From->name().c_str(), L.To->name().c_str(), L.GBs);
    Line += Buf;
  }
  if (!Line.empty())
    info(1, "bus (StarPU's calibration): %s", Line.c_str());
}

void PluginBackend::stop() {
  Gpus.stop();
  Kernels.clear();
  if (Cuda)
    if (auto Err = Cuda->deinit())
      llvm::consumeError(std::move(Err));
  if (Host)
    if (auto Err = Host->deinit())
      llvm::consumeError(std::move(Err));
}

//===--- Running a chunk --------------------------------------------------===//

/// Chunk C's loop window (off for a whole launch).
static abi::LoopWindow windowOf(const ChunkRun &C) {
  abi::LoopWindow V;
  if (C.Windowed) {
    V.Lo = static_cast<int64_t>(C.Lo);
    V.Hi = static_cast<int64_t>(C.Hi);
    V.Active = 1;
  }
  return V;
}

/// Sets member M's copy of the kernel's loop window for chunk C, where the
/// image has a window global; writes only what changed. A GPU's goes in its
/// lane, in order with the kernels queued there (an earlier chunk of this
/// kernel may still be waiting to read its own window).
Status PluginBackend::setWindow(size_t M, HeteroKernel &K, const ChunkRun &C,
                                __tgt_async_info *Lane) {
  HeteroKernel::Window &W = K.Windows[M];
  abi::LoopWindow V = windowOf(C);
  if (!W.Addr || memcmp(&V, &W.Value, sizeof(V)) == 0)
    return Status();
  const Member &Mb = Members[M];
  if (Mb.Kind == MemberKind::Gpu) {
    // From pageable memory: the driver takes the bytes before returning.
    if (Status S = statusOf(
            Cuda->getDevice(Mb.Device).dataSubmit(W.Addr, &V, sizeof(V), Lane),
            StatusCode::KernelFailed,
            [&] { return "the loop window could not be set on " + Mb.name(); });
        !S)
      return S;
  } else {
    memcpy(W.Addr, &V, sizeof(V)); // the image's global, in this process
  }
  W.Value = V;
  return Status();
}

/// What launching chunk C needs, worked out once for run() and start().

Status PluginBackend::prepareChunk(const void *Launch, const ChunkRun &C,
                                   ChunkLaunch &Out, __tgt_async_info *Lane) {
  const auto &L = *static_cast<const BackEndLaunch *>(Launch);
  HeteroKernel &K = *L.Kernel;
  const HeteroKernel::Window &W = K.Windows[C.Member];
  const Member &M = Members[C.Member];
  // Every launch on a member with a window runs the windowed copy, whole
  // ones with the window off or over the whole loop: compiled apart, the copy
  // and the kernel may be optimised apart (a math routine inlined into one and
  // not the other, then fused differently), and a split must give a whole run's
  // bits. A whole launch with no trip count (clang gives none where a
  // distribute loop is not all of its target region) runs the kernel itself:
  // without a trip count nothing splits it.
  bool NoTripCount = W.Params && !C.Windowed && !L.Args->Tripcount;
  if (W.Entry && !NoTripCount) {
    if (Status S = setWindow(C.Member, K, C, Lane); !S)
      return S;
    Out.Entry = W.Entry;
  } else {
    if (C.Windowed) // the engine plans windowed chunks only where it can
      return Status::error(StatusCode::KernelFailed,
                           M.name() + " has no windowed copy of the kernel");
    Out.Entry = K.compiledOn(M);
  }
  if (!Out.Entry)
    return Status::error(StatusCode::KernelFailed,
                         "the kernel is not loaded on " + M.name());
  // A copy: the back ends adjust the argument count in place; a window's
  // iteration count sizes the GPU grid.
  Out.KA = *L.Args;
  if (C.Windowed)
    Out.KA.Tripcount = C.Hi - C.Lo;
  if (C.GridFraction > 0 && M.ResidentThreads && !Out.KA.NumTeams[0])
    Out.KA.NumTeams[0] = poolplan::gpuChunkTeams(
        C.GridFraction, M.ResidentThreads, Out.KA.ThreadLimit[0]);
  Out.Args = C.Args;
  if (W.Entry && W.Params && !NoTripCount) {
    // The first and the last iteration; a whole launch's are its loop's.
    uint64_t First = C.Windowed ? C.Lo : 0;
    uint64_t End = C.Windowed ? C.Hi : L.Args->Tripcount;
    for (uint64_t Field : {First, End - 1})
      Out.Args.push_back(static_cast<uintptr_t>(Field));
    Out.KA.NumArgs += abi::WindowParams;
  }
  Out.Offsets.assign(Out.Args.size(), 0);
  return Status();
}

Status PluginBackend::run(const void *Launch, const ChunkRun &C) {
  const Member &M = Members[C.Member];
  if (M.Kind == MemberKind::Gpu) {
    // In the member's lane, waited for here (as the cuda plugin's
    // synchronous launch does), its partials' copies in that stream.
    StartedChunk S;
    if (Status Started = start(Launch, C, S); !Started)
      return Started;
    return finish(S);
  }
  ChunkLaunch CL;
  if (Status S = prepareChunk(Launch, C, CL, nullptr); !S)
    return S;
  const HeteroKernel &K = *static_cast<const BackEndLaunch *>(Launch)->Kernel;
  // The kernel's thread count caps its CPU teams (omp_get_thread_limit()
  // reports it), as under the stock host plugin (CpuTeam.h).
  bool Reduces = K.Traits.Desc && !K.Traits.Desc->reductions().empty();
  ScopedThreadLimit Limit(
      poolplan::cpuChunkThreadLimit(CL.KA.ThreadLimit[0], Reduces,
                                    M.Kind == MemberKind::CpuPool, CpuThreads));
  // Beside a GPU, the CPU pool's threads sleep soon after its teams end
  // (CpuTeam.h).
  ScopedBlocktime Sleep(M.Kind == MemberKind::CpuPool ? CpuBlocktime : -1);
  int32_t Device = M.Kind == MemberKind::Simulated ? 1 + M.Index : 0;
  noteCpuKernelRan();
  HostPartials Partials(C);
  Partials.bind(CL.Args);
  if (Status S = statusOf(Host->getDevice(Device).launchKernel(
                              CL.Entry, CL.argPtrs(), CL.Offsets.data(), CL.KA,
                              /*AsyncInfo=*/nullptr),
                          StatusCode::KernelFailed,
                          [&] { return "the kernel failed on " + M.name(); });
      !S)
    return S;
  Partials.done();
  return Status();
}

bool PluginBackend::startsChunks(size_t M) const {
  return Members[M].Kind == MemberKind::Gpu;
}

Status PluginBackend::start(const void *Launch, const ChunkRun &C,
                            StartedChunk &S) {
  if (!startsChunks(C.Member))
    return Backend::start(Launch, C, S);
  return Gpus.start(
      C,
      [&](__tgt_async_info *Queue, ChunkLaunch &Out) {
        return prepareChunk(Launch, C, Out, Queue);
      },
      S);
}

Status PluginBackend::finish(StartedChunk &S) { return Gpus.finish(S); }

void PluginBackend::release(StartedChunk &S) { Gpus.release(S); }

Status PluginBackend::settle(size_t M) { return Gpus.settle(M); }

LaneOrder PluginBackend::orderAfter(size_t W, size_t S) {
  return Gpus.orderAfter(W, S);
}

void PluginBackend::issueHeld() { Gpus.issueHeld(); }

PluginBackend::~PluginBackend() = default;

// The launch and its arguments, copied: libomptarget's arguments live on
// its stack for the call only. The copy's pointers into libomptarget's
// argument arrays are not followed (a start passes the chunk's own
// arguments; LLVM's plugins read the counts, grid and flags).
std::shared_ptr<const void> PluginBackend::keepLaunch(const void *Launch) {
  struct Kept {
    BackEndLaunch Launch;
    KernelArgsTy Args;
  };
  const auto &L = *static_cast<const BackEndLaunch *>(Launch);
  auto K = std::make_shared<Kept>();
  K->Args = *L.Args;
  K->Launch.Kernel = L.Kernel;
  K->Launch.Args = &K->Args;
  return std::shared_ptr<const void>(K, &K->Launch);
}

void PluginBackend::setInfoFlag(uint32_t Level) {
  if (Cuda)
    Cuda->set_info_flag(Level);
  if (Host)
    Host->set_info_flag(Level);
}

// OMPT callbacks of the back ends report the OpenMP device number: every
// back-end device stands for the one hetero device.
void PluginBackend::setDeviceIdentifier(int32_t UserId) {
  for (int D = 0; Host && D <= NumSimulated; ++D)
    Host->set_device_identifier(UserId, D);
  for (int D = 0; D < NumCudaDevices; ++D)
    Cuda->set_device_identifier(UserId, D);
}

} // namespace hetero

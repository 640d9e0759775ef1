//===- PoolReport.cpp - What hetero-info prints about the pool ------------===//
//
// hetero-info's report (PluginBackend::describe): the versions in use, every
// pool member with its memory, compute capability and cores, which GPUs reach
// each other directly, StarPU's measured bandwidths between the members'
// memories, the settings in force and whatever kept a device out. The CUDA
// details come from the driver the cuda back end already loaded.
//
//===----------------------------------------------------------------------===//
#include "CudaVirtualMemory.h"
#include "PluginBackend.h"

#include <dlfcn.h>
#include <unistd.h>

#include <algorithm>
#include <cstring>
#include <fstream>

extern char **environ;

namespace hetero {
namespace {

/// The few CUDA driver calls the report needs, from the libcuda the cuda
/// back end loaded (none when it did not).
class CudaDriver {
public:
  CudaDriver() {
    Lib = dlopen("libcuda.so.1", RTLD_LAZY | RTLD_NOLOAD);
    if (!Lib)
      return;
    DriverGetVersion =
        reinterpret_cast<int (*)(int *)>(dlsym(Lib, "cuDriverGetVersion"));
    DeviceGetName = reinterpret_cast<int (*)(char *, int, int)>(
        dlsym(Lib, "cuDeviceGetName"));
    DeviceGetAttribute = reinterpret_cast<int (*)(int *, int, int)>(
        dlsym(Lib, "cuDeviceGetAttribute"));
    DeviceCanAccessPeer = reinterpret_cast<int (*)(int *, int, int)>(
        dlsym(Lib, "cuDeviceCanAccessPeer"));
  }
  ~CudaDriver() {
    if (Lib)
      dlclose(Lib);
  }
  std::string version() const {
    int V = 0;
    if (!DriverGetVersion || DriverGetVersion(&V) != 0)
      return "not loaded";
    return std::to_string(V / 1000) + "." + std::to_string(V % 1000 / 10);
  }
  std::string name(int Dev) const {
    char Name[256] = {};
    if (!DeviceGetName || DeviceGetName(Name, sizeof(Name), Dev) != 0)
      return "?";
    return Name;
  }
  int attribute(int Attr, int Dev) const {
    int V = -1;
    if (!DeviceGetAttribute || DeviceGetAttribute(&V, Attr, Dev) != 0)
      return -1;
    return V;
  }
  /// 1 or 0; -1 when unknown.
  int canAccessPeer(int Dev, int Peer) const {
    int V = -1;
    if (!DeviceCanAccessPeer || DeviceCanAccessPeer(&V, Dev, Peer) != 0)
      return -1;
    return V;
  }

private:
  void *Lib = nullptr;
  int (*DriverGetVersion)(int *) = nullptr;
  int (*DeviceGetName)(char *, int, int) = nullptr;
  int (*DeviceGetAttribute)(int *, int, int) = nullptr;
  int (*DeviceCanAccessPeer)(int *, int, int) = nullptr;
};

// CUdevice_attribute values (cuda.h).
constexpr int MultiprocessorCount = 16;
constexpr int ComputeCapabilityMajor = 75;
constexpr int ComputeCapabilityMinor = 76;

std::string cpuModel() {
  std::ifstream In("/proc/cpuinfo");
  std::string Line;
  while (std::getline(In, Line))
    if (Line.rfind("model name", 0) == 0) {
      size_t Colon = Line.find(':');
      return Colon == std::string::npos ? Line : Line.substr(Colon + 2);
    }
  return "?";
}

/// The accelerators' capacities, as the members' lines find them.
struct AcceleratorMemory {
  std::vector<uint64_t> Accelerators; // each with a known capacity
  std::vector<uint64_t> Gpus;         // each GPU (part)
};

std::string gpuLine(const CudaDriver &Driver,
                    PluginBackend::GenericPluginTy &Cuda, const Member &M,
                    int GpuSplit, AcceleratorMemory &Mem) {
  uint64_t Bytes = 0;
  if (auto Err = Cuda.getDevice(M.Device).getDeviceMemorySize(Bytes))
    llvm::consumeError(std::move(Err));
  if (M.Part >= 0)
    Bytes /= static_cast<uint64_t>(GpuSplit);
  Mem.Accelerators.push_back(Bytes);
  Mem.Gpus.push_back(Bytes);
  int Major = Driver.attribute(ComputeCapabilityMajor, M.Device);
  int Minor = Driver.attribute(ComputeCapabilityMinor, M.Device);
  return "GPU " + Driver.name(M.Device) + ", compute capability " +
         std::to_string(Major) + "." + std::to_string(Minor) + ", " +
         std::to_string(Driver.attribute(MultiprocessorCount, M.Device)) +
         " SMs, " + binaryBytesText(Bytes) + " memory" +
         (M.Part >= 0 ? " (part " + std::to_string(M.Part) + " of " +
                            std::to_string(GpuSplit) + ")"
                      : "");
}

std::string simulatedLine(uint64_t Memory, AcceleratorMemory &Mem) {
  if (Memory)
    Mem.Accelerators.push_back(Memory);
  return "simulated accelerator (a CPU worker with private memory" +
         std::string(Memory ? ", " + binaryBytesText(Memory) + ")" : ")");
}

std::string cpuPoolLine(int Threads) {
  std::vector<int> Cores = processCores();
  uint64_t Host = static_cast<uint64_t>(sysconf(_SC_PHYS_PAGES)) *
                  static_cast<uint64_t>(sysconf(_SC_PAGESIZE));
  return "CPU pool, " + cpuModel() + ", cores " + idListText(Cores) + " (" +
         std::to_string(Cores.size()) + "), kernels on " +
         std::to_string(Threads) + " threads, " + binaryBytesText(Host) +
         " host memory";
}

// A GPU with the driver's virtual memory management, like a simulated
// accelerator, holds the granules its chunks touch (NodeOps::back); one
// without holds whole buffers (HETERO_STATS's peak_bytes per node), so the
// data of one launch on the GPUs fits the smallest of them.
void printAcceleratorMemory(FILE *Out, const Pool &Members,
                            const AcceleratorMemory &Mem) {
  if (Mem.Accelerators.empty())
    return;
  uint64_t Sum = 0;
  for (uint64_t B : Mem.Accelerators)
    Sum += B;
  uint64_t Granule = 0;
  bool Whole = false;
  for (const Member &M : Members)
    if (M.Kind == MemberKind::Gpu) {
      uint64_t G = CudaVirtualMemory::get().granule(M.Device);
      Whole |= G == 0;
      Granule = std::max(Granule, G);
    }
  std::string Fits =
      Whole ? "each GPU holds whole buffers, so the data one launch "
              "touches must fit in " +
                  binaryBytesText(
                      *std::min_element(Mem.Gpus.begin(), Mem.Gpus.end())) +
                  " (the smallest GPU) to run on the GPUs"
      : Mem.Gpus.empty()
          ? "simulated accelerators hold the parts of buffers their "
            "chunks touch"
          : "each GPU holds the parts of buffers its chunks touch, in "
            "granules of " +
                binaryBytesText(Granule) +
                ", so a buffer larger than one GPU is held across them";
  fprintf(Out, "accelerator memory: %s in all over %zu; %s\n",
          binaryBytesText(Sum).c_str(), Mem.Accelerators.size(), Fits.c_str());
}

/// Which GPUs reach each other directly; whether there was a GPU.
bool printPeers(FILE *Out, const CudaDriver &Driver, const Pool &Members,
                int GpuSplit) {
  std::vector<const Member *> Gpus;
  for (const Member &M : Members)
    if (M.Kind == MemberKind::Gpu && M.Part <= 0)
      Gpus.push_back(&M);
  if (Gpus.size() > 1) {
    fprintf(Out, "peer access (GPU to GPU copies without the host):\n");
    for (const Member *A : Gpus)
      for (const Member *B : Gpus)
        if (A != B) {
          int P = Driver.canAccessPeer(A->Device, B->Device);
          fprintf(Out, "  cuda:%d -> cuda:%d %s\n", A->Device, B->Device,
                  P == 1   ? "direct"
                  : P == 0 ? "through the host"
                           : "unknown");
        }
  } else if (GpuSplit > 1 && !Gpus.empty()) {
    fprintf(Out, "peer access: the parts of one GPU copy to each other "
                 "device to device\n");
  }
  return !Gpus.empty();
}

void printBandwidth(FILE *Out, const std::string &Bus, bool AnyGpu) {
  const char *Unmeasured =
      !AnyGpu ? "  none measured (no GPU)\n"
              : "  not measured (STARPU_BUS_SAMPLING=0: hetero-info "
                "measures it once, and the runs after it read it)\n";
  fprintf(Out,
          "bandwidth (StarPU's bus calibration, cached in "
          "$STARPU_HOME):\n%s",
          Bus.empty() ? Unmeasured : Bus.c_str());
}

void printSettings(FILE *Out, const Settings &Config) {
  fprintf(Out, "settings in force:\n");
  for (const std::string &S : settingsInForce(Config, getenv))
    fprintf(Out, "  %s\n", S.c_str());
  std::string StarPUVars;
  for (char **E = environ; E && *E; ++E)
    if (strncmp(*E, "STARPU_", 7) == 0)
      StarPUVars += std::string("  ") + *E + "\n";
  if (!StarPUVars.empty())
    fprintf(Out,
            "StarPU settings in force (hetero sets STARPU_WORKERS_NOBIND, "
            "STARPU_CUDA_PIPELINE, STARPU_KEEP_LAST_WORKER_AWAKE, "
            "STARPU_BUS_SAMPLING and STARPU_SILENT where the user did "
            "not):\n%s",
            StarPUVars.c_str());
}

} // namespace

void PluginBackend::describe(FILE *Out, const StarPUWorkers &Workers) const {
  CudaDriver Driver;
  fprintf(Out,
          "versions: hetero %s, LLVM offload runtime 19.1.7, StarPU %s, "
          "CUDA driver %s\n",
          HETERO_VERSION, StarPUWorkers::version().c_str(),
          Cuda ? Driver.version().c_str() : "not used");
  fprintf(Out, "libraries: %s\n", StarPUWorkers::libraries().c_str());
  fprintf(Out, "pool: %zu member%s (one OpenMP device)\n", Members.size(),
          Members.size() == 1 ? "" : "s");
  AcceleratorMemory Mem;
  for (const Member &M : Members) {
    std::string What = M.Kind == MemberKind::Gpu
                           ? gpuLine(Driver, *Cuda, M, GpuSplit, Mem)
                       : M.Kind == MemberKind::Simulated
                           ? simulatedLine(Config.SimulateMemory, Mem)
                           : cpuPoolLine(CpuThreads);
    fprintf(Out, "  %-9s %s; memory node %d, StarPU worker %d\n",
            M.name().c_str(), What.c_str(), M.Node, M.WorkerId);
  }
  printAcceleratorMemory(Out, Members, Mem);
  bool AnyGpu = printPeers(Out, Driver, Members, GpuSplit);
  // The host is the CPU pool's worker; a GPU is its first part's.
  auto Where = [](const Member &M) {
    return M.Kind == MemberKind::Gpu ? "cuda:" + std::to_string(M.Device)
                                     : std::string("host");
  };
  std::string Bus;
  for (const BusLink &L : busLinks(Workers)) {
    char Line[128];
    snprintf(Line, sizeof(Line), "  %s -> %s %.1f GB/s\n",
             Where(*L.From).c_str(), Where(*L.To).c_str(), L.GBs);
    Bus += Line;
  }
  printBandwidth(Out, Bus, AnyGpu);
  printSettings(Out, Config);
  if (Rank.shared())
    fprintf(Out, "node rank %u of %u (%s)\n", Rank.Rank, Rank.Size,
            Rank.Source.c_str());
  fprintf(Out, "left out:%s\n", LeftOut.empty() ? " nothing" : "");
  for (const std::string &Why : LeftOut)
    fprintf(Out, "  %s\n", Why.c_str());
}

} // namespace hetero

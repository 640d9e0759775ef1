//===- StarPUWorkers.cpp - The StarPU workers behind the device -----------===//
#include "hetero/StarPUWorkers.h"

#include "hetero/Log.h"
#include "hetero/NodeShare.h"

#include <starpu.h>

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <dlfcn.h>
#include <link.h>
#include <mutex>

namespace hetero {

int availableCores() {
  return std::max(1, static_cast<int>(processCores().size()));
}

namespace {
/// libstarpu, loaded at the pool's start rather than linked: a hetero-built
/// program that runs without hetero maps none of it (nor the CUDA runtime
/// StarPU links), and costs what the stock runtime costs. Found through
/// the RUNPATH of the library that calls dlopen (hetero's libomptarget:
/// $ORIGIN, and StarPU's build directory in the build tree).
#define HETERO_STARPU_FUNCTIONS(X)                                             \
  X(starpu_conf_init)                                                          \
  X(starpu_init)                                                               \
  X(starpu_shutdown)                                                           \
  X(starpu_get_version)                                                        \
  X(starpu_codelet_init)                                                       \
  X(starpu_task_create)                                                        \
  X(starpu_task_submit)                                                        \
  X(starpu_task_wait)                                                          \
  X(starpu_task_destroy)                                                       \
  X(starpu_worker_get_count)                                                   \
  X(starpu_worker_get_type)                                                    \
  X(starpu_worker_get_devid)                                                   \
  X(starpu_worker_get_memory_node)                                             \
  X(starpu_transfer_bandwidth)                                                 \
  X(starpu_topology_print)

struct StarPULibrary {
#define HETERO_STARPU_POINTER(Name) decltype(&::Name) Name = nullptr;
  HETERO_STARPU_FUNCTIONS(HETERO_STARPU_POINTER)
#undef HETERO_STARPU_POINTER
  std::string Error; // why it did not load; empty once loaded
  std::string Path;  // where it was found
};

constexpr const char *StarPUSoname = "libstarpu-1.3.so.9";

/// The file a dlopen handle stands for.
std::string loadedPath(void *Handle) {
  struct link_map *Map = nullptr;
  if (!Handle || dlinfo(Handle, RTLD_DI_LINKMAP, &Map) != 0 || !Map ||
      !Map->l_name)
    return "?";
  return Map->l_name;
}

const StarPULibrary &starpu() {
  static const StarPULibrary Lib = [] {
    StarPULibrary L;
    void *Handle = dlopen(StarPUSoname, RTLD_NOW | RTLD_LOCAL);
    if (!Handle) {
      const char *Why = dlerror();
      L.Error = std::string("cannot load ") + StarPUSoname + " (" +
                (Why ? Why : "unknown error") + ")";
      return L;
    }
#define HETERO_STARPU_RESOLVE(Name)                                            \
  L.Name = reinterpret_cast<decltype(L.Name)>(dlsym(Handle, #Name));           \
  if (!L.Name && L.Error.empty())                                              \
    L.Error = std::string(StarPUSoname) + " lacks " #Name;
    HETERO_STARPU_FUNCTIONS(HETERO_STARPU_RESOLVE)
#undef HETERO_STARPU_RESOLVE
    L.Path = loadedPath(Handle);
    return L; // never closed: its workers' threads run its code
  }();
  return Lib;
}

struct Closure {
  const std::function<bool()> *Fn;
  bool Result = false;
};

void trampoline(void ** /*Buffers*/, void *Arg) {
  auto *C = static_cast<Closure *>(Arg);
  C->Result = (*C->Fn)();
}

// Filled in place: the struct has deprecated members that a copy would touch.
struct starpu_codelet Codelet;
std::once_flag CodeletOnce;

struct starpu_codelet *codelet() {
  std::call_once(CodeletOnce, [] {
    starpu().starpu_codelet_init(&Codelet);
    Codelet.where = STARPU_CPU | STARPU_CUDA;
    Codelet.cpu_funcs[0] = trampoline;
    Codelet.cuda_funcs[0] = trampoline;
    // The back end synchronises its own stream and reports its own errors;
    // StarPU must not assert on its stream after a failed kernel.
    Codelet.cuda_flags[0] = STARPU_CUDA_ASYNC;
    Codelet.nbuffers = 0;
    Codelet.name = "hetero_kernel";
  });
  return &Codelet;
}
} // namespace

void StarPUWorkers::prepareEnvironment() {
  static std::once_flag Once;
  std::call_once(Once, [] {
    // Kernels on the CPU member fork their own OpenMP threads: StarPU must not
    // pin its worker threads (the threads would inherit one core). The user's
    // own settings win.
    setenv("STARPU_WORKERS_NOBIND", "1", /*overwrite=*/0);
    // Chunks run synchronously on their CUDA worker: no pipeline. With one,
    // StarPU polls an event after each task and aborts the process when a
    // kernel has faulted; without, it only synchronises its stream, and the
    // plugin takes the failed GPU out of the pool and reruns elsewhere.
    setenv("STARPU_CUDA_PIPELINE", "0", 0);
    // Idle workers sleep (StarPU is built with blocking drivers), the last
    // one too (clang-patches/starpu): every task goes to a given worker,
    // which wakes it. A polling worker would take a core from the CPU pool.
    setenv("STARPU_KEEP_LAST_WORKER_AWAKE", "0", 0);
    // Each task goes to a given worker and no data is registered: StarPU's
    // bus figures are never read, and measuring them cost about 2 s at the
    // first start on a machine with four GPUs (clang-patches/starpu/0005).
    setenv("STARPU_BUS_SAMPLING", "0", 0);
    if (infoLevel() < 2)
      setenv("STARPU_SILENT", "1", 0);
  });
}

bool StarPUWorkers::start(const Config &C, std::string &Err) {
  if (Started)
    return true;
  prepareEnvironment();
  if (!starpu().Error.empty()) {
    Err = starpu().Error;
    return false;
  }
  struct starpu_conf Conf;
  starpu().starpu_conf_init(&Conf);
  if (!C.KeepUserCpus)
    Conf.ncpus = C.NumCpus;
  if (!C.KeepUserCuda) {
    Conf.ncuda = C.NumGpus;
    if (!C.GpuIds.empty() && C.GpuIds.size() <= STARPU_NMAXWORKERS) {
      Conf.use_explicit_workers_cuda_gpuid = 1;
      for (size_t I = 0; I < C.GpuIds.size(); ++I)
        Conf.workers_cuda_gpuid[I] = static_cast<unsigned>(C.GpuIds[I]);
    }
  }
  Conf.nopencl = 0;
  Conf.nmic = 0;
  Conf.nmpi_ms = 0;
  int Ret = starpu().starpu_init(&Conf);
  if (Ret != 0) {
    Err = Ret == -ENODEV ? "StarPU found no worker" : "starpu_init failed";
    return false;
  }
  Started = true;
  Workers.clear();
  for (unsigned Id = 0; Id < starpu().starpu_worker_get_count(); ++Id) {
    Worker W;
    W.Id = static_cast<int>(Id);
    W.IsCuda = starpu().starpu_worker_get_type(Id) == STARPU_CUDA_WORKER;
    W.DeviceId = W.IsCuda ? starpu().starpu_worker_get_devid(Id) : -1;
    if (W.IsCuda || starpu().starpu_worker_get_type(Id) == STARPU_CPU_WORKER)
      Workers.push_back(W);
  }
  return true;
}

std::string StarPUWorkers::version() {
  int Major = 0, Minor = 0, Release = 0;
  if (!starpu().Error.empty())
    return "not loaded";
  starpu().starpu_get_version(&Major, &Minor, &Release);
  return std::to_string(Major) + "." + std::to_string(Minor) + "." +
         std::to_string(Release);
}

std::string StarPUWorkers::libraries() {
  if (!starpu().Error.empty())
    return starpu().Error;
  // StarPU's CUDA runtime, as the loader found it for StarPU.
  std::string Cudart = "no CUDA runtime";
  dl_iterate_phdr(
      [](struct dl_phdr_info *Info, size_t, void *Out) {
        if (Info->dlpi_name && strstr(Info->dlpi_name, "/libcudart.so")) {
          *static_cast<std::string *>(Out) = Info->dlpi_name;
          return 1;
        }
        return 0;
      },
      &Cudart);
  return starpu().Path + ", " + Cudart;
}

void StarPUWorkers::stop() {
  if (!Started)
    return;
  starpu().starpu_shutdown();
  Started = false;
  Workers.clear();
}

bool StarPUWorkers::runOn(int Id, const std::function<bool()> &Fn) {
  if (!Started)
    return false;
  Closure C{&Fn};
  struct starpu_task *T = starpu().starpu_task_create();
  T->cl = codelet();
  T->cl_arg = &C;
  T->execute_on_a_specific_worker = 1;
  T->workerid = static_cast<unsigned>(Id);
  T->synchronous = 1;
  int Ret = starpu().starpu_task_submit(T);
  if (Ret != 0) {
    error("StarPU refused a task for worker %d (%d)", Id, Ret);
    return false;
  }
  return C.Result;
}

std::vector<bool> StarPUWorkers::runAll(
    const std::vector<std::pair<int, std::function<bool()>>> &Tasks) {
  std::vector<bool> Ok(Tasks.size(), false);
  std::vector<Closure> Closures(Tasks.size());
  std::vector<struct starpu_task *> Submitted(Tasks.size(), nullptr);
  std::vector<bool> Here(Tasks.size(), false);
  for (size_t I = 0; I < Tasks.size(); ++I)
    Here[I] = !Started || Tasks[I].first < 0;
  // The calling thread would only wait: it runs one task itself, the last
  // one whose worker has no other task here (so per-worker order holds).
  // A launch of one chunk then costs no hand-over to a worker at all.
  if (std::find(Here.begin(), Here.end(), true) == Here.end())
    for (size_t I = Tasks.size(); I-- > 0;)
      if (std::count_if(Tasks.begin(), Tasks.end(), [&](const auto &T) {
            return T.first == Tasks[I].first;
          }) == 1) {
        Here[I] = true;
        break;
      }
  for (size_t I = 0; I < Tasks.size(); ++I) {
    Closures[I].Fn = &Tasks[I].second;
    if (Here[I])
      continue;
    struct starpu_task *T = starpu().starpu_task_create();
    T->cl = codelet();
    T->cl_arg = &Closures[I];
    T->execute_on_a_specific_worker = 1;
    T->workerid = static_cast<unsigned>(Tasks[I].first);
    T->detach = 0; // waited for below
    int Ret = starpu().starpu_task_submit(T);
    if (Ret != 0) {
      error("StarPU refused a task for worker %d (%d)", Tasks[I].first, Ret);
      starpu().starpu_task_destroy(T);
      continue;
    }
    Submitted[I] = T;
  }
  // Tasks without a worker run here, while the others run on theirs.
  for (size_t I = 0; I < Tasks.size(); ++I)
    if (Here[I])
      Closures[I].Result = Tasks[I].second();
  for (size_t I = 0; I < Tasks.size(); ++I) {
    if (Submitted[I]) {
      if (starpu().starpu_task_wait(Submitted[I]) != 0)
        Closures[I].Result = false;
      // A task waited for is destroyed by StarPU when done (destroy = 1).
    }
    Ok[I] = Closures[I].Result;
  }
  return Ok;
}

double StarPUWorkers::bandwidth(int From, int To) const {
  if (!Started || From < 0 || To < 0)
    return 0;
  const StarPULibrary &L = starpu();
  return L.starpu_transfer_bandwidth(
      L.starpu_worker_get_memory_node(static_cast<unsigned>(From)),
      L.starpu_worker_get_memory_node(static_cast<unsigned>(To)));
}

std::vector<std::string> StarPUWorkers::topology() const {
  std::vector<std::string> Lines;
  char *Text = nullptr;
  size_t Size = 0;
  FILE *Out = Started ? open_memstream(&Text, &Size) : nullptr;
  if (!Out)
    return Lines;
  starpu().starpu_topology_print(Out);
  fclose(Out);
  std::string All(Text, Size);
  free(Text);
  for (size_t At = 0; At < All.size();) {
    size_t End = All.find('\n', At);
    if (End == std::string::npos)
      End = All.size();
    if (End > At)
      Lines.push_back(All.substr(At, End - At));
    At = End + 1;
  }
  return Lines;
}

} // namespace hetero

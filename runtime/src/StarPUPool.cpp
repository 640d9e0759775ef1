//===- StarPUPool.cpp - The StarPU workers behind the device --------------===//
#include "hetero/StarPUPool.h"

#include "hetero/Log.h"
#include "hetero/NodeShare.h"

#include <starpu.h>

#include <algorithm>
#include <cstdlib>
#include <mutex>

namespace hetero {

int availableCores() {
  return std::max(1, static_cast<int>(processCores().size()));
}

namespace {
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
    starpu_codelet_init(&Codelet);
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

void StarPUPool::prepareEnvironment() {
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
    if (infoLevel() < 2)
      setenv("STARPU_SILENT", "1", 0);
  });
}

bool StarPUPool::start(const Config &C, std::string &Err) {
  if (Started)
    return true;
  prepareEnvironment();
  struct starpu_conf Conf;
  starpu_conf_init(&Conf);
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
  int Ret = starpu_init(&Conf);
  if (Ret != 0) {
    Err = Ret == -ENODEV ? "StarPU found no worker" : "starpu_init failed";
    return false;
  }
  Started = true;
  Workers.clear();
  for (unsigned Id = 0; Id < starpu_worker_get_count(); ++Id) {
    Worker W;
    W.Id = static_cast<int>(Id);
    W.IsCuda = starpu_worker_get_type(Id) == STARPU_CUDA_WORKER;
    W.DeviceId = W.IsCuda ? starpu_worker_get_devid(Id) : -1;
    if (W.IsCuda || starpu_worker_get_type(Id) == STARPU_CPU_WORKER)
      Workers.push_back(W);
  }
  return true;
}

std::string StarPUPool::version() {
  int Major = 0, Minor = 0, Release = 0;
  starpu_get_version(&Major, &Minor, &Release);
  return std::to_string(Major) + "." + std::to_string(Minor) + "." +
         std::to_string(Release);
}

void StarPUPool::stop() {
  if (!Started)
    return;
  starpu_shutdown();
  Started = false;
  Workers.clear();
}

bool StarPUPool::runOn(int Id, const std::function<bool()> &Fn) {
  if (!Started)
    return false;
  Closure C{&Fn};
  struct starpu_task *T = starpu_task_create();
  T->cl = codelet();
  T->cl_arg = &C;
  T->execute_on_a_specific_worker = 1;
  T->workerid = static_cast<unsigned>(Id);
  T->synchronous = 1;
  int Ret = starpu_task_submit(T);
  if (Ret != 0) {
    error("StarPU refused a task for worker %d (%d)", Id, Ret);
    return false;
  }
  return C.Result;
}

std::vector<bool> StarPUPool::runAll(
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
    struct starpu_task *T = starpu_task_create();
    T->cl = codelet();
    T->cl_arg = &Closures[I];
    T->execute_on_a_specific_worker = 1;
    T->workerid = static_cast<unsigned>(Tasks[I].first);
    T->detach = 0; // waited for below
    int Ret = starpu_task_submit(T);
    if (Ret != 0) {
      error("StarPU refused a task for worker %d (%d)", Tasks[I].first, Ret);
      starpu_task_destroy(T);
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
      if (starpu_task_wait(Submitted[I]) != 0)
        Closures[I].Result = false;
      // A task waited for is destroyed by StarPU when done (destroy = 1).
    }
    Ok[I] = Closures[I].Result;
  }
  return Ok;
}

double StarPUPool::bandwidth(int From, int To) const {
  if (!Started || From < 0 || To < 0)
    return 0;
  return starpu_transfer_bandwidth(
      starpu_worker_get_memory_node(static_cast<unsigned>(From)),
      starpu_worker_get_memory_node(static_cast<unsigned>(To)));
}

void StarPUPool::printTopology(FILE *Out) const {
  if (Started)
    starpu_topology_print(Out);
}

} // namespace hetero

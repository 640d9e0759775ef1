//===- WorkersAtExit.cpp - StarPU stops before CUDA unloads ---------------===//
#include "WorkersAtExit.h"

#include "CpuTeam.h"

#include "hetero/Log.h"
#include "hetero/StarPUWorkers.h"

#include <atomic>
#include <cstdlib>
#include <mutex>

namespace hetero {

namespace {
std::atomic<StarPUWorkers *> ExitWorkers{nullptr};

void stopWorkers() {
  if (StarPUWorkers *W = ExitWorkers.exchange(nullptr)) {
    retireOpenMPHelpers(); // before the workers exit (CpuTeam.h)
    W->stop();
  }
}
} // namespace

void stopWorkersAtExit(StarPUWorkers &Workers) {
  static std::once_flag Registered;
  ExitWorkers = &Workers;
  std::call_once(Registered, [] {
    if (std::atexit(stopWorkers) != 0)
      warning("could not register the StarPU workers' stop at exit");
  });
}

void forgetWorkersAtExit() { ExitWorkers = nullptr; }

} // namespace hetero

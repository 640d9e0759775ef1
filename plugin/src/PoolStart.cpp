//===- PoolStart.cpp - The pool starts while the program does ------------===//
#include "PoolStart.h"

#include "hetero/Log.h"
#include "hetero/StarPUPool.h"

#include <cstdlib>

namespace hetero {

const std::string &
PoolStart::wait(const std::function<void(const std::string &)> &Then) {
  std::call_once(Once, [&] {
    PhaseTimes Times;
    if (Thread.joinable())
      Thread.join();
    // The start's own phases were reported by its thread; this is what is
    // left of it when the program first needs the pool.
    Times.mark("waited at first use");
    Times.report("start");
    Then(Error);
    Done.store(true, std::memory_order_release);
  });
  return Error;
}

namespace {
std::atomic<StarPUPool *> ExitWorkers{nullptr};

void stopWorkers() {
  if (StarPUPool *W = ExitWorkers.exchange(nullptr))
    W->stop();
}
} // namespace

void stopWorkersAtExit(StarPUPool &Workers) {
  static std::once_flag Registered;
  ExitWorkers = &Workers;
  std::call_once(Registered, [] {
    if (std::atexit(stopWorkers) != 0)
      warning("could not register the StarPU workers' stop at exit");
  });
}

void forgetWorkersAtExit() { ExitWorkers = nullptr; }

} // namespace hetero

//===- StartThreads.h - A launch's chunks, a thread per GPU -----*- C++ -*-===//
//
// Starting a chunk on a GPU costs the launching thread microseconds of the
// cuda plugin's time, more with a reduction (its partial's identity up,
// then the partial back) and with the halo copies issued before it: from
// one thread, the last GPU of a short launch starts a good part of its
// kernel's time after the first (docs/measurements.md#chunk-starts). These
// threads start the other GPUs' chunks.
//
// The engine post()s a member's chunks to helper H (the member's index) and
// goes on; a helper runs its jobs in the order they were posted; drain(H)
// returns once those posted before it have run. A drain spins for
// SpinMicros, then sleeps until the helper wakes it: a job may wait for its
// GPU (a chunk's finish) for as long as the kernel runs, and a caller
// spinning meanwhile would hold a core the CPU pool could use. A launch whose
// chunks are waited for drains its helpers before it returns; one that runs
// ahead (Engine.h) returns at once, and the launching thread plans the next
// launch while the GPUs' starts are issued.
//
// The helpers spin for SpinMicros after each job, so that the next launch
// (an iterative solver's come close behind) finds them awake, then sleep
// until the next: a spinning helper holds a core, which the CPU pool leaves
// free, one per GPU member (HETERO_CPU_THREADS).
//
// post() and the destructor come from one thread at a time (the engine's
// launch lock); drain() from any thread.
//
//===----------------------------------------------------------------------===//
#ifndef HETERO_STARTTHREADS_H
#define HETERO_STARTTHREADS_H

#include <atomic>
#include <condition_variable>
#include <cstdint>
#include <deque>
#include <functional>
#include <memory>
#include <mutex>
#include <thread>
#include <vector>

namespace hetero {

class StartThreads {
public:
  /// Helpers 0 .. MaxHelpers - 1; a helper's thread starts on first need.
  explicit StartThreads(unsigned SpinMicros = DefaultSpinMicros,
                        size_t MaxHelpers = DefaultMaxHelpers);
  ~StartThreads();
  StartThreads(const StartThreads &) = delete;
  StartThreads &operator=(const StartThreads &) = delete;

  /// Queues Job on helper H (modulo MaxHelpers), after the jobs posted
  /// there before.
  void post(size_t H, std::function<void()> Job);
  /// Returns once every job posted to helper H before the call has run.
  void drain(size_t H);
  void drainAll();
  /// Helpers whose thread was started.
  size_t helpers() const;

  static constexpr unsigned DefaultSpinMicros = 200;
  static constexpr size_t DefaultMaxHelpers = 16;

private:
  struct Helper {
    std::thread Thread;
    bool Started = false; // the launching thread's
    /// Jobs posted, and jobs run (by the helper, after each job).
    std::atomic<uint64_t> Posted{0}, Ran{0};
    std::mutex Mutex; // Jobs, Sleeping, Stop and the wake-ups
    std::condition_variable Wake;
    /// Threads asleep in drain() (Drained): the helper wakes them after a
    /// job.
    std::atomic<unsigned> Drainers{0};
    std::condition_variable Drained;
    std::deque<std::function<void()>> Jobs;
    bool Sleeping = false;
    bool Stop = false;
  };
  void loop(Helper &H);

  unsigned SpinMicros;
  std::vector<std::unique_ptr<Helper>> Helpers;
};

} // namespace hetero

#endif // HETERO_STARTTHREADS_H

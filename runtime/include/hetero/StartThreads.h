//===- StartThreads.h - A launch's chunks, a thread per GPU -----*- C++ -*-===//
//
// Starting a chunk on a GPU costs the launching thread 3 to 4 us of the cuda
// plugin's time (9 with a reduction: its partial's identity up, then the
// partial back): from one thread, the fourth GPU of a CG launch started
// 12 us (27 with a reduction) after the first, of kernels of 34 to 67 us
// (16.7M rows over 4 H100s). These threads start and wait for the other
// GPUs' chunks while the launching thread does the first one's.
//
// The helpers spin for SpinMicros after each job, so that the next launch
// (CG's come 60 to 200 us apart) finds them awake, then sleep until the
// next: a spinning helper holds a core, which the CPU pool leaves free, one
// per GPU member (HETERO_CPU_THREADS).
//
//===----------------------------------------------------------------------===//
#ifndef HETERO_STARTTHREADS_H
#define HETERO_STARTTHREADS_H

#include <atomic>
#include <condition_variable>
#include <cstdint>
#include <functional>
#include <memory>
#include <mutex>
#include <thread>
#include <vector>

namespace hetero {

class StartThreads {
public:
  explicit StartThreads(unsigned SpinMicros = DefaultSpinMicros)
      : SpinMicros(SpinMicros) {}
  ~StartThreads();
  StartThreads(const StartThreads &) = delete;
  StartThreads &operator=(const StartThreads &) = delete;

  /// Runs Jobs[0] on the calling thread and each other job on a helper of
  /// its own, all at once; returns when every job has returned. Helpers
  /// start on first need. One runAll() at a time (the engine's launch lock).
  void runAll(const std::vector<std::function<void()>> &Jobs);
  size_t helpers() const { return Helpers.size(); }

  static constexpr unsigned DefaultSpinMicros = 200;

private:
  struct Helper {
    std::thread Thread;
    /// Bumped for each job posted; the helper runs a job when it sees a
    /// count it has not run.
    std::atomic<uint64_t> Posted{0};
    std::atomic<bool> Done{true};
    const std::function<void()> *Job = nullptr;
    std::mutex Mutex; // Sleeping, Stop and the wake-up
    std::condition_variable Wake;
    bool Sleeping = false;
    bool Stop = false;
  };
  void loop(Helper &H);

  unsigned SpinMicros;
  std::vector<std::unique_ptr<Helper>> Helpers;
};

} // namespace hetero

#endif // HETERO_STARTTHREADS_H

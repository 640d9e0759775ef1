//===- StartThreads.cpp - A launch's GPU chunks, one thread per GPU -------===//
#include "hetero/StartThreads.h"

#include <algorithm>
#include <chrono>

namespace hetero {

namespace {
inline void cpuRelax() {
#if defined(__x86_64__) || defined(__i386__)
  __builtin_ia32_pause();
#elif defined(__aarch64__)
  asm volatile("yield");
#endif
}
} // namespace

StartThreads::StartThreads(unsigned SpinMicros, size_t MaxHelpers)
    : SpinMicros(SpinMicros) {
  Helpers.resize(std::max<size_t>(MaxHelpers, 1));
  for (auto &H : Helpers)
    H = std::make_unique<Helper>();
}

StartThreads::~StartThreads() {
  // A helper runs what was posted to it before it stops.
  for (auto &H : Helpers) {
    if (!H->Started)
      continue;
    {
      std::lock_guard<std::mutex> Lock(H->Mutex);
      H->Stop = true;
    }
    H->Wake.notify_one();
  }
  for (auto &H : Helpers)
    if (H->Started)
      H->Thread.join();
}

size_t StartThreads::helpers() const {
  return static_cast<size_t>(
      std::count_if(Helpers.begin(), Helpers.end(),
                    [](const auto &H) { return H->Started; }));
}

void StartThreads::post(size_t Index, std::function<void()> Job) {
  Helper &H = *Helpers[Index % Helpers.size()];
  if (!H.Started) {
    H.Started = true;
    H.Thread = std::thread([this, &H] { loop(H); });
  }
  std::lock_guard<std::mutex> Lock(H.Mutex);
  H.Jobs.push_back(std::move(Job));
  H.Posted.fetch_add(1, std::memory_order_release);
  // A helper past its spin checks for jobs under the lock before it
  // sleeps: one posted before is seen, one after wakes it here.
  if (H.Sleeping)
    H.Wake.notify_one();
}

void StartThreads::drain(size_t Index) {
  using Clock = std::chrono::steady_clock;
  Helper &H = *Helpers[Index % Helpers.size()];
  uint64_t Target = H.Posted.load(std::memory_order_acquire);
  auto Done = [&] { return H.Ran.load(std::memory_order_acquire) >= Target; };
  // A start takes microseconds: spin that long, reading the clock every 64
  // turns. A job that waits for its GPU (a chunk's finish) takes as long as
  // the kernel: sleep until the helper has run it.
  Clock::time_point Until =
      Clock::now() + std::chrono::microseconds(SpinMicros);
  for (unsigned Turn = 1; !Done(); ++Turn) {
    if (Turn % 64 == 0 && Clock::now() >= Until)
      break;
    cpuRelax();
  }
  if (Done())
    return;
  std::unique_lock<std::mutex> Lock(H.Mutex);
  // Sequentially consistent with the helper's raise of Ran and its read of
  // Drainers: either it sees this drainer and wakes it under the mutex, or
  // the wait's first test sees its raise.
  H.Drainers.fetch_add(1);
  H.Drained.wait(Lock, [&] { return H.Ran.load() >= Target; });
  H.Drainers.fetch_sub(1);
}

void StartThreads::drainAll() {
  for (size_t I = 0; I < Helpers.size(); ++I)
    drain(I);
}

void StartThreads::loop(Helper &H) {
  using Clock = std::chrono::steady_clock;
  // Only this thread raises Ran: a job is pending while Posted is ahead.
  auto Idle = [&] {
    return H.Posted.load(std::memory_order_acquire) ==
           H.Ran.load(std::memory_order_relaxed);
  };
  for (;;) {
    // Spin for a while, reading the clock every 64 turns.
    Clock::time_point Until =
        Clock::now() + std::chrono::microseconds(SpinMicros);
    for (unsigned Turn = 1; Idle(); ++Turn) {
      if (Turn % 64 == 0 && Clock::now() >= Until)
        break;
      cpuRelax();
    }
    std::function<void()> Job;
    {
      std::unique_lock<std::mutex> Lock(H.Mutex);
      if (H.Jobs.empty()) {
        H.Sleeping = true;
        H.Wake.wait(Lock, [&] { return H.Stop || !H.Jobs.empty(); });
        H.Sleeping = false;
        if (H.Jobs.empty())
          return; // stopping, nothing posted
      }
      Job = std::move(H.Jobs.front());
      H.Jobs.pop_front();
    }
    Job();
    H.Ran.fetch_add(1);
    if (H.Drainers.load() > 0) {
      std::lock_guard<std::mutex> Lock(H.Mutex);
      H.Drained.notify_all();
    }
  }
}

} // namespace hetero

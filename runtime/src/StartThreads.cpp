//===- StartThreads.cpp - A launch's GPU chunks, one thread per GPU -------===//
#include "hetero/StartThreads.h"

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

StartThreads::~StartThreads() {
  for (auto &H : Helpers) {
    {
      std::lock_guard<std::mutex> Lock(H->Mutex);
      H->Stop = true;
    }
    H->Wake.notify_one();
  }
  for (auto &H : Helpers)
    H->Thread.join();
}

void StartThreads::runAll(const std::vector<std::function<void()>> &Jobs) {
  if (Jobs.empty())
    return;
  while (Helpers.size() + 1 < Jobs.size()) {
    Helpers.push_back(std::make_unique<Helper>());
    Helper &H = *Helpers.back();
    H.Thread = std::thread([this, &H] { loop(H); });
  }
  for (size_t I = 1; I < Jobs.size(); ++I) {
    Helper &H = *Helpers[I - 1];
    H.Job = &Jobs[I];
    H.Done.store(false, std::memory_order_relaxed);
    H.Posted.fetch_add(1, std::memory_order_release);
    // A helper past its spin sleeps: it checks Posted under the lock before
    // it does, so a job posted before it sleeps is seen, and one after is
    // woken here.
    std::lock_guard<std::mutex> Lock(H.Mutex);
    if (H.Sleeping)
      H.Wake.notify_one();
  }
  Jobs[0]();
  for (size_t I = 1; I < Jobs.size(); ++I)
    while (!Helpers[I - 1]->Done.load(std::memory_order_acquire))
      cpuRelax();
}

void StartThreads::loop(Helper &H) {
  using Clock = std::chrono::steady_clock;
  uint64_t Seen = 0;
  for (;;) {
    // Spin for a while, reading the clock every 64 turns.
    Clock::time_point Until =
        Clock::now() + std::chrono::microseconds(SpinMicros);
    for (unsigned Turn = 1; H.Posted.load(std::memory_order_acquire) == Seen;
         ++Turn) {
      if (Turn % 64 == 0 && Clock::now() >= Until)
        break;
      cpuRelax();
    }
    if (H.Posted.load(std::memory_order_acquire) == Seen) {
      std::unique_lock<std::mutex> Lock(H.Mutex);
      H.Sleeping = true;
      H.Wake.wait(Lock, [&] {
        return H.Stop || H.Posted.load(std::memory_order_acquire) != Seen;
      });
      H.Sleeping = false;
      if (H.Posted.load(std::memory_order_acquire) == Seen)
        return; // stopping, nothing posted
    }
    Seen = H.Posted.load(std::memory_order_acquire);
    (*H.Job)();
    H.Done.store(true, std::memory_order_release);
  }
}

} // namespace hetero

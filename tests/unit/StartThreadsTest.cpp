//===- StartThreadsTest.cpp - One thread per GPU for a launch's chunks ----===//
#include "hetero/StartThreads.h"

#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <set>
#include <thread>
#include <vector>

using namespace hetero;

namespace {

/// Runs Count jobs through T; each records its thread, then waits (up to
/// 10 s) until all Count have started: they all get there only if they run
/// at once. AllMet: every job saw all of them.
void runRecorded(StartThreads &T, size_t Count,
                 std::vector<std::thread::id> &Threads, bool &AllMet) {
  Threads.assign(Count, std::thread::id());
  std::atomic<size_t> Arrived{0};
  std::atomic<size_t> Met{0};
  std::vector<std::function<void()>> Jobs;
  for (size_t I = 0; I < Count; ++I)
    Jobs.push_back([&, I] {
      Threads[I] = std::this_thread::get_id();
      ++Arrived;
      auto Until = std::chrono::steady_clock::now() + std::chrono::seconds(10);
      while (Arrived < Count && std::chrono::steady_clock::now() < Until)
        std::this_thread::yield();
      Met += Arrived == Count;
    });
  T.runAll(Jobs);
  AllMet = Met == Count;
}

} // namespace

// Each job runs once, the first on the caller and each other on a helper
// of its own, all at once; runAll returns once all have returned.
TEST(StartThreads, RunsEachJobOnceOnAThreadOfItsOwn) {
  StartThreads T;
  for (size_t Count : {1, 4, 2, 4, 3}) {
    std::vector<std::thread::id> Threads;
    bool AllMet = false;
    runRecorded(T, Count, Threads, AllMet);
    EXPECT_EQ(Threads[0], std::this_thread::get_id());
    EXPECT_EQ(std::set<std::thread::id>(Threads.begin(), Threads.end()).size(),
              Count);
    EXPECT_TRUE(AllMet) << Count << " jobs did not all run at once";
  }
  EXPECT_EQ(T.helpers(), 3u); // as many as the most jobs at once, less one
}

// With no spin, the helpers sleep between launches and are woken for the
// next; many short rounds look for a lost wake-up (the test would hang).
TEST(StartThreads, SleepingHelpersWakeForTheNextJobs) {
  StartThreads T(/*SpinMicros=*/0);
  std::atomic<int> Ran{0};
  std::vector<std::function<void()>> Jobs(4, [&] { ++Ran; });
  for (int Round = 0; Round < 2000; ++Round) {
    T.runAll(Jobs);
    if (Round % 100 == 0) // let them fall asleep now and then
      std::this_thread::sleep_for(std::chrono::microseconds(200));
  }
  EXPECT_EQ(Ran, 8000);
}

// Destroyed while its helpers spin or sleep, it stops them.
TEST(StartThreads, StopsSpinningAndSleepingHelpers) {
  for (unsigned Spin : {0u, 100000u}) {
    StartThreads T(Spin);
    std::vector<std::function<void()>> Jobs(3, [] {});
    T.runAll(Jobs);
  }
  SUCCEED();
}

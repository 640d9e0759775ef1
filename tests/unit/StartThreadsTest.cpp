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

/// Runs Count jobs through T; each records its thread and how many jobs
/// were running at once.
void runRecorded(StartThreads &T, size_t Count,
                 std::vector<std::thread::id> &Threads, int &MostAtOnce) {
  Threads.assign(Count, std::thread::id());
  std::atomic<int> Running{0}, Most{0};
  std::vector<std::function<void()>> Jobs;
  for (size_t I = 0; I < Count; ++I)
    Jobs.push_back([&, I] {
      int Now = ++Running;
      for (int Seen = Most;
           Now > Seen && !Most.compare_exchange_weak(Seen, Now);)
        ;
      // Long enough that the jobs overlap when they run at once.
      std::this_thread::sleep_for(std::chrono::milliseconds(2));
      Threads[I] = std::this_thread::get_id();
      --Running;
    });
  T.runAll(Jobs);
  MostAtOnce = Most;
}

} // namespace

// Each job runs once, the first on the caller and each other on a helper
// of its own, all at once; runAll returns once all have returned.
TEST(StartThreads, RunsEachJobOnceOnAThreadOfItsOwn) {
  StartThreads T;
  for (size_t Count : {1, 4, 2, 4, 3}) {
    std::vector<std::thread::id> Threads;
    int Most = 0;
    runRecorded(T, Count, Threads, Most);
    EXPECT_EQ(Threads[0], std::this_thread::get_id());
    EXPECT_EQ(std::set<std::thread::id>(Threads.begin(), Threads.end()).size(),
              Count);
    EXPECT_EQ(Most, static_cast<int>(Count));
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

//===- StartThreadsTest.cpp - One thread per GPU for a launch's chunks ----===//
#include "hetero/StartThreads.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <ctime>
#include <set>
#include <thread>
#include <vector>

using namespace hetero;

namespace {

/// Posts Count jobs, one to each helper; each records its thread, then
/// waits (up to 10 s) until all Count have started: they all get there only
/// if they run at once. AllMet: every job saw all of them.
void postRecorded(StartThreads &T, size_t Count,
                  std::vector<std::thread::id> &Threads, bool &AllMet) {
  Threads.assign(Count, std::thread::id());
  std::atomic<size_t> Arrived{0};
  std::atomic<size_t> Met{0};
  for (size_t I = 0; I < Count; ++I)
    T.post(I, [&, I] {
      Threads[I] = std::this_thread::get_id();
      ++Arrived;
      auto Until = std::chrono::steady_clock::now() + std::chrono::seconds(10);
      while (Arrived < Count && std::chrono::steady_clock::now() < Until)
        std::this_thread::yield();
      Met += Arrived == Count;
    });
  T.drainAll();
  AllMet = Met == Count;
}

} // namespace

// Jobs posted to different helpers run at once, each on a thread of its
// own (never the caller's); helpers start on first need.
TEST(StartThreads, HelpersRunTheirJobsAtOnceOnThreadsOfTheirOwn) {
  StartThreads T;
  for (size_t Count : {1, 4, 2, 4, 3}) {
    std::vector<std::thread::id> Threads;
    bool AllMet = false;
    postRecorded(T, Count, Threads, AllMet);
    std::set<std::thread::id> Distinct(Threads.begin(), Threads.end());
    EXPECT_EQ(Distinct.size(), Count);
    EXPECT_EQ(Distinct.count(std::this_thread::get_id()), 0u);
    EXPECT_TRUE(AllMet) << Count << " jobs did not all run at once";
  }
  EXPECT_EQ(T.helpers(), 4u);
}

// With no spin, the helpers sleep between launches and are woken for the
// next; many short rounds look for a lost wake-up (the test would hang).
TEST(StartThreads, SleepingHelpersWakeForTheNextJobs) {
  StartThreads T(/*SpinMicros=*/0);
  std::atomic<int> Ran{0};
  for (int Round = 0; Round < 2000; ++Round) {
    for (size_t H = 0; H < 4; ++H)
      T.post(H, [&] { ++Ran; });
    T.drainAll();
    if (Round % 100 == 0) // let them fall asleep now and then
      std::this_thread::sleep_for(std::chrono::microseconds(200));
  }
  EXPECT_EQ(Ran, 8000);
}

// Destroyed while its helpers spin or sleep, it stops them.
TEST(StartThreads, StopsSpinningAndSleepingHelpers) {
  for (unsigned Spin : {0u, 100000u}) {
    StartThreads T(Spin);
    for (size_t H = 0; H < 3; ++H)
      T.post(H, [] {});
    T.drainAll();
  }
  SUCCEED();
}

// Jobs posted to a helper run there, in the order they were posted, off
// the posting thread; drain() returns once those posted before it ran.
TEST(StartThreads, PostedJobsRunInOrderOnTheirHelper) {
  StartThreads T(/*SpinMicros=*/50, /*MaxHelpers=*/3);
  std::vector<std::vector<int>> Seen(3);
  std::vector<std::set<std::thread::id>> Threads(3);
  for (int I = 0; I < 3000; ++I) {
    size_t H = static_cast<size_t>(I) % 3;
    T.post(H, [&, H, I] {
      Seen[H].push_back(I);
      Threads[H].insert(std::this_thread::get_id());
    });
    if (I % 500 == 499)
      T.drain(H);
  }
  T.drainAll();
  for (size_t H = 0; H < 3; ++H) {
    ASSERT_EQ(Seen[H].size(), 1000u);
    EXPECT_TRUE(std::is_sorted(Seen[H].begin(), Seen[H].end()));
    EXPECT_EQ(Threads[H].size(), 1u);
    EXPECT_EQ(Threads[H].count(std::this_thread::get_id()), 0u);
  }
  EXPECT_EQ(T.helpers(), 3u);
}

// A drain on another thread waits for a slow job posted before it.
TEST(StartThreads, ADrainOnAnotherThreadWaitsForWhatWasPosted) {
  StartThreads T(/*SpinMicros=*/0, /*MaxHelpers=*/2);
  std::atomic<bool> Done{false};
  T.post(1, [&] {
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
    Done = true;
  });
  bool SawDone = false;
  std::thread Other([&] {
    T.drain(1);
    SawDone = Done;
  });
  Other.join();
  EXPECT_TRUE(SawDone);
  T.drain(0); // nothing posted there: returns at once
}

// A drain that waits for a long job (a chunk's finish waits for its
// kernel) sleeps after its spin: the caller's thread spends almost no CPU
// time while the job runs 300 ms.
TEST(StartThreads, ADrainOfALongJobSleepsInsteadOfSpinning) {
  auto ThreadCpuSeconds = [] {
    timespec T{};
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &T);
    return double(T.tv_sec) + double(T.tv_nsec) * 1e-9;
  };
  StartThreads T; // the engine's spin
  std::atomic<bool> Done{false};
  T.post(0, [&] {
    std::this_thread::sleep_for(std::chrono::milliseconds(300));
    Done = true;
  });
  double Before = ThreadCpuSeconds();
  T.drain(0);
  double Spent = ThreadCpuSeconds() - Before;
  EXPECT_TRUE(Done);
  EXPECT_LT(Spent, 0.05) << "the drain spun while the job ran";
}

// Many drains racing helpers that finish just then: none sleeps through
// its wake-up (the test would hang).
TEST(StartThreads, DrainsThatSleepAreWokenEveryTime) {
  StartThreads T(/*SpinMicros=*/0, /*MaxHelpers=*/2);
  std::atomic<int> Ran{0};
  for (int Round = 0; Round < 3000; ++Round) {
    for (size_t H = 0; H < 2; ++H)
      T.post(H, [&, Round] {
        if (Round % 3 == 0)
          std::this_thread::sleep_for(std::chrono::microseconds(20));
        ++Ran;
      });
    std::thread Other([&] { T.drain(1); });
    T.drain(0);
    Other.join();
  }
  T.drainAll();
  EXPECT_EQ(Ran, 6000);
}

// Destroyed with jobs still queued, the helpers run them before they stop.
TEST(StartThreads, StopsOnlyOncePostedJobsRan) {
  std::atomic<int> Ran{0};
  {
    StartThreads T(/*SpinMicros=*/0, /*MaxHelpers=*/2);
    for (int I = 0; I < 100; ++I)
      T.post(static_cast<size_t>(I) % 2, [&] {
        std::this_thread::sleep_for(std::chrono::microseconds(100));
        ++Ran;
      });
  }
  EXPECT_EQ(Ran, 100);
}

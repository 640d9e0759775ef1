//===- HeldMutexTest.cpp - HeldMutex knows its holder ---------------------===//
#include "hetero/HeldMutex.h"

#include <condition_variable>
#include <gtest/gtest.h>
#include <thread>

using namespace hetero;

TEST(HeldMutex, OnlyTheHolderSeesItHeld) {
  HeldMutex M;
  EXPECT_FALSE(M.heldHere());
  {
    std::lock_guard<HeldMutex> L(M);
    EXPECT_TRUE(M.heldHere());
    bool Elsewhere = true;
    std::thread([&] { Elsewhere = M.heldHere(); }).join();
    EXPECT_FALSE(Elsewhere);
    EXPECT_FALSE(M.try_lock()) << "held: another lock must not be taken";
  }
  EXPECT_FALSE(M.heldHere());
  ASSERT_TRUE(M.try_lock());
  EXPECT_TRUE(M.heldHere());
  M.unlock();
}

// A wait lets the mutex go and takes it back: the waiter does not hold it
// while it sleeps (the notifier does), and holds it again when woken.
TEST(HeldMutex, AWaitGivesItUpAndTakesItBack) {
  HeldMutex M;
  std::condition_variable_any Cv;
  bool Ready = false, NotifierHeld = false, WaiterHeldDuring = true;
  std::unique_lock<HeldMutex> L(M);
  std::thread Notifier([&] {
    std::lock_guard<HeldMutex> G(M);
    NotifierHeld = M.heldHere();
    Ready = true;
    Cv.notify_one();
  });
  Cv.wait(L, [&] { return Ready; });
  EXPECT_TRUE(M.heldHere());
  L.unlock();
  Notifier.join();
  std::thread([&] { WaiterHeldDuring = M.heldHere(); }).join();
  EXPECT_TRUE(NotifierHeld);
  EXPECT_FALSE(WaiterHeldDuring);
  EXPECT_FALSE(M.heldHere());
}

//===- SchedulerTest.cpp - Which member runs a launch ---------------------===//
#include "hetero/Scheduler.h"

#include <gtest/gtest.h>

using namespace hetero;

static std::vector<Member> pool() {
  std::vector<Member> Ms(4);
  Ms[0].Kind = MemberKind::Gpu, Ms[0].Index = 0, Ms[0].Node = 1;
  Ms[1].Kind = MemberKind::Gpu, Ms[1].Index = 1, Ms[1].Node = 2;
  Ms[2].Kind = MemberKind::Simulated, Ms[2].Index = 0, Ms[2].Node = 3;
  Ms[3].Kind = MemberKind::CpuPool, Ms[3].Node = 0;
  return Ms;
}

static auto All = [](const Member &) { return true; };

TEST(Scheduler, GpuFirstThenSimulatedThenCpu) {
  auto Ms = pool();
  LaunchChoice C = chooseMembers(Ms, All, "");
  ASSERT_EQ(C.Order.size(), 4u);
  EXPECT_EQ(C.Order[0]->name(), "cuda:0");
  EXPECT_EQ(C.Order[2]->name(), "sim:0");
  EXPECT_EQ(C.Order[3]->name(), "cpu");
  EXPECT_EQ(C.Reason, "first GPU of the pool");
}

TEST(Scheduler, SkipsFailedAndIncapableMembers) {
  auto Ms = pool();
  Ms[0].Failed = true;
  LaunchChoice C = chooseMembers(
      Ms, [](const Member &M) { return M.Kind != MemberKind::Simulated; }, "");
  ASSERT_EQ(C.Order.size(), 2u);
  EXPECT_EQ(C.Order[0]->name(), "cuda:1");
  EXPECT_EQ(C.Order[1]->name(), "cpu");
}

TEST(Scheduler, PinComesFirstAndUnknownPinIsReported) {
  auto Ms = pool();
  LaunchChoice C = chooseMembers(Ms, All, "cpu");
  EXPECT_EQ(C.Order[0]->name(), "cpu");
  EXPECT_EQ(C.Reason, "pinned by HETERO_MEMBER");
  EXPECT_EQ(C.Order.size(), 4u);
  C = chooseMembers(Ms, All, "cuda:7");
  EXPECT_EQ(C.Order[0]->name(), "cuda:0");
  EXPECT_NE(C.Reason.find("names no usable member"), std::string::npos);
}

TEST(Scheduler, CpuOnlyPool) {
  std::vector<Member> Ms(1);
  LaunchChoice C = chooseMembers(Ms, All, "");
  ASSERT_EQ(C.Order.size(), 1u);
  EXPECT_EQ(C.Reason, "no accelerator: CPU pool");
}

TEST(Scheduler, MembersListedComeFirstOthersOnlyAsFallback) {
  auto Ms = pool();
  auto OnlyCpu = [](const Member &M) { return M.Kind == MemberKind::CpuPool; };
  LaunchChoice C = chooseMembers(Ms, All, "", OnlyCpu);
  ASSERT_EQ(C.Order.size(), 4u);
  EXPECT_EQ(C.Order[0]->name(), "cpu");
  EXPECT_EQ(C.Reason, "no accelerator: CPU pool");
  EXPECT_EQ(C.Order[1]->name(), "cuda:0");
  // The listed member cannot run the kernel: the others take it, and say so.
  C = chooseMembers(
      Ms, [](const Member &M) { return M.Kind != MemberKind::CpuPool; }, "",
      OnlyCpu);
  ASSERT_EQ(C.Order.size(), 3u);
  EXPECT_EQ(C.Order[0]->name(), "cuda:0");
  EXPECT_EQ(C.Reason, "no member HETERO_MEMBERS lists can run it");
}

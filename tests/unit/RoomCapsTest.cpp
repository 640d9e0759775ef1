//===- RoomCapsTest.cpp - Shares that fit the members' memory -------------===//
#include "hetero/RoomCaps.h"

#include <gtest/gtest.h>

using namespace hetero;

namespace {

const std::vector<std::string> Names = {"gpu0", "gpu1", "cpu"};

double weightOf(const RoomCaps::Applied &A, size_t M) {
  for (const Share &S : A.Shares)
    if (S.Member == M)
      return S.Weight;
  return 0;
}

} // namespace

TEST(RoomCaps, WithoutCapsSharesAreOnlyNormalized) {
  RoomCaps C;
  RoomCaps::Applied A = C.apply("k", {{0, 3}, {1, 1}}, {2}, Names);
  EXPECT_DOUBLE_EQ(weightOf(A, 0), 0.75);
  EXPECT_DOUBLE_EQ(weightOf(A, 1), 0.25);
  EXPECT_EQ(A.Overflow, 0);
  EXPECT_TRUE(A.Note.empty());
}

// A capped member's excess goes to the split's uncapped members, in
// proportion; no taker is asked.
TEST(RoomCaps, TheSplitsUncappedMembersTakeTheExcess) {
  RoomCaps C;
  C.learn("k", 0, 0.2);
  RoomCaps::Applied A = C.apply("k", {{0, 2}, {1, 1}, {2, 1}}, {2}, Names);
  EXPECT_DOUBLE_EQ(weightOf(A, 0), 0.2);
  EXPECT_DOUBLE_EQ(weightOf(A, 1), 0.25 + 0.3 * 0.5);
  EXPECT_DOUBLE_EQ(weightOf(A, 2), 0.25 + 0.3 * 0.5);
  EXPECT_EQ(A.Overflow, 0);
  EXPECT_EQ(A.Note, "room[gpu0<=20.0%]");
}

// All of the split capped: the takers, in order, take what is left (the
// CPU pool, computing in place); caps only go down.
TEST(RoomCaps, TakersTakeWhatTheCappedSplitCannot) {
  RoomCaps C;
  C.learn("k", 0, 0.6);
  C.learn("k", 0, 0.7); // higher: ignored
  EXPECT_DOUBLE_EQ(C.cap("k", 0), 0.6);
  EXPECT_DOUBLE_EQ(C.cap("k", 1), 1);
  EXPECT_DOUBLE_EQ(C.cap("other", 0), 1);
  RoomCaps::Applied A = C.apply("k", {{0, 1}}, {2, 1}, Names);
  ASSERT_EQ(A.Shares.size(), 2u);
  EXPECT_DOUBLE_EQ(weightOf(A, 0), 0.6);
  EXPECT_DOUBLE_EQ(weightOf(A, 2), 0.4);
  EXPECT_EQ(A.Overflow, 0);
}

// Nobody can take the rest: the overflow is what rounds must cover.
TEST(RoomCaps, WhatNobodyHoldsIsTheOverflow) {
  RoomCaps C;
  C.learn("k", 0, 0.3);
  C.learn("k", 1, 0.25);
  RoomCaps::Applied A = C.apply("k", {{0, 1}, {1, 1}}, {0, 1}, Names);
  EXPECT_DOUBLE_EQ(weightOf(A, 0), 0.3);
  EXPECT_DOUBLE_EQ(weightOf(A, 1), 0.25);
  EXPECT_NEAR(A.Overflow, 0.45, 1e-12);
  EXPECT_EQ(A.Note, "room[gpu0<=30.0%,gpu1<=25.0%]");
}

// A member that holds too little to be worth a round leaves the splits.
TEST(RoomCaps, ACapBelowTheLeastTakesTheMemberOut) {
  RoomCaps C;
  C.learn("k", 0, RoomCaps::LeastCap / 2);
  EXPECT_EQ(C.cap("k", 0), 0);
  RoomCaps::Applied A = C.apply("k", {{0, 1}, {1, 1}}, {2}, Names);
  ASSERT_EQ(A.Shares.size(), 1u);
  EXPECT_EQ(A.Shares[0].Member, 1u);
  EXPECT_DOUBLE_EQ(A.Shares[0].Weight, 1);
}

//===- RangeSetTest.cpp - RangeSet against a byte-map oracle --------------===//
#include "hetero/RangeSet.h"

#include <gtest/gtest.h>

#include <random>
#include <vector>

using hetero::Range;
using hetero::RangeSet;

TEST(RangeSet, InsertMergesTouchingAndOverlapping) {
  RangeSet S;
  S.insert(10, 20);
  S.insert(20, 30); // touching
  S.insert(5, 12);  // overlapping
  EXPECT_EQ(S.list(), (std::vector<Range>{{5, 30}}));
  S.insert(40, 50);
  EXPECT_EQ(S.bytes(), 35u);
  EXPECT_TRUE(S.contains(5, 30));
  EXPECT_FALSE(S.contains(5, 31));
  EXPECT_TRUE(S.contains(7, 7)); // empty ranges are always contained
}

TEST(RangeSet, EraseSplits) {
  RangeSet S;
  S.insert(0, 100);
  S.erase(10, 20);
  S.erase(90, 200);
  EXPECT_EQ(S.list(), (std::vector<Range>{{0, 10}, {20, 90}}));
  EXPECT_EQ(S.missing(0, 100), (std::vector<Range>{{10, 20}, {90, 100}}));
  EXPECT_EQ(S.intersect(5, 25), (std::vector<Range>{{5, 10}, {20, 25}}));
}

// Ranges that grow at either end, move their start or lose a head or a
// tail are changed in place; the set reads the same either way.
TEST(RangeSet, MovedBoundariesKeepTheSetExact) {
  RangeSet S;
  S.insert(100, 200);
  S.insert(50, 120);  // the range's start moves down
  S.insert(180, 260); // its end moves up
  S.insert(300, 310);
  S.insert(290, 300); // the second range's start moves down, touching
  EXPECT_EQ(S.list(), (std::vector<Range>{{50, 260}, {290, 310}}));
  S.erase(50, 60);   // a head goes: the start moves up
  S.erase(250, 295); // a tail and the next range's head
  S.erase(100, 110); // a hole: one new range
  EXPECT_EQ(S.list(), (std::vector<Range>{{60, 100}, {110, 250}, {295, 310}}));
  std::vector<Range> Seen;
  for (const Range &R : S.ranges())
    Seen.push_back(R);
  EXPECT_EQ(Seen, S.list());
  EXPECT_EQ(S.ranges().size(), 3u);
  EXPECT_TRUE(S.contains(110, 250));
  EXPECT_FALSE(S.contains(100, 111));
  S.insert(0, 400); // swallows all
  EXPECT_EQ(S.list(), (std::vector<Range>{{0, 400}}));
}

// Random operations checked byte by byte against a plain bitmap.
TEST(RangeSet, RandomAgainstBitmap) {
  std::mt19937 Rng(1234);
  for (int Round = 0; Round < 200; ++Round) {
    RangeSet S;
    std::vector<bool> Oracle(256, false);
    for (int Op = 0; Op < 40; ++Op) {
      uint64_t A = Rng() % 256, B = Rng() % 256;
      if (A > B)
        std::swap(A, B);
      if (Rng() % 3) {
        S.insert(A, B);
        for (uint64_t I = A; I < B; ++I)
          Oracle[I] = true;
      } else {
        S.erase(A, B);
        for (uint64_t I = A; I < B; ++I)
          Oracle[I] = false;
      }
      // Ranges are sorted, disjoint and not adjacent.
      auto Rs = S.list();
      for (size_t I = 1; I < Rs.size(); ++I)
        ASSERT_LT(Rs[I - 1].Hi, Rs[I].Lo);
      uint64_t Q0 = Rng() % 256, Q1 = Rng() % 256;
      if (Q0 > Q1)
        std::swap(Q0, Q1);
      bool All = true;
      uint64_t InSet = 0;
      for (uint64_t I = Q0; I < Q1; ++I) {
        All &= Oracle[I];
        InSet += Oracle[I];
      }
      ASSERT_EQ(S.contains(Q0, Q1), All);
      uint64_t Sum = 0;
      for (const Range &R : S.intersect(Q0, Q1))
        Sum += R.size();
      ASSERT_EQ(Sum, InSet);
      uint64_t Miss = 0;
      for (const Range &R : S.missing(Q0, Q1)) {
        for (uint64_t I = R.Lo; I < R.Hi; ++I)
          ASSERT_FALSE(Oracle[I]);
        Miss += R.size();
      }
      ASSERT_EQ(Miss + InSet, Q1 - Q0);
    }
  }
}

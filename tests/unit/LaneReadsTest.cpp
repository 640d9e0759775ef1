//===- LaneReadsTest.cpp - Bytes that queued copies have yet to read ------===//
#include "hetero/LaneReads.h"

#include <gtest/gtest.h>

using namespace hetero;

TEST(LaneReads, ReadersOfOverlappingBytesOnTheirSource) {
  LaneReads R;
  R.add(/*Src=*/1, /*Dst=*/2, /*Id=*/100, 0, 64);
  R.add(1, 3, 100, 64, 128);
  R.add(1, 3, 200, 0, 8);
  R.add(2, 1, 100, 0, 64);
  EXPECT_EQ(R.readers(1, 100, 32, 40), std::vector<NodeId>({2}));
  EXPECT_EQ(R.readers(1, 100, 60, 70), std::vector<NodeId>({2, 3}));
  EXPECT_TRUE(R.readers(1, 100, 128, 200).empty()); // ranges are half-open
  EXPECT_TRUE(R.readers(3, 100, 0, 64).empty());
  EXPECT_EQ(R.readers(1, 0, 0, 0), std::vector<NodeId>({2, 3})); // any buffer
  EXPECT_EQ(R.allReaders(), std::vector<NodeId>({2, 3, 1}));
}

TEST(LaneReads, ASettledLaneHasNoReadsLeft) {
  LaneReads R;
  R.add(1, 2, 100, 0, 64);
  R.add(3, 2, 100, 64, 128);
  R.add(1, 3, 100, 0, 64);
  R.settled(2);
  EXPECT_EQ(R.size(), 1u);
  EXPECT_EQ(R.readers(1, 100, 0, 64), std::vector<NodeId>({3}));
  R.settled(3);
  EXPECT_TRUE(R.empty());
}

// A loop queues the same halo copies launch after launch.
TEST(LaneReads, TheSameReadIsKeptOnce) {
  LaneReads R;
  for (int I = 0; I < 100; ++I) {
    R.add(1, 2, 100, 0, 64);
    R.add(1, 2, 100, 8, 16); // inside the first
  }
  EXPECT_EQ(R.size(), 1u);
  R.add(1, 2, 100, 32, 96); // not inside: kept
  EXPECT_EQ(R.size(), 2u);
}

// Once node 1's lane runs after node 2's, node 2's reads of node 1's bytes
// are dropped; its reads of other nodes' bytes, and others' reads, stay.
TEST(LaneReads, ALaneOrderedAfterTheReaderDropsItsReads) {
  LaneReads R;
  R.add(1, 2, 100, 0, 64);
  R.add(1, 2, 200, 0, 64);
  R.add(3, 2, 100, 0, 64);
  R.add(1, 3, 100, 0, 64);
  R.orderedAfter(/*Src=*/1, /*Dst=*/2);
  EXPECT_EQ(R.size(), 2u);
  EXPECT_EQ(R.readers(1, 100, 0, 64), std::vector<NodeId>({3}));
  EXPECT_EQ(R.readers(3, 100, 0, 64), std::vector<NodeId>({2}));
}

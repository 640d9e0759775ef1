//===- CopyBatchTest.cpp - Queued peer copies of the data layer -----------===//
//
// Simulated nodes land a queued copy only when it is waited for
// (SimulatedNodeOps::queueCopyFromPeer), as late as a GPU may: every byte
// these tests read after a batch checks that the layer waited where it must.
//
//===----------------------------------------------------------------------===//
#include "SimulatedLayer.h"
#include "hetero/DataLayer.h"

#include <gtest/gtest.h>

#include <numeric>
#include <thread>
#include <vector>

using namespace hetero;

namespace {

struct CopyBatch : SimulatedLayer {
  static constexpr int N = 1024;
  static constexpr uint64_t Bytes = N * sizeof(int);

  /// A buffer of 0..N-1 written by node On alone.
  void *writtenOn(NodeId On) {
    void *P = L.allocate(Bytes);
    EXPECT_NE(P, nullptr);
    int *V = nodeView(On, P);
    std::iota(V, V + N, 0);
    L.markWritten(On, id(P), 0, Bytes);
    return P;
  }
  void expectIota(const int *V) {
    for (int I = 0; I < N; ++I)
      ASSERT_EQ(V[I], I) << "at " << I;
  }
};

} // namespace

TEST_F(CopyBatch, QueuedCopiesLandWhenTheBatchEnds) {
  void *P = writtenOn(A);
  L.beginCopyBatch();
  ASSERT_TRUE(L.makeValid(B, id(P), 0, Bytes));
  EXPECT_EQ(nodeView(B, P)[7], 0); // queued: not there yet
  EXPECT_EQ(L.stats().BytesD2D, Bytes);
  ASSERT_TRUE(L.endCopyBatch());
  expectIota(nodeView(B, P));
}

TEST_F(CopyBatch, CopiesOutOfQueuedBytesWaitForThem) {
  // Written on C; B gets it queued, then A copies from B (the lower node,
  // preferred as a source) within the same batch. The batch's end waits
  // for A's copies before B's: A's must not have read B's too early.
  void *P = writtenOn(C);
  L.beginCopyBatch();
  ASSERT_TRUE(L.makeValid(B, id(P), 0, Bytes));
  ASSERT_TRUE(L.makeValid(A, id(P), 0, Bytes));
  ASSERT_TRUE(L.endCopyBatch());
  expectIota(nodeView(A, P));
  expectIota(nodeView(B, P));
}

TEST_F(CopyBatch, CopiesOfOtherRangesStayQueued) {
  // Each of A and B holds one half and needs the other (a halo both ways).
  void *P = L.allocate(Bytes);
  int *OnA = nodeView(A, P), *OnB = nodeView(B, P);
  std::iota(OnA, OnA + N / 2, 0);
  std::iota(OnB + N / 2, OnB + N, N / 2);
  L.markWritten(A, id(P), 0, Bytes / 2);
  L.markWritten(B, id(P), Bytes / 2, Bytes);
  L.beginCopyBatch();
  ASSERT_TRUE(L.makeValid(A, id(P), Bytes / 2, Bytes));
  ASSERT_TRUE(L.makeValid(B, id(P), 0, Bytes / 2));
  EXPECT_EQ(OnA[N - 1], 0); // neither waited for the other
  EXPECT_EQ(OnB[0], 0);
  ASSERT_TRUE(L.endCopyBatch());
  expectIota(OnA);
  expectIota(OnB);
}

TEST_F(CopyBatch, ReadsAndWritesWaitForQueuedCopies) {
  void *P = writtenOn(A);
  L.beginCopyBatch();
  ASSERT_TRUE(L.makeValid(B, id(P), 0, Bytes));
  // The host reads from wherever the bytes are valid: B's must be there.
  std::vector<int> Back(N);
  ASSERT_TRUE(L.read(Back.data(), P, Bytes));
  expectIota(Back.data());
  expectIota(nodeView(B, P));
  ASSERT_TRUE(L.endCopyBatch());
}

TEST_F(CopyBatch, AnotherThreadsCopiesAreNotQueued) {
  void *P = writtenOn(A), *Q = writtenOn(A);
  L.beginCopyBatch();
  ASSERT_TRUE(L.makeValid(B, id(P), 0, Bytes));
  std::thread Other([&] {
    ASSERT_TRUE(L.makeValid(C, id(Q), 0, Bytes));
    expectIota(nodeView(C, Q)); // its own copy, done on return
    expectIota(nodeView(B, P)); // and the batch's, waited for first
  });
  Other.join();
  ASSERT_TRUE(L.endCopyBatch());
}

TEST_F(CopyBatch, PointerSlotsAreWrittenOverTheLandedCopy) {
  void *Arr = writtenOn(A);
  void *S = L.allocate(4 * sizeof(void *));
  std::vector<void *> Ptrs(4, Arr);
  ASSERT_TRUE(L.write(S, Ptrs.data(), sizeof(void *))); // slot 0 attached
  ASSERT_TRUE(L.makeValid(A, id(S), 0, 4 * sizeof(void *)));
  L.markWritten(A, id(S), 0, 4 * sizeof(void *));
  L.beginCopyBatch();
  ASSERT_TRUE(L.makeValid(B, id(S), 0, 4 * sizeof(void *)));
  ASSERT_TRUE(L.endCopyBatch());
  void **OnB = reinterpret_cast<void **>(nodeView(B, S));
  EXPECT_EQ(OnB[0], static_cast<void *>(nodeView(B, Arr)));
}

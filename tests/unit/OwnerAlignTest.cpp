//===- OwnerAlignTest.cpp - Chunk boundaries where the data lives ---------===//
//
// A kernel whose iterations start ten elements in cuts its own space
// elsewhere than the kernel that laid its output out: its boundary goes to
// the layout's, within half a chunk, unless its shares moved it since its
// last launch; bytes valid on both members (a halo) are no evidence, and a
// boundary that lies beyond the band stays where the shares put it. A
// launch whose reach lies in one member's data runs there whole.
//
//===----------------------------------------------------------------------===//
#include "hetero/OwnerAlign.h"

#include <gtest/gtest.h>

#include <memory>

using namespace hetero;

TEST(OwnershipBoundary, IsWhereTheLeftsBytesEndAndTheRightsBegin) {
  RangeSet Left, Right;
  Left.insert(0, 400);
  Right.insert(480, 1000);
  uint64_t X = 0;
  // Bytes valid on both between 400 and 480: the point nearest the cut.
  ASSERT_TRUE(ownershipBoundary(Left, Right, 0, 1000, 440, X));
  EXPECT_EQ(X, 440u);
  ASSERT_TRUE(ownershipBoundary(Left, Right, 0, 1000, 700, X));
  EXPECT_EQ(X, 480u);
  ASSERT_TRUE(ownershipBoundary(Left, Right, 0, 1000, 100, X));
  EXPECT_EQ(X, 400u);
  // A few stray bytes on the wrong side weigh what they hold.
  Left.insert(600, 608);
  ASSERT_TRUE(ownershipBoundary(Left, Right, 0, 1000, 100, X));
  EXPECT_EQ(X, 400u);
  // Only one of them holds bytes alone there: no evidence.
  EXPECT_FALSE(ownershipBoundary(Left, RangeSet(), 0, 1000, 100, X));
  EXPECT_FALSE(ownershipBoundary(Left, Right, 0, 300, 100, X));
}

namespace {

// b[i] = a[i] for i in [init, n); args: a, b, n.
std::string copyFrom(int Init) {
  return "hetero-kernel 1\n"
         "split yes\n"
         "nest 1\n"
         "loop 0 " +
         std::to_string(Init) +
         " lt (sarg 2 4 1) 1\n"
         "read 8 (arg 0) (* (c 0) 8)\n"
         "write 8 (arg 1) (* (c 0) 8)\n";
}

struct OwnerAlignTest : ::testing::Test {
  DataLayer L;
  NodeId A = L.addNode(std::make_unique<SimulatedNodeOps>(0));
  NodeId B = L.addNode(std::make_unique<SimulatedNodeOps>(1));
  static constexpr uint64_t N = 100;
  void *In = L.allocate(N * 8), *Out = L.allocate(N * 8);
  KernelDescriptor Tail; // i in [10, n)
  DescEnv Env;
  OwnerAlign Align;

  void SetUp() override {
    std::string Err;
    ASSERT_TRUE(KernelDescriptor::parse(copyFrom(10), Tail, Err)) << Err;
    Env.Args = {reinterpret_cast<uintptr_t>(In),
                reinterpret_cast<uintptr_t>(Out), N};
    // The kernel over [0, n) wrote b in two halves, a on the host.
    splitBetween(reinterpret_cast<uintptr_t>(Out), 400, N * 8);
  }
  /// Buffer Id (Size bytes) as a kernel left it that wrote [0, At) on A and
  /// [At, Size) on B.
  void splitBetween(BufferId Id, uint64_t At, uint64_t Size) {
    for (NodeId Node : {A, B}) {
      uintptr_t Storage = 0;
      ASSERT_TRUE(L.translate(Node, Id, Storage));
    }
    L.markWritten(A, Id, 0, At);
    L.markWritten(B, Id, At, Size);
  }
  /// The tail kernel's chunks over A and B, cut at Cut by the shares.
  std::vector<ChunkSpec> align(uint64_t Cut, unsigned *Moved = nullptr) {
    std::vector<ChunkSpec> C = {{0, 0, Cut}, {1, Cut, N - 10}};
    unsigned M =
        Align.align("tail", Tail, Env, {Env.Args[0], Env.Args[1], Env.Args[2]},
                    {N - 10}, {A, B}, L, C);
    if (Moved)
      *Moved = M;
    return C;
  }
  /// The tail kernel over [10, End), cut in two halves by the shares: the
  /// boundaries moved, and the chunks.
  std::pair<unsigned, std::vector<ChunkSpec>> alignTo(uint64_t End) {
    uint64_t Trip = End - 10;
    std::vector<ChunkSpec> C = {{0, 0, Trip / 2}, {1, Trip / 2, Trip}};
    DescEnv E = Env;
    E.Args[2] = End;
    unsigned M =
        Align.align("to" + std::to_string(End), Tail, E,
                    {Env.Args[0], Env.Args[1], End}, {Trip}, {A, B}, L, C);
    return {M, C};
  }
};

} // namespace

TEST_F(OwnerAlignTest, TheBoundaryGoesWhereTheDataChangesHands) {
  unsigned Moved = 0;
  // Equal shares cut at iteration 45 (element 55); b changes hands at
  // element 50, iteration 40.
  EXPECT_EQ(align(45, &Moved),
            (std::vector<ChunkSpec>{{0, 0, 40}, {1, 40, 90}}));
  EXPECT_EQ(Moved, 1u);
  // The next launch, the same shares: the same (kept) answer.
  EXPECT_EQ(align(45), (std::vector<ChunkSpec>{{0, 0, 40}, {1, 40, 90}}));
  // Shares that moved: where they say; the launch writes b there, and the
  // boundary stays with the data, also for shares a little off.
  EXPECT_EQ(align(60), (std::vector<ChunkSpec>{{0, 0, 60}, {1, 60, 90}}));
  BufferId Id = reinterpret_cast<uintptr_t>(Out);
  L.markWritten(A, Id, 80, 560);
  L.markWritten(B, Id, 560, 800);
  EXPECT_EQ(align(60), (std::vector<ChunkSpec>{{0, 0, 60}, {1, 60, 90}}));
  EXPECT_EQ(align(56), (std::vector<ChunkSpec>{{0, 0, 56}, {1, 56, 90}}));
  EXPECT_EQ(align(56), (std::vector<ChunkSpec>{{0, 0, 60}, {1, 60, 90}}));
}

TEST_F(OwnerAlignTest, AnAnswerThatHoldsIsKeptThenLookedAtAgain) {
  std::vector<ChunkSpec> AtForty = {{0, 0, 40}, {1, 40, 90}};
  EXPECT_EQ(align(45), AtForty);
  EXPECT_EQ(align(45), AtForty); // the same twice: kept from now on
  // b changes hands at element 60 now: the kept answer stands for a few
  // launches, then a look finds the new boundary (iteration 50).
  BufferId Id = reinterpret_cast<uintptr_t>(Out);
  L.markWritten(A, Id, 0, 480);
  L.markWritten(B, Id, 480, 800);
  EXPECT_EQ(align(45), AtForty);
  unsigned Launches = 1;
  std::vector<ChunkSpec> Now = AtForty;
  while (Now == AtForty && Launches < 100) {
    Now = align(45);
    ++Launches;
  }
  EXPECT_EQ(Now, (std::vector<ChunkSpec>{{0, 0, 50}, {1, 50, 90}}));
  EXPECT_LE(Launches, 8u);
  // Shares that moved are looked at at once (and cut where they say).
  EXPECT_EQ(align(46), (std::vector<ChunkSpec>{{0, 0, 46}, {1, 46, 90}}));
}

TEST_F(OwnerAlignTest, ClearCopiesAndFarBoundariesLeaveTheShares) {
  // b valid on both: nobody owns it alone.
  ASSERT_TRUE(L.makeValid(A, reinterpret_cast<uintptr_t>(Out), 0, 800));
  EXPECT_EQ(align(45), (std::vector<ChunkSpec>{{0, 0, 45}, {1, 45, 90}}));
  // A owns up to element 90: beyond half a chunk from the cut.
  L.markWritten(A, reinterpret_cast<uintptr_t>(Out), 0, 720);
  L.markWritten(B, reinterpret_cast<uintptr_t>(Out), 720, 800);
  EXPECT_EQ(align(45), (std::vector<ChunkSpec>{{0, 0, 45}, {1, 45, 90}}));
}

TEST_F(OwnerAlignTest, ALaunchWithinOneMembersDataRunsThere) {
  // Elements [10, 14) of b, a small part of it that A holds alone (a halo
  // row of the grid): A runs it.
  using Result = std::pair<unsigned, std::vector<ChunkSpec>>;
  EXPECT_EQ(alignTo(14), (Result{1, {{0, 0, 4}}}));
  // [10, 40): too large a part of b to gather on one member.
  EXPECT_EQ(alignTo(40), (Result{0, {{0, 0, 15}, {1, 15, 30}}}));
  // Over [10, 60): B holds a quarter of what A does alone there: no owner
  // (and element 50 lies beyond the band around the cut).
  EXPECT_EQ(alignTo(60), (Result{0, {{0, 0, 25}, {1, 25, 50}}}));
}

// A right halo update over the rows of a 10-wide grid (b is 10 rows):
// iteration k writes the row's last two elements from the two before them.
// A owns rows 0-4, B rows 5-9. The first iteration whose write starts at or
// beyond B's first byte is row 5; row 4's writes end where B's bytes begin,
// so row 4 stays with A (not "the start nearer to the boundary": that put
// row 4 on B, which then fetched it at every launch).
TEST_F(OwnerAlignTest, AHaloColumnAtARowsEndStaysWithTheRow) {
  KernelDescriptor Right;
  std::string Err;
  ASSERT_TRUE(KernelDescriptor::parse(
      "hetero-kernel 1\n"
      "split yes\n"
      "nest 1\n"
      "loop 0 0 lt 10 1\n"
      "var 0 0 1\n"
      "read 8 (arg 1) (* (- (+ (* (c 0) 10) 7) (v 0)) 8)\n"
      "write 8 (arg 1) (* (+ (+ (* (c 0) 10) 8) (v 0)) 8)\n",
      Right, Err))
      << Err;
  std::vector<ChunkSpec> C = {{0, 0, 6}, {1, 6, 10}};
  EXPECT_EQ(Align.align("right", Right, Env, {Env.Args[0], Env.Args[1], N},
                        {10}, {A, B}, L, C),
            1u);
  EXPECT_EQ(C, (std::vector<ChunkSpec>{{0, 0, 5}, {1, 5, 10}}));
}

// A bottom halo row's update, split by columns, left each member a piece of
// the row it writes; the row it reads (its only input) is B's alone: B
// takes the whole launch.
TEST_F(OwnerAlignTest, AHaloRowGoesToTheOwnerOfTheRowItReads) {
  KernelDescriptor Bottom;
  std::string Err;
  // g[390 + j] = g[380 + j], j in [0, 10): g is 40 rows of 10.
  ASSERT_TRUE(KernelDescriptor::parse("hetero-kernel 1\n"
                                      "split yes\n"
                                      "nest 1\n"
                                      "loop 0 0 lt 10 1\n"
                                      "read 8 (arg 0) (* (+ 380 (c 0)) 8)\n"
                                      "write 8 (arg 0) (* (+ 390 (c 0)) 8)\n",
                                      Bottom, Err))
      << Err;
  void *G = L.allocate(400 * 8);
  BufferId Id = reinterpret_cast<uintptr_t>(G);
  splitBetween(Id, 1600, 3200);
  L.markWritten(A, Id, 3120, 3160); // the last row in two pieces
  DescEnv E = Env;
  E.Args = {Id};
  std::vector<ChunkSpec> C = {{0, 0, 5}, {1, 5, 10}};
  Align.align("bottom", Bottom, E, {Id}, {10}, {A, B}, L, C);
  EXPECT_EQ(C, (std::vector<ChunkSpec>{{1, 0, 10}}));
}

TEST_F(OwnerAlignTest, MembersOnOneNodeAreLeftAlone) {
  std::vector<ChunkSpec> C = {{0, 0, 45}, {1, 45, 90}};
  EXPECT_EQ(Align.align("tail", Tail, Env, {Env.Args[0], Env.Args[1], N},
                        {N - 10}, {A, A}, L, C),
            0u);
  EXPECT_EQ(C, (std::vector<ChunkSpec>{{0, 0, 45}, {1, 45, 90}}));
}

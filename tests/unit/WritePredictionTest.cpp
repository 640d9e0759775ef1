//===- WritePredictionTest.cpp - Chunks' writes that will overlap ---------===//
//
// WritePrediction.h's rule on the shapes it is for: a transpose (a stride
// the run sets along the inner loop), a stride along an inner loop at
// least the split loop's, an inner loop's constant range that reaches the
// next window, a write that moves with no loop variable; and the shapes it
// must leave alone: a row-major write (a run-time stride on the split loop
// itself), a narrow inner range, a guarded write, reads.
//
//===----------------------------------------------------------------------===//
#include "hetero/WritePrediction.h"

#include <gtest/gtest.h>

using namespace hetero;

namespace {

std::optional<OverlapPrediction> predict(const std::string &Body) {
  KernelDescriptor D;
  std::string Err;
  EXPECT_TRUE(KernelDescriptor::parse(
      "hetero-kernel 2\nsplit yes\nnest 1\nloop 0 0 lt (sarg 2 4 1) 1\n" + Body,
      D, Err))
      << Err;
  return predictOverlappingWrites(D);
}

} // namespace

TEST(WritePrediction, ATransposeOverlaps) {
  // T[j * ld + i], split over i, j in [0, m): ld is an argument.
  auto P = predict("var 0 0 (- (sarg 3 4 1) 1)\n"
                   "write 8 (arg 0) (* (+ (* (v 0) (sarg 4 4 1)) (c 0)) 8) "
                   "src t.c:12 T\n");
  ASSERT_TRUE(P);
  EXPECT_EQ(P->Access, 0u);
  EXPECT_EQ(P->SplitStride, 8);
  EXPECT_EQ(P->VarKind, ExprKind::Var);
  EXPECT_EQ(P->VarIndex, 0u);
  EXPECT_FALSE(P->VarStride);
  // j's range is the run's: few values would be taken one at a time.
  EXPECT_EQ(P->UnlessAtMost, MaxSectionSlices);
  // Collapsed over (i, j): windows are whole rows of i, every j: certain.
  KernelDescriptor C;
  std::string Err;
  ASSERT_TRUE(KernelDescriptor::parse(
      "hetero-kernel 2\nsplit yes\nnest 2\nloop 0 0 lt (sarg 2 4 1) 1\n"
      "loop 1 0 lt (sarg 2 4 1) 1\n"
      "write 8 (arg 0) (* (+ (* (c 1) (sarg 4 4 1)) (c 0)) 8)\n",
      C, Err))
      << Err;
  std::optional<OverlapPrediction> Collapsed = predictOverlappingWrites(C);
  ASSERT_TRUE(Collapsed);
  EXPECT_EQ(Collapsed->VarKind, ExprKind::Counter);
  EXPECT_FALSE(Collapsed->UnlessAtMost);
}

// A halo update (f[j + (1 - k) * nx], k over a constant depth) is taken one
// row at a time by the run: no overlap is predicted.
TEST(WritePrediction, AShallowHaloDoesNot) {
  EXPECT_FALSE(predict("var 0 0 1\n"
                       "write 8 (arg 0) (* (+ (c 0) (* (- 1 (v 0)) "
                       "(sarg 3 4 1))) 8)\n"));
  // 100 rows deep: taken whole, they overlap.
  EXPECT_TRUE(predict("var 0 0 99\n"
                      "write 8 (arg 0) (* (+ (c 0) (* (- 1 (v 0)) "
                      "(sarg 3 4 1))) 8)\n"));
}

TEST(WritePrediction, ARowMajorWriteDoesNot) {
  // a[i * n + j]: the split loop's own stride is the run's.
  EXPECT_FALSE(predict("var 0 0 (- (sarg 3 4 1) 1)\n"
                       "write 8 (arg 0) (* (+ (* (c 0) (sarg 3 4 1)) (v 0)) "
                       "8)\n"));
  // a[i]: nothing else moves it.
  EXPECT_FALSE(predict("write 8 (arg 0) (* (c 0) 8)\n"));
}

TEST(WritePrediction, ConstantStridesAndRanges) {
  // b[i + k], k in [0, 2]: three elements from each i, one apart.
  auto Wide = predict("var 0 0 2\nwrite 8 (arg 0) (* (+ (c 0) (v 0)) 8)\n");
  ASSERT_TRUE(Wide);
  EXPECT_EQ(Wide->VarStride, 8);
  // b[2 * i + k], k in [0, 1]: exactly the two elements of i.
  EXPECT_FALSE(
      predict("var 0 0 1\nwrite 8 (arg 0) (* (+ (* 2 (c 0)) (v 0)) 8)\n"));
  // b[2 * i + 4 * k], k in [0, m): one step of k reaches past i's two.
  EXPECT_TRUE(predict("var 0 0 (sarg 3 4 1)\n"
                      "write 8 (arg 0) (* (+ (* 2 (c 0)) (* 4 (v 0))) 8)\n"));
}

TEST(WritePrediction, AWriteNoLoopVariableMovesOverlaps) {
  auto P = predict("write 8 (arg 0) 16\n");
  ASSERT_TRUE(P);
  EXPECT_EQ(P->SplitStride, 0);
  EXPECT_EQ(P->VarKind, ExprKind::Const);
  // s[j] for j in [0, m): every window writes all of them.
  EXPECT_TRUE(predict("var 0 0 (sarg 3 4 1)\nwrite 8 (arg 0) (* (v 0) 8)\n"));
}

TEST(WritePrediction, GuardedWritesAndReadsAreLeftToTheRun) {
  EXPECT_FALSE(predict("write 8 (arg 0) 16 when (eq (c 0) 0)\n"));
  EXPECT_FALSE(predict("var 0 0 (- (sarg 3 4 1) 1)\n"
                       "read 8 (arg 0) (* (+ (* (v 0) (sarg 4 4 1)) (c 0)) "
                       "8)\n"));
  KernelDescriptor Refused;
  Refused.refuse("no");
  EXPECT_FALSE(predictOverlappingWrites(Refused));
}

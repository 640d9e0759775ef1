//===- DescriptorWriterTest.cpp - Builder, writer and parser agree --------===//
//
// The compiler writes descriptors through DescriptorBuilder and
// writeDescriptor; the runtime reads them with KernelDescriptor::parse. Here:
// every construct of the grammar built, written and read back to an
// equivalent descriptor; and every descriptor the compiler gives the lit
// suite (Inputs/lit-descriptors.txt, tools/descriptor-corpus.sh) read and
// written back to the same text.
//
//===----------------------------------------------------------------------===//
#include "hetero/KernelDescriptor.h"

#include <gtest/gtest.h>

#include <fstream>
#include <sstream>

using namespace hetero;

namespace {

KernelDescriptor readBack(const KernelDescriptor &D) {
  KernelDescriptor Back;
  std::string Err;
  EXPECT_TRUE(KernelDescriptor::parse(writeDescriptor(D), Back, Err))
      << Err << "\n"
      << writeDescriptor(D);
  return Back;
}

} // namespace

TEST(DescriptorWriter, EveryConstructReadsBackEquivalent) {
  DescriptorBuilder B;
  ExprId C0 = B.counter(0), C1 = B.counter(1);
  ExprId N = B.scalarArg(3, 4, true);
  B.addLoop(B.constant(0), LoopCond::LT, N, B.constant(1));
  B.addLoop(B.load(B.binary(ExprKind::Add, B.arg(4), B.constant(8)), 8, false),
            LoopCond::GE, B.constant(-5), B.neg(B.constant(2)));
  unsigned V0 = B.addVar(C0, B.binary(ExprKind::Sub, N, B.constant(1)));
  ExprId V = B.var(V0);
  // Every operator, once.
  ExprId Ops = B.constant(7);
  for (ExprKind K : {ExprKind::Add, ExprKind::Sub, ExprKind::Mul, ExprKind::Div,
                     ExprKind::Rem, ExprKind::Min, ExprKind::Max, ExprKind::Shl,
                     ExprKind::Shr, ExprKind::And, ExprKind::Or, ExprKind::Xor,
                     ExprKind::Either})
    Ops = B.binary(K, Ops, B.constant(3));
  ExprId Wrapped = B.wrap(8, false, B.binary(ExprKind::Add, C0, Ops));
  DescAccess R;
  R.Kind = AccessKind::Read;
  R.Size = 4;
  R.Base = B.arg(0);
  R.Offset = B.binary(ExprKind::Mul, Wrapped, B.constant(4));
  B.addAccess(R);
  DescAccess G = R;
  G.Offset = B.binary(ExprKind::Add, C1, V);
  for (GuardCmp Cmp : {GuardCmp::LT, GuardCmp::LE, GuardCmp::GT, GuardCmp::GE,
                       GuardCmp::EQ, GuardCmp::NE})
    G.Guards.push_back({Cmp, C0, B.wrap(32, true, N)});
  B.addAccess(G);
  DescAccess W = R;
  W.Kind = AccessKind::Write;
  W.Base = B.load(B.arg(1), 8, false);
  B.addAccess(W);
  B.addAccess(W); // kept once
  DescAccess All;
  All.Kind = AccessKind::ReadAll;
  All.Base = B.arg(2);
  B.addAccess(All);
  DescAccess Any;
  Any.Kind = AccessKind::ReadAny;
  B.addAccess(Any);
  B.addReduction({5, ReductionOp::Max, ReductionType::F64});
  B.addReduction({6, ReductionOp::LogOr, ReductionType::U8});
  B.setHostOnly("schedule(dynamic) faults in LLVM 19's NVPTX runtime");
  B.setOneKind("calls expf, which GPUs and CPUs round differently");
  KernelDescriptor D = B.take();
  ASSERT_TRUE(D.splittable());
  EXPECT_EQ(D.accesses().size(), 5u);
  EXPECT_EQ(D.maxArgIndex(), 6);
  KernelDescriptor Back = readBack(D);
  EXPECT_EQ(Back.argsUsed(), D.argsUsed());
  EXPECT_TRUE(equivalent(D, Back)) << writeDescriptor(D) << "---\n"
                                   << writeDescriptor(Back);
  EXPECT_EQ(writeDescriptor(Back), writeDescriptor(D));
  EXPECT_EQ(Back.hostOnly(), D.hostOnly());
  EXPECT_EQ(Back.oneKind(), D.oneKind());
  ASSERT_EQ(Back.accesses().size(), 5u);
  // A different descriptor is not equivalent.
  DescriptorBuilder B2;
  B2.addLoop(B2.constant(0), LoopCond::LT, B2.constant(9), B2.constant(1));
  EXPECT_FALSE(equivalent(D, B2.take()));
}

TEST(DescriptorWriter, RefusedKernelsSayOnlyWhy) {
  DescriptorBuilder B;
  B.addLoop(B.constant(0), LoopCond::LT, B.constant(9), B.constant(1));
  B.setHostOnly("lastprivate is wrong in LLVM 19's NVPTX runtime");
  B.refuse("lastprivate");
  B.refuse("atomic construct at k.c:9:1");
  B.refuse("lastprivate"); // known already
  KernelDescriptor D = B.take();
  EXPECT_FALSE(D.splittable());
  EXPECT_EQ(D.reason(), "lastprivate; atomic construct at k.c:9:1");
  EXPECT_EQ(D.depth(), 0u);
  EXPECT_EQ(writeDescriptor(D),
            "hetero-kernel 2\nhost-only lastprivate is wrong in LLVM 19's "
            "NVPTX runtime\nsplit no lastprivate; atomic construct at "
            "k.c:9:1\n");
  EXPECT_TRUE(equivalent(D, readBack(D)));
}

// Every reason is kept (a user sees at once what blocks the split), on one
// line, up to MaxReasons; then how many more there were.
TEST(DescriptorWriter, EveryReasonUpToACount) {
  DescriptorBuilder B;
  for (int I = 0; I < 11; ++I)
    B.refuse("reason " + std::to_string(I) + (I == 0 ? "\nsecond line" : ""));
  KernelDescriptor D = B.take();
  EXPECT_EQ(D.reason(), "reason 0 second line; reason 1; reason 2; reason 3; "
                        "reason 4; reason 5; reason 6; reason 7; and 3 more");
  EXPECT_TRUE(equivalent(D, readBack(D)));
  // The builder starts over after take().
  B.refuse("alone");
  EXPECT_EQ(B.take().reason(), "alone");
}

TEST(DescriptorWriter, ConstantsAndUses) {
  DescriptorBuilder B;
  ExprId K = B.constant(-42);
  int64_t V = 0;
  EXPECT_TRUE(B.constantValue(K, V));
  EXPECT_EQ(V, -42);
  ExprId E = B.binary(ExprKind::Add, B.counter(1), B.var(0));
  EXPECT_FALSE(B.constantValue(E, V));
  EXPECT_TRUE(B.uses(E, ExprKind::Counter, 1));
  EXPECT_TRUE(B.uses(E, ExprKind::Var, 0));
  EXPECT_FALSE(B.uses(E, ExprKind::Counter, 0));
  EXPECT_EQ(B.text(E), "(+ (c 1) (v 0))");
}

// Every descriptor the compiler gives the lit suite's programs.
TEST(DescriptorWriter, LitSuiteDescriptorsRoundTrip) {
  std::ifstream In(HETERO_UNIT_INPUTS "/lit-descriptors.txt");
  ASSERT_TRUE(In.good()) << "regenerate with tools/descriptor-corpus.sh";
  std::string All((std::istreambuf_iterator<char>(In)),
                  std::istreambuf_iterator<char>());
  unsigned Count = 0, Splittable = 0;
  size_t Pos = 0;
  while (Pos < All.size()) {
    size_t End = All.find("\n\n", Pos);
    if (End == std::string::npos)
      End = All.size();
    std::string Text = All.substr(Pos, End - Pos) + "\n";
    Pos = End + 2;
    if (Text.find("hetero-kernel") != 0)
      continue;
    KernelDescriptor D;
    std::string Err;
    ASSERT_TRUE(KernelDescriptor::parse(Text, D, Err)) << Err << "\n" << Text;
    EXPECT_EQ(writeDescriptor(D), Text);
    EXPECT_TRUE(equivalent(D, readBack(D))) << Text;
    ++Count;
    Splittable += D.splittable();
  }
  EXPECT_GT(Count, 150u);
  EXPECT_GT(Splittable, 100u);
}

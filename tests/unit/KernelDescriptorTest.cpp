//===- KernelDescriptorTest.cpp - Descriptor parsing and sections ---------===//
#include "hetero/KernelDescriptor.h"
#include "hetero/WindowSections.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstring>
#include <functional>
#include <map>
#include <memory>
#include <numeric>
#include <optional>
#include <random>
#include <set>
#include <string>
#include <vector>

using namespace hetero;

namespace {

using Ranges = std::vector<std::pair<uint64_t, uint64_t>>;

constexpr uint64_t BasePtr = 0x10000000;

KernelDescriptor parseOk(const std::string &Text) {
  KernelDescriptor D;
  std::string Err;
  EXPECT_TRUE(KernelDescriptor::parse(Text, D, Err)) << Err << "\n" << Text;
  return D;
}

std::string parseErr(const std::string &Text) {
  KernelDescriptor D;
  std::string Err;
  EXPECT_FALSE(KernelDescriptor::parse(Text, D, Err)) << Text;
  EXPECT_FALSE(Err.empty()) << Text;
  EXPECT_EQ(Err.find('\n'), std::string::npos) << Err;
  return Err;
}

std::string header(const std::string &Loops) {
  return "hetero-kernel 1\nsplit yes\n" + Loops;
}

/// A 64-bit slot holding V in its low 4 bytes and garbage above.
uint64_t slot32(int64_t V) {
  return 0xdeadbeef00000000ull | static_cast<uint32_t>(V);
}

/// Whether [Lo, Hi) lies inside one of the (merged) ranges.
bool covered(const Ranges &R, uint64_t Lo, uint64_t Hi) {
  auto It =
      std::upper_bound(R.begin(), R.end(), std::make_pair(Lo, UINT64_MAX));
  if (It == R.begin())
    return false;
  --It;
  return It->first <= Lo && Hi <= It->second;
}

bool wellFormed(const Ranges &R) {
  for (size_t I = 0; I < R.size(); ++I) {
    if (R[I].first >= R[I].second)
      return false;
    if (I && R[I - 1].second >= R[I].first)
      return false;
  }
  return true;
}

} // namespace

//===----------------------------------------------------------------------===//
// Parsing
//===----------------------------------------------------------------------===//

TEST(KernelDescriptor, ParsesEveryLineKind) {
  KernelDescriptor D = parseOk(
      "hetero-kernel 1\n"
      "split yes\n"
      "nest 2\n"
      "loop 1 0 lt (sarg 3 4 1) 1\n"
      "loop 0 (sarg 2 8 1) ge -7 (neg 2)\n"
      "var 0 (c 0) (- (sarg 3 4 1) 1)\n"
      "var 1 0 (+ (v 0) (c 1))\n"
      "write 8 (arg 0) (* 8 (+ (* (c 0) (sarg 3 4 1)) (c 1)))\n"
      "read 4 (load (+ (arg 1) 16) 8 0) (% (/ (v 1) 3) (max 2 (min (c 0) "
      "5)))\n"
      "readall (arg 5)\n"
      "readany\n"
      "reduce 7 + f64\n"
      "reduce 6 && i32\n"
      "\n");
  EXPECT_TRUE(D.splittable());
  EXPECT_EQ(D.depth(), 2u);
  ASSERT_EQ(D.loops().size(), 2u);
  EXPECT_EQ(D.loops()[0].Cond, LoopCond::GE);
  EXPECT_EQ(D.exprToString(D.loops()[0].Init), "(sarg 2 8 1)");
  EXPECT_EQ(D.exprToString(D.loops()[0].Step), "(neg 2)");
  EXPECT_EQ(D.exprToString(D.loops()[1].Bound), "(sarg 3 4 1)");
  ASSERT_EQ(D.vars().size(), 2u);
  EXPECT_EQ(D.exprToString(D.vars()[1].Hi), "(+ (v 0) (c 1))");
  ASSERT_EQ(D.accesses().size(), 4u);
  EXPECT_EQ(D.accesses()[0].Kind, AccessKind::Write);
  EXPECT_EQ(D.accesses()[0].Size, 8u);
  EXPECT_EQ(D.exprToString(D.accesses()[0].Offset),
            "(* 8 (+ (* (c 0) (sarg 3 4 1)) (c 1)))");
  EXPECT_EQ(D.exprToString(D.accesses()[1].Base), "(load (+ (arg 1) 16) 8 0)");
  EXPECT_EQ(D.exprToString(D.accesses()[1].Offset),
            "(% (/ (v 1) 3) (max 2 (min (c 0) 5)))");
  EXPECT_EQ(D.accesses()[2].Kind, AccessKind::ReadAll);
  EXPECT_EQ(D.accesses()[3].Kind, AccessKind::ReadAny);
  ASSERT_EQ(D.reductions().size(), 2u);
  EXPECT_EQ(D.reductions()[0].Arg, 7u);
  EXPECT_EQ(D.reductions()[0].Op, ReductionOp::Add);
  EXPECT_EQ(D.reductions()[0].Type, ReductionType::F64);
  EXPECT_EQ(D.reductions()[1].Op, ReductionOp::LogAnd);
  EXPECT_EQ(D.maxArgIndex(), 7);
  EXPECT_EQ(D.argsUsed(), (std::vector<unsigned>{0, 1, 2, 3, 5, 6, 7}));
}

TEST(KernelDescriptor, ParenthesesNeedNoSpaces) {
  KernelDescriptor D = parseOk(header("nest 1\nloop 0 0 lt (sarg 1 4 1) 1\n"
                                      "write 4 (arg 0)(*(c 0)4)\n"));
  EXPECT_EQ(D.exprToString(D.accesses()[0].Offset), "(* (c 0) 4)");
  EXPECT_EQ(D.maxArgIndex(), 1);
}

TEST(KernelDescriptor, HostOnlyKeepsItsReason) {
  KernelDescriptor D = parseOk("hetero-kernel 1\nhost-only schedule(dynamic) "
                               "faults (LLVM 19)\nsplit no lastprivate\n");
  EXPECT_EQ(D.hostOnly(), "schedule(dynamic) faults (LLVM 19)");
  EXPECT_FALSE(D.splittable());
  EXPECT_TRUE(parseOk("hetero-kernel 1\nsplit yes\nnest 1\nloop 0 0 lt 4 1")
                  .hostOnly()
                  .empty());
  KernelDescriptor Bad;
  std::string Err;
  EXPECT_FALSE(
      KernelDescriptor::parse("hetero-kernel 1\nhost-only  \n", Bad, Err));
  EXPECT_NE(Err.find("host-only needs a reason"), std::string::npos) << Err;
}

TEST(KernelDescriptor, OneKindKeepsItsReason) {
  KernelDescriptor D =
      parseOk("hetero-kernel 1\none-kind calls expf, sin, which GPUs and "
              "CPUs round differently\nsplit yes\nnest 1\nloop 0 0 lt 4 1");
  EXPECT_EQ(D.oneKind(),
            "calls expf, sin, which GPUs and CPUs round differently");
  EXPECT_TRUE(D.splittable());
  EXPECT_TRUE(D.hostOnly().empty());
  KernelDescriptor Bad;
  std::string Err;
  EXPECT_FALSE(
      KernelDescriptor::parse("hetero-kernel 1\none-kind\n", Bad, Err));
  EXPECT_NE(Err.find("one-kind needs a reason"), std::string::npos) << Err;
}

TEST(KernelDescriptor, SplitNoKeepsTheReason) {
  KernelDescriptor D = parseOk(
      "hetero-kernel 1\nsplit no calls 'foo(int)' (twice)  \nreduce 2 max "
      "u8\n");
  EXPECT_FALSE(D.splittable());
  EXPECT_EQ(D.reason(), "calls 'foo(int)' (twice)");
  EXPECT_EQ(D.depth(), 0u);
  EXPECT_EQ(D.maxArgIndex(), 2);
  KernelDescriptor E = parseOk("hetero-kernel 1\r\nsplit no   nested  \r\n");
  EXPECT_EQ(E.reason(), "nested");
  EXPECT_EQ(parseOk("hetero-kernel 1\nsplit yes\nnest 1\nloop 0 0 lt 4 1")
                .maxArgIndex(),
            -1);
}

// Version 2's source: the directive's place, and each access's array and
// line, read back and said in messages; version 1 (none) still reads.
TEST(KernelDescriptor, SourcesOfTheLoopAndItsAccesses) {
  KernelDescriptor D =
      parseOk("hetero-kernel 2\nsource my file.c:88\nsplit yes\nnest 1\n"
              "loop 0 0 lt 10 1\n"
              "read 8 (arg 0) (* (c 0) 8) when (gt (c 0) 0) src j.c:90 p->x\n"
              "write 8 (arg 1) (* (c 0) 8) src ? b\n"
              "readall (arg 2) src k.h:4 ?\nread 8 (arg 3) 0\n");
  EXPECT_EQ(D.source(), "my file.c:88");
  ASSERT_EQ(D.accesses().size(), 4u);
  EXPECT_EQ(D.accesses()[0].Guards.size(), 1u);
  EXPECT_EQ(accessText(D.accesses()[0], 0), "'p->x' at j.c:90");
  EXPECT_EQ(accessText(D.accesses()[1], 1), "'b'");
  EXPECT_EQ(accessText(D.accesses()[2], 2), "an access at k.h:4");
  EXPECT_EQ(accessText(D.accesses()[3], 3), "access 3");
  KernelDescriptor Back;
  std::string Err;
  ASSERT_TRUE(KernelDescriptor::parse(writeDescriptor(D), Back, Err)) << Err;
  EXPECT_TRUE(equivalent(D, Back)) << writeDescriptor(D);
  EXPECT_EQ(
      writeDescriptor(D).rfind("hetero-kernel 2\nsource my file.c:88\n", 0),
      0u);
  EXPECT_TRUE(parseOk(header("nest 1\nloop 0 0 lt 4 1\n")).splittable());
}

// The builder keeps one of two accesses that differ in their source only
// (the first's), and makes names and places single words.
TEST(KernelDescriptor, BuilderMergesAccessesThatDifferInTheirSourceOnly) {
  DescriptorBuilder B;
  B.addLoop(B.constant(0), LoopCond::LT, B.constant(4), B.constant(1));
  DescAccess A;
  A.Kind = AccessKind::Read;
  A.Size = 8;
  A.Base = B.arg(0);
  A.Offset = B.binary(ExprKind::Mul, B.counter(0), B.constant(8));
  A.Name = "(*s) .v";
  A.Where = "a b.c:3";
  B.addAccess(A);
  A.Name = "other";
  B.addAccess(A);
  KernelDescriptor D = B.take();
  ASSERT_EQ(D.accesses().size(), 1u);
  EXPECT_EQ(D.accesses()[0].Name, "*s_.v");
  EXPECT_EQ(D.accesses()[0].Where, "a_b.c:3");
}

TEST(KernelDescriptor, ErrorsGiveAMessage) {
  const std::string L = "nest 1\nloop 0 0 lt 10 1\n";
  struct Case {
    std::string Text, Expect;
  } Cases[] = {
      {"", "hetero-kernel"},
      {"hetero-kernel 3\nsplit yes\n", "version"},
      {"hetero-kernel\nsplit yes\n", "version"},
      {"split yes\n", "hetero-kernel"},
      {"hetero-kernel 1\n", "missing split"},
      {"hetero-kernel 1\nsplit maybe\n", "yes or no"},
      {"hetero-kernel 1\nsplit\n", "missing yes or no"},
      {"hetero-kernel 1\nsplit yes please\n", "unexpected 'please'"},
      {"hetero-kernel 1\nsplit yes\nsplit yes\n" + L, "second split"},
      {header(""), "missing nest"},
      {header("nest 0\n"), "at least 1"},
      {header("nest -1\n"), "bad nest depth"},
      {header("nest 1000\n"), "bad nest depth"},
      {header("nest 1\nnest 1\nloop 0 0 lt 1 1\n"), "second nest"},
      {header("nest 2\nloop 0 0 lt 1 1\n"), "missing loop line for level 1"},
      {header(L + "loop 0 0 lt 1 1\n"), "second loop line"},
      {header(L + "loop 1 0 lt 1 1\n"), "outside the nest"},
      {header("nest 1\nloop 0 0 lt (c 0) 1\n"), "loop header"},
      {header("nest 1\nloop 0 0 below 4 1\n"), "unknown loop condition"},
      {header("nest 1\nloop 0 0 lt 4\n"), "missing expression"},
      {header("nest 1\nloop 0 0 lt 4 1 1\n"), "unexpected '1'"},
      {header(L + "bogus 1 2\n"), "unknown line kind 'bogus'"},
      {header(L + "hetero-kernel 1\n"), "after the first line"},
      {header(L + "read 4 (arg 0) (* (c 0) 4\n"), "missing ')'"},
      {header(L + "read 4 (arg 0) (* (c 0) 4))\n"), "unexpected ')'"},
      {header(L + "read 4 (arg 0) )\n"), "unexpected ')'"},
      {header(L + "read 4 (arg 0) (* (c 0) 4 5)\n"), "unexpected '5'"},
      {header(L + "read 4 (arg 0) (pow (c 0) 2)\n"), "unknown operator"},
      {header(L + "read 4 (arg 0) ()\n"), "expected operator"},
      {header(L + "read 4 (arg 0) (c)\n"), "expected loop level"},
      {header(L + "read 4 (arg 0) (c x)\n"), "bad loop level"},
      {header(L + "read 4 (arg 0) 12abc\n"), "bad token '12abc'"},
      {header(L + "read 4 (arg 0) ?\n"), "bad token '?'"},
      {header(L + "read 4 (arg 0) 99999999999999999999\n"), "bad token"},
      {header(L + "read 4 (arg 0) +5\n"), "bad token"},
      {header(L + "read 4 (arg -1) 0\n"), "bad argument index"},
      {header(L + "read 4 (arg 70000) 0\n"), "bad argument index"},
      {header(L + "read 4 (sarg 1 3 1) 0\n"), "1, 2, 4 or 8"},
      {header(L + "read 4 (sarg 1 4 2) 0\n"), "signedness"},
      {header(L + "read 4 (load (arg 1) 4) 0\n"), "signedness"},
      {header(L + "read 0 (arg 0) 0\n"), "must not be 0"},
      {header(L + "read x (arg 0) 0\n"), "bad access size"},
      {header(L + "read 4 (arg 0)\n"), "missing expression"},
      {header(L + "read 4 (arg 0) (c 1)\n"), "outside the nest"},
      {header(L + "read 4 (arg 0) (v 0)\n"), "no var line"},
      {header(L + "readall\n"), "missing expression"},
      {header(L + "readany (arg 0)\n"), "unexpected"},
      {header(L + "var 1 0 1\n"), "missing var line for variable 0"},
      {header(L + "var 0 0 1\nvar 0 0 1\n"), "second var line"},
      {header(L + "var 0 0 (v 0)\n"), "use (v 0)"},
      {header(L + "var 0 0 (c 3)\n"), "outside the nest"},
      {header(L + "reduce 1 pow i32\n"), "unknown reduction operator"},
      {header(L + "reduce 1 + i128\n"), "unknown reduction type"},
      {header(L + "reduce 1 & f32\n"), "not defined"},
      {header(L + "reduce 1 +\n"), "missing reduction type"},
      {header(L + "reduce 1 + i32 extra\n"), "unexpected"},
      {header(L + "read 4 (arg 0) 0 src\n"), "missing the place"},
      {header(L + "read 4 (arg 0) 0 src a.c:3\n"), "missing the name"},
      {header(L + "read 4 (arg 0) 0 src a.c:3 a b\n"), "unexpected 'b'"},
      {header(L + "read 4 (arg 0) 0 src a.c:3 a when (lt (c 0) 2)\n"),
       "unexpected 'when'"},
      {header(L + "source\n"), "source needs a place"},
  };
  for (const Case &C : Cases) {
    std::string Err = parseErr(C.Text);
    EXPECT_NE(Err.find(C.Expect), std::string::npos)
        << "got: " << Err << "\nfor:\n"
        << C.Text;
    EXPECT_EQ(Err.rfind("line ", 0), 0u) << Err;
  }
  // Line numbers count from 1.
  EXPECT_EQ(parseErr(header(L + "bogus\n")).rfind("line 5:", 0), 0u);
}

TEST(KernelDescriptor, DeepNestingIsAnErrorNotACrash) {
  std::string Deep;
  for (int I = 0; I < 100000; ++I)
    Deep += "(neg ";
  std::string Err =
      parseErr(header("nest 1\nloop 0 0 lt 4 1\nread 1 (arg 0) " + Deep));
  EXPECT_NE(Err.find("too deeply"), std::string::npos) << Err;
  std::string Ok = "(c 0)";
  for (int I = 0; I < 100; ++I)
    Ok = "(neg " + Ok + ")";
  parseOk(header("nest 1\nloop 0 0 lt 4 1\nread 1 (arg 0) " + Ok + "\n"));
}

TEST(KernelDescriptor, MangledDescriptorsNeverCrash) {
  const std::string Good =
      "hetero-kernel 1\nsplit yes\nnest 2\nloop 0 0 lt (sarg 1 4 1) 1\n"
      "loop 1 10 gt 0 -2\nvar 0 (c 0) (+ (c 1) 3)\n"
      "write 8 (arg 0) (* 8 (+ (* (c 0) 20) (c 1)))\n"
      "read 4 (load (arg 2) 8 0) (- (v 0) (c 1))\nreadall (arg 3)\n"
      "reduce 4 max f32\n";
  parseOk(Good);
  std::mt19937 Rng(7);
  const char Junk[] = "() -01\n9x+*";
  for (int I = 0; I < 3000; ++I) {
    std::string T = Good;
    int Edits = 1 + Rng() % 4;
    for (int E = 0; E < Edits && !T.empty(); ++E) {
      size_t At = Rng() % T.size();
      switch (Rng() % 3) {
      case 0:
        T.erase(At, 1 + Rng() % 3);
        break;
      case 1:
        T.insert(At, 1, Junk[Rng() % (sizeof(Junk) - 1)]);
        break;
      default:
        T[At] = Junk[Rng() % (sizeof(Junk) - 1)];
      }
    }
    KernelDescriptor D;
    std::string Err;
    if (!KernelDescriptor::parse(T, D, Err)) {
      EXPECT_FALSE(Err.empty()) << T;
    }
  }
}

//===----------------------------------------------------------------------===//
// Evaluation
//===----------------------------------------------------------------------===//

TEST(KernelDescriptor, EvaluatesScalarsLoadsAndCOperators) {
  KernelDescriptor D =
      parseOk(header("nest 1\nloop 0 0 lt 4 1\n"
                     "read 1 (arg 0) (sarg 1 4 1)\n"                    // 0
                     "read 1 (arg 0) (sarg 1 4 0)\n"                    // 1
                     "read 1 (arg 0) (sarg 1 1 1)\n"                    // 2
                     "read 1 (arg 0) (sarg 1 2 0)\n"                    // 3
                     "read 1 (arg 0) (load (arg 2) 2 1)\n"              // 4
                     "read 1 (arg 0) (load (+ (arg 2) 2) 4 0)\n"        // 5
                     "read 1 (arg 0) (/ -7 2)\n"                        // 6
                     "read 1 (arg 0) (% -7 2)\n"                        // 7
                     "read 1 (arg 0) (% 7 -2)\n"                        // 8
                     "read 1 (arg 0) (min (neg (c 0)) (max 3 (v 0)))\n" // 9
                     "read 1 (arg 0) (* 4611686018427387904 2)\n"       // 10
                     "read 1 (arg 0) (/ 1 (- (c 0) 2))\n"               // 11
                     "read 1 (arg 0) (load (arg 3) 8 1)\n"              // 12
                     "read 1 (arg 0) (sarg 4 8 0)\n"                    // 13
                     "read 1 (arg 0) (sarg 9 8 1)\n"                    // 14
                     "read 1 (arg 0) (% -9223372036854775808 -1)\n"     // 15
                     "read 1 (arg 0) (/ -9223372036854775808 -1)\n"     // 16
                     "var 0 0 1\n"));
  unsigned char Mem[8] = {0xfe, 0xff, 0x10, 0x20, 0x30, 0x80, 0, 0};
  DescEnv E;
  E.Args = {BasePtr, 0xffffffff80000001ull, 1000, 2000, 1ull << 63};
  E.Load = [&](uint64_t Addr, void *Dst, unsigned Bytes) {
    if (Addr < 1000 || Addr + Bytes > 1000 + sizeof(Mem))
      return false;
    std::memcpy(Dst, Mem + (Addr - 1000), Bytes);
    return true;
  };
  auto Eval = [&](size_t Access, int64_t C0, int64_t V0, int64_t &Out) {
    std::string Err;
    bool Ok =
        evaluateExpr(D, D.accesses()[Access].Offset, E, {C0}, {V0}, Out, Err);
    EXPECT_EQ(Ok, Err.empty()) << Err;
    return Ok;
  };
  int64_t V = 0;
  ASSERT_TRUE(Eval(0, 0, 0, V));
  EXPECT_EQ(V, -2147483647);
  ASSERT_TRUE(Eval(1, 0, 0, V));
  EXPECT_EQ(V, 0x80000001);
  ASSERT_TRUE(Eval(2, 0, 0, V));
  EXPECT_EQ(V, 1);
  ASSERT_TRUE(Eval(3, 0, 0, V));
  EXPECT_EQ(V, 1);
  ASSERT_TRUE(Eval(4, 0, 0, V));
  EXPECT_EQ(V, -2);
  ASSERT_TRUE(Eval(5, 0, 0, V));
  EXPECT_EQ(V, 0x80302010);
  ASSERT_TRUE(Eval(6, 0, 0, V));
  EXPECT_EQ(V, -3);
  ASSERT_TRUE(Eval(7, 0, 0, V));
  EXPECT_EQ(V, -1);
  ASSERT_TRUE(Eval(8, 0, 0, V));
  EXPECT_EQ(V, 1);
  ASSERT_TRUE(Eval(9, 2, 7, V));
  EXPECT_EQ(V, -2);
  EXPECT_FALSE(Eval(10, 0, 0, V)); // overflow
  ASSERT_TRUE(Eval(11, 3, 0, V));
  EXPECT_EQ(V, 1);
  EXPECT_FALSE(Eval(11, 2, 0, V)); // division by zero
  EXPECT_FALSE(Eval(12, 0, 0, V)); // load outside Mem
  EXPECT_FALSE(Eval(13, 0, 0, V)); // unsigned 2^63
  EXPECT_FALSE(Eval(14, 0, 0, V)); // no argument 9
  ASSERT_TRUE(Eval(15, 0, 0, V));
  EXPECT_EQ(V, 0);
  EXPECT_FALSE(Eval(16, 0, 0, V));
  // Loop variables missing from the point.
  std::string Err;
  EXPECT_FALSE(evaluateExpr(D, D.accesses()[9].Offset, E, {}, {}, V, Err));
  EXPECT_NE(Err.find("loop variables"), std::string::npos);
  // No load callback.
  E.Load = nullptr;
  EXPECT_FALSE(Eval(4, 0, 0, V));
}

namespace {

/// The trip count of `for (x = Init; x <Cond> Bound; x += Step)`, by running
/// it; nullopt when it does not end within Limit iterations (or steps
/// against its condition, which C would run until overflow).
std::optional<uint64_t> runLoop(int64_t Init, const std::string &Cond,
                                int64_t Bound, int64_t Step) {
  auto Test = [&](int64_t X) {
    if (Cond == "lt")
      return X < Bound;
    if (Cond == "le")
      return X <= Bound;
    if (Cond == "gt")
      return X > Bound;
    if (Cond == "ge")
      return X >= Bound;
    return X != Bound;
  };
  uint64_t N = 0;
  for (int64_t X = Init; Test(X); X += Step)
    if (++N > 1000)
      return std::nullopt;
  return N;
}

} // namespace

TEST(KernelDescriptor, TripCountsMatchRunningTheLoop) {
  const char *Conds[] = {"lt", "le", "gt", "ge", "ne"};
  unsigned Checked = 0, Refused = 0;
  for (const char *Cond : Conds)
    for (int64_t Init = -9; Init <= 9; Init += 2)
      for (int64_t Bound = -8; Bound <= 8; ++Bound)
        for (int64_t Step = -4; Step <= 4; ++Step) {
          // Init and bound through arguments, the step as a literal.
          KernelDescriptor D = parseOk(
              header("nest 1\nloop 0 (sarg 0 4 1) " + std::string(Cond) +
                     " (sarg 1 8 1) " + std::to_string(Step) + "\n"));
          DescEnv E;
          E.Args = {slot32(Init), static_cast<uint64_t>(Bound)};
          std::vector<uint64_t> N;
          std::string Err;
          bool Ok = tripCounts(D, E, N, Err);
          std::optional<uint64_t> Expect;
          bool Legal = Step != 0 &&
                       (std::string(Cond) == "ne" ? (Step == 1 || Step == -1)
                        : Cond[0] == 'l'          ? Step > 0
                                                  : Step < 0);
          if (Legal)
            Expect = runLoop(Init, Cond, Bound, Step);
          if (Expect) {
            ASSERT_TRUE(Ok)
                << Err << " " << Cond << Init << " " << Bound << " " << Step;
            ASSERT_EQ(N.size(), 1u);
            EXPECT_EQ(N[0], *Expect)
                << Init << " " << Cond << " " << Bound << " step " << Step;
            ++Checked;
          } else {
            EXPECT_FALSE(Ok)
                << Init << " " << Cond << " " << Bound << " step " << Step;
            EXPECT_FALSE(Err.empty());
            ++Refused;
          }
        }
  EXPECT_GT(Checked, 1000u);
  EXPECT_GT(Refused, 100u);
}

// An empty nest's count as clang computes it for libomptarget: in the
// loop variable's unsigned type, (distance + step - 1) / step wraps.
TEST(KernelDescriptor, WrappedCountsOfEmptyNestsAreRecognised) {
  DescEnv E;
  auto Wrapped = [&](const std::string &Loops, int64_t Lo, int64_t Hi,
                     uint64_t Count) {
    KernelDescriptor D = parseOk(header(Loops));
    E.Args = {static_cast<uint64_t>(Lo), static_cast<uint64_t>(Hi)};
    return isWrappedCountOfEmptyNest(D, E, Count);
  };
  const std::string Up2 = "nest 1\nloop 0 (sarg 0 8 1) lt (sarg 1 8 1) 2\n";
  // for (int i = lo; i < lo - 2; i += 2): (-2 + 1) as unsigned / 2.
  EXPECT_TRUE(Wrapped(Up2, 10, 8, 0x7FFFFFFFu));
  EXPECT_TRUE(Wrapped(Up2, 10, 8, 0x7FFFFFFFFFFFFFFFull)); // 64-bit counter
  EXPECT_TRUE(Wrapped(Up2, 10, 7, 0x7FFFFFFFu));           // (-3 + 1) / 2
  EXPECT_FALSE(Wrapped(Up2, 10, 8, 5));                    // not that count
  EXPECT_FALSE(Wrapped(Up2, 0, 8, 4));                     // not empty
  // for (unsigned i = 10; i < 4; i += 3): (4 - 10 + 2) mod 2^32 / 3.
  const std::string Up3 = "nest 1\nloop 0 (sarg 0 4 0) lt (sarg 1 4 0) 3\n";
  EXPECT_TRUE(Wrapped(Up3, 10, 4, (0x100000000ull - 4) / 3));
  // Down, inclusive: for (i = lo; i >= hi; i -= 4) with hi > lo.
  const std::string Down4 = "nest 1\nloop 0 (sarg 0 4 1) ge (sarg 1 4 1) -4\n";
  EXPECT_TRUE(Wrapped(Down4, 0, 9, (0x100000000ull - 9 + 1 + 3) / 4));
  // Collapsed: an empty level times a full one.
  const std::string Two = "nest 2\nloop 0 (sarg 0 4 1) lt (sarg 1 4 1) 2\n"
                          "loop 1 0 lt 6 1\n";
  EXPECT_TRUE(Wrapped(Two, 5, 1, ((0x100000000ull - 3) / 2) * 6));
}

TEST(KernelDescriptor, TripCountsAtTheEdges) {
  DescEnv E;
  std::vector<uint64_t> N;
  std::string Err;
  auto Trips = [&](const std::string &Loops) {
    KernelDescriptor D = parseOk(header(Loops));
    return tripCounts(D, E, N, Err);
  };
  ASSERT_TRUE(Trips("nest 1\nloop 0 0 lt 9223372036854775807 "
                    "4611686018427387904\n"))
      << Err;
  EXPECT_EQ(N, std::vector<uint64_t>{2});
  ASSERT_TRUE(Trips("nest 1\nloop 0 0 le 9223372036854775807 1\n")) << Err;
  EXPECT_EQ(N, std::vector<uint64_t>{9223372036854775808ull});
  EXPECT_FALSE(Trips("nest 1\nloop 0 -2 lt 9223372036854775807 1\n"));
  ASSERT_TRUE(Trips("nest 1\nloop 0 0 gt -10 -9223372036854775808\n"));
  EXPECT_EQ(N, std::vector<uint64_t>{1});
  EXPECT_FALSE(Trips("nest 1\nloop 0 -9223372036854775807 lt "
                     "9223372036854775807 4611686018427387904\n"));
  // The product of the counts must fit.
  EXPECT_FALSE(Trips("nest 2\nloop 0 0 lt 4294967296 1\n"
                     "loop 1 0 lt 4294967296 1\n"));
  EXPECT_NE(Err.find("2^64"), std::string::npos) << Err;
  ASSERT_TRUE(Trips("nest 3\nloop 0 0 lt 3 1\nloop 1 5 ge 5 -1\n"
                    "loop 2 0 lt 0 1\n"));
  EXPECT_EQ(N, (std::vector<uint64_t>{3, 1, 0}));
  // A load in the bound; a failing one is an error.
  unsigned char Buf[4] = {7, 0, 0, 0};
  E.Args = {4096};
  E.Load = [&](uint64_t Addr, void *Dst, unsigned Bytes) {
    if (Addr != 4096)
      return false;
    std::memcpy(Dst, Buf, Bytes);
    return true;
  };
  ASSERT_TRUE(Trips("nest 1\nloop 0 0 lt (load (arg 0) 4 1) 1\n")) << Err;
  EXPECT_EQ(N, std::vector<uint64_t>{7});
  EXPECT_FALSE(Trips("nest 1\nloop 0 0 lt (load (+ (arg 0) 1) 4 1) 1\n"));
  EXPECT_NE(Err.find("loop 0"), std::string::npos) << Err;
  EXPECT_FALSE(Trips("nest 1\nloop 0 0 lt (sarg 3 4 1) 1\n"));
  EXPECT_FALSE(tripCounts(parseOk("hetero-kernel 1\nsplit no x\n"), E, N, Err));
}

//===----------------------------------------------------------------------===//
// Windows
//===----------------------------------------------------------------------===//

TEST(KernelDescriptor, WindowBoxesPartitionTheWindow) {
  std::mt19937 Rng(1);
  for (int Case = 0; Case < 2000; ++Case) {
    size_t Depth = 1 + Rng() % 4;
    std::vector<uint64_t> N(Depth);
    uint64_t Total = 1;
    for (uint64_t &X : N)
      Total *= (X = 1 + Rng() % 5);
    uint64_t Lo = Rng() % Total, Hi = Lo + 1 + Rng() % (Total - Lo);
    std::vector<WindowBox> Boxes;
    windowBoxes(N, Lo, Hi, Boxes);
    ASSERT_FALSE(Boxes.empty());
    EXPECT_LE(Boxes.size(), 2 * Depth - 1);
    std::vector<int> Hits(Total);
    for (const WindowBox &B : Boxes) {
      ASSERT_EQ(B.size(), Depth);
      // Every point of the box, row-major.
      std::vector<uint64_t> K(Depth);
      for (size_t L = 0; L < Depth; ++L) {
        ASSERT_LE(B[L].first, B[L].second);
        ASSERT_LT(B[L].second, N[L]);
        K[L] = B[L].first;
      }
      while (true) {
        uint64_t T = 0;
        for (size_t L = 0; L < Depth; ++L)
          T = T * N[L] + K[L];
        ++Hits[T];
        size_t L = Depth;
        while (L > 0 && K[L - 1] == B[L - 1].second) {
          K[L - 1] = B[L - 1].first;
          --L;
        }
        if (L == 0)
          break;
        ++K[L - 1];
      }
    }
    for (uint64_t T = 0; T < Total; ++T)
      ASSERT_EQ(Hits[T], T >= Lo && T < Hi ? 1 : 0) << T;
  }
  std::vector<WindowBox> Boxes;
  windowBoxes({4, 4}, 3, 3, Boxes);
  EXPECT_TRUE(Boxes.empty());
  windowBoxes({4, 4}, 0, 17, Boxes);
  EXPECT_TRUE(Boxes.empty());
}

TEST(KernelDescriptor, OneDimensionalAccessIsExact) {
  // a[i] and a[2 * i + 1] with several loop shapes: the section is exactly
  // the first to the last byte touched.
  struct Loop {
    int64_t Init;
    const char *Cond;
    int64_t Bound, Step;
  } Loops[] = {{0, "lt", 100, 1},   {5, "le", 40, 3},   {99, "ge", 0, -1},
               {50, "gt", -50, -7}, {-20, "ne", 20, 1}, {10, "ne", -10, -1}};
  for (const Loop &Lp : Loops) {
    KernelDescriptor D = parseOk(
        header("nest 1\nloop 0 " + std::to_string(Lp.Init) + " " + Lp.Cond +
               " " + std::to_string(Lp.Bound) + " " + std::to_string(Lp.Step) +
               "\nwrite 8 (arg 0) (* (c 0) 8)\n"
               "read 4 (arg 0) (* (+ (* 2 (c 0)) 1) 4)\n"));
    DescEnv E;
    E.Args = {BasePtr};
    std::vector<uint64_t> N;
    std::string Err;
    ASSERT_TRUE(tripCounts(D, E, N, Err)) << Err;
    for (uint64_t Lo = 0; Lo < N[0]; Lo += 3)
      for (uint64_t Hi = Lo + 1; Hi <= N[0]; Hi += 5) {
        std::vector<WindowSection> S;
        ASSERT_TRUE(windowSections(D, E, N, Lo, Hi, S, Err)) << Err;
        ASSERT_EQ(S.size(), 2u);
        int64_t First = Lp.Init + Lp.Step * int64_t(Lo);
        int64_t Last = Lp.Init + Lp.Step * int64_t(Hi - 1);
        int64_t Min = std::min(First, Last), Max = std::max(First, Last);
        EXPECT_EQ(S[0].Kind, AccessKind::Write);
        EXPECT_EQ(S[0].Base, BasePtr);
        EXPECT_EQ(S[0].Ranges,
                  (Ranges{{BasePtr + 8 * Min, BasePtr + 8 * Max + 8}}));
        EXPECT_EQ(S[1].Ranges, (Ranges{{BasePtr + 4 * (2 * Min + 1),
                                        BasePtr + 4 * (2 * Max + 1) + 4}}));
      }
  }
}

TEST(KernelDescriptor, ChunksOfAnInjectiveWriteAreDisjoint) {
  // a[i * M + j], j in [0, M): every chunk writes exactly its own rows.
  KernelDescriptor D = parseOk(
      header("nest 2\nloop 0 0 lt (sarg 1 4 1) 1\n"
             "loop 1 0 lt (sarg 2 4 1) 1\n"
             "write 8 (arg 0) (* 8 (+ (* (c 0) (sarg 2 4 1)) (c 1)))\n"));
  for (int64_t Rows : {1, 3, 7})
    for (int64_t M : {1, 2, 5, 13}) {
      DescEnv E;
      E.Args = {BasePtr, slot32(Rows), slot32(M)};
      std::vector<uint64_t> N;
      std::string Err;
      ASSERT_TRUE(tripCounts(D, E, N, Err)) << Err;
      uint64_t Total = N[0] * N[1];
      for (uint64_t K = 1; K <= 7; ++K) {
        uint64_t Prev = BasePtr;
        for (uint64_t C = 0; C < K; ++C) {
          uint64_t Lo = Total * C / K, Hi = Total * (C + 1) / K;
          if (Lo == Hi)
            continue;
          std::vector<WindowSection> S;
          ASSERT_TRUE(windowSections(D, E, N, Lo, Hi, S, Err)) << Err;
          ASSERT_EQ(S.size(), 1u);
          ASSERT_EQ(S[0].Ranges, (Ranges{{BasePtr + 8 * Lo, BasePtr + 8 * Hi}}))
              << Rows << "x" << M << " chunk " << C << "/" << K;
          EXPECT_EQ(S[0].Ranges[0].first, Prev); // adjacent, disjoint
          Prev = S[0].Ranges[0].second;
        }
        EXPECT_EQ(Prev, BasePtr + 8 * Total);
      }
    }
}

// A store of every iteration (`every`) whose offsets tile each box of the
// window is exact: row-major a[i * M + j] over any window, a[i] stepping
// down; not a column-major store over part of the columns, a stride wider
// than the size, a guarded store or one without `every`. The keyword
// survives writing and reading back, and belongs to write lines only.
TEST(KernelDescriptor, EveryWritesThatTileTheirRowsAreExact) {
  auto Exact = [](const std::string &Write, uint64_t Lo, uint64_t Hi,
                  int Rows = 4, int M = 5) {
    KernelDescriptor D = parseOk(header("nest 2\nloop 0 0 lt (sarg 1 4 1) 1\n"
                                        "loop 1 0 lt (sarg 2 4 1) 1\n" +
                                        Write + "\n"));
    DescEnv E;
    E.Args = {BasePtr, slot32(Rows), slot32(M)};
    std::vector<uint64_t> N;
    std::string Err;
    EXPECT_TRUE(tripCounts(D, E, N, Err)) << Err;
    std::vector<WindowSection> S;
    EXPECT_TRUE(windowSections(D, E, N, Lo, Hi, S, Err)) << Err;
    return S.at(0).Exact;
  };
  const std::string RowMajor =
      "write 8 (arg 0) (* 8 (+ (* (c 0) (sarg 2 4 1)) (c 1)))";
  const std::string ColMajor =
      "write 8 (arg 0) (* 8 (+ (* (c 1) (sarg 1 4 1)) (c 0)))";
  for (auto [Lo, Hi] : {std::pair<uint64_t, uint64_t>{0, 20}, {3, 17}, {7, 8}})
    EXPECT_TRUE(Exact(RowMajor + " every", Lo, Hi)) << Lo << " " << Hi;
  EXPECT_FALSE(Exact(RowMajor, 0, 20));
  EXPECT_TRUE(Exact(ColMajor + " every", 0, 20));  // all of it
  EXPECT_FALSE(Exact(ColMajor + " every", 5, 15)); // rows 1-2: strided
  EXPECT_FALSE(
      Exact("write 8 (arg 0) (* 16 (+ (* (c 0) (sarg 2 4 1)) (c 1))) every", 0,
            20)); // every other element
  EXPECT_FALSE(Exact(RowMajor + " when (lt (c 1) 3) every", 0, 20, 4, 5));
  EXPECT_TRUE(Exact("write 8 (arg 0) (- 400 (* 8 (+ (* (c 0) (sarg 2 4 1)) "
                    "(c 1)))) every",
                    2, 13));

  KernelDescriptor D = parseOk(
      header("nest 1\nloop 0 0 lt 10 1\nwrite 8 (arg 0) (* 8 (c 0)) every "
             "src a.c:3 a\n"));
  ASSERT_EQ(D.accesses().size(), 1u);
  EXPECT_TRUE(D.accesses()[0].Every);
  KernelDescriptor Back = parseOk(writeDescriptor(D));
  EXPECT_TRUE(Back.accesses()[0].Every);
  KernelDescriptor Bad;
  std::string Err;
  EXPECT_FALSE(KernelDescriptor::parse(
      header("nest 1\nloop 0 0 lt 10 1\nread 8 (arg 0) (* 8 (c 0)) every\n"),
      Bad, Err));
  EXPECT_FALSE(KernelDescriptor::parse(
      header("nest 1\nloop 0 0 lt 10 1\nwrite 8 (arg 0) (* 8 (c 0)) every "
             "every\n"),
      Bad, Err));
}

// A halo update (CloverLeaf's): each column j of the window writes rows
// 1 - k for k in [0, depth): the section is those rows' runs, not their
// hull, so neighbouring windows' writes are disjoint; a depth past the
// slicing budget (64 values) keeps the hull.
TEST(KernelDescriptor, SectionsOfAShallowInnerLoopAreItsRows) {
  KernelDescriptor D = parseOk(
      header("nest 1\nloop 0 0 lt (sarg 1 4 1) 1\n"
             "var 0 0 (- (sarg 2 4 1) 1)\n"
             "write 8 (arg 0) (* 8 (+ (c 0) (* (- 1 (v 0)) (sarg 1 4 1))))\n"
             "read 8 (arg 0) (* 8 (+ (c 0) (* (+ 2 (v 0)) (sarg 1 4 1))))\n"));
  const uint64_t Nx = 100;
  DescEnv E;
  E.Args = {BasePtr, slot32(Nx), slot32(2)};
  std::vector<uint64_t> N = {Nx};
  std::vector<WindowSection> S;
  std::string Err;
  ASSERT_TRUE(windowSections(D, E, N, 10, 20, S, Err)) << Err;
  ASSERT_EQ(S.size(), 2u);
  EXPECT_EQ(S[0].Ranges,
            (Ranges{{BasePtr + 8 * 10, BasePtr + 8 * 20},
                    {BasePtr + 8 * (Nx + 10), BasePtr + 8 * (Nx + 20)}}));
  EXPECT_EQ(
      S[1].Ranges,
      (Ranges{{BasePtr + 8 * (2 * Nx + 10), BasePtr + 8 * (2 * Nx + 20)},
              {BasePtr + 8 * (3 * Nx + 10), BasePtr + 8 * (3 * Nx + 20)}}));
  // The next window's rows are disjoint from these.
  std::vector<WindowSection> Next;
  ASSERT_TRUE(windowSections(D, E, N, 20, 30, Next, Err)) << Err;
  for (const auto &[Lo, Hi] : Next[0].Ranges)
    for (const auto &[PLo, PHi] : S[0].Ranges)
      EXPECT_TRUE(Hi <= PLo || Lo >= PHi);
  // 100 rows deep: over the budget, the hull.
  E.Args[2] = slot32(100);
  ASSERT_TRUE(windowSections(D, E, N, 10, 20, S, Err)) << Err;
  ASSERT_EQ(S[0].Ranges.size(), 1u);
}

TEST(KernelDescriptor, SectionKindsAndErrors) {
  KernelDescriptor D =
      parseOk(header("nest 1\nloop 0 0 lt 10 1\nreadall (load (arg 1) 8 0)\n"
                     "readany\nread 4 (arg 0) (* (c 0) 4)\n"));
  uint64_t Ptr = 0x5000;
  DescEnv E;
  E.Args = {BasePtr, 0x100};
  E.Load = [&](uint64_t Addr, void *Dst, unsigned Bytes) {
    if (Addr != 0x100 || Bytes != 8)
      return false;
    std::memcpy(Dst, &Ptr, 8);
    return true;
  };
  std::vector<uint64_t> N = {10};
  std::vector<WindowSection> S;
  std::string Err;
  ASSERT_TRUE(windowSections(D, E, N, 2, 5, S, Err)) << Err;
  ASSERT_EQ(S.size(), 3u);
  EXPECT_EQ(S[0].Kind, AccessKind::ReadAll);
  EXPECT_EQ(S[0].Base, Ptr);
  EXPECT_TRUE(S[0].Ranges.empty());
  EXPECT_EQ(S[1].Kind, AccessKind::ReadAny);
  EXPECT_EQ(S[1].Base, 0u);
  EXPECT_EQ(S[2].Ranges, (Ranges{{BasePtr + 8, BasePtr + 20}}));

  // One access alone: the same, and no access past the last.
  WindowSection One;
  ASSERT_TRUE(windowSection(D, E, N, 2, 5, 2, One, Err)) << Err;
  EXPECT_EQ(One.Ranges, S[2].Ranges);
  ASSERT_TRUE(windowSection(D, E, N, 2, 5, 0, One, Err)) << Err;
  EXPECT_EQ(One.Kind, AccessKind::ReadAll);
  EXPECT_FALSE(windowSection(D, E, N, 2, 5, 3, One, Err));
  EXPECT_FALSE(Err.empty());
  EXPECT_FALSE(windowSection(D, E, N, 5, 5, 2, One, Err));

  // Bad windows.
  EXPECT_FALSE(windowSections(D, E, N, 5, 5, S, Err));
  EXPECT_FALSE(windowSections(D, E, N, 0, 11, S, Err));
  EXPECT_FALSE(windowSections(D, E, {10, 1}, 0, 5, S, Err));

  auto Fails = [&](const std::string &Body, const std::string &Expect) {
    KernelDescriptor K = parseOk(header("nest 1\nloop 0 -5 lt 5 1\n" + Body));
    std::vector<uint64_t> TN;
    ASSERT_TRUE(tripCounts(K, E, TN, Err)) << Err;
    EXPECT_FALSE(windowSections(K, E, TN, 0, 10, S, Err)) << Body;
    EXPECT_NE(Err.find(Expect), std::string::npos) << Err;
  };
  Fails("read 4 (+ (arg 0) (c 0)) 0\n", "base of access 0");
  Fails("write 4 (arg 0) (/ 100 (c 0))\n", "containing 0");
  Fails("write 4 (arg 0) (% 100 (c 0))\n", "containing 0");
  // A moving load with nothing to scan it (DescEnv::LoadRange).
  Fails("write 4 (arg 0) (load (+ (arg 1) (c 0)) 4 1)\n", "cannot read");
  Fails("write 4 (arg 0) (* (c 0) 9223372036854775807)\n", "overflow");
  Fails("write 4 (arg 0) (wrap 64 0 (c 0))\n", "unsigned 64-bit");
  Fails("read 4 (arg 0) (* (c 0) 4)\nwrite 4 (arg 0) (load (arg 0) 4 1)\n",
        "offset of access 1");
  Fails("read 4 0 -10\n", "address space");

  // A read without computable bounds reads its whole buffer instead.
  auto ReadsAll = [&](const std::string &Body) {
    KernelDescriptor K = parseOk(header("nest 1\nloop 0 -5 lt 5 1\n" + Body));
    std::vector<uint64_t> TN;
    ASSERT_TRUE(tripCounts(K, E, TN, Err)) << Err;
    ASSERT_TRUE(windowSections(K, E, TN, 0, 10, S, Err)) << Body << Err;
    EXPECT_EQ(S[0].Kind, AccessKind::ReadAll) << Body;
    EXPECT_EQ(S[0].Base, BasePtr) << Body;
    EXPECT_TRUE(S[0].Ranges.empty()) << Body;
  };
  ReadsAll("read 4 (arg 0) (/ 100 (c 0))\n");
  ReadsAll("read 4 (arg 0) (% 100 (c 0))\n");
  ReadsAll("read 4 (arg 0) (load (+ (arg 1) (c 0)) 4 1)\n");
  ReadsAll("read 4 (arg 0) (* (c 0) 9223372036854775807)\n");
  ReadsAll("read 4 (arg 0) (wrap 64 0 (c 0))\n");
  ReadsAll("read 4 (arg 0) (shl 1 (c 0))\n");
  // A variable whose bounds cannot be evaluated may take any value: a read
  // through it reads its whole buffer, a write through it fails.
  ReadsAll("var 0 0 (* (c 0) 9223372036854775807)\n"
           "read 4 (arg 0) (* (v 0) 4)\n");
  Fails("var 0 0 (* (c 0) 9223372036854775807)\n"
        "write 4 (arg 0) (* (v 0) 4)\n",
        "offset of access 0");
}

TEST(KernelDescriptor, InnerLoopsThatNeverRunTouchNothing) {
  // for (i = 0; i < n; ++i) for (j = 0; j < i; ++j) a[i * 16 + j] = ...;
  KernelDescriptor D =
      parseOk(header("nest 1\nloop 0 0 lt 8 1\nvar 0 0 (- (c 0) 1)\n"
                     "var 1 (v 0) (- (c 0) 1)\n"
                     "write 1 (arg 0) (+ (* (c 0) 16) (v 0))\n"
                     "write 1 (arg 0) (+ (* (c 0) 16) (+ 8 (v 1)))\n"
                     "write 1 (arg 0) (* (c 0) 16)\n"));
  DescEnv E;
  E.Args = {BasePtr};
  std::vector<WindowSection> S;
  std::string Err;
  ASSERT_TRUE(windowSections(D, E, {8}, 0, 1, S, Err)) << Err;
  EXPECT_TRUE(S[0].Ranges.empty());
  EXPECT_TRUE(S[1].Ranges.empty());
  EXPECT_EQ(S[2].Ranges, (Ranges{{BasePtr, BasePtr + 1}}));
  ASSERT_TRUE(windowSections(D, E, {8}, 3, 4, S, Err)) << Err;
  EXPECT_EQ(S[0].Ranges, (Ranges{{BasePtr + 48, BasePtr + 51}}));
  EXPECT_EQ(S[1].Ranges, (Ranges{{BasePtr + 56, BasePtr + 59}}));
}

namespace {

/// A random affine loop nest with inner loops and accesses, evaluated
/// natively, and its descriptor.
struct RandomNest {
  struct Level {
    int64_t Init, Bound, Step;
    std::string Cond;
    int64_t Trips = 0;
  };
  /// Const + sum Coef[l] * c_l + sum VCoef[i] * v_i.
  struct Affine {
    int64_t Const = 0;
    std::vector<int64_t> Coef, VCoef;
    int64_t eval(const std::vector<int64_t> &C,
                 const std::vector<int64_t> &V) const {
      int64_t R = Const;
      for (size_t I = 0; I < Coef.size(); ++I)
        R += Coef[I] * C[I];
      for (size_t I = 0; I < VCoef.size() && I < V.size(); ++I)
        R += VCoef[I] * V[I];
      return R;
    }
  };
  struct Access {
    bool Write;
    uint64_t Size;
    Affine Offset;
    size_t Inside; // number of inner loops it is nested in
    bool Every = false;
  };
  std::vector<Level> Levels;
  std::vector<std::pair<Affine, Affine>> Vars; // lo, hi (inclusive)
  std::vector<Access> Accesses;
  DescEnv Env;
  std::string Text;
  bool Rectangular = true; // each variable occurs once in each offset

  std::mt19937 &Rng;
  explicit RandomNest(std::mt19937 &Rng) : Rng(Rng) {
    Env.Args = {BasePtr};
    build();
  }

  int64_t pick(int64_t Lo, int64_t Hi) {
    return Lo + static_cast<int64_t>(Rng() % uint64_t(Hi - Lo + 1));
  }

  /// A literal, or an argument holding V (sign-extended from 2, 4, 8 bytes).
  std::string value(int64_t V) {
    if (Rng() % 3)
      return std::to_string(V);
    unsigned K = static_cast<unsigned>(Env.Args.size());
    switch (Rng() % 3) {
    case 0:
      Env.Args.push_back(slot32(V));
      return "(sarg " + std::to_string(K) + " 4 1)";
    case 1:
      Env.Args.push_back(0x1234000000000000ull | static_cast<uint16_t>(V));
      return "(sarg " + std::to_string(K) + " 2 1)";
    default:
      Env.Args.push_back(static_cast<uint64_t>(V));
      return "(sarg " + std::to_string(K) + " 8 1)";
    }
  }

  std::string term(int64_t Coef, const std::string &Var) {
    switch (Rng() % 3) {
    case 0:
      return "(* " + value(Coef) + " " + Var + ")";
    case 1:
      return "(* " + Var + " " + value(Coef) + ")";
    default:
      return "(neg (* " + value(-Coef) + " " + Var + "))";
    }
  }

  std::string render(const Affine &A) {
    std::vector<std::string> Terms = {value(A.Const)};
    for (size_t L = 0; L < A.Coef.size(); ++L)
      if (A.Coef[L])
        Terms.push_back(term(A.Coef[L], "(c " + std::to_string(L) + ")"));
    for (size_t I = 0; I < A.VCoef.size(); ++I)
      if (A.VCoef[I])
        Terms.push_back(term(A.VCoef[I], "(v " + std::to_string(I) + ")"));
    std::shuffle(Terms.begin(), Terms.end(), Rng);
    std::string S = Terms[0];
    for (size_t I = 1; I < Terms.size(); ++I)
      S = Rng() % 2 ? "(+ " + S + " " + Terms[I] + ")"
                    : "(- " + S + " (neg " + Terms[I] + "))";
    return S;
  }

  Affine affine(size_t NumVars, int64_t MaxCoef, int64_t MaxConst) {
    Affine A;
    A.Const = pick(-MaxConst, MaxConst);
    for (size_t L = 0; L < Levels.size(); ++L)
      A.Coef.push_back(pick(-MaxCoef, MaxCoef));
    for (size_t I = 0; I < NumVars; ++I)
      A.VCoef.push_back(pick(-MaxCoef, MaxCoef));
    return A;
  }

  void build() {
    size_t Depth = 1 + Rng() % 3;
    Text = "hetero-kernel 1\nsplit yes\nnest " + std::to_string(Depth) + "\n";
    for (size_t L = 0; L < Depth; ++L) {
      Level Lv;
      bool Up = Rng() % 2;
      Lv.Step = (Up ? 1 : -1) * pick(1, 3);
      Lv.Init = pick(-6, 6);
      int64_t Trips = Rng() % 16 ? pick(1, 5) : 0;
      Lv.Trips = Trips;
      switch (Rng() % 3) {
      case 0:
        Lv.Cond = Up ? "lt" : "gt";
        Lv.Bound = Lv.Init + Lv.Step * Trips -
                   (Up ? pick(0, Lv.Step - 1) : pick(Lv.Step + 1, 0));
        break;
      case 1:
        Lv.Cond = Up ? "le" : "ge";
        Lv.Bound = Lv.Init + Lv.Step * (Trips - 1) +
                   (Up ? pick(0, Lv.Step - 1) : pick(Lv.Step + 1, 0));
        break;
      default:
        Lv.Cond = "ne";
        Lv.Step = Up ? 1 : -1;
        Lv.Bound = Lv.Init + Lv.Step * Trips;
      }
      Levels.push_back(Lv);
    }
    for (size_t L = 0; L < Depth; ++L) {
      std::string Step = Rng() % 4
                             ? std::to_string(Levels[L].Step)
                             : "(neg " + std::to_string(-Levels[L].Step) + ")";
      Text += "loop " + std::to_string(L) + " " + value(Levels[L].Init) + " " +
              Levels[L].Cond + " " + value(Levels[L].Bound) + " " + Step + "\n";
    }
    size_t NumVars = Rng() % 3;
    for (size_t I = 0; I < NumVars; ++I) {
      Affine Lo = affine(I, 1, 3), Hi = affine(I, 1, 3);
      Hi.Const += pick(0, 4);
      Vars.push_back({Lo, Hi});
      Text += "var " + std::to_string(I) + " " + render(Lo) + " " + render(Hi) +
              "\n";
    }
    Rectangular = NumVars == 0;
    size_t NumAccesses = 1 + Rng() % 3;
    for (size_t I = 0; I < NumAccesses; ++I) {
      Access A;
      A.Write = Rng() % 2;
      A.Size = uint64_t(1) << (Rng() % 4);
      A.Inside = Rng() % (NumVars + 1);
      A.Offset = affine(A.Inside, 20, 50);
      // A store of every iteration; half of them tile their rows (each
      // level's stride the size times the trips of the levels inside it,
      // in a random order of the levels).
      A.Every = A.Write && A.Inside == 0;
      if (A.Every && Rng() % 2) {
        std::vector<size_t> Order(Depth);
        std::iota(Order.begin(), Order.end(), 0);
        std::shuffle(Order.begin(), Order.end(), Rng);
        int64_t Stride = int64_t(A.Size);
        for (size_t L : Order) {
          A.Offset.Coef[L] = Rng() % 2 ? Stride : -Stride;
          Stride *= std::max<int64_t>(Levels[L].Trips, 1);
        }
      }
      Accesses.push_back(A);
      Text += std::string(A.Write ? "write " : "read ") +
              std::to_string(A.Size) + " (arg 0) " + render(A.Offset) +
              (A.Every ? " every" : "") + "\n";
    }
  }

  /// Calls Touch(access, offset) for every access of iteration C.
  void run(const std::vector<int64_t> &C, std::vector<int64_t> &V,
           const std::function<void(size_t, int64_t)> &Touch) {
    size_t Depth = V.size();
    for (size_t I = 0; I < Accesses.size(); ++I)
      if (Accesses[I].Inside == Depth)
        Touch(I, Accesses[I].Offset.eval(C, V));
    if (Depth == Vars.size())
      return;
    int64_t Lo = Vars[Depth].first.eval(C, V);
    int64_t Hi = Vars[Depth].second.eval(C, V);
    for (int64_t X = Lo; X <= Hi; ++X) {
      V.push_back(X);
      run(C, V, Touch);
      V.pop_back();
    }
  }
};

} // namespace

TEST(KernelDescriptor, RandomAffineNestsAreSoundAndTight) {
  std::mt19937 Rng(12345);
  unsigned Windows = 0, Tight = 0, Exact = 0;
  for (int Case = 0; Case < 1500; ++Case) {
    RandomNest R(Rng);
    KernelDescriptor D = parseOk(R.Text);
    std::vector<uint64_t> N;
    std::string Err;
    ASSERT_TRUE(tripCounts(D, R.Env, N, Err)) << Err << "\n" << R.Text;
    uint64_t Total = 1;
    for (size_t L = 0; L < N.size(); ++L) {
      ASSERT_EQ(N[L], *runLoop(R.Levels[L].Init, R.Levels[L].Cond,
                               R.Levels[L].Bound, R.Levels[L].Step))
          << R.Text;
      Total *= N[L];
    }
    if (Total == 0)
      continue;
    for (int W = 0; W < 3; ++W) {
      uint64_t Lo = Rng() % Total, Hi = Lo + 1 + Rng() % (Total - Lo);
      std::vector<WindowSection> S;
      ASSERT_TRUE(windowSections(D, R.Env, N, Lo, Hi, S, Err)) << Err << "\n"
                                                               << R.Text;
      ASSERT_EQ(S.size(), R.Accesses.size());
      ++Windows;
      // One access alone is what it is among all of them.
      for (size_t I = 0; I < S.size(); ++I) {
        WindowSection One;
        ASSERT_TRUE(windowSection(D, R.Env, N, Lo, Hi, I, One, Err)) << Err;
        EXPECT_EQ(One.Kind, S[I].Kind) << I << "\n" << R.Text;
        EXPECT_EQ(One.Base, S[I].Base) << I << "\n" << R.Text;
        EXPECT_EQ(One.Ranges, S[I].Ranges) << I << "\n" << R.Text;
        EXPECT_EQ(One.Exact, S[I].Exact) << I << "\n" << R.Text;
      }
      // Brute force: every iteration of the window.
      std::vector<int64_t> Min(S.size(), INT64_MAX), Max(S.size(), INT64_MIN);
      std::vector<std::map<int64_t, int>> Starts(S.size());
      for (uint64_t T = Lo; T < Hi; ++T) {
        std::vector<int64_t> C(N.size());
        uint64_t Rest = T;
        for (size_t L = N.size(); L-- > 0;) {
          C[L] = R.Levels[L].Init + R.Levels[L].Step * int64_t(Rest % N[L]);
          Rest /= N[L];
        }
        std::vector<int64_t> V;
        R.run(C, V, [&](size_t I, int64_t Off) {
          uint64_t B = BasePtr + Off;
          ASSERT_TRUE(covered(S[I].Ranges, B, B + R.Accesses[I].Size))
              << "access " << I << " offset " << Off << " t " << T
              << "\nwindow [" << Lo << ", " << Hi << ")\n"
              << R.Text;
          Min[I] = std::min(Min[I], Off);
          Max[I] = std::max(Max[I], Off);
          Starts[I][Off] = 1;
        });
      }
      for (size_t I = 0; I < S.size(); ++I) {
        // An exact write section is the bytes written, each of them.
        if (S[I].Exact) {
          std::set<int64_t> Bytes;
          for (const auto &[Off, One] : Starts[I])
            for (uint64_t K = 0; K < R.Accesses[I].Size; ++K)
              Bytes.insert(Off + int64_t(K));
          uint64_t InRanges = 0;
          for (const auto &[RLo, RHi] : S[I].Ranges)
            InRanges += RHi - RLo;
          EXPECT_EQ(Bytes.size(), InRanges) << I << "\n" << R.Text;
          ++Exact;
        }
        EXPECT_TRUE(!S[I].Exact || R.Accesses[I].Every);
        EXPECT_EQ(S[I].Kind,
                  R.Accesses[I].Write ? AccessKind::Write : AccessKind::Read);
        EXPECT_EQ(S[I].Base, BasePtr);
        EXPECT_TRUE(wellFormed(S[I].Ranges));
        if (!R.Rectangular)
          continue;
        // No inner loops: interval arithmetic is exact per box, so the
        // section's hull is the bytes touched, and every range starts and
        // ends where some iteration's access does.
        ASSERT_FALSE(S[I].Ranges.empty());
        uint64_t Size = R.Accesses[I].Size;
        EXPECT_EQ(S[I].Ranges.front().first, BasePtr + Min[I]) << R.Text;
        EXPECT_EQ(S[I].Ranges.back().second, BasePtr + Max[I] + Size) << R.Text;
        for (const auto &[RLo, RHi] : S[I].Ranges) {
          EXPECT_TRUE(Starts[I].count(int64_t(RLo - BasePtr))) << R.Text;
          EXPECT_TRUE(Starts[I].count(int64_t(RHi - Size - BasePtr))) << R.Text;
        }
        ++Tight;
      }
    }
  }
  EXPECT_GT(Windows, 3000u);
  EXPECT_GT(Tight, 1000u);
  EXPECT_GT(Exact, 300u);
}

namespace {

/// A random expression over (c 0), (c 1), (v 0) with every operator, and its
/// native C value (nullopt: overflow or division by zero).
struct RandomExpr {
  std::string Text;
  std::function<std::optional<int64_t>(int64_t, int64_t, int64_t)> Eval;
};

RandomExpr randomExpr(std::mt19937 &Rng, int Depth) {
  using Opt = std::optional<int64_t>;
  if (Depth == 0 || Rng() % 4 == 0) {
    switch (Rng() % 4) {
    case 0: {
      int64_t K = int64_t(Rng() % 19) - 9;
      return {std::to_string(K),
              [K](int64_t, int64_t, int64_t) { return Opt(K); }};
    }
    case 1:
      return {"(c 0)", [](int64_t C0, int64_t, int64_t) { return Opt(C0); }};
    case 2:
      return {"(c 1)", [](int64_t, int64_t C1, int64_t) { return Opt(C1); }};
    default:
      return {"(v 0)", [](int64_t, int64_t, int64_t V0) { return Opt(V0); }};
    }
  }
  static const char *Ops[] = {"+", "-", "*", "/", "%", "neg", "min", "max"};
  std::string Op = Ops[Rng() % 8];
  RandomExpr A = randomExpr(Rng, Depth - 1);
  if (Op == "neg")
    return {"(neg " + A.Text + ")", [A](int64_t X, int64_t Y, int64_t Z) {
              Opt V = A.Eval(X, Y, Z);
              return V ? Opt(-*V) : V;
            }};
  RandomExpr B = randomExpr(Rng, Depth - 1);
  return {"(" + Op + " " + A.Text + " " + B.Text + ")",
          [A, B, Op](int64_t X, int64_t Y, int64_t Z) -> Opt {
            Opt L = A.Eval(X, Y, Z), R = B.Eval(X, Y, Z);
            if (!L || !R)
              return std::nullopt;
            int64_t Out;
            switch (Op[0]) {
            case '+':
              return __builtin_add_overflow(*L, *R, &Out) ? Opt() : Opt(Out);
            case '-':
              return __builtin_sub_overflow(*L, *R, &Out) ? Opt() : Opt(Out);
            case '*':
              return __builtin_mul_overflow(*L, *R, &Out) ? Opt() : Opt(Out);
            case '/':
              return *R == 0 ? Opt() : Opt(*L / *R);
            case '%':
              return *R == 0 ? Opt() : Opt(*L % *R);
            default:
              return Op == "min" ? std::min(*L, *R) : std::max(*L, *R);
            }
          }};
}

} // namespace

TEST(KernelDescriptor, RandomNonAffineExpressionsAreSound) {
  std::mt19937 Rng(99);
  unsigned Checked = 0, Refused = 0;
  for (int Case = 0; Case < 1500; ++Case) {
    RandomExpr X = randomExpr(Rng, 4);
    int64_t I0 = int64_t(Rng() % 11) - 5, I1 = int64_t(Rng() % 11) - 5;
    int64_t S1 = Rng() % 2 ? 2 : -3;
    std::string Text =
        header("nest 2\nloop 0 " + std::to_string(I0) + " lt " +
               std::to_string(I0 + 4) + " 1\nloop 1 " + std::to_string(I1) +
               (S1 > 0 ? " lt " : " gt ") + std::to_string(I1 + 3 * S1) + " " +
               std::to_string(S1) + "\nvar 0 (- (c 0) 2) (+ (c 1) 2)\nread 1 " +
               "(arg 0) " + X.Text + "\n");
    KernelDescriptor D = parseOk(Text);
    DescEnv E;
    E.Args = {BasePtr};
    std::vector<uint64_t> N;
    std::string Err;
    ASSERT_TRUE(tripCounts(D, E, N, Err)) << Err;
    ASSERT_EQ(N, (std::vector<uint64_t>{4, 3}));
    uint64_t Lo = Rng() % 12, Hi = Lo + 1 + Rng() % (12 - Lo);
    std::vector<WindowSection> S;
    ASSERT_TRUE(windowSections(D, E, N, Lo, Hi, S, Err)) << Err;
    if (S[0].Kind == AccessKind::ReadAll) {
      // Only for a reason interval arithmetic cannot avoid.
      ++Refused;
      continue;
    }
    for (uint64_t T = Lo; T < Hi; ++T) {
      int64_t C0 = I0 + int64_t(T / 3), C1 = I1 + S1 * int64_t(T % 3);
      for (int64_t V0 = C0 - 2; V0 <= C1 + 2; ++V0) {
        std::optional<int64_t> Off = X.Eval(C0, C1, V0);
        ASSERT_TRUE(Off.has_value())
            << "sections computed, but the kernel divides by zero: " << X.Text;
        int64_t Got;
        ASSERT_TRUE(evaluateExpr(D, D.accesses()[0].Offset, E, {C0, C1}, {V0},
                                 Got, Err))
            << Err;
        ASSERT_EQ(Got, *Off) << X.Text;
        ASSERT_TRUE(covered(S[0].Ranges, BasePtr + *Off, BasePtr + *Off + 1))
            << X.Text << " at c0=" << C0 << " c1=" << C1 << " v0=" << V0;
        ++Checked;
      }
    }
  }
  EXPECT_GT(Checked, 5000u);
  EXPECT_LT(Refused, 1200u);
}

namespace {

/// An expression of the integer-width operators with its C meaning: every
/// value it may take at a point ((either a b) takes two), or nullopt where
/// the kernel's arithmetic would not be representable.
struct RandomIntExpr {
  std::string Text;
  bool HasEither = false;
  std::function<std::optional<std::vector<int64_t>>(int64_t, int64_t)> Eval;
};

int64_t wrapModel(int64_t X, unsigned Bits, bool Signed) {
  __int128 Period = __int128(1) << Bits;
  __int128 Min = Signed ? -(Period / 2) : 0;
  __int128 D = (__int128(X) - Min) % Period;
  if (D < 0)
    D += Period;
  return static_cast<int64_t>(D + Min);
}

RandomIntExpr randomIntExpr(std::mt19937 &Rng, int Depth) {
  using Vals = std::vector<int64_t>;
  using Opt = std::optional<Vals>;
  if (Depth == 0 || Rng() % 4 == 0) {
    switch (Rng() % 3) {
    case 0: {
      // Around the edges of 8-, 16- and 32-bit types too.
      static const int64_t Ks[] = {
          0,     1,      -1,  3,     -7,    200,        255,          -129,
          65000, -40000, 100, 32767, 65535, 4294967295, -2147483648LL};
      int64_t K = Ks[Rng() % (sizeof(Ks) / sizeof(Ks[0]))];
      return {std::to_string(K), false,
              [K](int64_t, int64_t) { return Opt(Vals{K}); }};
    }
    case 1:
      return {"(c 0)", false,
              [](int64_t C0, int64_t) { return Opt(Vals{C0}); }};
    default:
      return {"(c 1)", false,
              [](int64_t, int64_t C1) { return Opt(Vals{C1}); }};
    }
  }
  RandomIntExpr A = randomIntExpr(Rng, Depth - 1);
  auto Unary = [&](std::string Text,
                   std::function<std::optional<int64_t>(int64_t)> F) {
    return RandomIntExpr{Text, A.HasEither,
                         [A, F](int64_t X, int64_t Y) -> Opt {
                           Opt V = A.Eval(X, Y);
                           if (!V)
                             return V;
                           Vals Out;
                           for (int64_t E : *V) {
                             std::optional<int64_t> R = F(E);
                             if (!R)
                               return std::nullopt;
                             Out.push_back(*R);
                           }
                           return Out;
                         }};
  };
  switch (Rng() % 9) {
  case 0:
  case 1: {
    static const unsigned Widths[] = {1, 7, 8, 16, 32, 63, 64};
    unsigned Bits = Widths[Rng() % 7];
    bool Signed = Rng() % 2;
    return Unary("(wrap " + std::to_string(Bits) + (Signed ? " 1 " : " 0 ") +
                     A.Text + ")",
                 [Bits, Signed](int64_t X) -> std::optional<int64_t> {
                   if (Bits == 64)
                     return Signed || X >= 0 ? std::optional<int64_t>(X)
                                             : std::nullopt;
                   return wrapModel(X, Bits, Signed);
                 });
  }
  case 2: {
    unsigned K = Rng() % 6;
    return Unary("(shl " + A.Text + " " + std::to_string(K) + ")",
                 [K](int64_t X) -> std::optional<int64_t> {
                   int64_t Out;
                   if (__builtin_mul_overflow(X, int64_t(1) << K, &Out))
                     return std::nullopt;
                   return Out;
                 });
  }
  case 3: {
    unsigned K = Rng() % 6;
    return Unary("(shr " + A.Text + " " + std::to_string(K) + ")",
                 [K](int64_t X) -> std::optional<int64_t> { return X >> K; });
  }
  default:
    break;
  }
  static const char *Ops[] = {"+", "and", "or", "xor", "either"};
  std::string Op = Ops[Rng() % 5];
  RandomIntExpr B = randomIntExpr(Rng, Depth - 1);
  return {"(" + Op + " " + A.Text + " " + B.Text + ")",
          A.HasEither || B.HasEither || Op == "either",
          [A, B, Op](int64_t X, int64_t Y) -> Opt {
            Opt L = A.Eval(X, Y), R = B.Eval(X, Y);
            if (!L || !R)
              return std::nullopt;
            Vals Out;
            if (Op == "either") {
              Out = *L;
              Out.insert(Out.end(), R->begin(), R->end());
              return Out;
            }
            for (int64_t P : *L)
              for (int64_t Q : *R) {
                int64_t V;
                if (Op == "+") {
                  if (__builtin_add_overflow(P, Q, &V))
                    return std::nullopt;
                } else {
                  V = Op == "and" ? (P & Q) : Op == "or" ? (P | Q) : (P ^ Q);
                }
                Out.push_back(V);
              }
            return Out;
          }};
}

} // namespace

// The integer-width operators (wrap, shifts, bitwise, either) against their
// C meaning: the sections hold every byte the kernel may touch, a point
// evaluation gives exactly the kernel's value, and bounds that cannot be
// computed make the read a ReadAll (never a wrong section).
TEST(KernelDescriptor, RandomIntegerWidthExpressionsAreSound) {
  std::mt19937 Rng(2026);
  unsigned Checked = 0, ReadAll = 0, Exact = 0;
  for (int Case = 0; Case < 3000; ++Case) {
    RandomIntExpr X = randomIntExpr(Rng, 4);
    // Counters around type edges: c0 in [I0, I0 + 40), c1 in [I1, I1 + 6).
    static const int64_t Starts[] = {
        -20, 0, 230, 65520, 2147483630LL, 4294967280LL, -2147483660LL};
    int64_t I0 = Starts[Rng() % 7], I1 = int64_t(Rng() % 11) - 5;
    std::string Text = header(
        "nest 2\nloop 0 " + std::to_string(I0) + " lt " +
        std::to_string(I0 + 40) + " 1\nloop 1 " + std::to_string(I1) + " lt " +
        std::to_string(I1 + 6) + " 1\nread 1 (arg 0) " + X.Text + "\n");
    KernelDescriptor D = parseOk(Text);
    DescEnv E;
    E.Args = {uint64_t(1) << 62}; // room for offsets either way
    std::vector<uint64_t> N;
    std::string Err;
    ASSERT_TRUE(tripCounts(D, E, N, Err)) << Err;
    uint64_t Lo = Rng() % 240, Hi = Lo + 1 + Rng() % (240 - Lo);
    std::vector<WindowSection> S;
    ASSERT_TRUE(windowSections(D, E, N, Lo, Hi, S, Err)) << Err << X.Text;
    bool All = S[0].Kind == AccessKind::ReadAll;
    ReadAll += All;
    for (uint64_t T = Lo; T < Hi; ++T) {
      int64_t C0 = I0 + int64_t(T / 6), C1 = I1 + int64_t(T % 6);
      auto Vals = X.Eval(C0, C1);
      if (!Vals) {
        // The kernel's value is not representable: no section but ReadAll.
        EXPECT_TRUE(All) << X.Text << " at c0=" << C0 << " c1=" << C1;
        continue;
      }
      if (!X.HasEither) {
        int64_t Got;
        if (evaluateExpr(D, D.accesses()[0].Offset, E, {C0, C1}, {}, Got,
                         Err)) {
          ASSERT_EQ(Got, (*Vals)[0])
              << X.Text << " at c0=" << C0 << " c1=" << C1;
          ++Exact;
        }
      }
      if (All)
        continue;
      for (int64_t V : *Vals) {
        uint64_t Addr = E.Args[0] + static_cast<uint64_t>(V);
        ASSERT_TRUE(covered(S[0].Ranges, Addr, Addr + 1))
            << X.Text << " = " << V << " at c0=" << C0 << " c1=" << C1;
        ++Checked;
      }
    }
  }
  EXPECT_GT(Checked, 100000u);
  EXPECT_GT(Exact, 50000u);
  EXPECT_LT(ReadAll, 1500u);
}

// Guards narrow where an access happens: a[i - 1] under `if (i > 0)`.
TEST(KernelDescriptor, GuardsNarrowSections) {
  KernelDescriptor D = parseOk(
      header("nest 1\nloop 0 0 lt 100 1\n"
             "read 8 (arg 0) (* (- (c 0) 1) 8) when (gt (c 0) 0)\n"
             "read 8 (arg 0) (* (+ (c 0) 1) 8) when (lt (c 0) (- (sarg 1 4 1) "
             "1))\n"
             "write 8 (arg 0) (* (c 0) 8) when (ne (c 0) 0) when (ne (c 0) "
             "99)\n"
             "read 8 (arg 0) 0 when (eq (c 0) 50)\n"));
  ASSERT_EQ(D.accesses()[1].Guards.size(), 1u);
  ASSERT_EQ(D.accesses()[2].Guards.size(), 2u);
  DescEnv E;
  E.Args = {BasePtr, 100};
  std::vector<uint64_t> N;
  std::string Err;
  ASSERT_TRUE(tripCounts(D, E, N, Err)) << Err;
  std::vector<WindowSection> S;
  ASSERT_TRUE(windowSections(D, E, N, 0, 100, S, Err)) << Err;
  EXPECT_EQ(S[0].Ranges, (Ranges{{BasePtr, BasePtr + 8 * 99}}));
  EXPECT_EQ(S[1].Ranges, (Ranges{{BasePtr + 8, BasePtr + 8 * 100}}));
  EXPECT_EQ(S[2].Ranges, (Ranges{{BasePtr + 8, BasePtr + 8 * 99}}));
  EXPECT_EQ(S[3].Ranges, (Ranges{{BasePtr, BasePtr + 8}}));
  // A window the guard excludes touches nothing there.
  ASSERT_TRUE(windowSections(D, E, N, 0, 1, S, Err)) << Err;
  EXPECT_TRUE(S[0].Ranges.empty());
  EXPECT_TRUE(S[2].Ranges.empty());
  EXPECT_TRUE(S[3].Ranges.empty());
  ASSERT_TRUE(windowSections(D, E, N, 10, 20, S, Err)) << Err;
  EXPECT_EQ(S[0].Ranges, (Ranges{{BasePtr + 8 * 9, BasePtr + 8 * 19}}));
  EXPECT_TRUE(S[3].Ranges.empty());

  for (const char *Bad :
       {"read 8 (arg 0) 0 when (gt (c 0) (c 0))\n",
        "read 8 (arg 0) 0 when (gt 3 (c 0))\n", "read 8 (arg 0) 0 when\n",
        "read 8 (arg 0) 0 when (zz (c 0) 1)\n",
        "read 8 (arg 0) 0 when (gt (c 0) 1\n",
        "read 8 (arg 0) 0 when (gt (c 1) 1)\n"}) {
    KernelDescriptor K;
    EXPECT_FALSE(KernelDescriptor::parse(
        header("nest 1\nloop 0 0 lt 100 1\n") + Bad, K, Err))
        << Bad;
  }
}

//===- KernelStatsTest.cpp - The hetero-stats lines -----------------------===//
//
// What KernelStats.h promises of a kernel's line: the reason of its first
// unsplit launch whatever came before it, the launches that ran ahead
// counted apart, split launches by how they ran, the bytes their reads
// needed, and the fields left out when they say nothing.
//
//===----------------------------------------------------------------------===//
#include "hetero/KernelStats.h"

#include <gtest/gtest.h>

#include <cstdio>
#include <cstdlib>
#include <string>

using namespace hetero;

namespace {

std::string printed(const KernelStats &S) {
  char *Text = nullptr;
  size_t Size = 0;
  FILE *Out = open_memstream(&Text, &Size);
  S.print(Out, 1, 2, 3);
  fclose(Out);
  std::string Lines(Text, Size);
  free(Text);
  return Lines;
}

KernelStats::Launch launch(bool Split, bool RanAhead,
                           const std::string &Reason = "") {
  KernelStats::Launch L;
  L.Split = Split;
  L.RanAhead = RanAhead;
  L.Reason = Reason;
  L.Members = {{"cuda:0", {10, 0.002}}};
  return L;
}

} // namespace

TEST(KernelStats, FirstUnsplitReasonAndRunAheadLaunches) {
  KernelStats S;
  S.record("k", launch(true, false));
  S.record("k", launch(true, true));
  S.record("k", launch(false, false, "uses host-resident memory"));
  S.record("k", launch(false, false, "a later reason"));
  S.record("k", launch(true, true));
  std::string Lines = printed(S);
  EXPECT_NE(Lines.find("hetero-stats kernel=k launches=5 "
                       "split=no(uses host-resident memory) split_launches=3 "
                       "members=cuda:0:50:10.000ms "),
            std::string::npos)
      << Lines;
  EXPECT_NE(Lines.find(" ran_ahead=2\n"), std::string::npos) << Lines;
  EXPECT_NE(Lines.find("hetero-stats total bytes_h2d=1 bytes_d2d=2 "
                       "bytes_d2h=3\n"),
            std::string::npos)
      << Lines;
}

TEST(KernelStats, NoRunAheadFieldWhenNoneRanAhead) {
  KernelStats S;
  S.record("k", launch(true, false));
  std::string Lines = printed(S);
  EXPECT_NE(Lines.find("split=yes split_launches=1"), std::string::npos);
  EXPECT_EQ(Lines.find("ran_ahead"), std::string::npos) << Lines;
}

// A kernel the share model settled on one member says so, not "yes"; one
// that went back to a split says "yes" again.
TEST(KernelStats, SettledOnOneMemberIsSaid) {
  KernelStats S;
  KernelStats::Launch Alone = launch(true, false);
  Alone.Alone = "sim:0";
  S.record("k", launch(true, false));
  S.record("k", Alone);
  S.record("j", Alone);
  S.record("j", launch(true, false));
  std::string Lines = printed(S);
  EXPECT_NE(Lines.find("kernel=k launches=2 split=settled-one(sim:0) "
                       "split_launches=2 "),
            std::string::npos)
      << Lines;
  EXPECT_NE(Lines.find("kernel=j launches=2 split=yes split_launches=2 "),
            std::string::npos)
      << Lines;
}

// Split launches by how they ran: over several members, on one member the
// share model chose, on the member holding their data; and what their
// chunks read from elsewhere, beside what was copied.
TEST(KernelStats, LaunchesByShapeAndTheBytesTheirReadsNeeded) {
  KernelStats S;
  KernelStats::Launch Spread = launch(true, false), One = Spread,
                      Owner = Spread;
  Spread.Needed = 100;
  Spread.Aligned = true;
  One.Alone = "cuda:0";
  Owner.Owner = true;
  Owner.Needed = 8;
  for (const KernelStats::Launch &L : {Spread, Spread, One, Owner})
    S.record("k", L);
  std::string Lines = printed(S);
  EXPECT_NE(Lines.find(" aligned=2 one_launches=1 owner_launches=1 "
                       "bytes_needed=208\n"),
            std::string::npos)
      << Lines;
  KernelStats Quiet;
  Quiet.record("k", launch(true, false));
  for (const char *Field : {"one_launches", "owner_launches", "bytes_needed"})
    EXPECT_EQ(printed(Quiet).find(Field), std::string::npos) << Field;
}

// The share model's trials are counted apart, with each member's
// iterations in them: members= less trial_members= is what the shares it
// runs by gave each member.
TEST(KernelStats, TrialLaunchesAndTheirIterationsAreApart) {
  KernelStats S;
  KernelStats::Launch Run = launch(true, false), Probe = Run;
  Run.Members = {{"cuda:0", {100, 0.002}}};
  Probe.Members = {{"cuda:0", {97, 0.002}}, {"cpu", {3, 0.004}}};
  Probe.Trial = true;
  for (const KernelStats::Launch &L : {Run, Probe, Probe, Run, Run})
    S.record("k", L);
  std::string Lines = printed(S);
  EXPECT_NE(Lines.find("members=cuda:0:494:"), std::string::npos) << Lines;
  EXPECT_NE(Lines.find(",cpu:6:"), std::string::npos) << Lines;
  EXPECT_NE(Lines.find(" trial_launches=2 trial_members=cuda:0:194,cpu:6"),
            std::string::npos)
      << Lines;
  KernelStats Quiet;
  Quiet.record("k", Run);
  EXPECT_EQ(printed(Quiet).find("trial_"), std::string::npos);
}

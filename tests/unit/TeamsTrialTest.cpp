//===- TeamsTrialTest.cpp - A GPU chunk's team count, from measurement ----===//
//
// The trial of TeamsTrial.h driven by made-up times (no clocks): the default
// grid first, then each candidate once, then the fastest kept; candidates a
// chunk is too small for, a program that launches a kernel three times, and
// the settings that turn it off never run a candidate. Through the engine,
// the grid reaches the back end's chunk and only GPU members get one.
//
//===----------------------------------------------------------------------===//
#include "hetero/TeamsTrial.h"
#include "TestKernels.h"
#include "hetero/Engine.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <memory>
#include <vector>

using namespace hetero;

namespace {

constexpr uint64_t Resident = 1000; // threads the "GPU" holds
constexpr uint64_t Iterations = 100000;

/// Runs one launch of Key on member 0 that takes Seconds(fraction) per
/// iteration; returns the pick.
template <typename TimeFn>
TeamsTrial::Pick launch(TeamsTrial &T, TimeFn Time,
                        uint64_t Iters = Iterations) {
  TeamsTrial::Pick P = T.pick("k#17", 0, Iters, Resident);
  T.record("k#17", 0, P, Iters, Time(P.Fraction) * static_cast<double>(Iters));
  return P;
}

TEST(TeamsTrial, DefaultThenEachCandidateThenTheFastest) {
  TeamsTrial T(true);
  // 1/4 of the resident threads is twice as fast as the default.
  auto Time = [](double F) { return F == 0.25 ? 1e-9 : 2e-9; };
  std::vector<double> Seen;
  std::vector<bool> Trials;
  for (int L = 0; L < 10; ++L) {
    TeamsTrial::Pick P = launch(T, Time);
    Seen.push_back(P.Fraction);
    Trials.push_back(P.Trial);
  }
  std::vector<double> Want = {0,       0,        0,    1.0 / 2, 1.0 / 4,
                              1.0 / 8, 1.0 / 16, 0.25, 0.25,    0.25};
  EXPECT_EQ(Seen, Want);
  std::vector<bool> WantTrials = {false, false, false, true,  true,
                                  true,  true,  false, false, false};
  EXPECT_EQ(Trials, WantTrials);
  EXPECT_EQ(T.note("k#17", 0), "1/4:0.50x");
}

// Launches that ran ahead (Engine.h) are not timed: once the default has
// been, they only count towards TrialAfterLaunches; candidates are timed.
TEST(TeamsTrial, UntimedLaunchesCountUntilACandidateIsDue) {
  TeamsTrial T(true, /*TrialAfter=*/1e9);
  auto Time = [](double F) { return F == 0.5 ? 1e-9 : 2e-9; };
  EXPECT_TRUE(T.untimed("k#17", 0)); // never picked: nothing to time
  for (int L = 0; L < 3; ++L) {
    EXPECT_FALSE(L > 0 && T.untimed("k#17", 0)) << L;
    launch(T, Time);
  }
  unsigned Counted = 3;
  while (T.untimed("k#17", 0)) {
    TeamsTrial::Pick P = T.pick("k#17", 0, Iterations, Resident);
    EXPECT_FALSE(P.Trial);
    T.recordUntimed("k#17", 0);
    ASSERT_LT(++Counted, 100u);
  }
  EXPECT_EQ(Counted, TeamsTrial::TrialAfterLaunches);
  for (int L = 0; L < 4; ++L) {
    EXPECT_FALSE(T.untimed("k#17", 0));
    EXPECT_TRUE(launch(T, Time).Trial);
  }
  EXPECT_EQ(launch(T, Time).Fraction, 0.5);
  EXPECT_TRUE(T.untimed("k#17", 0));
  EXPECT_EQ(T.note("k#17", 0), "1/2:0.50x");
}

TEST(TeamsTrial, AFarSlowerCandidateEndsTheTrial) {
  TeamsTrial T(true);
  // A streaming kernel: each halving of the grid slows it down; 1/4 is
  // 1.6x the default, and 1/8 and 1/16 never run.
  auto Time = [](double F) {
    return F == 0 ? 1e-9 : F == 0.5 ? 1.05e-9 : 1.6e-9;
  };
  std::vector<double> Seen;
  for (int L = 0; L < 8; ++L)
    Seen.push_back(launch(T, Time).Fraction);
  EXPECT_EQ(Seen, (std::vector<double>{0, 0, 0, 1.0 / 2, 1.0 / 4, 0, 0, 0}));
  EXPECT_EQ(T.note("k#17", 0), "default");
}

TEST(TeamsTrial, ACandidateMustBeatTheDefaultByThreePercent) {
  TeamsTrial T(true);
  auto Time = [](double F) { return F == 0 ? 1e-9 : 0.98e-9; };
  for (int L = 0; L < 8; ++L)
    launch(T, Time);
  EXPECT_EQ(launch(T, Time).Fraction, 0);
  EXPECT_EQ(T.note("k#17", 0), "default");
}

TEST(TeamsTrial, TheFirstLaunchIsNotTheDefaultsTime) {
  TeamsTrial T(true);
  // The first launch pays for first touches (10x); the candidates are 20%
  // slower than the default's steady time, so the default stays.
  int Launch = 0;
  auto Time = [&Launch](double F) {
    return Launch++ == 0 ? 1e-8 : F == 0 ? 1e-9 : 1.2e-9;
  };
  for (int L = 0; L < 8; ++L)
    launch(T, Time);
  EXPECT_EQ(T.note("k#17", 0), "default");
}

TEST(TeamsTrial, ShortRunsAndSmallChunksNeverRunACandidate) {
  TeamsTrial T(true);
  auto Time = [](double) { return 1e-9; };
  for (int L = 0; L < 3; ++L)
    EXPECT_FALSE(launch(T, Time).Trial);
  // 200 iterations: one per thread only for 1/8 and 1/16 of 1000 threads.
  TeamsTrial Small(true);
  std::vector<double> Seen;
  for (int L = 0; L < 8; ++L)
    Seen.push_back(launch(Small, Time, 200).Fraction);
  EXPECT_EQ(Seen, (std::vector<double>{0, 0, 0, 1.0 / 8, 1.0 / 16, 0, 0, 0}));
  // A kept grid is not used for a chunk too small for it.
  TeamsTrial Kept(true);
  auto Fast = [](double F) { return F == 0.5 ? 1e-9 : 2e-9; };
  for (int L = 0; L < 8; ++L)
    launch(Kept, Fast);
  EXPECT_EQ(launch(Kept, Fast).Fraction, 0.5);
  EXPECT_EQ(launch(Kept, Fast, 400).Fraction, 0);
}

TEST(TeamsTrial, CandidatesWaitUntilTheKernelHasRunTrialAfter) {
  // 100000 iterations of 1 ns: 0.1 ms a launch; candidates from the first
  // launch after the default's launches add up to 0.45 ms (the sixth).
  TeamsTrial T(true, 0.45e-3);
  auto Time = [](double) { return 1e-9; };
  std::vector<double> Seen;
  for (int L = 0; L < 10; ++L)
    Seen.push_back(launch(T, Time).Fraction);
  EXPECT_EQ(Seen, (std::vector<double>{0, 0, 0, 0, 0, 1.0 / 2, 1.0 / 4, 1.0 / 8,
                                       1.0 / 16, 0}));
  // Launches that never add up to TrialAfter: candidates from launch 41
  // (the 40 before are TrialAfterLaunches).
  TeamsTrial Long(true, 1.0);
  for (unsigned L = 0; L < TeamsTrial::TrialAfterLaunches; ++L)
    EXPECT_FALSE(launch(Long, Time).Trial);
  EXPECT_EQ(Long.note("k#17", 0), "trial");
  EXPECT_EQ(launch(Long, Time).Fraction, 1.0 / 2);
  // A short run of such a kernel never tries.
  TeamsTrial Short(true, 1.0);
  for (unsigned L = 0; L < 20; ++L)
    EXPECT_FALSE(launch(Short, Time).Trial);
  EXPECT_EQ(Short.note("k#17", 0), "default");
}

TEST(TeamsTrial, OffOrUnknownGpuIsAlwaysTheDefault) {
  TeamsTrial Off(false);
  auto Time = [](double F) { return F ? 1e-9 : 2e-9; };
  for (int L = 0; L < 10; ++L)
    EXPECT_EQ(launch(Off, Time).Fraction, 0);
  EXPECT_EQ(Off.note("k#17", 0), "");
  TeamsTrial On(true);
  for (int L = 0; L < 10; ++L)
    EXPECT_EQ(On.pick("k#17", 0, Iterations, 0).Fraction, 0);
}

/// Records each chunk's grid; the kernel does nothing.
struct GridBackend : Backend {
  std::vector<std::pair<size_t, double>> Grids;
  Status run(const void *, const ChunkRun &C) override {
    Grids.push_back({C.Member, C.GridFraction});
    return Status();
  }
};

/// A "GPU" (a simulated memory presented as a GPU member) and the CPU pool
/// split eight launches of a kernel that reads nothing (the CPU pool takes
/// part once the share model probes it): the GPU's chunks get grids, the
/// CPU's never do.
std::vector<std::pair<size_t, double>> engineGrids(Settings S) {
  const char *Desc = "hetero-kernel 1\n"
                     "split yes\n"
                     "nest 1\n"
                     "loop 0 0 lt (sarg 0 8 1) 1\n";
  KernelDescriptor D;
  std::string Err;
  EXPECT_TRUE(KernelDescriptor::parse(Desc, D, Err)) << Err;
  DataLayer L;
  Pool P(2);
  P[0].Kind = MemberKind::Gpu, P[0].Index = 0, P[0].Device = 0;
  P[0].Node = L.addNode(std::make_unique<SimulatedNodeOps>(0));
  P[0].ResidentThreads = Resident;
  P[1].Kind = MemberKind::CpuPool, P[1].Node = HostNode;
  GridBackend Back;
  auto RunInOrder =
      [](const std::vector<std::pair<int, std::function<bool()>>> &T) {
        std::vector<bool> Ok;
        for (const auto &Task : T)
          Ok.push_back(Task.second());
        return Ok;
      };
  Engine E(S, L, P, Back, RunInOrder);
  KernelTraits K = testKernel(D, 2);
  LaunchRequest R;
  R.Kernel = &K;
  R.Args = {static_cast<uintptr_t>(Iterations)};
  R.Offsets = {0};
  R.TripCount = Iterations;
  for (int I = 0; I < 8; ++I)
    EXPECT_TRUE(E.launch(R));
  return Back.Grids;
}

TEST(TeamsTrial, TheEngineHandsTheGridToTheGpusChunksOnly) {
  Settings S;
  // The made-up kernel takes no time: probe (CPU pool, grids) at once.
  S.ProbeAfterMs = 0;
  auto Grids = engineGrids(S);
  std::vector<double> Gpu;
  for (const auto &[M, F] : Grids)
    if (M == 0)
      Gpu.push_back(F);
    else
      EXPECT_EQ(F, 0);
  ASSERT_EQ(Gpu.size(), 8u);
  EXPECT_EQ(Gpu[2], 0);
  EXPECT_EQ(Gpu[3], 1.0 / 2);
  // The launches take what the clock says, so whether a later candidate
  // runs is the trial's call (a far slower one ends it); each grid the GPU
  // gets is the default or a candidate.
  for (double F : Gpu)
    EXPECT_TRUE(F == 0 || std::find(TeamsTrial::Candidates.begin(),
                                    TeamsTrial::Candidates.end(),
                                    F) != TeamsTrial::Candidates.end())
        << F;
}

TEST(TeamsTrial, FixedSharesAndOmpNumTeamsKeepTheDefaultGrid) {
  for (int Case = 0; Case < 4; ++Case) {
    Settings S;
    S.FixedShares = Case == 0;
    S.UserTeams = Case == 1;
    S.MeasuredTeams = Case != 2;
    if (Case == 3) {
      S.MembersListed = true;
      S.Members = {{"cuda:0", 3}, {"cpu", 1}};
    }
    for (const auto &[M, F] : engineGrids(S))
      EXPECT_EQ(F, 0) << "case " << Case;
  }
}

} // namespace

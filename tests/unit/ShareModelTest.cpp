//===- ShareModelTest.cpp - Shares from measured speed --------------------===//
//
// The phases of ShareModel.h driven by made-up measurements (no clocks):
// probe (the accelerators alone, then the static shares with a sliver for
// the CPU pool: a warm-up launch and a measured one), shares by speed, the
// accelerators alone when the CPU pool takes part, then the faster of the two,
// frozen.
//
//===----------------------------------------------------------------------===//
#include "hetero/ShareModel.h"

#include <gtest/gtest.h>

#include <cstdio>
#include <fstream>
#include <utility>

using namespace hetero;

namespace {

Pool gpuGpuCpu() {
  Pool P(3);
  P[0].Kind = MemberKind::Gpu, P[0].Index = 0;
  P[1].Kind = MemberKind::Gpu, P[1].Index = 1;
  P[2].Kind = MemberKind::CpuPool;
  return P;
}

const std::vector<Share> Static = {{0, 32}, {1, 32}, {2, 1}};

/// Usage where member M ran its share of 6500 iterations at Speed[M]
/// iterations per second.
std::vector<MemberUsage> ran(const std::vector<Share> &S,
                             const std::vector<double> &Speed) {
  double Sum = 0;
  for (const Share &X : S)
    Sum += X.Weight;
  std::vector<MemberUsage> U(Speed.size());
  for (const Share &X : S) {
    U[X.Member].Iterations = uint64_t(6500 * X.Weight / Sum);
    U[X.Member].BusySeconds = U[X.Member].Iterations / Speed[X.Member];
  }
  return U;
}

double fraction(const std::vector<Share> &S, size_t Member) {
  double Sum = 0, Mine = 0;
  for (const Share &X : S) {
    Sum += X.Weight;
    if (X.Member == Member)
      Mine = X.Weight;
  }
  return Mine / Sum;
}

} // namespace

TEST(ShareModel, KeysSeparateProblemSizes) {
  EXPECT_EQ(ShareModel::key("k", 0), "k#0");
  EXPECT_EQ(ShareModel::key("k", 1), "k#1");
  EXPECT_EQ(ShareModel::key("k", 1000), ShareModel::key("k", 1023));
  EXPECT_NE(ShareModel::key("k", 1000), ShareModel::key("k", 3000));
}

TEST(ShareModel, FixedIsStatic) {
  ShareModel M(false);
  std::string Note;
  for (int I = 0; I < 8; ++I) {
    std::vector<Share> S = M.shares("k", gpuGpuCpu(), Static, Note);
    ASSERT_EQ(S.size(), 3u);
    EXPECT_EQ(S[2].Weight, 1);
    EXPECT_EQ(Note.rfind("fixed:", 0), 0u) << Note;
    M.record("k", ran(S, {100, 100, 30}), 1.0);
  }
}

/// The first launch of kernel "k" on P: the accelerators alone, recorded at
/// Speed (per member) and Wall seconds.
void acceleratorsAlone(ShareModel &M, const Pool &P,
                       const std::vector<double> &Speed, double Wall) {
  std::string Note;
  std::vector<Share> S = M.shares("k", P, Static, Note);
  EXPECT_EQ(Note.rfind("probe:", 0), 0u) << Note;
  ASSERT_EQ(S.size(), 2u);
  M.record("k", ran(S, Speed), Wall);
}

/// A launch of kernel "k" on P in its probe, the CPU pool included.
std::vector<Share> probeLaunch(ShareModel &M, const Pool &P) {
  std::string Note;
  std::vector<Share> S = M.shares("k", P, Static, Note);
  EXPECT_EQ(Note.rfind("probe:", 0), 0u) << Note;
  EXPECT_EQ(S.size(), 3u);
  return S;
}

// The transition table has no dead end: every phase is reachable from the
// probe, and every phase can reach settled.
TEST(ShareModel, TheTransitionTableReachesSettledFromEveryPhase) {
  using Ph = ShareModel::Phase;
  auto Reach = [](Ph From, bool Backward) {
    std::vector<bool> Seen(ShareModel::NumPhases, false);
    std::vector<Ph> Work{From};
    Seen[static_cast<int>(From)] = true;
    while (!Work.empty()) {
      Ph P = Work.back();
      Work.pop_back();
      for (int I = 0; I < ShareModel::NumPhases; ++I) {
        Ph Q = static_cast<Ph>(I);
        if (!Seen[I] &&
            (Backward ? ShareModel::mayGo(Q, P) : ShareModel::mayGo(P, Q))) {
          Seen[I] = true;
          Work.push_back(Q);
        }
      }
    }
    return Seen;
  };
  std::vector<bool> FromProbe = Reach(Ph::Probe, false);
  std::vector<bool> ToSettled = Reach(Ph::Settled, true);
  for (int I = 0; I < ShareModel::NumPhases; ++I) {
    const char *Name = ShareModel::phaseName(static_cast<Ph>(I));
    EXPECT_TRUE(FromProbe[I]) << Name << " is not reachable from probe";
    EXPECT_TRUE(ToSettled[I]) << Name << " never reaches settled";
  }
  EXPECT_FALSE(ShareModel::mayGo(Ph::Settled, Ph::Probe));
  EXPECT_FALSE(ShareModel::mayGo(Ph::Probe, Ph::One));
}

// The phases are the model's state, visible as such: a kernel whose CPU
// pool is worth its copies goes probe (the accelerators alone, a warm-up,
// a measured launch), mixed (moved, then timed), accel (moved, then timed),
// then verify; each step one the transition table holds.
TEST(ShareModel, PhasesStepThroughTheTransitionTable) {
  using Ph = ShareModel::Phase;
  ShareModel M(true);
  Pool P = gpuGpuCpu();
  const std::vector<double> Speed = {90, 90, 30};
  std::vector<Ph> Seen{M.phase("k")};
  auto Launch = [&](double Wall, const std::vector<double> &Ran) {
    std::string Note;
    std::vector<Share> S = M.shares("k", P, Static, Note);
    M.record("k", ran(S, Ran), Wall);
    Seen.push_back(M.phase("k"));
  };
  Launch(10, Speed);       // the accelerators alone
  Launch(10, {90, 90, 3}); // the probe's warm-up
  Launch(10, Speed);       // the probe, measured: mixed next
  Launch(7, Speed);        // mixed: the data moves
  Launch(7, Speed);        // mixed, timed: the accelerators next
  Launch(10, Speed);       // accel: the data moves
  Launch(10, Speed);       // accel, timed: mixed won, to be verified
  const std::vector<Ph> Want = {Ph::Probe,      Ph::Probe,      Ph::Probe,
                                Ph::Mixed,      Ph::MixedTimed, Ph::Accel,
                                Ph::AccelTimed, Ph::Verify};
  std::string Got, Expected;
  for (Ph X : Seen)
    Got += std::string(ShareModel::phaseName(X)) + " ";
  for (Ph X : Want)
    Expected += std::string(ShareModel::phaseName(X)) + " ";
  EXPECT_EQ(Got, Expected);
  for (size_t I = 1; I < Seen.size(); ++I)
    EXPECT_TRUE(Seen[I] == Seen[I - 1] ||
                ShareModel::mayGo(Seen[I - 1], Seen[I]))
        << ShareModel::phaseName(Seen[I - 1]) << " -> "
        << ShareModel::phaseName(Seen[I]);
}

// The CPU at a third of a GPU's speed, and cheap to add: mixed wins, with
// shares proportional to speed, frozen from then on.
TEST(ShareModel, UsefulCpuKeepsItsMeasuredShare) {
  ShareModel M(true);
  Pool P = gpuGpuCpu();
  std::vector<double> Speed = {90, 90, 30};
  acceleratorsAlone(M, P, Speed, 10);
  std::string Note;
  std::vector<Share> S;
  for (double Cold : {1.0, 0.0}) {
    S = probeLaunch(M, P);
    // The warm-up launch measures a CPU ten times slower: not used.
    M.record("k", ran(S, {90, 90, Cold > 0 ? 3.0 : 30.0}), 10);
  }
  for (const char *Phase : {"mixed:", "mixed:"}) {
    S = M.shares("k", P, Static, Note);
    EXPECT_EQ(Note.rfind(Phase, 0), 0u) << Note;
    EXPECT_NEAR(fraction(S, 2), 30.0 / 210, 1e-9);
    M.record("k", ran(S, Speed), 7); // timed: 7 s with the CPU
  }
  for (const char *Phase : {"accel:", "accel:"}) {
    S = M.shares("k", P, Static, Note);
    EXPECT_EQ(Note.rfind(Phase, 0), 0u) << Note;
    EXPECT_EQ(S.size(), 2u);
    EXPECT_NEAR(fraction(S, 0), 0.5, 1e-9);
    M.record("k", ran(S, Speed), 8); // timed: 8 s without
  }
  for (int I = 0; I < 5; ++I) {
    S = M.shares("k", P, Static, Note);
    EXPECT_EQ(Note.rfind("settled-mixed[", 0), 0u) << Note;
    EXPECT_NEAR(fraction(S, 2), 30.0 / 210, 1e-9);
    // Later measurements move nothing: the boundaries stay put (the
    // verifying launches took less than the accelerators' 8 s).
    M.record("k", ran(S, {90, 90, 300}), 7);
  }
}

// The probe gives the CPU pool a sliver of its static share: a CPU pool of
// 2% of a GPU's speed on its static 1/65 would keep both GPUs waiting for
// it (N-body); on the sliver it finishes first, and it is left out.
TEST(ShareModel, TheProbeGivesTheCpuPoolASliver) {
  ShareModel M(true);
  Pool P = gpuGpuCpu();
  std::vector<double> Speed = {100, 100, 2};
  acceleratorsAlone(M, P, Speed, 1);
  std::vector<Share> S;
  for (int I = 0; I < 2; ++I) {
    S = probeLaunch(M, P);
    double Cpu = ShareModel::ProbeSliver;
    EXPECT_NEAR(fraction(S, 2), Cpu / (64 + Cpu), 1e-12);
    // Its part takes less than the GPUs' part.
    EXPECT_LT(fraction(S, 2) / Speed[2], fraction(S, 0) / Speed[0]);
    M.record("k", ran(S, Speed), 1);
  }
  std::string Note;
  S = M.shares("k", P, Static, Note);
  EXPECT_EQ(Note.rfind("settled-accel[cpu-gain=", 0), 0u) << Note;
  EXPECT_EQ(S.size(), 2u);
}

// A kernel is tried with the CPU pool only once it has run ProbeAfter on
// the accelerators alone: a light kernel of a short run never pays for the
// trial. The launches until then are the accelerators' alone, and nothing
// they measure becomes a share.
TEST(ShareModel, TheCpuIsTriedAfterTheAcceleratorsRanProbeAfter) {
  ShareModel M(true, /*ProbeAfter=*/0.05);
  Pool P = gpuGpuCpu();
  std::string Note;
  for (int I = 0; I < 9; ++I) { // 9 launches of 6 ms: 54 ms
    std::vector<Share> S = M.shares("k", P, Static, Note);
    EXPECT_EQ(Note.rfind("accelerators-until-probe:", 0), 0u) << Note;
    EXPECT_FALSE(M.trying("k"));
    ASSERT_EQ(S.size(), 2u);
    M.record("k", ran(S, {90, 90, 30}), 0.006);
  }
  // The ninth passed 50 ms: the static shares, the CPU pool included.
  std::vector<Share> S = M.shares("k", P, Static, Note);
  EXPECT_EQ(Note.rfind("probe:", 0), 0u) << Note;
  EXPECT_EQ(S.size(), 3u);
  EXPECT_TRUE(M.trying("k")); // HETERO_STATS' trial_launches
  // Members of one kind alone have nothing to wait for.
  Pool Gpus(2);
  Gpus[0].Kind = Gpus[1].Kind = MemberKind::Gpu;
  Gpus[1].Index = 1;
  const std::vector<Share> Two = {{0, 32}, {1, 32}};
  S = M.shares("g", Gpus, Two, Note);
  EXPECT_EQ(Note.rfind("probe:", 0), 0u) << Note;
  EXPECT_EQ(S.size(), 2u);
}

// Until ProbeAfter a kernel's launches on the accelerators need no timing
// past the first ProbeTimed (they may run ahead: a short run of short
// kernels spent its pool's whole loss against the GPUs alone waiting for
// them); each counts as the last timed one, and the launch that reaches
// ProbeAfter and the probe's launches are timed. A follower's launches need
// none either, nor a launch with one member to give it to.
TEST(ShareModel, LaunchesBeforeTheProbeNeedNoTiming) {
  ShareModel M(true, /*ProbeAfter=*/0.05);
  Pool P = gpuGpuCpu();
  std::string Note;
  std::vector<bool> Untimed;
  for (int I = 0; I < 12; ++I) { // 6 ms each: the probe after 50 ms
    std::vector<Share> S = M.shares("k", P, Static, Note);
    if (M.untimed("k")) {
      EXPECT_EQ(Note.rfind("accelerators-until-probe:", 0), 0u) << Note;
      M.recordUntimed("k");
    } else {
      M.record("k", ran(S, {90, 90, 30}), 0.006);
    }
    Untimed.push_back(M.untimed("k"));
  }
  // Timed: launches 1-3, then from the eighth on (its 42 + 2 x 6 ms reach
  // 50: the launch that passes ProbeAfter, then the probe's).
  std::vector<bool> Expected = {false, false, true,  true,  true,  true,
                                false, false, false, false, false, false};
  EXPECT_EQ(Untimed, Expected);
  // A kernel the policy offered one member is the model's to time never.
  std::vector<Share> One = {{0, 32}};
  M.shares("alone", P, One, Note);
  EXPECT_TRUE(M.untimed("alone"));
  // A follower of a heavier kernel of its size, once weighed.
  ShareModel F(true, /*ProbeAfter=*/10);
  for (int I = 0; I < 6; ++I) {
    std::vector<Share> H = F.shares("heavy", P, Static, Note, 6500);
    F.record("heavy", ran(H, {90, 90, 30}), 0.009);
    std::vector<Share> L = F.shares("light", P, Static, Note, 6500);
    if (F.untimed("light"))
      F.recordUntimed("light");
    else
      F.record("light", ran(L, {90, 90, 30}), 0.001);
  }
  EXPECT_EQ(Note.rfind("follow[heavy]:", 0), 0u) << Note;
  EXPECT_TRUE(F.untimed("light"));
}

// Mixed won its timed launch, but once the other kernels settled, its
// launches cost more than the accelerators' (a neighbour on the GPUs alone
// makes the CPU's part move every launch): it settles there for good.
TEST(ShareModel, MixedThatTurnsOutSlowerGoesToTheAccelerators) {
  ShareModel M(true);
  Pool P = gpuGpuCpu();
  std::vector<double> Speed = {90, 90, 30};
  std::string Note;
  // probe x3, mixed (moves), mixed (7 s), accel (moves), accel (8 s)
  double Walls[] = {9, 9, 9, 9, 7, 9, 8};
  for (double W : Walls)
    M.record("k", ran(M.shares("k", P, Static, Note), Speed), W);
  std::vector<Share> S = M.shares("k", P, Static, Note);
  EXPECT_EQ(Note.rfind("settled-mixed[", 0), 0u) << Note;
  M.record("k", ran(S, Speed), 20); // moves the data back: not judged
  S = M.shares("k", P, Static, Note);
  EXPECT_EQ(S.size(), 3u);
  M.record("k", ran(S, Speed), 12); // slower than the accelerators' 8 s
  S = M.shares("k", P, Static, Note);
  EXPECT_EQ(Note.rfind("settled-accel[verified: mixed=12000.000ms", 0), 0u)
      << Note;
  EXPECT_EQ(S.size(), 2u);
}

// The CPU is fast enough to try, but its chunk costs more (halo copies,
// waiting) than it brings: the timed launches say so.
TEST(ShareModel, CostlyCpuIsLeftOut) {
  ShareModel M(true);
  Pool P = gpuGpuCpu();
  std::vector<double> Speed = {90, 90, 30};
  std::string Note;
  double Walls[] = {9, 9, 9, 9, 5, 5, 4};
  for (double W : Walls) {
    std::vector<Share> S = M.shares("k", P, Static, Note);
    M.record("k", ran(S, Speed), W);
  }
  std::vector<Share> S = M.shares("k", P, Static, Note);
  EXPECT_EQ(Note.rfind("settled-accel[", 0), 0u) << Note;
  ASSERT_EQ(S.size(), 2u);
  EXPECT_EQ(S[0].Member, 0u);
  EXPECT_EQ(S[1].Member, 1u);
}

// A CPU pool worth less than MinGain of the pool is left out after the
// probe, without timing it.
TEST(ShareModel, SlowCpuIsLeftOutAfterTheProbe) {
  ShareModel M(true);
  Pool P = gpuGpuCpu();
  std::string Note;
  std::vector<Share> S;
  for (int I = 0; I < 3; ++I) {
    S = M.shares("k", P, Static, Note);
    M.record("k", ran(S, {900, 900, 30}), 1);
  }
  S = M.shares("k", P, Static, Note);
  EXPECT_EQ(Note.rfind("settled-accel[cpu-gain=1.64%]", 0), 0u) << Note;
  ASSERT_EQ(S.size(), 2u);
  EXPECT_NEAR(fraction(S, 0), 0.5, 1e-9);
}

// Only accelerators: no accelerators-alone phase to try. Members of one
// kind count as equal, whatever their chunks measured (noise, data
// placement); members of different kinds by their speeds.
TEST(ShareModel, AcceleratorsOnlySettleAfterMixed) {
  ShareModel M(true);
  Pool P = gpuGpuCpu();
  P[1].Kind = MemberKind::Simulated;
  std::vector<Share> Accels = {{0, 32}, {1, 32}};
  std::string Note;
  for (int I = 0; I < 4; ++I) {
    std::vector<Share> S = M.shares("k", P, Accels, Note);
    M.record("k", ran(S, {100, 50, 1}), 1);
  }
  std::vector<Share> S = M.shares("k", P, Accels, Note);
  EXPECT_EQ(Note.rfind("settled:", 0), 0u) << Note;
  EXPECT_NEAR(fraction(S, 0), 2.0 / 3, 1e-9);
  ShareModel Same(true);
  std::vector<Share> Gpus = {{0, 32}, {1, 32}};
  for (int I = 0; I < 4; ++I) {
    S = Same.shares("k", gpuGpuCpu(), Gpus, Note);
    EXPECT_NEAR(fraction(S, 0), 0.5, 1e-9) << Note;
    Same.record("k", ran(S, {100, 50, 1}), 1);
  }
}

// A member that got no iterations has no speed: the static shares stay, and
// a change in who may take chunks starts the kernel over.
TEST(ShareModel, UnknownSpeedsAndNewMembersStartOver) {
  ShareModel M(true);
  Pool P = gpuGpuCpu();
  std::string Note;
  std::vector<Share> S;
  for (int I = 0; I < 2; ++I) { // the accelerators alone, then warm-up
    S = M.shares("k", P, Static, Note);
    M.record("k", ran(S, {100, 100, 30}), 1);
  }
  S = M.shares("k", P, Static, Note);
  std::vector<MemberUsage> U = ran(S, {100, 100, 30});
  U[2] = MemberUsage(); // the CPU had no room
  M.record("k", U, 1);
  S = M.shares("k", P, Static, Note);
  EXPECT_EQ(Note.rfind("mixed:", 0), 0u) << Note;
  EXPECT_EQ(S[2].Weight, 1); // static
  std::vector<Share> WithoutGpu1 = {{0, 32}, {2, 1}};
  S = M.shares("k", P, WithoutGpu1, Note);
  EXPECT_EQ(Note.rfind("probe:", 0), 0u) << Note;
}

// Equal GPUs measured a little apart keep the static shares: moving a
// boundary for noise would cost copies every time it moved.
TEST(ShareModel, NoiseKeepsTheStaticShares) {
  ShareModel M(true);
  Pool P = gpuGpuCpu();
  std::vector<Share> Gpus = {{0, 32}, {1, 32}};
  std::string Note;
  for (int I = 0; I < 4; ++I) {
    std::vector<Share> S = M.shares("k", P, Gpus, Note);
    EXPECT_EQ(S[0].Weight, 32) << Note;
    EXPECT_EQ(S[1].Weight, 32) << Note;
    M.record("k", ran(S, {100, 93}), 1);
  }
}

// Settled shares outlive the run; a file with junk in it is read around.
TEST(ShareModel, SettledSharesPersist) {
  std::string Path = ::testing::TempDir() + "hetero-shares-test/s.txt";
  std::remove(Path.c_str());
  Pool P = gpuGpuCpu();
  {
    ShareModel M(true);
    std::string Note;
    for (int I = 0; I < 3; ++I) { // settles on the GPUs
      std::vector<Share> S = M.shares("k#3", P, Static, Note);
      M.record("k#3", ran(S, {900, 900, 30}), 1);
    }
    ASSERT_TRUE(M.save(Path, P));
  }
  {
    std::ofstream Junk(Path, std::ios::app);
    Junk << "cuda:0,cuda:1,cpu\tj#1\tcuda:0\tcuda:9=1\tsettled\n"
         << "cuda:0,cuda:1,cpu\tj#2\tcuda:0\tcuda:0=nan\tsettled\n"
         << "garbage\n\t\t\t\t\n";
  }
  ShareModel M(true);
  M.load(Path, P);
  std::string Note;
  std::vector<Share> S = M.shares("k#3", P, Static, Note);
  EXPECT_EQ(Note.rfind("persisted-settled-accel[", 0), 0u) << Note;
  ASSERT_EQ(S.size(), 2u);
  EXPECT_NEAR(fraction(S, 1), 0.5, 1e-9);
  // Another pool, or other candidates, start over.
  Pool Other = P;
  Other.pop_back();
  ShareModel O(true);
  O.load(Path, Other);
  O.shares("k#3", Other, {{0, 32}, {1, 32}}, Note);
  EXPECT_EQ(Note.rfind("probe:", 0), 0u) << Note;
  M.shares("k#3", P, {{0, 32}, {2, 1}}, Note);
  EXPECT_EQ(Note.rfind("probe:", 0), 0u) << Note;
  // Other candidates of the same kernel settle and are kept on their own.
  {
    ShareModel Gpus(true);
    std::vector<Share> Two = {{0, 32}, {1, 32}};
    for (int I = 0; I < 4; ++I) {
      std::vector<Share> S2 = Gpus.shares("k#3", P, Two, Note);
      Gpus.record("k#3", ran(S2, {100, 100, 1}), 1);
    }
    ASSERT_TRUE(Gpus.save(Path, P));
    ShareModel Both(true);
    Both.load(Path, P);
    Both.shares("k#3", P, Two, Note);
    EXPECT_EQ(Note.rfind("persisted-settled:", 0), 0u) << Note;
    Both.shares("k#3", P, Static, Note);
    EXPECT_EQ(Note.rfind("persisted-settled-accel[", 0), 0u) << Note;
  }
  // Junk lines were skipped, the good one kept on saving again.
  ShareModel Again(true);
  Again.load(Path, P);
  Again.shares("j#1", P, Static, Note);
  EXPECT_EQ(Note.rfind("probe:", 0), 0u) << Note;
}

// A cheap kernel of the same problem size (a copy after a stencil) follows
// the heavy one's shares at every launch from its second on, and settles
// with them: each member's rows stay where it wrote them.
TEST(ShareModel, LightKernelFollowsTheHeavyOne) {
  ShareModel M(true);
  Pool P = gpuGpuCpu();
  std::vector<double> Speed = {90, 90, 30};
  std::string Note;
  auto Round = [&](double HeavyWall, double LightWall) {
    std::vector<Share> H = M.shares("heavy", P, Static, Note, 6500);
    M.record("heavy", ran(H, Speed), HeavyWall);
    std::vector<Share> L = M.shares("light", P, Static, Note, 6500);
    EXPECT_EQ(L.size(), H.size()) << Note;
    if (L.size() == H.size())
      for (size_t I = 0; I < L.size(); ++I) {
        EXPECT_EQ(L[I].Member, H[I].Member);
        EXPECT_NEAR(fraction(L, L[I].Member), fraction(H, H[I].Member), 1e-12);
      }
    M.record("light", ran(L, Speed), LightWall);
  };
  // The first launches of both: the accelerators alone, measured apart.
  std::vector<Share> H = M.shares("heavy", P, Static, Note, 6500);
  EXPECT_EQ(H.size(), 2u);
  M.record("heavy", ran(H, Speed), 9);
  std::vector<Share> L = M.shares("light", P, Static, Note, 6500);
  EXPECT_EQ(Note.rfind("probe:", 0), 0u) << Note;
  M.record("light", ran(L, Speed), 1);
  // Heavy: probe x2, mixed (moves), mixed (7 s), accel (moves), accel (8 s).
  for (double W : {9.0, 9.0, 9.0, 7.0, 9.0, 8.0})
    Round(W, 1);
  EXPECT_EQ(Note.rfind("follow[heavy]:", 0), 0u) << Note;
  // Settled on mixed (then verified): the light kernel settles with it.
  for (int I = 0; I < 4; ++I)
    Round(7, 1);
  M.shares("light", P, Static, Note, 6500);
  EXPECT_EQ(Note.rfind("settled-follow[heavy]:", 0), 0u) << Note;
  EXPECT_NEAR(fraction(M.shares("light", P, Static, Note, 6500), 2), 30.0 / 210,
              1e-9);
}

// A kernel launched twice (an initialisation) never gets past its probe: a
// light kernel of the same size that follows it leaves it once it has not
// launched for FollowPatience of the follower's launches, and measures its
// own shares (BabelStream's kernels followed init_arrays' probe shares, the
// CPU pool on 3% of every launch).
TEST(ShareModel, FollowerLeavesALeaderThatStoppedLaunching) {
  ShareModel M(true);
  Pool P = gpuGpuCpu();
  std::vector<double> Speed = {90, 90, 30};
  std::string Note;
  for (int I = 0; I < 2; ++I) {
    std::vector<Share> H = M.shares("init", P, Static, Note, 6500);
    M.record("init", ran(H, Speed), 9);
  }
  // Its first launch is its own (its wall time is not known yet), the next
  // FollowPatience follow, then it measures its own for good.
  std::vector<bool> Followed, Expected(12, false);
  for (int I = 1; I <= ShareModel::FollowPatience; ++I)
    Expected[I] = true;
  for (int I = 0; I < 12; ++I) {
    std::vector<Share> L = M.shares("copy", P, Static, Note, 6500);
    Followed.push_back(Note.rfind("follow[init]:", 0) == 0);
    M.record("copy", ran(L, Speed), 1);
  }
  EXPECT_EQ(Followed, Expected);
  EXPECT_EQ(Note.find("follow"), std::string::npos) << Note;
}

// Kernels of another problem size, or about as heavy, decide on their own.
TEST(ShareModel, OnlyAMuchHeavierKernelOfTheSameSizeLeads) {
  ShareModel M(true);
  Pool P = gpuGpuCpu();
  std::vector<double> Speed = {90, 90, 30};
  std::string Note;
  for (int I = 0; I < 4; ++I) {
    M.record("a", ran(M.shares("a", P, Static, Note, 6500), Speed), 9);
    M.record("b", ran(M.shares("b", P, Static, Note, 6500), Speed), 6);
    EXPECT_EQ(Note.find("follow"), std::string::npos) << Note;
    M.record("c", ran(M.shares("c", P, Static, Note, 6501), Speed), 1);
    EXPECT_EQ(Note.find("follow"), std::string::npos) << Note;
  }
}

// The probe saw the CPU pool at a third of its speed (a sliver of the
// iterations: thread start-up, first touches); its mixed share measures it
// faster, so the shares are measured again before the accelerators are
// timed alone.
TEST(ShareModel, MixedSharesAreMeasuredAgain) {
  ShareModel M(true);
  Pool P = gpuGpuCpu();
  std::string Note;
  std::vector<Share> S;
  // probe x3 (the CPU at 10 on its sliver)
  for (int I = 0; I < 3; ++I) {
    S = M.shares("k", P, Static, Note);
    M.record("k", ran(S, {90, 90, 10}), 9);
  }
  S = M.shares("k", P, Static, Note);
  EXPECT_EQ(Note.rfind("mixed:", 0), 0u) << Note;
  EXPECT_NEAR(fraction(S, 2), 10.0 / 190, 1e-9);
  M.record("k", ran(S, {90, 90, 30}), 9); // moves
  S = M.shares("k", P, Static, Note);
  M.record("k", ran(S, {90, 90, 30}), 8); // timed: the CPU runs at 30
  S = M.shares("k", P, Static, Note);
  EXPECT_EQ(Note.rfind("mixed:", 0), 0u) << Note;
  EXPECT_NEAR(fraction(S, 2), 30.0 / 210, 1e-9);
  M.record("k", ran(S, {90, 90, 30}), 9); // moves
  S = M.shares("k", P, Static, Note);
  M.record("k", ran(S, {90, 90, 30}), 7); // timed, close to its own: done
  S = M.shares("k", P, Static, Note);
  EXPECT_EQ(Note.rfind("accel:", 0), 0u) << Note;
}

// Mixed saves 1 s a launch but moving the data to its boundaries took 193 s:
// seven launches do not repay that, so the kernel settles on the
// accelerators. The file keeps the mixed shares with their gain and cost: a
// later run takes them only when the run they came from was long enough.
TEST(ShareModel, MixedMustRepayItsMove) {
  std::string Path = ::testing::TempDir() + "hetero-shares-test/move.txt";
  std::remove(Path.c_str());
  Pool P = gpuGpuCpu();
  std::vector<double> Speed = {90, 90, 30};
  std::string Note;
  {
    ShareModel M(true);
    // probe x3, mixed (moves: 200 s), mixed (7 s), accel (moves), accel (8 s)
    for (double W : {9.0, 9.0, 9.0, 200.0, 7.0, 9.0, 8.0})
      M.record("k", ran(M.shares("k", P, Static, Note), Speed), W);
    std::vector<Share> S = M.shares("k", P, Static, Note);
    EXPECT_EQ(Note.rfind("settled-accel[accel=8000.000ms,mixed=7000.000ms,"
                         "move=193000.000ms]",
                         0),
              0u)
        << Note;
    EXPECT_EQ(S.size(), 2u);
    ASSERT_TRUE(M.save(Path, P));
  }
  {
    ShareModel M(true);
    M.load(Path, P);
    std::vector<Share> S = M.shares("k", P, Static, Note);
    EXPECT_EQ(Note.rfind("persisted-settled-accel[", 0), 0u) << Note;
    EXPECT_EQ(S.size(), 2u);
  }
  // The same line from a run of 1000 launches: mixed repays its move.
  std::string Line;
  {
    std::ifstream In(Path);
    std::getline(In, Line);
  }
  size_t At = Line.find("launches=7 ");
  ASSERT_NE(At, std::string::npos) << Line;
  Line.replace(At, 11, "launches=1000 ");
  {
    std::ofstream Out(Path, std::ios::trunc);
    Out << Line << "\n";
  }
  ShareModel M(true);
  M.load(Path, P);
  std::vector<Share> S = M.shares("k", P, Static, Note);
  EXPECT_EQ(Note.rfind("persisted-settled-mixed[repays its move in 1000", 0),
            0u)
      << Note;
  EXPECT_EQ(S.size(), 3u);
  EXPECT_NEAR(fraction(S, 2), 30.0 / 210, 1e-9);
}

// Mixed that saves less than MinGain of the accelerators' launch is noise:
// 8.6 s against 9 s settles on the accelerators even with nothing to move;
// 8.4 s against 9 s is mixed.
TEST(ShareModel, MixedMustWinByMoreThanNoise) {
  Pool P = gpuGpuCpu();
  std::vector<double> Speed = {90, 90, 30};
  for (double MixedWall : {8.6, 8.4}) {
    ShareModel M(true);
    std::string Note;
    // probe x3, mixed (moves, as fast as timed), mixed (timed), accel x2
    for (double W : {9.0, 9.0, 9.0, MixedWall, MixedWall, 9.0, 9.0})
      M.record("k", ran(M.shares("k", P, Static, Note), Speed), W);
    M.shares("k", P, Static, Note);
    const char *Want = MixedWall > 8.5 ? "settled-accel[" : "settled-mixed[";
    EXPECT_EQ(Note.rfind(Want, 0), 0u) << Note;
  }
}

// A persisted follower follows what its leader settles on in this run (the
// leader's persisted line may choose otherwise now), and keeps its own
// settled shares if it is launched before the leader.
TEST(ShareModel, PersistedFollowerFollowsTheLeadersChoice) {
  std::string Path = ::testing::TempDir() + "hetero-shares-test/follow.txt";
  std::remove(Path.c_str());
  Pool P = gpuGpuCpu();
  {
    std::ofstream Out(Path, std::ios::trunc);
    Out << "cuda:0,cuda:1,cpu\theavy\tcuda:0,cuda:1,cpu\tcuda:0=1,cuda:1=1\t"
           "settled-accel[x]\tlaunches=1000 gain=1 move=10 "
           "mixed=cuda:0=3,cuda:1=3,cpu=1\n"
        << "cuda:0,cuda:1,cpu\tlight\tcuda:0,cuda:1,cpu\tcuda:0=1,cuda:1=1\t"
           "settled-follow[heavy]\tleader=heavy\n"
        // The leader named only in the text for people: settled alone.
        << "cuda:0,cuda:1,cpu\tother\tcuda:0,cuda:1,cpu\tcuda:0=1,cuda:1=1\t"
           "settled-follow[heavy]\n";
  }
  ShareModel M(true);
  M.load(Path, P);
  std::string Note;
  std::vector<Share> S = M.shares("light", P, Static, Note, 6500);
  EXPECT_EQ(Note.rfind("follow[heavy]:", 0), 0u) << Note;
  EXPECT_EQ(S.size(), 2u);
  S = M.shares("heavy", P, Static, Note, 6500);
  EXPECT_EQ(Note.rfind("persisted-settled-mixed[", 0), 0u) << Note;
  EXPECT_NEAR(fraction(S, 2), 1.0 / 7, 1e-9);
  S = M.shares("light", P, Static, Note, 6500);
  EXPECT_EQ(Note.rfind("settled-follow[heavy]:", 0), 0u) << Note;
  EXPECT_NEAR(fraction(S, 2), 1.0 / 7, 1e-9);
  S = M.shares("other", P, Static, Note, 6500);
  EXPECT_EQ(Note.rfind("persisted-settled-follow[heavy]:", 0), 0u) << Note;
  EXPECT_EQ(S.size(), 2u);
}

// What a later run acts on is written as fields, not text: a follower's
// leader and the accelerators' time that mixed shares were chosen against
// go back and forth; a malformed or unknown field drops its line.
TEST(ShareModel, PersistedFieldsRoundTrip) {
  Pool P = gpuGpuCpu();
  ShareModel::PersistedFields F;
  F.AccelWall = 0.0125;
  F.Leader = "heavy#16";
  F.Mixed = {{0, 3}, {1, 3}, {2, 1}};
  F.Launches = 70;
  F.Gain = 0.001;
  F.MoveCost = 0.02;
  std::string Text = ShareModel::writeFields(P, F);
  EXPECT_EQ(Text, "accel=0.0125 leader=heavy#16 launches=70 gain=0.001 "
                  "move=0.02 mixed=cuda:0=3,cuda:1=3,cpu=1");
  ShareModel::PersistedFields G;
  ASSERT_TRUE(ShareModel::readFields(Text, P, G));
  EXPECT_EQ(G.AccelWall, F.AccelWall);
  EXPECT_EQ(G.Leader, F.Leader);
  EXPECT_EQ(G.Launches, F.Launches);
  EXPECT_EQ(G.Gain, F.Gain);
  EXPECT_EQ(G.MoveCost, F.MoveCost);
  ASSERT_EQ(G.Mixed.size(), 3u);
  EXPECT_EQ(G.Mixed[2].Member, 2u);
  for (const char *Bad : {"accel=x", "accel=", "colour=blue", "gain=1",
                          "leader=", "launches=1 gain=1 move=1 mixed=cuda:7=1",
                          "accel=-1", "word", "gain=1 gain=1 move=1 launches=1",
                          "launches=-2 gain=1 move=1 mixed=cuda:0=1"}) {
    ShareModel::PersistedFields H;
    EXPECT_FALSE(ShareModel::readFields(Bad, P, H)) << Bad;
  }
}

// Refined mixed shares move little; the move that counts is the first, from
// the accelerators' layout (what a later run pays at its first launch).
TEST(ShareModel, TheCostliestMoveCounts) {
  ShareModel M(true);
  Pool P = gpuGpuCpu();
  std::string Note;
  // probe x3 (CPU at 10), mixed move (200 s), timed (8 s, CPU at 30: shares
  // refined), move (9 s), timed (7 s), accel move, accel timed (8 s)
  std::vector<std::pair<double, double>> Launches = {
      {9, 10}, {9, 10}, {9, 10}, {200, 30}, {8, 30},
      {9, 30}, {7, 30}, {9, 30}, {8, 30}};
  for (auto [Wall, Cpu] : Launches)
    M.record("k", ran(M.shares("k", P, Static, Note), {90, 90, Cpu}), Wall);
  M.shares("k", P, Static, Note);
  EXPECT_EQ(Note.rfind("settled-accel[accel=8000.000ms,mixed=7000.000ms,"
                       "move=193000.000ms]",
                       0),
            0u)
      << Note;
}

// A run that ends while mixed shares are still to be verified keeps them:
// they are frozen all the same.
TEST(ShareModel, UnverifiedMixedSharesPersist) {
  std::string Path = ::testing::TempDir() + "hetero-shares-test/verify.txt";
  std::remove(Path.c_str());
  Pool P = gpuGpuCpu();
  std::string Note;
  {
    ShareModel M(true);
    // probe x3, mixed (moves), mixed (7 s), accel (moves), accel (8 s)
    for (double W : {9.0, 9.0, 9.0, 9.0, 7.0, 9.0, 8.0})
      M.record("k", ran(M.shares("k", P, Static, Note), {90, 90, 30}), W);
    ASSERT_TRUE(M.save(Path, P));
  }
  ShareModel M(true);
  M.load(Path, P);
  std::vector<Share> S = M.shares("k", P, Static, Note);
  EXPECT_EQ(Note.rfind("persisted-settled-mixed[", 0), 0u) << Note;
  EXPECT_EQ(S.size(), 3u);
  // Persisted mixed shares are timed again (the first launch moves the
  // data): slower than that run's accelerators-only launch (8 s), the
  // kernel settles on the accelerators, and that is what is kept.
  M.record("k", ran(S, {90, 90, 30}), 9);
  M.record("k", ran(M.shares("k", P, Static, Note), {90, 90, 30}), 8.5);
  S = M.shares("k", P, Static, Note);
  EXPECT_EQ(Note.rfind("settled-accel[verified:", 0), 0u) << Note;
  EXPECT_EQ(S.size(), 2u);
  ASSERT_TRUE(M.save(Path, P));
  ShareModel Later(true);
  Later.load(Path, P);
  Later.shares("k", P, Static, Note);
  EXPECT_EQ(Note.rfind("persisted-settled-accel[verified:", 0), 0u) << Note;
}

namespace {

/// Drives a heavy kernel and a light one of the same size over two GPUs,
/// launch by launch, with the walls each takes spread over both and on one
/// alone; busy times are microseconds (at Speed): launches of overheads.
struct TwoKernels {
  ShareModel M{true};
  Pool P = gpuGpuCpu();
  std::vector<Share> Gpus = {{0, 32}, {1, 32}};
  double HeavySpread, LightSpread, HeavyOne, LightOne;
  std::vector<double> Speed;
  std::string HeavyNote, LightNote;
  std::vector<Share> Heavy, Light;

  TwoKernels(double HeavySpread, double LightSpread, double HeavyOne,
             double LightOne, std::vector<double> Speed = {1e6, 1e6, 1})
      : HeavySpread(HeavySpread), LightSpread(LightSpread), HeavyOne(HeavyOne),
        LightOne(LightOne), Speed(std::move(Speed)) {}

  /// One launch of each; the heavy one's copies between members are
  /// OneMoved bytes on one GPU, SpreadMoved spread; each spread launch
  /// holds Gather bytes off its first GPU.
  void round(uint64_t OneMoved = 0, uint64_t SpreadMoved = 0,
             uint64_t Gather = 0) {
    Heavy = M.shares("heavy", P, Gpus, HeavyNote, 6500);
    M.noteGather("heavy", Heavy.size() == 1 ? 0 : Gather);
    M.record("heavy", ran(Heavy, Speed),
             Heavy.size() == 1 ? HeavyOne : HeavySpread);
    M.noteMoved("heavy", Heavy.size() == 1 ? OneMoved : SpreadMoved);
    Light = M.shares("light", P, Gpus, LightNote, 6500);
    M.noteGather("light", Light.size() == 1 ? 0 : Gather);
    M.record("light", ran(Light, Speed),
             Light.size() == 1 ? LightOne : LightSpread);
  }

  /// After Rounds rounds, whether the heavy kernel's note starts with Prefix.
  ::testing::AssertionResult heavySettles(const std::string &Prefix,
                                          int Rounds = 8) {
    for (int I = 0; I < Rounds; ++I)
      round();
    if (HeavyNote.rfind(Prefix, 0) == 0)
      return ::testing::AssertionSuccess();
    return ::testing::AssertionFailure() << HeavyNote;
  }
};

} // namespace

// CG on a million rows over two H200s: its SpMV and the dot and axpy that
// follow it take microseconds, spread or not; on one GPU the cycle of them
// is faster, and all of them settle there.
TEST(ShareModel, LaunchesOfOverheadsSettleOnOneAcceleratorWhenItIsFaster) {
  TwoKernels K(1.0, 0.4, 0.8, 0.2);
  EXPECT_TRUE(K.heavySettles(
      "settled-one[one=1000.000ms,spread=1400.000ms]:cuda:0=100.0%"));
  ASSERT_EQ(K.Heavy.size(), 1u);
  EXPECT_EQ(K.Heavy[0].Member, 0u);
  EXPECT_EQ(K.LightNote.rfind("settled-follow[heavy]:cuda:0=100.0%", 0), 0u)
      << K.LightNote;
  ASSERT_EQ(K.Light.size(), 1u);
}

// CloverLeaf's halo kernels over four H100s: on one GPU their cycle timed
// faster, but it gathered what the spread layout keeps apart (whole arrays
// onto one GPU, which the next kernels spread again), so every step moved
// gigabytes. A cycle that copies more between members than the spread one
// keeps the spread shares, whatever one timed cycle said.
TEST(ShareModel, OneAcceleratorThatGathersTheSpreadDataLoses) {
  TwoKernels K(1.0, 0.4, 0.8, 0.2);
  for (int I = 0; I < 8; ++I)
    K.round(/*OneMoved=*/64 << 20, /*SpreadMoved=*/1 << 20);
  EXPECT_EQ(K.HeavyNote.rfind("settled[one=1000.000ms,spread=1400.000ms,"
                              "moved=67108864/1048576B][one-gathers]:",
                              0),
            0u)
      << K.HeavyNote;
  EXPECT_EQ(K.Heavy.size(), 2u);
  // Cycles that move about as much either way: one GPU wins.
  TwoKernels Same(1.0, 0.4, 0.8, 0.2);
  for (int I = 0; I < 8; ++I)
    Same.round(1 << 20, 900 << 10);
  EXPECT_EQ(Same.HeavyNote.rfind("settled-one[", 0), 0u) << Same.HeavyNote;
}

// The trial gathers its kernels' data on one GPU and spreads it back: 2 x
// 2 x 10 GB at ShareModel::GatherRate is 0.8 s, which waits until the
// launches so far took 0.8 s / ExploreBudget (about 19 rounds of 1.4 s),
// spread meanwhile; then the trial runs as it would have.
TEST(ShareModel, AOneAcceleratorTrialWaitsUntilItFitsTheBudget) {
  TwoKernels K(1.0, 0.4, 0.8, 0.2);
  const uint64_t Gather = 10'000'000'000;
  for (int I = 0; I < 12; ++I)
    K.round(0, 0, Gather);
  EXPECT_NE(K.HeavyNote.find("[one-later]:cuda:0=50.0%,cuda:1=50.0%"),
            std::string::npos)
      << K.HeavyNote;
  EXPECT_EQ(K.Heavy.size(), 2u);
  for (int I = 0; I < 16; ++I)
    K.round(0, 0, Gather);
  EXPECT_EQ(K.HeavyNote.rfind("settled-one[one=1000.000ms,spread=1400.000ms]:"
                              "cuda:0=100.0%",
                              0),
            0u)
      << K.HeavyNote;
  // Small gathers fit at once, as before.
  TwoKernels Small(1.0, 0.4, 0.8, 0.2);
  for (int I = 0; I < 8; ++I)
    Small.round(0, 0, 1 << 20);
  EXPECT_EQ(Small.HeavyNote.rfind("settled-one[", 0), 0u) << Small.HeavyNote;
}

// TeaLeaf over two H200s: a verdict put its halo kernel, cg_calc_ur and
// cg_calc_p on one GPU, beside a cg_calc_w left spread; each launch on the
// one GPU gathered again what cg_calc_w spread (1.2 TB in a run). Launches
// of a verdict's kernels that keep copying between members undo it.
TEST(ShareModel, AOneVerdictThatFlipsTheLayoutIsUndone) {
  TwoKernels K(1.0, 0.4, 0.8, 0.2);
  ASSERT_TRUE(K.heavySettles("settled-one["));
  for (int I = 0; I < 10; ++I)
    K.round(/*OneMoved=*/64 << 20);
  EXPECT_EQ(
      K.HeavyNote.rfind("settled[one-flips]:cuda:0=50.0%,cuda:1=50.0%", 0), 0u)
      << K.HeavyNote;
  EXPECT_EQ(K.Heavy.size(), 2u);
  EXPECT_EQ(K.Light.size(), 2u) << K.LightNote;
  // One launch that moves the data there, then none: it stays.
  TwoKernels Quiet(1.0, 0.4, 0.8, 0.2);
  ASSERT_TRUE(Quiet.heavySettles("settled-one["));
  Quiet.round(64 << 20);
  for (int I = 0; I < 20; ++I)
    Quiet.round();
  EXPECT_EQ(Quiet.HeavyNote.rfind("settled-one[", 0), 0u) << Quiet.HeavyNote;
}

// The first trial decides for every kernel over those GPUs: a kernel of
// overheads of another size that settles later goes where it went, or
// stays spread, without a trial of its own that would leave it alone on
// one GPU amid spread kernels (or spread amid kernels on one).
TEST(ShareModel, LaterKernelsFollowTheFirstTrialsVerdict) {
  for (bool OneWins : {true, false}) {
    TwoKernels K(1.0, 0.4, OneWins ? 0.8 : 1.2, 0.2);
    for (int I = 0; I < 8; ++I)
      K.round();
    ASSERT_EQ(K.Heavy.size(), OneWins ? 1u : 2u) << K.HeavyNote;
    std::string LateNote;
    std::vector<Share> Late;
    for (int I = 0; I < 8; ++I) {
      K.round();
      Late = K.M.shares("late", K.P, K.Gpus, LateNote, 100);
      K.M.record("late", ran(Late, K.Speed), Late.size() == 1 ? 0.1 : 0.05);
    }
    if (OneWins) {
      EXPECT_EQ(LateNote.rfind("settled-one[as-decided]:cuda:0=100.0%", 0), 0u)
          << LateNote;
    } else {
      EXPECT_EQ(LateNote.rfind("settled:", 0), 0u) << LateNote;
      EXPECT_EQ(Late.size(), 2u);
    }
  }
}

// One GPU alone must save more than OneGain of the spread cycle: the spread
// shares stay, and the statistics say what each took. A 7% gain is within
// what one timed cycle varies from run to run (CloverLeaf: ShareModel.h).
TEST(ShareModel, OneAcceleratorMustWinByMoreThanNoise) {
  TwoKernels K(1.0, 0.4, 1.0, 0.35);
  EXPECT_TRUE(K.heavySettles(
      "settled[one=1350.000ms,spread=1400.000ms]:cuda:0=50.0%,cuda:1=50.0%"));
  EXPECT_EQ(K.Light.size(), 2u);
  TwoKernels Near(1.0, 0.4, 0.9, 0.4);
  EXPECT_TRUE(Near.heavySettles(
      "settled[one=1300.000ms,spread=1400.000ms]:cuda:0=50.0%,cuda:1=50.0%"));
  EXPECT_EQ(Near.Light.size(), 2u);
}

// A launch whose GPUs were busy for most of it (Jacobi, Himeno, STREAM)
// never tries one GPU alone: that would cost a launch at half speed and two
// moves of its data. (0.9 s busy per GPU in a launch of 1.0 s.)
TEST(ShareModel, BusyLaunchesNeverTryOneAccelerator) {
  TwoKernels K(1.0, 0.4, 0.1, 0.1, {3611, 3611, 1});
  for (int I = 0; I < 10; ++I) {
    K.round();
    EXPECT_EQ(K.Heavy.size(), 2u) << K.HeavyNote;
  }
  EXPECT_EQ(K.HeavyNote.rfind("settled:", 0), 0u) << K.HeavyNote;
}

// A kernel launched once (CG's x = 0) leads none: its one wall time is
// first touches. A kernel that left a stalled leader may follow another.
TEST(ShareModel, AKernelLaunchedOnceLeadsNone) {
  ShareModel M(true);
  Pool P = gpuGpuCpu();
  std::vector<double> Speed = {90, 90, 30};
  std::string Note;
  M.record("zero", ran(M.shares("zero", P, Static, Note, 6500), Speed), 50);
  for (int I = 0; I < 3; ++I) {
    M.record("spmv", ran(M.shares("spmv", P, Static, Note, 6500), Speed), 9);
    std::vector<Share> X = M.shares("xpby", P, Static, Note, 6500);
    EXPECT_EQ(Note.find("zero"), std::string::npos) << Note;
    M.record("xpby", ran(X, Speed), 1);
  }
  EXPECT_EQ(Note.rfind("follow[spmv]:", 0), 0u) << Note;
}

// The cycle holds every kernel's launches, not only the followers': a kernel
// of another size that copies the data back when the heavy one ran alone
// makes one GPU the slower choice.
TEST(ShareModel, OneCountsWhatItCostsTheOtherKernels) {
  ShareModel M(true);
  Pool P = gpuGpuCpu();
  std::vector<Share> Gpus = {{0, 32}, {1, 32}};
  std::vector<double> Speed = {1e6, 1e6, 1};
  std::string Note;
  std::vector<Share> H;
  for (int I = 0; I < 10; ++I) {
    H = M.shares("heavy", P, Gpus, Note, 6500);
    M.record("heavy", ran(H, Speed), H.size() == 1 ? 0.8 : 1.0);
    std::string OtherNote;
    std::vector<Share> O = M.shares("other", P, Gpus, OtherNote, 100);
    M.record("other", ran(O, Speed), H.size() == 1 ? 0.6 : 0.1);
  }
  EXPECT_EQ(Note.rfind("settled[one=1400.000ms,spread=1100.000ms]:", 0), 0u)
      << Note;
  EXPECT_EQ(H.size(), 2u);
}

// CG's SpMV and its dot: neither follows the other, and each alone on one
// GPU loses to the copies that the other's spread layout causes (0.3 s each
// way); both on one GPU win. The one-accelerator trial of whichever settles
// first takes the other along, and both settle on the same GPU. A kernel of
// that size whose GPUs are busy for most of its launch stays spread.
TEST(ShareModel, KernelsOfOneSizeTryOneAcceleratorTogether) {
  ShareModel M(true);
  Pool P = gpuGpuCpu();
  std::vector<Share> Gpus = {{0, 32}, {1, 32}};
  std::vector<double> Speed = {1e6, 1e6, 1};
  std::string SpmvNote, DotNote, BusyNote;
  std::vector<Share> Spmv, Dot = Gpus, Busy;
  for (int I = 0; I < 12; ++I) {
    Busy = M.shares("busy", P, Gpus, BusyNote, 6500);
    M.record("busy", ran(Busy, {3611, 3611, 1}), 1.0);
    Spmv = M.shares("spmv", P, Gpus, SpmvNote, 6500);
    bool Moved = Spmv.size() != Dot.size();
    M.record("spmv", ran(Spmv, Speed),
             (Spmv.size() == 1 ? 0.6 : 1.0) + (Moved ? 0.3 : 0));
    Dot = M.shares("dot", P, Gpus, DotNote, 6500);
    Moved = Spmv.size() != Dot.size();
    M.record("dot", ran(Dot, Speed),
             (Dot.size() == 1 ? 0.5 : 0.8) + (Moved ? 0.3 : 0));
  }
  EXPECT_EQ(SpmvNote.rfind("settled-one[one=2100.000ms,spread=2800.000ms]:"
                           "cuda:0=100.0%",
                           0),
            0u)
      << SpmvNote;
  EXPECT_EQ(DotNote.rfind("settled-one[with=spmv]:cuda:0=100.0%", 0), 0u)
      << DotNote;
  ASSERT_EQ(Dot.size(), 1u);
  EXPECT_EQ(Dot[0].Member, Spmv[0].Member);
  EXPECT_EQ(BusyNote.rfind("settled:cuda:0=50.0%,cuda:1=50.0%", 0), 0u)
      << BusyNote;
}

// CG's kernels of microseconds never run HETERO_PROBE_AFTER on the GPUs, so
// the CPU pool is never tried on them; launches mostly spent outside the
// GPUs' chunks settle on the GPUs from the third on, and may then try one
// GPU alone. A launch that keeps its GPUs busy waits for the probe.
TEST(ShareModel, LaunchesOfOverheadsSettleOnTheAcceleratorsBeforeTheProbe) {
  ShareModel M(true, /*ProbeAfter=*/1.0);
  Pool P = gpuGpuCpu();
  std::string Note, BusyNote;
  for (int I = 0; I < 4; ++I) {
    std::vector<Share> S = M.shares("k", P, Static, Note, 6500);
    ASSERT_EQ(S.size(), I < 3 ? 2u : 1u) << Note;
    M.record("k", ran(S, {1e6, 1e6, 1}), 0.01);
    S = M.shares("busy", P, Static, BusyNote, 100);
    M.record("busy", ran(S, {361111, 361111, 1}), 0.01);
  }
  EXPECT_EQ(Note.rfind("one-trial:cuda:0=100.0%", 0), 0u) << Note;
  EXPECT_EQ(BusyNote.rfind("accelerators-until-probe:", 0), 0u) << BusyNote;
}

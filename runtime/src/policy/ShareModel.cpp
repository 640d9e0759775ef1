//===- ShareModel.cpp - Split shares from measured speed ------------------===//
#include "hetero/ShareModel.h"

#include <algorithm>
#include <cassert>
#include <cmath>
#include <cstdio>
#include <cstdlib>

namespace hetero {

std::string ShareModel::key(const std::string &Kernel, uint64_t TripCount) {
  int Log2 = 0;
  while (Log2 < 64 && (TripCount >> Log2) > 1)
    ++Log2;
  return Kernel + "#" + std::to_string(TripCount ? Log2 + 1 : 0);
}

std::vector<Share> ShareModel::measured(const Entry &E,
                                        const std::vector<Share> &Static,
                                        bool AcceleratorsOnly) const {
  std::vector<size_t> Chosen; // candidate indices
  for (size_t I = 0; I < E.Candidates.size(); ++I)
    if (!AcceleratorsOnly || E.Accelerator[I])
      Chosen.push_back(I);
  std::vector<double> Rate = sameKindAverage(E);
  double SumRate = 0, SumStatic = 0;
  bool AllKnown = true;
  for (size_t I : Chosen) {
    AllKnown &= Rate[I] > 0;
    SumRate += Rate[I];
    SumStatic += Static[I].Weight;
  }
  // Speeds within 10% of what the static shares assume (two equal GPUs)
  // keep the static shares: a boundary moved for noise costs copies. A
  // member that got no iterations has no speed: static shares too.
  bool Near = true;
  for (size_t I : Chosen) {
    double M = Rate[I] / SumRate, S = Static[I].Weight / SumStatic;
    Near &= std::fabs(M - S) <= 0.1 * S;
  }
  std::vector<Share> Out;
  for (size_t I : Chosen)
    Out.push_back(
        {E.Candidates[I], AllKnown && !Near ? Rate[I] : Static[I].Weight});
  return Out;
}

bool ShareModel::pays(double Gain, double MoveCost, uint64_t Launches) {
  return Gain > 0 && Gain * static_cast<double>(Launches) > MoveCost;
}

bool ShareModel::apart(const std::vector<Share> &A, const std::vector<Share> &B,
                       double Relative) {
  if (A.size() != B.size())
    return true;
  double SumA = 0, SumB = 0;
  for (size_t I = 0; I < A.size(); ++I)
    SumA += A[I].Weight, SumB += B[I].Weight;
  for (size_t I = 0; I < A.size(); ++I) {
    double FA = A[I].Weight / SumA, FB = B[I].Weight / SumB;
    if (A[I].Member != B[I].Member ||
        std::fabs(FA - FB) > Relative * std::max(FA, FB))
      return true;
  }
  return false;
}

std::vector<double> ShareModel::sameKindAverage(const Entry &E) {
  std::vector<double> Rate = E.Rate;
  for (size_t I = 0; I < Rate.size(); ++I) {
    double Sum = 0;
    size_t Count = 0;
    for (size_t J = 0; J < Rate.size(); ++J)
      if (E.Kind[J] == E.Kind[I] && E.Rate[J] > 0)
        Sum += E.Rate[J], ++Count;
    if (E.Rate[I] > 0)
      Rate[I] = Sum / Count;
  }
  return Rate;
}

bool ShareModel::bothKinds(const Entry &E) {
  bool Accelerator = false, Other = false;
  for (bool A : E.Accelerator)
    (A ? Accelerator : Other) = true;
  return Accelerator && Other;
}

std::vector<Share> ShareModel::accelerators(const Entry &E,
                                            const std::vector<Share> &S) {
  std::vector<Share> Out;
  for (size_t I = 0; I < S.size(); ++I)
    if (E.Accelerator[I])
      Out.push_back(S[I]);
  return Out;
}

std::vector<Share> ShareModel::probeShares(const Entry &E,
                                           const std::vector<Share> &S) {
  std::vector<Share> Out = S;
  for (size_t I = 0; I < Out.size(); ++I)
    if (!E.Accelerator[I])
      Out[I].Weight *= ProbeSliver;
  return Out;
}

static std::string describe(const Pool &P, const std::vector<Share> &S) {
  double Sum = 0;
  for (const Share &X : S)
    Sum += X.Weight;
  std::string Out;
  for (const Share &X : S) {
    char Pct[32];
    std::snprintf(Pct, sizeof(Pct), "%.1f%%",
                  Sum > 0 ? 100 * X.Weight / Sum : 0);
    Out += (Out.empty() ? "" : ",") + P[X.Member].name() + "=" + Pct;
  }
  return Out;
}

const std::string &ShareModel::describeHanded(const Pool &P, Entry &E) {
  if (E.Description.empty() || E.Handed != E.Described) {
    E.Described = E.Handed;
    E.Description = describe(P, E.Handed);
  }
  return E.Description;
}

void ShareModel::restore(Entry &E, const Persisted &O,
                         const std::vector<Share> &Static) {
  E.Settled = O.Settled;
  E.Why = "persisted-" + O.Why;
  Phase To = Phase::Settled;
  bool OnMixed = O.settledMixed();
  if (!O.Mixed.empty() && pays(O.Gain, O.MoveCost, O.Launches)) {
    E.Settled = O.Mixed;
    E.Why = "persisted-settled-mixed[repays its move in " +
            std::to_string(O.Launches) + " launches]";
    OnMixed = true;
  }
  // Mixed shares were chosen by this kernel alone: its neighbours' own
  // choices may make its CPU part cost copies every launch. They are timed
  // again against the accelerators' launch of that run, as in the run that
  // chose them.
  if (OnMixed && O.AccelWall > 0) {
    E.AccelWall = O.AccelWall;
    E.Accel = accelerators(E, Static);
    To = Phase::Verify;
  }
  // A follower follows its leader's choice of this run.
  if (!O.Leader.empty()) {
    E.Leader = O.Leader;
    To = Phase::Follow;
  }
  go(E, To);
}

void ShareModel::enter(const std::string &Key, Entry &E, const Pool &P,
                       const std::vector<Share> &Static) {
  std::vector<size_t> Candidates;
  for (const Share &S : Static)
    Candidates.push_back(S.Member);
  if (E.Candidates == Candidates)
    return;
  E = Entry();
  Cycling.erase(Key);
  for (auto &[K, X] : Entries)
    if (X.Trial == Key)
      X.Trial.clear();
  E.Candidates = Candidates;
  for (size_t M : Candidates) {
    E.Kind.push_back(P[M].Kind);
    E.Accelerator.push_back(P[M].Kind != MemberKind::CpuPool);
  }
  E.Rate.assign(Candidates.size(), 0);
  std::string Names;
  for (size_t M : Candidates)
    Names += (Names.empty() ? "" : ",") + P[M].name();
  auto Old = Earlier.find(Key + "\t" + Names);
  if (Old != Earlier.end() && Old->second.Candidates == Candidates)
    restore(E, Old->second, Static);
}

void ShareModel::handOut(Entry &E, const std::vector<Share> &Static,
                         std::string &Note) {
  switch (E.Now) {
  case Phase::Probe:
    E.Handed = probeShares(E, Static);
    Note = "probe";
    E.Trying = bothKinds(E) && E.ProbeLaunch > 0; // the CPU pool's sliver
    if (E.ProbeLaunch == 0 && bothKinds(E)) {
      E.Handed = accelerators(E, Static);
      if (E.AccelAlone < ProbeAfter)
        Note = "accelerators-until-probe";
    }
    break;
  case Phase::Mixed:
  case Phase::MixedTimed:
    E.Handed = E.Mixed;
    Note = "mixed";
    E.Trying = true;
    break;
  case Phase::Accel:
  case Phase::AccelTimed:
    E.Handed = E.Accel;
    Note = "accel";
    E.Trying = true;
    break;
  case Phase::Spread:
  case Phase::SpreadTimed:
  case Phase::SpreadCycle: // closed before
    E.Handed = E.Settled;
    Note = E.Why; // settled there, unless one accelerator alone beats it
    break;
  case Phase::One:
  case Phase::OneTimed:
  case Phase::OneCycle: // closed before
    E.Handed = E.One;
    Note = "one-trial";
    E.Trying = true;
    break;
  case Phase::Verify:
  case Phase::VerifyTimed:
  case Phase::Follow: // handled before
  case Phase::Settled:
    E.Handed = E.Settled;
    Note = E.Why;
    if (!E.Trial.empty()) { // in another kernel's one-accelerator trial
      const Entry &T = Entries.at(E.Trial);
      if (inOneTrial(T.Now)) {
        E.Handed = T.One;
        Note = "one-trial[with=" + E.Trial + "]";
        E.Trying = true;
      }
    }
    break;
  }
}

std::vector<Share> ShareModel::shares(const std::string &Key, const Pool &P,
                                      const std::vector<Share> &Static,
                                      std::string &Note, uint64_t TripCount) {
  if (!Enabled || Static.size() < 2) {
    Note = "fixed:" + describe(P, Static);
    return Static;
  }
  Entry &E = Entries[Key];
  enter(Key, E, P, Static);
  E.Static = Static;
  E.TripCount = TripCount;
  E.Trying = false;
  if (E.Now == Phase::Probe || E.Now == Phase::Mixed ||
      E.Now == Phase::MixedTimed || E.Now == Phase::Accel ||
      E.Now == Phase::AccelTimed || E.Now == Phase::Verify ||
      E.Now == Phase::VerifyTimed) {
    E.Leader = leaderFor(Key, E);
    if (!E.Leader.empty()) {
      go(E, Phase::Follow);
      E.LeaderIdle = 0;
      E.LeaderSeen = Entries.at(E.Leader).Launches; // leaderFor: a key
    }
  }
  if (E.Now == Phase::Follow && follow(E, P, Static, Note))
    return E.Handed;
  if (E.Now == Phase::SpreadCycle || E.Now == Phase::OneCycle)
    closeCycle(Key, E);
  handOut(E, Static, Note);
  Note += ":" + describeHanded(P, E);
  return E.Handed;
}

bool ShareModel::untimed(const std::string &Key) const {
  if (!Enabled)
    return true;
  if (!Cycling.empty())
    return false;
  auto It = Entries.find(Key);
  if (It == Entries.end()) // shares() had one member: nothing to measure
    return true;
  const Entry &E = It->second;
  switch (E.Now) {
  case Phase::Settled:
    return true;
  case Phase::Probe:
    // On the accelerators until ProbeAfter: once its first launches were
    // timed (loading, first touches, the overhead check), each counts as
    // the last timed one did, and the launch that reaches ProbeAfter is
    // timed again.
    return E.ProbeLaunch == 0 && bothKinds(E) && E.Launches >= ProbeTimed &&
           E.LastWall > 0 && E.AccelAlone + 2 * E.LastWall < ProbeAfter;
  case Phase::Follow:
    // The leader's shares; its own launch is weighed by its fastest.
    return E.Launches >= ProbeTimed && E.MinWall > 0;
  default:
    return false;
  }
}

bool ShareModel::trying(const std::string &Key) const {
  auto It = Entries.find(Key);
  return Enabled && It != Entries.end() && It->second.Trying;
}

void ShareModel::noteGather(const std::string &Key, uint64_t Bytes) {
  if (auto It = Entries.find(Key); It != Entries.end())
    It->second.Gather = Bytes;
}

void ShareModel::recordUntimed(const std::string &Key) {
  auto It = Entries.find(Key);
  if (!Enabled || It == Entries.end())
    return;
  Entry &E = It->second;
  ++E.Launches;
  Elapsed += E.LastWall;
  if (E.Now == Phase::Probe)
    E.AccelAlone += E.LastWall; // untimed() let it run ahead on them
  retryOne(Key, E);
}

void ShareModel::recordProbe(const std::string &Key, Entry &E,
                             double WallSeconds) {
  // Accelerators alone (until they have run ProbeAfter), then a warm-up
  // of the static shares (cold pages, caches and threads): not the speed.
  if (E.ProbeLaunch == 0 && bothKinds(E) &&
      (E.AccelAlone += WallSeconds) < ProbeAfter) {
    // A launch mostly spent outside the accelerators' chunks (past the
    // first two: loading, first touches) is bound by overheads, which the
    // CPU pool only adds to: settled on the accelerators, where one of
    // them alone may be tried (CG's kernels of microseconds never run
    // ProbeAfter).
    if (E.Launches > 2 && E.Overhead >= AloneOverhead) {
      char Why[64];
      std::snprintf(Why, sizeof(Why), "settled-accel[overhead=%.0f%%]",
                    100 * E.Overhead);
      // Timed where this launch ran the shares settled on (speeds within
      // 10% of the static shares keep them): else one launch moves first.
      std::vector<Share> S = measured(E, E.Static, true);
      settleOrTryOne(Key, E, S, Why, !apart(S, E.Handed, 1e-9));
      return;
    }
    E.Rate.assign(E.Rate.size(), 0);
    return;
  }
  if (++E.ProbeLaunch < (bothKinds(E) ? 3 : 2)) {
    E.Rate.assign(E.Rate.size(), 0);
    return;
  }
  // The CPU pool's speed as a part of everyone's: below MinGain it cannot
  // pay for the copies and the waiting it brings; no need to time it.
  double All = 0, Cpu = 0;
  bool AllKnown = true;
  for (size_t I = 0; I < E.Rate.size(); ++I) {
    (E.Accelerator[I] ? All : Cpu) += E.Rate[I];
    AllKnown &= E.Rate[I] > 0;
  }
  All += Cpu;
  if (bothKinds(E) && AllKnown && Cpu / All < MinGain) {
    char Why[64];
    std::snprintf(Why, sizeof(Why), "settled-accel[cpu-gain=%.2f%%]",
                  100 * Cpu / All);
    settleOrTryOne(Key, E, measured(E, E.Static, true), Why, false);
    return;
  }
  E.Mixed = measured(E, E.Static, false);
  go(E, Phase::Mixed);
}

void ShareModel::recordMixed(const std::string &Key, Entry &E,
                             double WallSeconds) {
  E.MixedWall = WallSeconds;
  // The probe measured the CPU pool on a sliver of the iterations (thread
  // start-up, first touches): its speed on its mixed share can be far
  // from that. Shares off by more than 10% are measured again.
  std::vector<Share> Again = measured(E, E.Static, false);
  if (E.Refinements < MaxRefinements && apart(Again, E.Mixed, 0.1)) {
    ++E.Refinements;
    E.Mixed = Again;
    go(E, Phase::Mixed);
    return;
  }
  if (bothKinds(E)) {
    E.Accel = measured(E, E.Static, true);
    go(E, Phase::Accel);
  } else {
    settleOrTryOne(Key, E, E.Mixed, "settled", true);
  }
}

void ShareModel::recordAccel(const std::string &Key, Entry &E,
                             double WallSeconds) {
  E.AccelWall = WallSeconds;
  // What mixed saves beyond MinGain of the accelerators' launch: one
  // timed launch of each is that noisy (Himeno L's mixed launch measured
  // 7.7 to 10.2 ms against 8.8 to 9.3), and a choice made on noise flips
  // at the next run's verification, having moved the data twice and held
  // host memory for the CPU's part meanwhile.
  E.Gain = WallSeconds * (1 - MinGain) - E.MixedWall;
  E.MoveCost = std::max(0.0, E.MoveWall - E.MixedWall);
  // Mixed must win back the moving of the data to its boundaries (and
  // back): as many launches are taken to follow as have been made so far.
  bool Mixed = pays(E.Gain, E.MoveCost, E.Launches);
  char Why[128];
  std::snprintf(Why, sizeof(Why),
                "settled-%s[accel=%.3fms,mixed=%.3fms,move=%.3fms]",
                Mixed ? "mixed" : "accel", 1e3 * WallSeconds, 1e3 * E.MixedWall,
                1e3 * E.MoveCost);
  if (Mixed) {
    E.Settled = E.Mixed;
    E.Why = Why;
    go(E, Phase::Verify);
  } else {
    settleOrTryOne(Key, E, E.Accel, Why, true);
  }
}

void ShareModel::record(const std::string &Key,
                        const std::vector<MemberUsage> &Usage,
                        double WallSeconds) {
  auto It = Entries.find(Key);
  if (!Enabled || It == Entries.end())
    return;
  Entry &E = It->second;
  E.LastWall = WallSeconds;
  Elapsed += WallSeconds;
  if (E.MinWall <= 0 || WallSeconds < E.MinWall)
    E.MinWall = WallSeconds;
  ++E.Launches;
  E.Overhead = overhead(E, E.Handed, Usage, WallSeconds);
  // Every launch until a kernel's next belongs to its cycle under timing.
  for (const std::string &K : Cycling)
    if (K != Key)
      Entries.at(K).Cycle += WallSeconds;
  if (E.Now == Phase::Settled) {
    retryOne(Key, E); // the next launch moves, if the trial starts
    return;
  }
  if (E.Now == Phase::Follow)
    return;
  for (size_t I = 0; I < E.Candidates.size(); ++I) {
    size_t M = E.Candidates[I];
    if (M < Usage.size() && Usage[M].Iterations && Usage[M].BusySeconds > 0)
      E.Rate[I] = double(Usage[M].Iterations) / Usage[M].BusySeconds;
  }
  advance(Key, E, WallSeconds);
}

void ShareModel::advance(const std::string &Key, Entry &E, double WallSeconds) {
  switch (E.Now) {
  case Phase::Probe:
    recordProbe(Key, E, WallSeconds);
    break;
  case Phase::Mixed: // this launch moved the data to the new boundaries
    // The first move (from the accelerators' layout) is the costly one: the
    // one a later run pays at its first launch.
    E.MoveWall = std::max(E.MoveWall, WallSeconds);
    go(E, Phase::MixedTimed);
    break;
  case Phase::MixedTimed:
    recordMixed(Key, E, WallSeconds);
    break;
  case Phase::Accel:
    go(E, Phase::AccelTimed);
    break;
  case Phase::AccelTimed:
    recordAccel(Key, E, WallSeconds);
    break;
  case Phase::Verify: // this launch moved the data back to mixed boundaries
    go(E, Phase::VerifyTimed);
    break;
  case Phase::VerifyTimed:
    if (WallSeconds > E.AccelWall) {
      char Why[112];
      std::snprintf(Why, sizeof(Why),
                    "settled-accel[verified: mixed=%.3fms,accel=%.3fms]",
                    1e3 * WallSeconds, 1e3 * E.AccelWall);
      settleOrTryOne(Key, E, E.Accel, Why, false);
    } else {
      go(E, Phase::Settled);
    }
    break;
  case Phase::Spread: // this launch moved the data to the settled shares
    go(E, Phase::SpreadTimed);
    break;
  case Phase::SpreadTimed:
    go(E, Phase::Settled);
    tryOne(Key, E, true);
    break;
  case Phase::One: // this launch moved the data to the one accelerator
    go(E, Phase::OneTimed);
    break;
  case Phase::OneTimed:
    E.Cycle = WallSeconds;
    E.Opening = true;
    go(E, Phase::OneCycle);
    Cycling.insert(Key);
    break;
  case Phase::SpreadCycle: // closed by shares(), before the launch
  case Phase::OneCycle:
  case Phase::Follow:
  case Phase::Settled:
    break;
  }
}

bool ShareModel::spreadOverAccelerators(const Entry &E,
                                        const std::vector<Share> &S) {
  if (S.size() < 2)
    return false;
  for (const Share &X : S) {
    size_t I = std::find(E.Candidates.begin(), E.Candidates.end(), X.Member) -
               E.Candidates.begin();
    if (I == E.Candidates.size() || !E.Accelerator[I])
      return false;
  }
  return true;
}

double ShareModel::overhead(const Entry &E, const std::vector<Share> &S,
                            const std::vector<MemberUsage> &Usage,
                            double Wall) {
  if (Wall <= 0 || !spreadOverAccelerators(E, S))
    return 0;
  double Busy = 0;
  for (const Share &X : S) {
    if (X.Member >= Usage.size() || !Usage[X.Member].Iterations)
      return 0;
    Busy = std::max(Busy, Usage[X.Member].BusySeconds);
  }
  return (Wall - Busy) / Wall;
}

bool ShareModel::inOneTrial(Phase P) {
  return P == Phase::One || P == Phase::OneTimed || P == Phase::OneCycle;
}

namespace {
using Phase = ShareModel::Phase;
/// The transition table: each row a phase and where it may go, with the
/// step that takes it there. Any phase before settling goes to Follow
/// when a heavier kernel of its size turns up (shares()).
struct Transition {
  Phase From, To;
  const char *By;
};
constexpr Transition Transitions[] = {
    {Phase::Probe, Phase::Mixed, "probe measured every member"},
    {Phase::Probe, Phase::Settled,
     "CPU gain below MinGain, or overheads (settled-accel)"},
    {Phase::Probe, Phase::Verify, "an earlier run's mixed shares (restore)"},
    {Phase::Probe, Phase::Follow, "a leader, or an earlier run's (restore)"},
    {Phase::Mixed, Phase::MixedTimed, "the data moved to the mixed shares"},
    {Phase::Mixed, Phase::Follow, "a leader"},
    {Phase::MixedTimed, Phase::Mixed, "refined: speeds 10% away"},
    {Phase::MixedTimed, Phase::Accel, "time the accelerators alone"},
    {Phase::MixedTimed, Phase::Settled, "no CPU pool: mixed it is"},
    {Phase::MixedTimed, Phase::Follow, "a leader"},
    {Phase::Accel, Phase::AccelTimed, "the data moved to the accelerators"},
    {Phase::Accel, Phase::Follow, "a leader"},
    {Phase::AccelTimed, Phase::Verify, "mixed repays its move"},
    {Phase::AccelTimed, Phase::Settled, "settled-accel"},
    {Phase::AccelTimed, Phase::Follow, "a leader"},
    {Phase::Verify, Phase::VerifyTimed, "the data moved back to mixed"},
    {Phase::Verify, Phase::Follow, "a leader"},
    {Phase::VerifyTimed, Phase::Settled, "verified, or settled-accel"},
    {Phase::VerifyTimed, Phase::Follow, "a leader"},
    {Phase::Settled, Phase::Spread, "one-trial: time the spread shares"},
    {Phase::Settled, Phase::SpreadCycle, "one-trial: this launch was timed"},
    {Phase::Spread, Phase::SpreadTimed, "the data moved to the spread shares"},
    {Phase::SpreadTimed, Phase::Settled, "no trial after all"},
    {Phase::SpreadCycle, Phase::One, "the spread cycle closed"},
    {Phase::One, Phase::OneTimed, "the data moved to one accelerator"},
    {Phase::OneTimed, Phase::OneCycle, "timed: its cycle opens"},
    {Phase::OneCycle, Phase::Settled, "the verdict"},
    {Phase::Follow, Phase::Settled, "the leader settled"},
    {Phase::Follow, Phase::Probe, "the leader stopped launching"},
};
} // namespace

const char *ShareModel::phaseName(Phase P) {
  static constexpr const char *Names[NumPhases] = {
      "probe",  "mixed",        "mixed-timed", "accel",        "accel-timed",
      "verify", "verify-timed", "spread",      "spread-timed", "spread-cycle",
      "one",    "one-timed",    "one-cycle",   "follow",       "settled"};
  return Names[static_cast<int>(P)];
}

bool ShareModel::mayGo(Phase From, Phase To) {
  return std::any_of(
      std::begin(Transitions), std::end(Transitions),
      [&](const Transition &T) { return T.From == From && T.To == To; });
}

void ShareModel::go(Entry &E, Phase To) {
  assert((E.Now == To || mayGo(E.Now, To)) &&
         "a change of phase the transition table does not hold");
  E.Now = To;
  E.Followed = E.Followed && To == Phase::Settled;
}

ShareModel::Phase ShareModel::phase(const std::string &Key) const {
  auto It = Entries.find(Key);
  return It == Entries.end() ? Phase::Probe : It->second.Now;
}

} // namespace hetero

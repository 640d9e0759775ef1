//===- ShareGroups.cpp - Decisions taken with a kernel's neighbours -------===//
//
// The share model's decisions that a kernel does not take alone: a kernel
// follows a heavier one of the same size over the same members (its
// leader), and the kernels settled over the same accelerators try one
// accelerator alone as a group, with one verdict for all of them
// (ShareModel.h says why: where one kernel's data lies decides what the
// next copies). The phases and the rest of a kernel's own steps are in
// ShareModel.cpp.
//
//===----------------------------------------------------------------------===//
#include "hetero/ShareModel.h"

#include <cstdio>
#include <string_view>

namespace hetero {

std::string ShareModel::leaderFor(const std::string &Key,
                                  const Entry &E) const {
  if (!E.TripCount || E.MinWall <= 0)
    return "";
  std::string Best;
  double BestWall = FollowRatio * E.MinWall;
  for (const auto &[K, L] : Entries) {
    if (K == Key || L.TripCount != E.TripCount ||
        L.Candidates != E.Candidates || L.Now == Phase::Follow ||
        L.Launches < 2 || E.Left.count(K) || L.LastWall <= BestWall)
      continue;
    Best = K;
    BestWall = L.LastWall;
  }
  return Best;
}

bool ShareModel::follow(Entry &E, const Pool &P,
                        const std::vector<Share> &Static, std::string &Note) {
  auto L = Entries.find(E.Leader);
  if (L != Entries.end() && L->second.Now != Phase::Settled) {
    E.LeaderIdle = L->second.Launches == E.LeaderSeen ? E.LeaderIdle + 1 : 0;
    E.LeaderSeen = L->second.Launches;
  }
  if (L != Entries.end() && L->second.Now == Phase::Settled) {
    E.Settled = L->second.Settled;
    E.Spread = L->second.Spread; // a verdict's, undone with it
    E.Why = "settled-follow[" + E.Leader + "]";
    go(E, Phase::Settled);
    E.Followed = true;
    return false;
  }
  if (L != Entries.end() && E.LeaderIdle > FollowPatience) {
    // The leader stopped launching before it settled: measure our own.
    E.Left.insert(E.Leader);
    E.Leader.clear();
    go(E, Phase::Probe);
    E.ProbeLaunch = 0;
    return false;
  }
  // The leader's shares of its latest launch (its static ones before its
  // first); a persisted follower launched before its leader keeps the
  // shares it settled with.
  if (L != Entries.end()) {
    E.Handed = L->second.Handed.empty() ? L->second.Static : L->second.Handed;
    E.Trying = L->second.Trying;
  } else
    E.Handed = E.Settled.empty() ? Static : E.Settled;
  Note = "follow[" + E.Leader + "]:" + describeHanded(P, E);
  return true;
}

void ShareModel::noteMoved(const std::string &Key, uint64_t Bytes) {
  auto It = Entries.find(Key);
  if (It == Entries.end())
    return;
  Entry &E = It->second;
  if (E.Opening) {
    E.OpenMoved = Bytes;
    E.Opening = false;
  }
  if (E.Spread.empty() || E.Now != Phase::Settled)
    return;
  // The first launch there moves its data once: not counted.
  if (E.Watched++ > 0)
    E.Moving += Bytes > MovedMargin;
  if (E.Moving >= FlipLaunches)
    revertOne(E.Candidates);
  else if (E.Watched > FlipWindow)
    E.Watched = 1, E.Moving = 0;
}

void ShareModel::settleOnOne(Entry &E, const std::vector<Share> &One,
                             std::string Why) {
  E.Spread = E.Settled;
  E.Watched = E.Moving = 0;
  E.Settled = One;
  E.Why = std::move(Why);
}

void ShareModel::revertOne(const std::vector<size_t> &Candidates) {
  Verdicts[Candidates] = std::nullopt;
  for (auto &[K, X] : Entries) {
    if (X.Candidates != Candidates || X.Spread.empty())
      continue;
    X.Settled = std::move(X.Spread);
    X.Spread.clear();
    X.Why = "settled[one-flips]";
  }
}

bool ShareModel::inGroup(const Entry &E, const Entry &X) {
  return &X != &E && X.Candidates == E.Candidates;
}

void ShareModel::settleOrTryOne(const std::string &Key, Entry &E,
                                const std::vector<Share> &S,
                                const std::string &Why, bool Timed) {
  E.Settled = S;
  E.Why = Why;
  go(E, Phase::Settled);
  tryOne(Key, E, Timed);
}

void ShareModel::tryOne(const std::string &Key, Entry &E, bool Timed) {
  if (!spreadOverAccelerators(E, E.Settled))
    return;
  // Decided for these members already: the layout is the program's, not a
  // kernel's (one kernel on one GPU amid spread ones gathers their data at
  // every launch).
  if (auto V = Verdicts.find(E.Candidates); V != Verdicts.end()) {
    if (V->second && E.Overhead >= AloneOverhead)
      settleOnOne(E, {{*V->second, 1.0}}, "settled-one[as-decided]");
    return;
  }
  // One trial at a time: a kernel settling during another's joins it (see
  // closeCycle) or keeps its spread shares.
  for (const auto &[K, X] : Entries)
    if (inGroup(E, X) &&
        (inOneTrial(X.Now) || X.Now == Phase::Spread ||
         X.Now == Phase::SpreadTimed || X.Now == Phase::SpreadCycle))
      return;
  static constexpr std::string_view Later = "[one-later]";
  size_t Noted = E.Why.find(Later);
  if (double Cost = oneTrialCost(E); Cost > ExploreBudget * Elapsed) {
    if (Noted == std::string::npos)
      E.Why += Later;
    E.OneCost = Cost;
    return;
  }
  if (Noted != std::string::npos)
    E.Why.erase(Noted, Later.size());
  if (!Timed) {
    go(E, Phase::Spread);
  } else if (E.Overhead >= AloneOverhead) {
    E.Cycle = E.LastWall;
    E.Opening = true;
    go(E, Phase::SpreadCycle);
    Cycling.insert(Key);
  }
}

double ShareModel::oneTrialCost(const Entry &E) const {
  // The kernels that would run there during the trial (see closeCycle).
  uint64_t Bytes = E.Gather;
  for (const auto &[K, X] : Entries)
    if (inGroup(E, X) && X.Now == Phase::Settled && X.Trial.empty() &&
        X.Overhead >= AloneOverhead && spreadOverAccelerators(X, X.Settled))
      Bytes += X.Gather;
  return 2 * static_cast<double>(Bytes) / GatherRate;
}

void ShareModel::retryOne(const std::string &Key, Entry &E) {
  if (E.OneCost <= 0 || E.Now != Phase::Settled ||
      (!Verdicts.count(E.Candidates) && ExploreBudget * Elapsed < E.OneCost))
    return;
  E.OneCost = 0;
  // A launch that ran ahead was not timed: the next one is (Spread).
  tryOne(Key, E, /*Timed=*/false);
}

void ShareModel::closeCycle(const std::string &Key, Entry &E) {
  Cycling.erase(Key);
  if (E.Now == Phase::SpreadCycle) {
    E.SpreadWall = E.Cycle;
    E.SpreadMoved = E.OpenMoved;
    // The fastest of them: the largest share (the first of equals).
    const Share *Best = &E.Settled.front();
    for (const Share &X : E.Settled)
      if (X.Weight > Best->Weight)
        Best = &X;
    E.One = {{Best->Member, 1.0}};
    go(E, Phase::One);
    // The other kernels of this size settled over the same accelerators
    // whose launches are mostly overhead too go with it: where one kernel's
    // data lies decides what the next copies (CG's SpMV, dots and axpys).
    for (auto &[K, X] : Entries)
      if (inGroup(E, X) && X.Now == Phase::Settled && X.Trial.empty() &&
          X.Overhead >= AloneOverhead && spreadOverAccelerators(X, X.Settled))
        X.Trial = Key;
    return;
  }
  double OneWall = E.Cycle;
  char Times[160];
  if (E.OpenMoved || E.SpreadMoved)
    std::snprintf(Times, sizeof(Times),
                  "[one=%.3fms,spread=%.3fms,moved=%llu/%lluB]", 1e3 * OneWall,
                  1e3 * E.SpreadWall,
                  static_cast<unsigned long long>(E.OpenMoved),
                  static_cast<unsigned long long>(E.SpreadMoved));
  else
    std::snprintf(Times, sizeof(Times), "[one=%.3fms,spread=%.3fms]",
                  1e3 * OneWall, 1e3 * E.SpreadWall);
  // Faster, and not by gathering what the spread layout keeps apart: a
  // launch on one member that copies more than its spread launch did,
  // with the data moved there a launch before, gathers what the other
  // kernels spread again in between (CloverLeaf's advection kernels pulled
  // 170 MB to one GPU at every launch over four H100s). Its cycle can look
  // faster all the same, timed while the others flip too; bytes do not
  // vary from run to run.
  bool Gathers = E.OpenMoved > E.SpreadMoved + MovedMargin &&
                 double(E.OpenMoved) > MovedSlack * double(E.SpreadMoved);
  bool One = OneWall < E.SpreadWall * (1 - OneGain) && !Gathers;
  Verdicts[E.Candidates] =
      One ? std::optional<size_t>(E.One.front().Member) : std::nullopt;
  if (One) {
    settleOnOne(E, E.One, std::string("settled-one") + Times);
  } else {
    E.Why += Times;
    if (Gathers)
      E.Why += "[one-gathers]";
  }
  go(E, Phase::Settled);
  for (auto &[K, X] : Entries) {
    if (X.Trial != Key)
      continue;
    X.Trial.clear();
    if (One)
      settleOnOne(X, E.One, "settled-one[with=" + Key + "]");
  }
}

} // namespace hetero

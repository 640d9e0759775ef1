//===- TeamsTrial.cpp - A GPU chunk's team count, from measurement --------===//
//
// The trial's rules: TeamsTrial.h.
//
//===----------------------------------------------------------------------===//
#include "hetero/TeamsTrial.h"

#include <cstdio>

namespace hetero {

namespace {

/// A candidate is a grid of its own only where each of its threads has an
/// iteration: a larger grid idles.
bool distinct(double Fraction, uint64_t Iterations, uint64_t Resident) {
  return Fraction * static_cast<double>(Resident) <=
         static_cast<double>(Iterations);
}

std::string fraction(double F) {
  char Text[16];
  snprintf(Text, sizeof(Text), "1/%.0f", 1 / F);
  return Text;
}

} // namespace

TeamsTrial::Pick TeamsTrial::pick(const std::string &Key, size_t M,
                                  uint64_t Iterations,
                                  uint64_t ResidentThreads) {
  Pick P;
  if (!Enabled || !ResidentThreads)
    return P;
  auto At = States.find(StateRef{Key, M});
  if (At == States.end())
    At = States.emplace(std::make_pair(Key, M), State()).first;
  State &S = At->second;
  if (S.Decided) {
    if (distinct(S.Kept, Iterations, ResidentThreads))
      P.Fraction = S.Kept;
    return P;
  }
  if (!trialDue(S))
    return P;
  while (S.Next < Candidates.size() &&
         !distinct(Candidates[S.Next], Iterations, ResidentThreads))
    ++S.Next;
  if (S.Next == Candidates.size()) {
    decide(S);
    if (S.Kept && distinct(S.Kept, Iterations, ResidentThreads))
      P.Fraction = S.Kept;
    return P;
  }
  P.Fraction = Candidates[S.Next];
  P.Trial = true;
  return P;
}

bool TeamsTrial::untimed(const std::string &Key, size_t M) const {
  auto It = States.find(StateRef{Key, M});
  if (!Enabled || It == States.end() || It->second.Decided)
    return true;
  const State &S = It->second;
  return S.Launches >= DefaultLaunches && S.Default > 0 && !trialDue(S);
}

void TeamsTrial::recordUntimed(const std::string &Key, size_t M) {
  if (auto It = States.find(StateRef{Key, M}); Enabled && It != States.end())
    ++It->second.Launches;
}

void TeamsTrial::record(const std::string &Key, size_t M, const Pick &P,
                        uint64_t Iterations, double Seconds) {
  auto It = States.find(StateRef{Key, M});
  if (!Enabled || It == States.end() || !Iterations || Seconds <= 0)
    return;
  State &S = It->second;
  double PerIteration = Seconds / static_cast<double>(Iterations);
  if (!P.Trial) {
    S.Spent += Seconds;
    // The first launch pays for first touches: not the grid's time.
    if (!S.Decided && S.Launches > 0 && !P.Fraction &&
        (!S.Default || PerIteration < S.Default))
      S.Default = PerIteration;
    ++S.Launches;
    return;
  }
  for (size_t C = 0; C < Candidates.size(); ++C)
    if (Candidates[C] == P.Fraction && C == S.Next) {
      S.Tried[C] = PerIteration;
      ++S.Next;
      // Far slower: the smaller grids left are not tried.
      if (S.Default && PerIteration > S.Default * StopAbove)
        S.Next = Candidates.size();
    }
  ++S.Launches;
}

bool TeamsTrial::trialDue(const State &S) const {
  return S.Launches >= DefaultLaunches &&
         (S.Spent >= TrialAfter || S.Launches >= TrialAfterLaunches);
}

void TeamsTrial::decide(State &S) {
  S.Decided = true;
  if (!S.Default)
    return;
  double Best = S.Default * KeepBelow;
  for (size_t C = 0; C < Candidates.size(); ++C)
    if (S.Tried[C] > 0 && S.Tried[C] < Best) {
      Best = S.Tried[C];
      S.Kept = Candidates[C];
      S.Ratio = S.Tried[C] / S.Default;
    }
}

std::string TeamsTrial::note(const std::string &Key, size_t M) const {
  auto It = States.find(StateRef{Key, M});
  if (It == States.end())
    return "";
  const State &S = It->second;
  if (!S.Decided)
    return S.Next > 0 || trialDue(S) ? "trial" : "default";
  if (!S.Kept)
    return "default";
  char Ratio[16];
  snprintf(Ratio, sizeof(Ratio), ":%.2fx", S.Ratio);
  return fraction(S.Kept) + Ratio;
}

} // namespace hetero

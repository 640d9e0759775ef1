//===- KernelStats.cpp - Per-kernel statistics (HETERO_STATS) -------------===//
#include "hetero/KernelStats.h"

#include <cinttypes>

namespace hetero {

namespace {
/// The entry of Name in a list kept in order of first appearance, added
/// when missing.
template <typename T>
T &entryOf(std::vector<std::pair<std::string, T>> &List,
           const std::string &Name) {
  for (auto &[N, V] : List)
    if (N == Name)
      return V;
  return List.emplace_back(Name, T()).second;
}
} // namespace

void KernelStats::record(const std::string &Kernel, const Launch &L,
                         const std::string &Display) {
  std::lock_guard<std::mutex> Lock(Mutex);
  auto [It, New] = Records.try_emplace(Kernel);
  if (New)
    Order.push_back(Kernel);
  Record &R = It->second;
  if (R.Display.empty())
    R.Display = Display;
  ++R.Launches;
  if (L.Split)
    ++R.Split;
  else if (R.Reason.empty())
    R.Reason = L.Reason.empty() ? "unknown" : L.Reason;
  if (L.RanAhead)
    ++R.RanAhead;
  if (L.Aligned)
    ++R.Aligned;
  if (L.Split && !L.Alone.empty())
    ++R.OneLaunches;
  if (L.Owner)
    ++R.OwnerLaunches;
  if (L.InOrder)
    ++R.InOrderLaunches;
  if (L.Trial)
    ++R.TrialLaunches;
  if (L.Rounds) {
    ++R.RoundLaunches;
    R.Rounds += L.Rounds;
  }
  R.Needed += L.Needed;
  for (const auto &[Name, U] : L.Members) {
    MemberUsage &M = entryOf(R.Members, Name);
    M.Iterations += U.Iterations;
    M.BusySeconds += U.BusySeconds;
    if (L.Trial)
      entryOf(R.TrialMembers, Name) += U.Iterations;
  }
  R.H2D += L.H2D;
  R.D2D += L.D2D;
  R.D2H += L.D2H;
  if (!L.Shares.empty())
    R.Shares = L.Shares;
  if (!L.Teams.empty())
    R.Teams = L.Teams;
  R.Alone = L.Alone;
}

void KernelStats::print(FILE *Out, uint64_t TotalH2D, uint64_t TotalD2D,
                        uint64_t TotalD2H) const {
  std::lock_guard<std::mutex> Lock(Mutex);
  for (const std::string &K : Order) {
    const Record &R = Records.at(K);
    std::string Split = R.Split != R.Launches ? "no(" + R.Reason + ")"
                        : R.Alone.empty()     ? "yes"
                                              : "settled-one(" + R.Alone + ")";
    std::string Members;
    for (const auto &[Name, U] : R.Members) {
      char Buf[160];
      snprintf(Buf, sizeof(Buf), "%s%s:%" PRIu64 ":%.3fms",
               Members.empty() ? "" : ",", Name.c_str(), U.Iterations,
               U.BusySeconds * 1e3);
      Members += Buf;
    }
    std::string Tail =
        R.RanAhead ? " ran_ahead=" + std::to_string(R.RanAhead) : "";
    if (R.Aligned)
      Tail += " aligned=" + std::to_string(R.Aligned);
    if (R.OneLaunches)
      Tail += " one_launches=" + std::to_string(R.OneLaunches);
    if (R.OwnerLaunches)
      Tail += " owner_launches=" + std::to_string(R.OwnerLaunches);
    if (R.InOrderLaunches)
      Tail += " in_order_launches=" + std::to_string(R.InOrderLaunches);
    if (R.TrialLaunches) {
      Tail += " trial_launches=" + std::to_string(R.TrialLaunches) +
              " trial_members=";
      for (size_t T = 0; T < R.TrialMembers.size(); ++T)
        Tail += (T ? "," : "") + R.TrialMembers[T].first + ":" +
                std::to_string(R.TrialMembers[T].second);
    }
    if (R.RoundLaunches)
      Tail += " round_launches=" + std::to_string(R.RoundLaunches) +
              " rounds=" + std::to_string(R.Rounds);
    if (R.Needed)
      Tail += " bytes_needed=" + std::to_string(R.Needed);
    if (!R.Display.empty())
      Tail += " name=\"" + R.Display + "\"";
    fprintf(Out,
            "hetero-stats kernel=%s launches=%" PRIu64 " split=%s"
            " split_launches=%" PRIu64 " members=%s bytes_h2d=%" PRIu64
            " bytes_d2d=%" PRIu64 " bytes_d2h=%" PRIu64 "%s%s%s%s%s\n",
            K.c_str(), R.Launches, Split.c_str(), R.Split,
            Members.empty() ? "-" : Members.c_str(), R.H2D, R.D2D, R.D2H,
            R.Shares.empty() ? "" : " shares=", R.Shares.c_str(),
            R.Teams.empty() ? "" : " teams=", R.Teams.c_str(), Tail.c_str());
  }
  fprintf(Out,
          "hetero-stats total bytes_h2d=%" PRIu64 " bytes_d2d=%" PRIu64
          " bytes_d2h=%" PRIu64 "\n",
          TotalH2D, TotalD2D, TotalD2H);
}

} // namespace hetero

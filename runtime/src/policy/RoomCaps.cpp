//===- RoomCaps.cpp - Shares that fit the members' memory -----------------===//
#include "hetero/RoomCaps.h"

#include <algorithm>
#include <cstdio>

namespace hetero {

void RoomCaps::learn(const std::string &Key, size_t M, double Fraction) {
  Fraction = Fraction < LeastCap ? 0 : std::min(Fraction, 1.0);
  auto [It, New] = Caps[Key].emplace(M, Fraction);
  if (!New)
    It->second = std::min(It->second, Fraction);
}

double RoomCaps::cap(const std::string &Key, size_t M) const {
  auto K = Caps.find(Key);
  if (K == Caps.end())
    return 1;
  auto It = K->second.find(M);
  return It == K->second.end() ? 1 : It->second;
}

RoomCaps::Applied RoomCaps::apply(const std::string &Key,
                                  const std::vector<Share> &Shares,
                                  const std::vector<size_t> &Takers,
                                  const std::vector<std::string> &Names) const {
  Applied Out;
  Out.Shares = Shares;
  double Total = 0;
  for (const Share &S : Shares)
    Total += S.Weight;
  if (Total <= 0)
    return Out;
  for (Share &S : Out.Shares)
    S.Weight /= Total;
  auto K = Caps.find(Key);
  if (K == Caps.end())
    return Out;
  // Lower the capped members; what they give up, and the uncapped weight
  // that may take it.
  double Excess = 0, Open = 0;
  for (Share &S : Out.Shares) {
    double Cap = cap(Key, S.Member);
    if (Cap < 1) {
      char Part[64];
      std::snprintf(Part, sizeof(Part), "%s<=%.1f%%",
                    S.Member < Names.size() ? Names[S.Member].c_str() : "?",
                    100 * Cap);
      Out.Note += (Out.Note.empty() ? "" : ",") + std::string(Part);
    }
    if (S.Weight > Cap) {
      Excess += S.Weight - Cap;
      S.Weight = Cap;
    } else if (Cap >= 1) {
      Open += S.Weight;
    }
  }
  if (!Out.Note.empty())
    Out.Note = "room[" + Out.Note + "]";
  if (Excess <= 0)
    return Out;
  auto DropEmpty = [&] { // members left with nothing leave the split
    Out.Shares.erase(
        std::remove_if(Out.Shares.begin(), Out.Shares.end(),
                       [](const Share &S) { return S.Weight <= 0; }),
        Out.Shares.end());
  };
  if (Open > 0) { // the split's uncapped members, in proportion
    for (Share &S : Out.Shares)
      if (cap(Key, S.Member) >= 1)
        S.Weight += Excess * S.Weight / Open;
    DropEmpty();
    return Out;
  }
  for (size_t T : Takers) {
    if (Excess <= 0)
      break;
    auto In = std::find_if(Out.Shares.begin(), Out.Shares.end(),
                           [T](const Share &S) { return S.Member == T; });
    double Has = In == Out.Shares.end() ? 0 : In->Weight;
    double Take = std::min(Excess, cap(Key, T) - Has);
    if (Take <= 0)
      continue;
    if (In == Out.Shares.end())
      Out.Shares.push_back({T, Take});
    else
      In->Weight += Take;
    Excess -= Take;
  }
  Out.Overflow = std::max(0.0, Excess);
  DropEmpty();
  return Out;
}

} // namespace hetero

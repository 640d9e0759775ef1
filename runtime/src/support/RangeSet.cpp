//===- RangeSet.cpp - Sets of half-open byte ranges -----------------------===//
#include "hetero/RangeSet.h"

#include <algorithm>

namespace hetero {

void RangeSet::insert(uint64_t Lo, uint64_t Hi) {
  if (Hi <= Lo)
    return;
  // Start from the last range beginning at or before Lo: it may touch.
  auto It = Map.upper_bound(Lo);
  if (It != Map.begin()) {
    auto Prev = std::prev(It);
    if (Prev->second >= Lo) {
      Lo = Prev->first;
      Hi = std::max(Hi, Prev->second);
      It = Map.erase(Prev);
    }
  }
  while (It != Map.end() && It->first <= Hi) {
    Hi = std::max(Hi, It->second);
    It = Map.erase(It);
  }
  Map.emplace(Lo, Hi);
}

void RangeSet::erase(uint64_t Lo, uint64_t Hi) {
  if (Hi <= Lo)
    return;
  auto It = Map.upper_bound(Lo);
  if (It != Map.begin()) {
    auto Prev = std::prev(It);
    if (Prev->second > Lo) {
      uint64_t PLo = Prev->first, PHi = Prev->second;
      Map.erase(Prev);
      if (PLo < Lo)
        Map.emplace(PLo, Lo);
      if (PHi > Hi)
        Map.emplace(Hi, PHi);
      It = Map.upper_bound(Lo);
    }
  }
  while (It != Map.end() && It->first < Hi) {
    uint64_t RHi = It->second;
    It = Map.erase(It);
    if (RHi > Hi) {
      Map.emplace(Hi, RHi);
      break;
    }
  }
}

bool RangeSet::contains(uint64_t Lo, uint64_t Hi) const {
  if (Hi <= Lo)
    return true;
  auto It = Map.upper_bound(Lo);
  if (It == Map.begin())
    return false;
  --It;
  return It->first <= Lo && It->second >= Hi;
}

std::vector<Range> RangeSet::intersect(uint64_t Lo, uint64_t Hi) const {
  std::vector<Range> Out;
  if (Hi <= Lo)
    return Out;
  auto It = Map.upper_bound(Lo);
  if (It != Map.begin())
    --It;
  for (; It != Map.end() && It->first < Hi; ++It) {
    uint64_t A = std::max(Lo, It->first), B = std::min(Hi, It->second);
    if (A < B)
      Out.push_back({A, B});
  }
  return Out;
}

std::vector<Range> RangeSet::missing(uint64_t Lo, uint64_t Hi) const {
  std::vector<Range> Out;
  uint64_t Cursor = Lo;
  for (const Range &R : intersect(Lo, Hi)) {
    if (R.Lo > Cursor)
      Out.push_back({Cursor, R.Lo});
    Cursor = R.Hi;
  }
  if (Cursor < Hi)
    Out.push_back({Cursor, Hi});
  return Out;
}

std::vector<Range> RangeSet::ranges() const {
  std::vector<Range> Out;
  Out.reserve(Map.size());
  for (const auto &[Lo, Hi] : Map)
    Out.push_back({Lo, Hi});
  return Out;
}

uint64_t RangeSet::bytes() const {
  uint64_t N = 0;
  for (const auto &[Lo, Hi] : Map)
    N += Hi - Lo;
  return N;
}

} // namespace hetero

//===- RangeSet.cpp - Sets of half-open byte ranges -----------------------===//
#include "hetero/RangeSet.h"

#include <algorithm>

namespace hetero {

void RangeSet::insert(uint64_t Lo, uint64_t Hi) {
  if (Hi <= Lo)
    return;
  auto It = Map.upper_bound(Lo);
  // The last range beginning at or before Lo grows if it touches.
  if (It != Map.begin()) {
    auto Prev = std::prev(It);
    if (Prev->second.Hi >= Lo) {
      Range &Grown = Prev->second;
      Grown.Hi = std::max(Grown.Hi, Hi);
      while (It != Map.end() && It->first <= Grown.Hi) {
        Grown.Hi = std::max(Grown.Hi, It->second.Hi);
        It = Map.erase(It);
      }
      return;
    }
  }
  if (It == Map.end() || It->first > Hi) {
    Map.emplace_hint(It, Lo, Range{Lo, Hi});
    return;
  }
  // The next range, which it touches, starts at Lo now: its node moves.
  auto Node = Map.extract(It++);
  Hi = std::max(Hi, Node.mapped().Hi);
  while (It != Map.end() && It->first <= Hi) {
    Hi = std::max(Hi, It->second.Hi);
    It = Map.erase(It);
  }
  Node.key() = Lo;
  Node.mapped() = {Lo, Hi};
  Map.insert(It, std::move(Node));
}

void RangeSet::erase(uint64_t Lo, uint64_t Hi) {
  if (Hi <= Lo)
    return;
  auto It = Map.upper_bound(Lo);
  // A range that straddles Lo keeps its head in place; a tail past Hi is
  // a new range, or the same node moved if no head is left.
  auto CutTail = [&](Storage::iterator At, uint64_t TailHi) {
    auto Node = Map.extract(At);
    Node.key() = Hi;
    Node.mapped() = {Hi, TailHi};
    Map.insert(It, std::move(Node));
  };
  if (It != Map.begin()) {
    auto Prev = std::prev(It);
    uint64_t PHi = Prev->second.Hi;
    if (PHi > Lo) {
      if (Prev->first < Lo) {
        Prev->second.Hi = Lo;
        if (PHi > Hi) {
          Map.emplace_hint(It, Hi, Range{Hi, PHi});
          return;
        }
      } else if (PHi > Hi) {
        CutTail(Prev, PHi);
        return;
      } else {
        Map.erase(Prev);
      }
    }
  }
  while (It != Map.end() && It->first < Hi) {
    uint64_t RHi = It->second.Hi;
    if (RHi > Hi) {
      auto At = It++;
      CutTail(At, RHi);
      return;
    }
    It = Map.erase(It);
  }
}

bool RangeSet::contains(uint64_t Lo, uint64_t Hi) const {
  if (Hi <= Lo)
    return true;
  auto It = Map.upper_bound(Lo);
  if (It == Map.begin())
    return false;
  --It;
  return It->first <= Lo && It->second.Hi >= Hi;
}

std::vector<Range> RangeSet::intersect(uint64_t Lo, uint64_t Hi) const {
  std::vector<Range> Out;
  if (Hi <= Lo)
    return Out;
  auto It = Map.upper_bound(Lo);
  if (It != Map.begin())
    --It;
  for (; It != Map.end() && It->first < Hi; ++It) {
    uint64_t A = std::max(Lo, It->first), B = std::min(Hi, It->second.Hi);
    if (A < B)
      Out.push_back({A, B});
  }
  return Out;
}

// The gaps between the ranges that reach into [Lo, Hi), read in place (a
// launch asks this of every section it prepares).
std::vector<Range> RangeSet::missing(uint64_t Lo, uint64_t Hi) const {
  std::vector<Range> Out;
  if (Hi <= Lo)
    return Out;
  uint64_t Cursor = Lo;
  auto It = Map.upper_bound(Lo);
  if (It != Map.begin())
    --It;
  for (; It != Map.end() && It->first < Hi && Cursor < Hi; ++It) {
    if (It->second.Hi <= Cursor)
      continue;
    if (It->first > Cursor)
      Out.push_back({Cursor, It->first});
    Cursor = It->second.Hi;
  }
  if (Cursor < Hi)
    Out.push_back({Cursor, Hi});
  return Out;
}

std::vector<Range> RangeSet::list() const {
  std::vector<Range> Out;
  Out.reserve(Map.size());
  for (const auto &Entry : Map)
    Out.push_back(Entry.second);
  return Out;
}

uint64_t RangeSet::bytes() const {
  uint64_t N = 0;
  for (const auto &Entry : Map)
    N += Entry.second.size();
  return N;
}

} // namespace hetero

//===- HostPinRanges.cpp - Which host memory is pinned --------------------===//
#include "HostPinRanges.h"

#include <algorithm>

namespace hetero {

std::vector<HostPinRanges::Span> HostPinRanges::toPin(uintptr_t Lo,
                                                      uintptr_t Hi) const {
  std::vector<Span> Out;
  uintptr_t At = (Lo + Page - 1) & ~uintptr_t(Page - 1);
  uintptr_t End = Hi & ~uintptr_t(Page - 1);
  uint64_t Room = Limit > Bytes ? Limit - Bytes : 0;
  // From the registration that may cover At, through those inside.
  auto It = Pinned.upper_bound(At);
  if (It != Pinned.begin() && std::prev(It)->second > At)
    At = std::prev(It)->second;
  while (At < End && Room) {
    uintptr_t GapEnd = It == Pinned.end() ? End : std::min(End, It->first);
    if (At < GapEnd) {
      uintptr_t Take = std::min<uint64_t>(GapEnd - At, Room) & ~(Page - 1);
      if (!Take)
        break;
      Out.emplace_back(At, At + Take);
      Room -= Take;
    }
    if (It == Pinned.end())
      break;
    At = std::max(At, It->second);
    ++It;
  }
  return Out;
}

void HostPinRanges::added(uintptr_t Lo, uintptr_t Hi) {
  Pinned.emplace(Lo, Hi);
  Bytes += Hi - Lo;
}

std::vector<HostPinRanges::Span> HostPinRanges::removeInside(uintptr_t Lo,
                                                             uintptr_t Hi) {
  std::vector<Span> Out;
  for (auto It = Pinned.lower_bound(Lo); It != Pinned.end() && It->first < Hi;
       It = Pinned.erase(It)) {
    Out.emplace_back(It->first, It->second);
    Bytes -= It->second - It->first;
  }
  return Out;
}

std::vector<HostPinRanges::Span> HostPinRanges::pieces(uintptr_t Lo,
                                                       uintptr_t Hi) const {
  std::vector<Span> Out;
  auto It = Pinned.upper_bound(Lo);
  if (It != Pinned.begin() && std::prev(It)->second > Lo)
    --It;
  uintptr_t At = Lo;
  for (; At < Hi && It != Pinned.end() && It->first < Hi; ++It) {
    if (At < It->first)
      Out.emplace_back(At, It->first); // pageable, before it
    uintptr_t End = std::min(Hi, It->second);
    Out.emplace_back(std::max(At, It->first), End);
    At = End;
  }
  if (At < Hi)
    Out.emplace_back(At, Hi);
  return Out;
}

} // namespace hetero

//===- LaneReads.cpp - Bytes that queued copies have yet to read ----------===//
#include "hetero/LaneReads.h"

#include <algorithm>

namespace hetero {

void LaneReads::add(NodeId Src, NodeId Dst, uintptr_t Id, uint64_t Lo,
                    uint64_t Hi) {
  for (const Read &R : Reads)
    if (R.Src == Src && R.Dst == Dst && R.Id == Id && R.Lo <= Lo && Hi <= R.Hi)
      return;
  Reads.push_back({Src, Dst, Id, Lo, Hi});
}

std::vector<NodeId> LaneReads::readers(NodeId Src, uintptr_t Id, uint64_t Lo,
                                       uint64_t Hi) const {
  std::vector<NodeId> Out;
  for (const Read &R : Reads)
    if (R.Src == Src && (!Id || (R.Id == Id && R.Lo < Hi && Lo < R.Hi)) &&
        std::find(Out.begin(), Out.end(), R.Dst) == Out.end())
      Out.push_back(R.Dst);
  return Out;
}

std::vector<NodeId> LaneReads::allReaders() const {
  std::vector<NodeId> Out;
  for (const Read &R : Reads)
    if (std::find(Out.begin(), Out.end(), R.Dst) == Out.end())
      Out.push_back(R.Dst);
  return Out;
}

void LaneReads::settled(NodeId Dst) {
  Reads.erase(std::remove_if(Reads.begin(), Reads.end(),
                             [Dst](const Read &R) { return R.Dst == Dst; }),
              Reads.end());
}

void LaneReads::orderedAfter(NodeId Src, NodeId Dst) {
  Reads.erase(std::remove_if(
                  Reads.begin(), Reads.end(),
                  [&](const Read &R) { return R.Src == Src && R.Dst == Dst; }),
              Reads.end());
}

} // namespace hetero

//===- RangeSet.h - Sets of half-open byte ranges ---------------*- C++ -*-===//
//
// A set of disjoint, non-adjacent half-open ranges [Lo, Hi), kept sorted.
// The data layer keeps one per buffer and memory node: the bytes that are
// valid (hold the current contents) on that node.
//
//===----------------------------------------------------------------------===//
#ifndef HETERO_RANGESET_H
#define HETERO_RANGESET_H

#include <cstdint>
#include <map>
#include <vector>

namespace hetero {

struct Range {
  uint64_t Lo = 0;
  uint64_t Hi = 0; // exclusive
  uint64_t size() const { return Hi - Lo; }
  bool empty() const { return Hi <= Lo; }
  bool operator==(const Range &O) const { return Lo == O.Lo && Hi == O.Hi; }
};

class RangeSet {
public:
  /// Adds [Lo, Hi), merging with touching or overlapping ranges.
  void insert(uint64_t Lo, uint64_t Hi);
  /// Removes [Lo, Hi), splitting ranges that straddle it.
  void erase(uint64_t Lo, uint64_t Hi);
  /// True if every byte of [Lo, Hi) is in the set (an empty range is).
  bool contains(uint64_t Lo, uint64_t Hi) const;
  /// The parts of [Lo, Hi) that are in the set, in order.
  std::vector<Range> intersect(uint64_t Lo, uint64_t Hi) const;
  /// The parts of [Lo, Hi) that are not in the set, in order.
  std::vector<Range> missing(uint64_t Lo, uint64_t Hi) const;
  /// Every range of the set, in order.
  std::vector<Range> ranges() const;
  /// Number of bytes in the set.
  uint64_t bytes() const;
  bool empty() const { return Map.empty(); }
  void clear() { Map.clear(); }

private:
  std::map<uint64_t, uint64_t> Map; // Lo -> Hi
};

} // namespace hetero

#endif // HETERO_RANGESET_H

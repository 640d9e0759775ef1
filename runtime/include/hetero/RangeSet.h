//===- RangeSet.h - Sets of half-open byte ranges ---------------*- C++ -*-===//
//
// A set of disjoint, non-adjacent half-open ranges [Lo, Hi), kept sorted.
// The data layer keeps one per buffer and memory node: the bytes that are
// valid (hold the current contents) on that node.
//
//===----------------------------------------------------------------------===//
#ifndef HETERO_RANGESET_H
#define HETERO_RANGESET_H

#include <cstddef>
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
  /// Every range of the set, in order, read in place (no copy): a launch
  /// walks its sections' and the nodes' ranges many times. Not on a
  /// temporary set, which would be gone before the loop over it runs.
  class View;
  View ranges() const &;
  View ranges() const && = delete;
  /// Every range of the set, in order, as a copy.
  std::vector<Range> list() const;
  /// Number of bytes in the set.
  uint64_t bytes() const;
  bool empty() const { return Map.empty(); }
  void clear() { Map.clear(); }

private:
  // Lo -> [Lo, Hi). Nodes are changed in place where a range grows, shrinks
  // or moves its start (extract and reinsert): an update that only moves a
  // boundary allocates nothing.
  using Storage = std::map<uint64_t, Range>;
  Storage Map;
};

class RangeSet::View {
public:
  class Iterator {
  public:
    explicit Iterator(Storage::const_iterator It) : It(It) {}
    const Range &operator*() const { return It->second; }
    const Range *operator->() const { return &It->second; }
    Iterator &operator++() {
      ++It;
      return *this;
    }
    bool operator==(const Iterator &O) const { return It == O.It; }
    bool operator!=(const Iterator &O) const { return It != O.It; }

  private:
    Storage::const_iterator It;
  };
  explicit View(const Storage &Map) : Map(Map) {}
  Iterator begin() const { return Iterator(Map.begin()); }
  Iterator end() const { return Iterator(Map.end()); }
  std::size_t size() const { return Map.size(); }
  bool empty() const { return Map.empty(); }

private:
  const Storage &Map;
};

inline RangeSet::View RangeSet::ranges() const & { return View(Map); }

} // namespace hetero

#endif // HETERO_RANGESET_H

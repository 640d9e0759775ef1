//===- RoomCaps.h - Shares that fit the members' memory ---------*- C++ -*-===//
//
// The share model divides a launch by speed; a member's memory may hold
// less than the share that speed gives it (a GPU part of 35 GB under a
// kernel over 60 GB). A member whose chunk found no room (the data layer's
// NoRoom, after eviction) gets a cap for that kernel and problem size (the
// ShareModel key): the fraction of the launch's iterations whose sections
// it can hold, from its capacity against what its chunk needed. Caps only
// go down; a member's later chunks never ask for more than it could hold.
//
// apply() gives each capped member at most its cap. What they cannot take
// goes to the split's uncapped members in proportion to their shares; where
// every member of the split is capped, to the takers, in their order (the
// engine offers the CPU pool first: it computes its share in place in host
// memory, copying nothing). What nobody can take is the overflow: the
// launch then goes through the members' memory in rounds (Engine.h).
//
//===----------------------------------------------------------------------===//
#ifndef HETERO_ROOMCAPS_H
#define HETERO_ROOMCAPS_H

#include "hetero/Policy.h"

#include <cstddef>
#include <map>
#include <string>
#include <utility>
#include <vector>

namespace hetero {

class RoomCaps {
public:
  /// Member M held at most Fraction of kernel Key's iterations (0 < Fraction
  /// < 1): the cap becomes the lower of that and any earlier one. Below
  /// LeastCap it is 0: the member leaves the kernel's splits (a launch in
  /// hundreds of rounds would pay each round's host time for little).
  void learn(const std::string &Key, size_t M, double Fraction);
  static constexpr double LeastCap = 1.0 / 256;
  /// The part of a member's capacity a cap fills: the rest is for what else
  /// its chunks hold (externals, other kernels' buffers not yet evicted,
  /// granule and block rounding).
  static constexpr double Headroom = 0.9;
  /// M's cap for Key; 1 when it has none.
  double cap(const std::string &Key, size_t M) const;
  bool any(const std::string &Key) const { return Caps.count(Key) != 0; }

  struct Applied {
    std::vector<Share> Shares; // weights are fractions of the launch
    /// The fraction no member can hold (0 when all of it fits).
    double Overflow = 0;
    /// e.g. "room[cuda:0.0<=58.2%]", empty when no cap applied.
    std::string Note;
  };
  /// Shares (weights in any scale) with Key's caps applied; Takers, in
  /// order, take what the split's own members cannot. Names[M] names
  /// member M in the note.
  Applied apply(const std::string &Key, const std::vector<Share> &Shares,
                const std::vector<size_t> &Takers,
                const std::vector<std::string> &Names) const;

private:
  std::map<std::string, std::map<size_t, double>> Caps;
};

} // namespace hetero

#endif // HETERO_ROOMCAPS_H

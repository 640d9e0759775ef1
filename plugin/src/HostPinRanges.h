//===- HostPinRanges.h - Which host memory is pinned ------------*- C++ -*-===//
//
// The bookkeeping of CudaHostPins, apart from the driver so that it is
// tested without a GPU: the ranges registered with the driver, each one
// registration (adjacent ones stay apart: each is unregistered by its own
// start), what of a range asked for is still to pin (whole pages, within a
// limit on all that is pinned), and how a copy is cut so that every piece
// lies in one registration or in none (a copy that spans two of them, or
// pinned and pageable memory, may take the driver's pageable path whole).
//
//===----------------------------------------------------------------------===//
#ifndef HETERO_PLUGIN_HOSTPINRANGES_H
#define HETERO_PLUGIN_HOSTPINRANGES_H

#include <cstdint>
#include <map>
#include <utility>
#include <vector>

namespace hetero {

class HostPinRanges {
public:
  using Span = std::pair<uintptr_t, uintptr_t>; // [first, second)

  /// Page: the host's page size (a power of two); Limit: the most bytes
  /// pinned at once.
  HostPinRanges(uint64_t Page, uint64_t Limit) : Page(Page), Limit(Limit) {}

  /// The whole pages inside [Lo, Hi) not pinned yet, in address order, as
  /// many as keep the bytes pinned within the limit.
  std::vector<Span> toPin(uintptr_t Lo, uintptr_t Hi) const;
  /// [Lo, Hi) (one of toPin()'s spans) was registered.
  void added(uintptr_t Lo, uintptr_t Hi);
  /// Forgets the registrations that start in [Lo, Hi), returning them.
  std::vector<Span> removeInside(uintptr_t Lo, uintptr_t Hi);
  /// [Lo, Hi) cut at every edge of a registration inside it, in order.
  std::vector<Span> pieces(uintptr_t Lo, uintptr_t Hi) const;
  uint64_t bytes() const { return Bytes; }
  bool empty() const { return Pinned.empty(); }

private:
  uint64_t Page, Limit;
  uint64_t Bytes = 0;
  std::map<uintptr_t, uintptr_t> Pinned; // start -> end, disjoint
};

} // namespace hetero

#endif // HETERO_PLUGIN_HOSTPINRANGES_H

//===- WindowSections.h - What a window of iterations touches ---*- C++ -*-===//
//
// A split launch gives each chunk a window [Lo, Hi) of the normalized
// iteration space. Here a window is cut into boxes (a range per collapsed
// level), each access of the descriptor is evaluated over every box with
// interval arithmetic (inner loop variables from their ranges, narrowed by
// the access's guards), and the byte ranges are merged through RangeSet.
//
//===----------------------------------------------------------------------===//
#ifndef HETERO_WINDOWSECTIONS_H
#define HETERO_WINDOWSECTIONS_H

#include "hetero/DescriptorEval.h"

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace hetero {

/// An inner loop that moves an access by more than the rest of its offset
/// spans (a halo's depth rows) is taken one value at a time where it has at
/// most this many values in a box: the section is then its rows' runs, not
/// their hull (WindowSections.cpp, sliceOffset).
constexpr uint64_t MaxSectionSlices = 64;

/// What one descriptor access touches in one window.
struct WindowSection {
  AccessKind Kind = AccessKind::Read;
  /// The evaluated base pointer (Read, Write, ReadAll: names the buffer);
  /// 0 for ReadAny.
  uint64_t Base = 0;
  /// Absolute byte ranges [Lo, Hi), sorted, disjoint and not adjacent; empty
  /// for ReadAll and ReadAny, and for an access that no iteration of the
  /// window reaches (it is under an inner loop that runs zero times).
  std::vector<std::pair<uint64_t, uint64_t>> Ranges;
  /// Write: the window's iterations write every byte of Ranges (an access
  /// marked every, without guards, whose offset is affine in the collapsed
  /// counters alone and tiles each box: exactTiling()). A member then need
  /// not receive those bytes before its chunk runs.
  bool Exact = false;
};

/// The sections the iterations t in [Lo, Hi) of the normalized space touch
/// (N: tripCounts; Lo < Hi <= the product of N), one per access line of the
/// descriptor, in the order of accesses(). A sound over-approximation: every
/// byte any iteration of the window may touch is inside. A read whose offset
/// cannot be bounded (overflow, a division by an interval holding 0, a value
/// outside the range the descriptor can represent) becomes ReadAll. False,
/// with Err, when not computable otherwise (a base that depends on the loop
/// variables, a write without bounds, a failed load); Out is then
/// unspecified.
bool windowSections(const KernelDescriptor &D, const DescEnv &E,
                    const std::vector<uint64_t> &N, uint64_t Lo, uint64_t Hi,
                    std::vector<WindowSection> &Out, std::string &Err);

/// What access Access alone touches in the window: windowSections()'s
/// entry for it, without evaluating the others (OwnerAlign bisects over
/// single iterations of one access). False, with Err, as there, for a
/// reason that concerns this access or the nest.
bool windowSection(const KernelDescriptor &D, const DescEnv &E,
                   const std::vector<uint64_t> &N, uint64_t Lo, uint64_t Hi,
                   size_t Access, WindowSection &Out, std::string &Err);

/// A box of the collapsed nest: per level, k_l in [first, last] (inclusive).
using WindowBox = std::vector<std::pair<uint64_t, uint64_t>>;

/// Cuts the window [Lo, Hi) of the mixed-radix space N (row-major) into at
/// most 2 * N.size() - 1 boxes whose iterations are exactly the window's.
/// Requires Lo < Hi <= the product of N.
void windowBoxes(const std::vector<uint64_t> &N, uint64_t Lo, uint64_t Hi,
                 std::vector<WindowBox> &Out);

} // namespace hetero

#endif // HETERO_WINDOWSECTIONS_H

//===- WritePrediction.h - Chunks' writes that will overlap -----*- C++ -*-===//
//
// The runtime splits a loop's iterations into contiguous windows and runs a
// split only where the windows' write sections are disjoint
// (ChunkPlan.h); a write whose offset moves further along another loop
// variable than along the split loop (a transpose T[j*ld + i], split over
// i) gives each window a section spanning the others', and every launch
// then runs unsplit. The compiler can see that coming from the descriptor
// alone: each unguarded write's offset, where it is linear in the loop
// variables, moves by a byte stride per variable, and a stride that is not
// a constant (ld * 8), or one at least the split loop's (the outermost
// collapsed counter's, times its step), or a constant variable's whole
// range, reaches past the next window (a stride the run sets, along a
// variable the run takes one value at a time where it has few values, only
// where it has many: UnlessAtMost). A prediction, not a decision: the
// descriptor still says "split yes" and the run-time check decides (a
// stride known only then may turn out small); the compiler says it as a
// missed remark, naming the array and its line.
//
//===----------------------------------------------------------------------===//
#ifndef HETERO_WRITEPREDICTION_H
#define HETERO_WRITEPREDICTION_H

#include "hetero/KernelDescriptor.h"
#include "hetero/WindowSections.h"

#include <cstdint>
#include <optional>

namespace hetero {

struct OverlapPrediction {
  size_t Access = 0; // index into D.accesses(): the write
  /// The split loop's byte stride per iteration (0: the write does not move
  /// with it).
  int64_t SplitStride = 0;
  /// The loop variable that spreads each window's writes: a (c l) of an
  /// inner collapsed level or a (v i); none (Kind Const) when the write's
  /// offset depends on no loop variable at all.
  ExprKind VarKind = ExprKind::Const;
  unsigned VarIndex = 0;
  /// Its byte stride, when a constant.
  std::optional<int64_t> VarStride;
  /// Set where the overlap depends on what only the run knows: the write's
  /// rows do not overlap where that variable takes at most this many values
  /// (the run then takes its sections one row at a time:
  /// MaxSectionSlices), as a halo's depth does, and do where it takes more,
  /// as a transpose's column does.
  std::optional<uint64_t> UnlessAtMost;
};

/// The first unguarded write of D whose windows' sections will overlap, as
/// above; nothing when none is predicted (or D is not splittable).
std::optional<OverlapPrediction>
predictOverlappingWrites(const KernelDescriptor &D);

} // namespace hetero

#endif // HETERO_WRITEPREDICTION_H

//===- ChunkPlan.h - Chunks of a split kernel, their sections -*- C++ -*-===//
//
// A split launch hands each pool member contiguous windows [Lo, Hi) of the
// kernel's normalized iteration space. For each window the kernel's
// descriptor gives the byte ranges it may read and write; here they are
// resolved to the data layer's buffers, and the plan is refused when it
// would not be safe: a read or write section that leaves its mapped buffer
// (the sections are sound over-approximations of what the iterations touch,
// so one that leaves the buffer says the analysis or the program is wrong),
// a write outside every mapped buffer, or two chunks whose write sections
// overlap (only disjoint ones can each be made valid on their own node).
//
//===----------------------------------------------------------------------===//
#ifndef HETERO_CHUNKPLAN_H
#define HETERO_CHUNKPLAN_H

#include "hetero/DataLayer.h"
#include "hetero/RangeSet.h"
#include "hetero/WindowSections.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace hetero {

struct ChunkSpec {
  size_t Member = 0; // index into the caller's member list
  uint64_t Lo = 0, Hi = 0;
  bool operator==(const ChunkSpec &O) const {
    return Member == O.Member && Lo == O.Lo && Hi == O.Hi;
  }
};

/// Splits [0, Total) into contiguous chunks in iteration order: member I gets
/// a share proportional to Weights[I], cut into ChunksPerMember pieces of
/// at least MinChunk iterations (a smaller share is one piece). Every
/// boundary but Total is a multiple of Grain (>= 1: rowGrain). Members
/// whose share rounds to nothing get no chunk.
std::vector<ChunkSpec> splitIterations(uint64_t Total,
                                       const std::vector<double> &Weights,
                                       unsigned ChunksPerMember,
                                       uint64_t MinChunk = 1,
                                       uint64_t Grain = 1);

/// Chunks of at least this many rows of a collapsed nest are cut at rows.
constexpr uint64_t MinRowsPerChunk = 4;

/// The grain that cuts a collapsed nest (trip counts N, outermost first)
/// into Chunks pieces at whole rows: the iterations of the innermost levels
/// N[l..] for the smallest l >= 1 that leaves every chunk MinRowsPerChunk
/// such rows; 1 when none does (a one-level loop, or a nest whose outer
/// levels are too short, as a halo update over its depth rows). Chunk
/// boundaries in the middle of a row cut every halo into pieces (the end of
/// one row, the start of the next, a lone neighbour element), and kernels
/// over different column ranges (interior, interior and halo) would cut the
/// same row at different places, so each moved a piece of it at every
/// launch.
uint64_t rowGrain(const std::vector<uint64_t> &N, size_t Chunks);

/// Moves each boundary between consecutive chunks to the nearest multiple
/// of Grain, where that leaves both chunks non-empty. Owner alignment
/// (OwnerAlign.h) puts a boundary where an access starts nearest the data's
/// owner, which for a stencil's i-1 is a column or two before the row: the
/// row stays whole on one member only when the boundary is snapped back.
void snapBoundaries(std::vector<ChunkSpec> &Chunks, uint64_t Grain);

/// What one chunk touches in one buffer (offsets within the buffer).
struct BufferAccess {
  BufferInfo B;
  RangeSet Read;
  RangeSet Write;
  /// Read and Write together: what the chunk needs on its node (sections
  /// are cached, so this is built once, not every launch).
  RangeSet Span;
  /// What of Write the chunk overwrites whole (WindowSection::Exact) and no
  /// chunk of the launch may read: held on its node, not copied there
  /// first.
  RangeSet Covered;
};

struct ChunkSections {
  std::vector<BufferAccess> Buffers;
  /// Reads memory the analysis could not attribute: every buffer.
  bool ReadAny = false;
};

/// A buffer lookup a resolution made: an argument's begin (find) or a
/// computed base (findForPointer), and what the layer answered.
struct SectionLookup {
  uintptr_t Addr = 0;
  bool ForPointer = false;
  std::optional<BufferInfo> Found;
};

/// Resolves every chunk's sections. ArgBegins are the kernel arguments
/// before libomptarget's offsets: a mapped pointer argument lies inside its
/// buffer, while the base the kernel computes with (a section a[lo:len] is
/// passed as &a[0]) may lie far outside it, so an access whose base is an
/// argument is resolved through that argument's buffer. False, with the
/// reason, when the kernel must run unsplit; each reason names the access
/// (accessText: the array and its line) where the descriptor knows it.
/// Lookups, where given, receives each distinct lookup of the layer the
/// answer depends on. OutsideBuffer, where given, receives the reason when
/// it is an access beyond its mapped buffer (most likely the program's
/// error: the caller warns).
bool resolveSections(const KernelDescriptor &D, const DescEnv &Env,
                     const std::vector<uintptr_t> &ArgBegins,
                     const std::vector<uint64_t> &TripCounts, DataLayer &Layer,
                     const std::vector<ChunkSpec> &Chunks,
                     std::vector<ChunkSections> &Out, std::string &Reason,
                     std::vector<SectionLookup> *Lookups = nullptr,
                     std::string *OutsideBuffer = nullptr);

} // namespace hetero

#endif // HETERO_CHUNKPLAN_H

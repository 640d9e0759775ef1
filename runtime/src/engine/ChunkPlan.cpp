//===- ChunkPlan.cpp - Chunks of a split kernel and their sections --------===//
#include "hetero/ChunkPlan.h"

#include "hetero/DataLayer.h"

#include <algorithm>
#include <cmath>
#include <map>

namespace hetero {

std::vector<ChunkSpec> splitIterations(uint64_t Total,
                                       const std::vector<double> &Weights,
                                       unsigned ChunksPerMember,
                                       uint64_t MinChunk, uint64_t Grain) {
  std::vector<ChunkSpec> Out;
  double Sum = 0;
  for (double W : Weights)
    Sum += std::max(W, 0.0);
  if (Total == 0 || Sum <= 0)
    return Out;
  ChunksPerMember = std::max(1u, ChunksPerMember);
  Grain = std::max<uint64_t>(Grain, 1);
  using U128 = unsigned __int128;
  // To the nearest multiple of Grain (Total stays Total).
  auto Snap = [&](uint64_t X) {
    uint64_t Down = X / Grain * Grain;
    uint64_t Up = Down + Grain;
    return X - Down < Up - X || Up > Total ? Down : Up;
  };
  // Cumulative shares, so rounding never loses or duplicates an iteration.
  double Acc = 0;
  uint64_t Start = 0;
  for (size_t M = 0; M < Weights.size(); ++M) {
    Acc += std::max(Weights[M], 0.0);
    uint64_t End =
        M + 1 == Weights.size()
            ? Total
            : Snap(std::min<uint64_t>(
                  Total, static_cast<uint64_t>(std::llround(
                             static_cast<double>(Total) * Acc / Sum))));
    End = std::max(End, Start);
    uint64_t Len = End - Start;
    // Never chunks below MinChunk iterations: a share smaller than that is
    // one chunk.
    uint64_t Pieces = std::min<uint64_t>(
        ChunksPerMember,
        std::max<uint64_t>(1, Len / std::max<uint64_t>(MinChunk, 1)));
    uint64_t Lo = Start;
    for (uint64_t C = 0; C < Pieces && Len; ++C) {
      uint64_t Hi =
          C + 1 == Pieces
              ? End
              : std::min(End, Snap(Start + static_cast<uint64_t>(
                                               U128(Len) * (C + 1) / Pieces)));
      if (Hi > Lo)
        Out.push_back({M, Lo, Hi});
      Lo = std::max(Lo, Hi);
    }
    Start = End;
  }
  return Out;
}

void snapBoundaries(std::vector<ChunkSpec> &Chunks, uint64_t Grain) {
  if (Grain <= 1)
    return;
  for (size_t I = 0; I + 1 < Chunks.size(); ++I) {
    uint64_t X = Chunks[I].Hi;
    uint64_t Down = X / Grain * Grain, Up = Down + Grain;
    uint64_t To = X - Down <= Up - X ? Down : Up;
    if (To > Chunks[I].Lo && To < Chunks[I + 1].Hi)
      Chunks[I].Hi = Chunks[I + 1].Lo = To;
  }
}

uint64_t rowGrain(const std::vector<uint64_t> &N, size_t Chunks) {
  uint64_t Total = 1;
  for (uint64_t X : N)
    Total *= X; // the caller checked the product
  for (size_t L = 1; L < N.size(); ++L) {
    uint64_t Row = 1;
    for (size_t I = L; I < N.size(); ++I)
      Row *= N[I];
    if (Row > 1 && Row < Total &&
        Total / Row >= MinRowsPerChunk * std::max<size_t>(Chunks, 1))
      return Row;
  }
  return 1;
}

namespace {

/// A byte that any chunk of the launch may read arrives before its writer
/// runs, as do all where a chunk may read memory the analysis could not
/// attribute: held and not yet valid there until the launch ends, it would
/// otherwise be fetched, stale, over what its writer wrote, by another
/// chunk on the same member (HETERO_CHUNKS, chunks in order).
void uncoverReads(std::vector<ChunkSections> &Chunks) {
  std::map<BufferId, RangeSet> Read;
  bool Any = false;
  for (const ChunkSections &C : Chunks) {
    Any |= C.ReadAny;
    for (const BufferAccess &A : C.Buffers)
      for (const Range &R : A.Read.ranges())
        Read[A.B.Id].insert(R.Lo, R.Hi);
  }
  for (ChunkSections &C : Chunks)
    for (BufferAccess &A : C.Buffers) {
      if (Any)
        A.Covered.clear();
      if (auto It = Read.find(A.B.Id); It != Read.end())
        for (const Range &R : It->second.ranges())
          A.Covered.erase(R.Lo, R.Hi);
    }
}

BufferAccess &accessFor(ChunkSections &C, const BufferInfo &B) {
  for (BufferAccess &A : C.Buffers)
    if (A.B.Id == B.Id)
      return A;
  C.Buffers.push_back({B, {}, {}, {}, {}});
  return C.Buffers.back();
}

/// "[lo, hi) of a <size>-byte buffer", offsets relative to the buffer.
std::string sectionText(uint64_t Lo, uint64_t Hi, const BufferInfo &B) {
  auto Rel = [&](uint64_t A) {
    return A >= B.base() ? std::to_string(A - B.base())
                         : "-" + std::to_string(B.base() - A);
  };
  return "[" + Rel(Lo) + ", " + Rel(Hi) + ") of a " + std::to_string(B.Size) +
         "-byte buffer";
}

/// What resolveSections() keeps across the accesses of its chunks.
struct SectionScope {
  const KernelDescriptor &D;
  const std::vector<uintptr_t> &ArgBegins;
  DataLayer &Layer;
  std::vector<SectionLookup> *Lookups;
  std::string *OutsideBuffer;
  std::map<BufferId, size_t> Writer; // the first access writing there
};

/// The buffer access Acc's section S names (where X.Lookups, the lookup
/// noted); none for memory outside every mapped buffer.
std::optional<BufferInfo> bufferOf(SectionScope &X, size_t Acc,
                                   const WindowSection &S) {
  const DescExpr &BaseExpr = X.D.expr(X.D.accesses()[Acc].Base);
  SectionLookup Look;
  Look.ForPointer =
      BaseExpr.Kind != ExprKind::Arg || BaseExpr.Index >= X.ArgBegins.size();
  Look.Addr = Look.ForPointer ? S.Base : X.ArgBegins[BaseExpr.Index];
  Look.Found = Look.ForPointer ? X.Layer.findForPointer(Look.Addr)
                               : X.Layer.find(Look.Addr);
  std::optional<BufferInfo> B = Look.Found;
  if (X.Lookups && std::none_of(X.Lookups->begin(), X.Lookups->end(),
                                [&](const SectionLookup &L) {
                                  return L.Addr == Look.Addr &&
                                         L.ForPointer == Look.ForPointer;
                                }))
    X.Lookups->push_back(std::move(Look));
  return B;
}

/// Adds access Acc's section S to chunk C. False, with Reason, where it
/// writes memory outside every mapped buffer, or touches bytes outside its
/// buffer.
bool addAccess(SectionScope &X, size_t Acc, const WindowSection &S,
               ChunkSections &C, std::string &Reason) {
  if (S.Kind == AccessKind::ReadAny) {
    C.ReadAny = true;
    return true;
  }
  std::optional<BufferInfo> B = bufferOf(X, Acc, S);
  bool Write = S.Kind == AccessKind::Write;
  if (!B) {
    if (Write) {
      Reason = accessText(X.D.accesses()[Acc], Acc) +
               " writes memory outside every mapped buffer";
      return false;
    }
    C.ReadAny = true; // not a buffer we know: read everything
    return true;
  }
  BufferAccess &A = accessFor(C, *B);
  if (S.Kind == AccessKind::ReadAll) {
    A.Read.insert(0, B->Size);
    return true;
  }
  if (Write)
    X.Writer.emplace(B->Id, Acc);
  for (const auto &[Lo, Hi] : S.Ranges) {
    // A section is a sound over-approximation of what the iterations
    // touch; one that leaves its buffer means the analysis or the program
    // is wrong about it, and the unsplit kernel is the safe run.
    if (Lo < B->base() || Hi > B->base() + B->Size) {
      Reason = accessText(X.D.accesses()[Acc], Acc) +
               (Write ? " writes" : " reads") + " bytes " +
               sectionText(Lo, Hi, *B) + ": outside what is mapped";
      if (X.OutsideBuffer)
        *X.OutsideBuffer = Reason;
      return false;
    }
    (Write ? A.Write : A.Read).insert(Lo - B->base(), Hi - B->base());
    if (Write && S.Exact)
      A.Covered.insert(Lo - B->base(), Hi - B->base());
  }
  return true;
}

/// Sets the spans of C's buffers and adds its writes to Written (the
/// earlier chunks'); false, with Reason, where C writes bytes one of them
/// wrote.
bool addWrites(const SectionScope &X, ChunkSections &C,
               std::map<BufferId, RangeSet> &Written, std::string &Reason) {
  for (BufferAccess &A : C.Buffers) {
    A.Span = A.Read;
    for (const Range &W : A.Write.ranges())
      A.Span.insert(W.Lo, W.Hi);
    RangeSet &Before = Written[A.B.Id];
    for (const Range &R : A.Write.ranges()) {
      if (!Before.intersect(R.Lo, R.Hi).empty()) {
        auto W = X.Writer.find(A.B.Id);
        Reason = "the chunks' writes of " +
                 (W == X.Writer.end()
                      ? std::string("a buffer")
                      : accessText(X.D.accesses()[W->second], W->second)) +
                 " overlap";
        return false;
      }
    }
    for (const Range &R : A.Write.ranges())
      Before.insert(R.Lo, R.Hi);
  }
  return true;
}

} // namespace

bool resolveSections(const KernelDescriptor &D, const DescEnv &Env,
                     const std::vector<uintptr_t> &ArgBegins,
                     const std::vector<uint64_t> &TripCounts, DataLayer &Layer,
                     const std::vector<ChunkSpec> &Chunks,
                     std::vector<ChunkSections> &Out, std::string &Reason,
                     std::vector<SectionLookup> *Lookups,
                     std::string *OutsideBuffer) {
  Out.assign(Chunks.size(), {});
  if (Lookups)
    Lookups->clear();
  SectionScope X{D, ArgBegins, Layer, Lookups, OutsideBuffer, {}};
  std::map<BufferId, RangeSet> Written; // by earlier chunks
  for (size_t I = 0; I < Chunks.size(); ++I) {
    std::vector<WindowSection> Sections;
    std::string Err;
    if (!windowSections(D, Env, TripCounts, Chunks[I].Lo, Chunks[I].Hi,
                        Sections, Err)) {
      Reason = "sections not computable: " + Err;
      return false;
    }
    for (size_t Acc = 0; Acc < Sections.size(); ++Acc)
      if (!addAccess(X, Acc, Sections[Acc], Out[I], Reason))
        return false;
    if (!addWrites(X, Out[I], Written, Reason))
      return false;
  }
  uncoverReads(Out);
  return true;
}

} // namespace hetero

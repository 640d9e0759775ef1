//===- WindowSections.cpp - What a window of iterations touches -----------===//
#include "hetero/WindowSections.h"

#include "IntervalEvaluator.h"
#include "hetero/RangeSet.h"

#include <algorithm>
#include <cstring>

namespace hetero {

using namespace detail;

namespace {

/// Narrows the intervals of the loop variables in C and V to where every
/// guard holds; false when nowhere (the access is not reached). A bound that
/// cannot be evaluated narrows nothing, which is sound.
bool applyGuards(const KernelDescriptor &D, Evaluator &Ev,
                 const std::vector<DescGuard> &Guards, std::vector<Interval> &C,
                 std::vector<Interval> &V, std::string &Err) {
  for (const DescGuard &G : Guards) {
    const DescExpr &X = D.expr(G.Var);
    std::vector<Interval> &Set = X.Kind == ExprKind::Counter ? C : V;
    if (X.Index >= Set.size())
      continue;
    Interval B;
    if (!Ev.eval(G.Bound, B)) {
      Err.clear();
      continue;
    }
    Interval &I = Set[X.Index];
    int64_t T;
    switch (G.Cmp) {
    case GuardCmp::LT:
      if (!__builtin_sub_overflow(B.Hi, int64_t(1), &T))
        I.Hi = std::min(I.Hi, T);
      break;
    case GuardCmp::LE:
      I.Hi = std::min(I.Hi, B.Hi);
      break;
    case GuardCmp::GT:
      if (!__builtin_add_overflow(B.Lo, int64_t(1), &T))
        I.Lo = std::max(I.Lo, T);
      break;
    case GuardCmp::GE:
      I.Lo = std::max(I.Lo, B.Lo);
      break;
    case GuardCmp::EQ:
      I.Lo = std::max(I.Lo, B.Lo);
      I.Hi = std::min(I.Hi, B.Hi);
      break;
    case GuardCmp::NE:
      // Only a single excluded value at an end of the interval narrows it.
      if (B.isPoint() && I.Lo == B.Lo && I.Lo < I.Hi)
        ++I.Lo;
      else if (B.isPoint() && I.Hi == B.Lo && I.Lo < I.Hi)
        --I.Hi;
      else if (B.isPoint() && I.isPoint() && I.Lo == B.Lo)
        return false;
      break;
    }
    if (I.Lo > I.Hi)
      return false;
  }
  return true;
}

/// Whether expression Id uses a variable marked in Empty.
bool usesEmpty(const KernelDescriptor &D, ExprId Id,
               const std::vector<char> &Empty) {
  const DescExpr &E = D.expr(Id);
  if (E.Kind == ExprKind::Var)
    return E.Index < Empty.size() && Empty[E.Index];
  for (ExprId Op : E.Ops)
    if (Op != NoExpr && usesEmpty(D, Op, Empty))
      return true;
  return false;
}

/// Whether expression Id uses (v Index).
bool usesVar(const KernelDescriptor &D, ExprId Id, unsigned Index) {
  const DescExpr &E = D.expr(Id);
  if (E.Kind == ExprKind::Var && E.Index == Index)
    return true;
  for (ExprId Op : E.Ops)
    if (Op != NoExpr && usesVar(D, Op, Index))
      return true;
  return false;
}

/// An access's byte offsets over a box as a set of intervals, not their
/// hull, where an inner loop moves it in strides wider than the rest of
/// the offset spans: CloverLeaf's halo updates write one column per
/// iteration through an inner loop over 1-2 depth rows (f[j + (1-k)*s]),
/// and the hull of a chunk's rows spans every other chunk's. The inner
/// variables the offset uses whose ranges hold at most MaxSectionSlices values
/// (together) are taken one value at a time, each evaluated with the
/// interval evaluator as before (sound whatever the expression); the slices
/// replace the hull where their total is smaller. Out gets [lo, hi]
/// offset intervals; false: the hull stands.
bool sliceOffset(const KernelDescriptor &D, const DescEnv &E, ExprId Offset,
                 uint64_t Size, const std::vector<Interval> &C,
                 std::vector<Interval> V, const Interval &Hull,
                 std::vector<Interval> &Out) {
  constexpr uint64_t MaxSlices = MaxSectionSlices;
  std::vector<unsigned> Sliced;
  uint64_t Count = 1;
  for (unsigned I = 0; I < V.size(); ++I) {
    if (V[I].isPoint() || V[I].Lo > V[I].Hi || !usesVar(D, Offset, I))
      continue;
    uint64_t Width =
        static_cast<uint64_t>(V[I].Hi) - static_cast<uint64_t>(V[I].Lo) + 1;
    if (Width == 0 || Width > MaxSlices || Count * Width > MaxSlices)
      continue;
    Sliced.push_back(I);
    Count *= Width;
  }
  if (Sliced.empty())
    return false;
  std::vector<Interval> Whole = V;
  std::string Err;
  Evaluator Ev(D, E, Err);
  Ev.Counters = &C;
  Ev.Vars = &V;
  Out.clear();
  for (uint64_t K = 0; K < Count; ++K) {
    uint64_t Rest = K;
    for (unsigned I : Sliced) {
      uint64_t Width = static_cast<uint64_t>(Whole[I].Hi) -
                       static_cast<uint64_t>(Whole[I].Lo) + 1;
      V[I] = point(Whole[I].Lo + static_cast<int64_t>(Rest % Width));
      Rest /= Width;
    }
    Interval Off;
    if (!Ev.eval(Offset, Off))
      return false;
    Out.push_back(Off);
  }
  // Only where the slices leave gaps (else they are the hull, more
  // finely cut).
  std::sort(Out.begin(), Out.end(),
            [](const Interval &A, const Interval &B) { return A.Lo < B.Lo; });
  auto Len = [&](const Interval &I) {
    return static_cast<unsigned __int128>(static_cast<uint64_t>(I.Hi) -
                                          static_cast<uint64_t>(I.Lo)) +
           Size;
  };
  unsigned __int128 Total = 0;
  int64_t Reach = INT64_MIN; // merged: each byte once
  for (const Interval &I : Out) {
    int64_t From = std::max(I.Lo, Reach);
    int64_t End;
    if (__builtin_add_overflow(I.Hi, static_cast<int64_t>(Size), &End))
      return false;
    if (End > From)
      Total += static_cast<uint64_t>(End - From);
    Reach = std::max(Reach, End);
  }
  return Total < Len(Hull);
}

/// Whether expression Id is affine in the collapsed counters alone: sums,
/// differences and negations of such terms, products with and left shifts
/// by counter-free factors, and counter-free terms (anything else). No
/// inner loop variable.
bool counterAffine(const KernelDescriptor &D, ExprId Id) {
  const DescExpr &E = D.expr(Id);
  switch (E.Kind) {
  case ExprKind::Counter:
    return true;
  case ExprKind::Var:
    return false;
  case ExprKind::Add:
  case ExprKind::Sub:
    return counterAffine(D, E.Ops[0]) && counterAffine(D, E.Ops[1]);
  case ExprKind::Neg:
    return counterAffine(D, E.Ops[0]);
  case ExprKind::Mul:
    return (!D.usesLoopVariable(E.Ops[0]) && counterAffine(D, E.Ops[1])) ||
           (!D.usesLoopVariable(E.Ops[1]) && counterAffine(D, E.Ops[0]));
  case ExprKind::Shl:
    return !D.usesLoopVariable(E.Ops[1]) && counterAffine(D, E.Ops[0]);
  default:
    return !D.usesLoopVariable(Id);
  }
}

void boxesFrom(const std::vector<uint64_t> &N,
               const std::vector<uint64_t> &Stride, size_t L, uint64_t Lo,
               uint64_t Hi, WindowBox &Prefix, std::vector<WindowBox> &Out) {
  if (L + 1 == N.size()) {
    Prefix[L] = {Lo, Hi - 1};
    Out.push_back(Prefix);
    return;
  }
  uint64_t R = Stride[L];
  uint64_t A = Lo / R, RA = Lo % R, B = (Hi - 1) / R, RB = (Hi - 1) % R;
  if (A == B) {
    Prefix[L] = {A, A};
    boxesFrom(N, Stride, L + 1, RA, RB + 1, Prefix, Out);
    return;
  }
  uint64_t First = A, Last = B;
  if (RA != 0) { // partial head row
    Prefix[L] = {A, A};
    boxesFrom(N, Stride, L + 1, RA, R, Prefix, Out);
    First = A + 1;
  }
  bool Tail = RB != R - 1;
  if (Tail)
    Last = B - 1;
  if (First <= Last) { // whole rows
    WindowBox Box = Prefix;
    Box[L] = {First, Last};
    for (size_t I = L + 1; I < N.size(); ++I)
      Box[I] = {0, N[I] - 1};
    Out.push_back(std::move(Box));
  }
  if (Tail) { // partial tail row
    Prefix[L] = {B, B};
    boxesFrom(N, Stride, L + 1, 0, RB + 1, Prefix, Out);
  }
}

/// Whether the offsets (an expression counterAffine() accepts) of box
/// Box's iterations, each writing Size bytes, tile one range: its counters'
/// strides, found from the box's first iteration and the next along each
/// level, are Size, then Size times the counts of the levels below, in some
/// order (row-major `a[i*m + j]` over whole or partial rows, `a[i]`), so
/// that no two iterations write the same byte and no byte in between is
/// left out.
bool exactTiling(const KernelDescriptor &D, const DescEnv &E, ExprId Offset,
                 uint64_t Size, const WindowBox &Box,
                 const std::vector<int64_t> &Init,
                 const std::vector<int64_t> &Step) {
  std::string Err;
  Evaluator Ev(D, E, Err);
  std::vector<Interval> C(Box.size()), V;
  Ev.Counters = &C;
  Ev.Vars = &V;
  // The offset at the box's first iteration, moved one step along Moved.
  auto At = [&](size_t Moved, int64_t &Out) {
    for (size_t L = 0; L < Box.size(); ++L) {
      auto K = static_cast<int64_t>(Box[L].first + (L == Moved ? 1 : 0));
      int64_t X;
      if (__builtin_mul_overflow(Step[L], K, &X) ||
          __builtin_add_overflow(Init[L], X, &X))
        return false;
      C[L] = point(X);
    }
    Interval O;
    if (!Ev.eval(Offset, O) || !O.isPoint())
      return false;
    Out = O.Lo;
    return true;
  };
  int64_t Origin;
  if (!At(Box.size(), Origin))
    return false;
  std::vector<std::pair<unsigned __int128, uint64_t>> Strides; // |s|, count
  for (size_t L = 0; L < Box.size(); ++L) {
    uint64_t Count = Box[L].second - Box[L].first + 1;
    int64_t Next;
    if (Count == 1)
      continue;
    if (!At(L, Next))
      return false;
    __int128 S = static_cast<__int128>(Next) - Origin;
    if (S == 0)
      return false;
    Strides.emplace_back(static_cast<unsigned __int128>(S < 0 ? -S : S), Count);
  }
  std::sort(Strides.begin(), Strides.end());
  unsigned __int128 Want = Size;
  for (const auto &[S, Count] : Strides) {
    if (S != Want)
      return false;
    Want *= Count;
  }
  return true;
}

} // namespace

void windowBoxes(const std::vector<uint64_t> &N, uint64_t Lo, uint64_t Hi,
                 std::vector<WindowBox> &Out) {
  Out.clear();
  uint64_t Total;
  if (N.empty() || !product(N, 0, Total) || Lo >= Hi || Hi > Total)
    return;
  std::vector<uint64_t> Stride(N.size());
  for (size_t L = 0; L < N.size(); ++L)
    product(N, L + 1, Stride[L]);
  WindowBox Prefix(N.size());
  boxesFrom(N, Stride, 0, Lo, Hi, Prefix, Out);
}

namespace {

/// What sections() works with over one window: the loop headers, and the
/// intervals of the counters and inner variables over the current box.
struct WindowState {
  const KernelDescriptor &D;
  const DescEnv &E;
  std::string &Err;
  std::vector<int64_t> Init, Step;
  std::vector<Interval> C, V;
  std::vector<char> Empty; // inner loops that run zero times in the box
  Evaluator Ev;
  WindowState(const KernelDescriptor &D, const DescEnv &E, std::string &Err)
      : D(D), E(E), Err(Err), Init(D.depth()), Step(D.depth()), C(D.depth()),
        V(D.vars().size()), Empty(D.vars().size()), Ev(D, E, Err) {
    Ev.Counters = &C;
    Ev.Vars = &V;
  }
  bool fail(std::string Msg) {
    Err = std::move(Msg);
    return false;
  }
};

/// Each access's kind and base (a single value), and whether a write may
/// be exact (until a box says otherwise).
bool bases(WindowState &W, const size_t *Only,
           std::vector<WindowSection> &Out) {
  const std::vector<DescAccess> &Accesses = W.D.accesses();
  Out.resize(Accesses.size());
  for (size_t I = 0; I < Accesses.size(); ++I) {
    const DescAccess &A = Accesses[I];
    Out[I].Kind = A.Kind;
    if (A.Kind == AccessKind::ReadAny || (Only && I != *Only))
      continue;
    Evaluator Ev(W.D, W.E, W.Err);
    int64_t Base;
    if (!Ev.evalPoint(A.Base, Base))
      return W.fail("base of " + accessText(A, I) + ": " + W.Err);
    std::memcpy(&Out[I].Base, &Base, sizeof(Base));
    Out[I].Exact = A.Kind == AccessKind::Write && A.Every && A.Guards.empty() &&
                   counterAffine(W.D, A.Offset);
  }
  return true;
}

/// The counters' and the inner variables' intervals over Box.
bool enterBox(WindowState &W, const WindowBox &Box) {
  for (unsigned L = 0; L < W.D.depth(); ++L) {
    int64_t X, Y;
    if (__builtin_mul_overflow(W.Step[L], Box[L].first, &X) ||
        __builtin_add_overflow(W.Init[L], X, &X) ||
        __builtin_mul_overflow(W.Step[L], Box[L].second, &Y) ||
        __builtin_add_overflow(W.Init[L], Y, &Y))
      return W.fail("overflow in the counter of loop " + std::to_string(L));
    W.C[L] = {std::min(X, Y), std::max(X, Y)};
  }
  // Inner variables in order of id; one whose loop runs zero times at
  // every point of the box is empty, and so is every loop nested in it.
  for (size_t I = 0; I < W.V.size(); ++I) {
    const DescVar &DV = W.D.vars()[I];
    W.Empty[I] =
        usesEmpty(W.D, DV.Lo, W.Empty) || usesEmpty(W.D, DV.Hi, W.Empty);
    if (W.Empty[I])
      continue;
    Interval L, H;
    if (!W.Ev.eval(DV.Lo, L) || !W.Ev.eval(DV.Hi, H)) {
      // Bounds it cannot read (a load it cannot scan): any value. A read
      // through it becomes a read of its whole buffer; a write fails.
      W.V[I] = {INT64_MIN, INT64_MAX};
      W.Err.clear();
      continue;
    }
    W.V[I] = {L.Lo, H.Hi};
    W.Empty[I] = L.Lo > H.Hi;
  }
  return true;
}

/// Adds what access I touches over Box (enterBox()) to Out.
bool accessOverBox(WindowState &W, size_t I, const WindowBox &Box,
                   WindowSection &Out) {
  const DescAccess &A = W.D.accesses()[I];
  if (usesEmpty(W.D, A.Offset, W.Empty))
    return true; // not reached in this box
  bool Ok = true;
  Interval Off;
  std::vector<Interval> GC = W.C, GV = W.V;
  if (A.Guards.empty()) {
    Ok = W.Ev.eval(A.Offset, Off);
  } else {
    if (!applyGuards(W.D, W.Ev, A.Guards, GC, GV, W.Err))
      return true; // no iteration of the box takes this branch
    Evaluator GEv(W.D, W.E, W.Err);
    GEv.Counters = &GC;
    GEv.Vars = &GV;
    Ok = GEv.eval(A.Offset, Off);
  }
  if (!Ok) {
    if (A.Kind == AccessKind::Write)
      return W.fail("offset of " + accessText(A, I) + ": " + W.Err);
    // A read without computable bounds may read anything in its buffer.
    Out.Kind = AccessKind::ReadAll;
    Out.Ranges.clear();
    W.Err.clear();
    return true;
  }
  if (Out.Exact)
    Out.Exact = exactTiling(W.D, W.E, A.Offset, A.Size, Box, W.Init, W.Step);
  std::vector<Interval> Slices;
  if (!sliceOffset(W.D, W.E, A.Offset, A.Size, GC, GV, Off, Slices))
    Slices.assign(1, Off);
  for (const Interval &S : Slices) {
    uint64_t RLo, RHi;
    if (__builtin_add_overflow(Out.Base, S.Lo, &RLo) ||
        __builtin_add_overflow(Out.Base, S.Hi, &RHi) ||
        __builtin_add_overflow(RHi, A.Size, &RHi))
      return W.fail("access " + std::to_string(I) +
                    " outside the address space");
    Out.Ranges.push_back({RLo, RHi});
  }
  return true;
}

/// windowSections() over every access, or over access *Only alone (the
/// others are left with their kind and no ranges).
bool sections(const KernelDescriptor &D, const DescEnv &E,
              const std::vector<uint64_t> &N, uint64_t Lo, uint64_t Hi,
              const size_t *Only, std::vector<WindowSection> &Out,
              std::string &Err) {
  Out.clear();
  Err.clear();
  WindowState W(D, E, Err);
  unsigned Depth = D.depth();
  uint64_t Total;
  if (Depth == 0 || N.size() != Depth)
    return W.fail("trip counts do not match the nest");
  if (!product(N, 0, Total) || Lo >= Hi || Hi > Total)
    return W.fail("bad window [" + std::to_string(Lo) + ", " +
                  std::to_string(Hi) + ")");
  for (unsigned L = 0; L < Depth; ++L) {
    int64_t Bound;
    if (!loopHeader(D, E, L, W.Init[L], Bound, W.Step[L], Err))
      return false;
  }
  if (!bases(W, Only, Out))
    return false;

  std::vector<WindowBox> Boxes;
  windowBoxes(N, Lo, Hi, Boxes);
  for (const WindowBox &Box : Boxes) {
    if (!enterBox(W, Box))
      return false;
    for (size_t I = 0; I < Out.size(); ++I)
      if ((Out[I].Kind == AccessKind::Read ||
           Out[I].Kind == AccessKind::Write) &&
          (!Only || I == *Only) && !accessOverBox(W, I, Box, Out[I]))
        return false;
  }

  for (WindowSection &S : Out) {
    RangeSet Merged;
    for (const auto &[RLo, RHi] : S.Ranges)
      Merged.insert(RLo, RHi);
    S.Ranges.clear();
    for (const Range &R : Merged.ranges())
      S.Ranges.push_back({R.Lo, R.Hi});
  }
  return true;
}

} // namespace

bool windowSections(const KernelDescriptor &D, const DescEnv &E,
                    const std::vector<uint64_t> &N, uint64_t Lo, uint64_t Hi,
                    std::vector<WindowSection> &Out, std::string &Err) {
  return sections(D, E, N, Lo, Hi, nullptr, Out, Err);
}

bool windowSection(const KernelDescriptor &D, const DescEnv &E,
                   const std::vector<uint64_t> &N, uint64_t Lo, uint64_t Hi,
                   size_t Access, WindowSection &Out, std::string &Err) {
  if (Access >= D.accesses().size()) {
    Err = "no access " + std::to_string(Access);
    return false;
  }
  std::vector<WindowSection> All;
  if (!sections(D, E, N, Lo, Hi, &Access, All, Err))
    return false;
  Out = std::move(All[Access]);
  return true;
}

} // namespace hetero

//===- WritePrediction.cpp - Chunks' writes that will overlap -------------===//
#include "hetero/WritePrediction.h"

#include <cstdint>
#include <cstdlib>
#include <map>
#include <utility>

namespace hetero {

namespace {

/// A coefficient of a linear form: a constant, or a value only the run
/// knows (it holds arguments or memory).
struct Coef {
  bool Known = true;
  int64_t Value = 0;
};

/// Loop variable -> its coefficient: (false, l) is (c l), (true, i) (v i).
using Terms = std::map<std::pair<bool, unsigned>, Coef>;

Coef times(Coef A, Coef B) {
  if ((A.Known && A.Value == 0) || (B.Known && B.Value == 0))
    return {true, 0};
  int64_t V;
  if (!A.Known || !B.Known || __builtin_mul_overflow(A.Value, B.Value, &V))
    return {false, 0};
  return {true, V};
}

Coef plus(Coef A, Coef B) {
  int64_t V;
  if (!A.Known || !B.Known || __builtin_add_overflow(A.Value, B.Value, &V))
    return {false, 0};
  return {true, V};
}

void scale(Terms &T, Coef F) {
  for (auto &[Key, C] : T)
    C = times(C, F);
}

/// The expression's coefficients, where it is linear in the loop
/// variables (wraps taken as exact: a prediction).
std::optional<Terms> linear(const KernelDescriptor &D, ExprId Id) {
  const DescExpr &E = D.expr(Id);
  switch (E.Kind) {
  case ExprKind::Counter:
    return Terms{{{false, E.Index}, {true, 1}}};
  case ExprKind::Var:
    return Terms{{{true, E.Index}, {true, 1}}};
  case ExprKind::Wrap:
    return linear(D, E.Ops[0]);
  case ExprKind::Neg: {
    std::optional<Terms> T = linear(D, E.Ops[0]);
    if (T)
      scale(*T, {true, -1});
    return T;
  }
  case ExprKind::Add:
  case ExprKind::Sub: {
    std::optional<Terms> A = linear(D, E.Ops[0]), B = linear(D, E.Ops[1]);
    if (!A || !B)
      return std::nullopt;
    if (E.Kind == ExprKind::Sub)
      scale(*B, {true, -1});
    for (const auto &[Key, C] : *B) {
      auto It = A->find(Key);
      if (It == A->end())
        A->emplace(Key, C);
      else
        It->second = plus(It->second, C);
    }
    return A;
  }
  case ExprKind::Mul:
  case ExprKind::Shl: {
    bool UsesA = D.usesLoopVariable(E.Ops[0]),
         UsesB = D.usesLoopVariable(E.Ops[1]);
    if (UsesA && UsesB)
      return std::nullopt;
    if (!UsesA && !UsesB)
      return Terms{};
    if (E.Kind == ExprKind::Shl && UsesB)
      return std::nullopt;
    ExprId Var = UsesA ? E.Ops[0] : E.Ops[1];
    ExprId Factor = UsesA ? E.Ops[1] : E.Ops[0];
    std::optional<Terms> T = linear(D, Var);
    if (!T)
      return std::nullopt;
    const DescExpr &F = D.expr(Factor);
    Coef By{F.Kind == ExprKind::Const, F.Value};
    if (E.Kind == ExprKind::Shl)
      By = By.Known && By.Value >= 0 && By.Value < 62
               ? Coef{true, int64_t(1) << By.Value}
               : Coef{false, 0};
    scale(*T, By);
    return T;
  }
  default:
    // Constants, arguments, loads and anything else without a loop
    // variable are constant over the loop; with one, not linear.
    if (D.usesLoopVariable(Id))
      return std::nullopt;
    return Terms{};
  }
}

/// The value of an expression of literals (+, -, *, neg; a loop's
/// `k < 2` comes as (- 2 1)).
std::optional<int64_t> literal(const KernelDescriptor &D, ExprId Id) {
  if (Id == NoExpr)
    return std::nullopt;
  const DescExpr &E = D.expr(Id);
  if (E.Kind == ExprKind::Const)
    return E.Value;
  if (E.Kind == ExprKind::Neg) {
    std::optional<int64_t> A = literal(D, E.Ops[0]);
    int64_t V;
    if (!A || __builtin_sub_overflow(int64_t(0), *A, &V))
      return std::nullopt;
    return V;
  }
  if (E.Kind != ExprKind::Add && E.Kind != ExprKind::Sub &&
      E.Kind != ExprKind::Mul)
    return std::nullopt;
  std::optional<int64_t> A = literal(D, E.Ops[0]), B = literal(D, E.Ops[1]);
  int64_t V;
  if (!A || !B ||
      (E.Kind == ExprKind::Add && __builtin_add_overflow(*A, *B, &V)) ||
      (E.Kind == ExprKind::Sub && __builtin_sub_overflow(*A, *B, &V)) ||
      (E.Kind == ExprKind::Mul && __builtin_mul_overflow(*A, *B, &V)))
    return std::nullopt;
  return V;
}

} // namespace

/// Whether a term of write A's offset (T, beside the split loop's, whose
/// stride P holds) moves it past the next window's bytes: P says which.
static bool spreadsPastWindow(const KernelDescriptor &D, const DescAccess &A,
                              const Terms &T, OverlapPrediction &P) {
  for (const auto &[Key, C] : T) {
    if (Key == std::make_pair(false, 0u) || (C.Known && C.Value == 0))
      continue;
    P.VarKind = Key.first ? ExprKind::Var : ExprKind::Counter;
    P.VarIndex = Key.second;
    if (!C.Known) {
      // A stride the run sets, most likely a row's: rows taken one at a
      // time (where the variable has few values) never overlap the next
      // window's, a column's many rows do.
      if (P.SplitStride == 0)
        continue;
      std::optional<int64_t> Lo, Hi;
      if (Key.first && Key.second < D.vars().size()) {
        Lo = literal(D, D.vars()[Key.second].Lo);
        Hi = literal(D, D.vars()[Key.second].Hi);
      }
      if (Lo && Hi) {
        if (*Hi - *Lo + 1 <= static_cast<int64_t>(MaxSectionSlices))
          continue; // sliced: exact rows
      } else if (Key.first) {
        P.UnlessAtMost = MaxSectionSlices; // the run knows its range
      }
      return true;
    }
    P.VarStride = std::llabs(C.Value);
    // Its whole range, where the descriptor gives it as constants; else
    // one step of it already reaches as far as the split loop's.
    int64_t Span = *P.VarStride;
    if (Key.first && Key.second < D.vars().size()) {
      std::optional<int64_t> Lo = literal(D, D.vars()[Key.second].Lo),
                             Hi = literal(D, D.vars()[Key.second].Hi);
      if (Lo && Hi) {
        if (*Hi <= *Lo)
          continue; // one value: no spread
        int64_t Range;
        if (__builtin_mul_overflow(*P.VarStride, *Hi - *Lo, &Range))
          Range = INT64_MAX;
        Span = Range;
      }
    }
    if (Span + static_cast<int64_t>(A.Size) > P.SplitStride)
      return true;
  }
  return false;
}

std::optional<OverlapPrediction>
predictOverlappingWrites(const KernelDescriptor &D) {
  if (!D.splittable() || D.depth() == 0)
    return std::nullopt;
  std::optional<int64_t> Step = literal(D, D.loops()[0].Step);
  if (!Step)
    return std::nullopt;
  for (size_t I = 0; I < D.accesses().size(); ++I) {
    const DescAccess &A = D.accesses()[I];
    if (A.Kind != AccessKind::Write || !A.Guards.empty())
      continue;
    std::optional<Terms> T = linear(D, A.Offset);
    if (!T)
      continue;
    OverlapPrediction P;
    P.Access = I;
    auto Split = T->find({false, 0});
    if (Split != T->end()) {
      Coef S = times(Split->second, {true, *Step});
      if (!S.Known)
        continue; // the split loop's stride is the run's: no telling
      P.SplitStride = std::llabs(S.Value);
    }
    bool Spread = spreadsPastWindow(D, A, *T, P);
    // Unmoved by any loop variable: every window writes the same bytes.
    if (!Spread && P.SplitStride == 0 && Split == T->end()) {
      P.VarKind = ExprKind::Const;
      P.VarStride.reset();
      Spread = true;
    }
    if (Spread)
      return P;
  }
  return std::nullopt;
}

} // namespace hetero

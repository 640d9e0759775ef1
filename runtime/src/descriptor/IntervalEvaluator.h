//===- IntervalEvaluator.h - Expressions over intervals ---------*- C++ -*-===//
//
// Private to the descriptor's evaluation (DescriptorEval.cpp,
// WindowSections.cpp): the interval evaluator both use.
//
//===----------------------------------------------------------------------===//
#ifndef HETERO_INTERVALEVALUATOR_H
#define HETERO_INTERVALEVALUATOR_H

#include "hetero/DescriptorEval.h"

#include <cstdint>
#include <string>
#include <vector>

namespace hetero::detail {

struct Interval {
  int64_t Lo = 0, Hi = 0; // inclusive
  bool isPoint() const { return Lo == Hi; }
};

inline Interval point(int64_t V) { return {V, V}; }

/// Interval evaluation; a point evaluation is one over points. Counter and
/// Var give the intervals of (c l) and (v i); null: the expression must not
/// use them.
class Evaluator {
public:
  Evaluator(const KernelDescriptor &D, const DescEnv &E, std::string &Err)
      : D(D), Env(E), Err(Err) {}

  const std::vector<Interval> *Counters = nullptr;
  const std::vector<Interval> *Vars = nullptr;

  bool eval(ExprId Id, Interval &Out);
  bool evalPoint(ExprId Id, int64_t &Out) {
    Interval I;
    if (!eval(Id, I))
      return false;
    if (!I.isPoint())
      return fail("depends on loop variables");
    Out = I.Lo;
    return true;
  }

private:
  const KernelDescriptor &D;
  const DescEnv &Env;
  std::string &Err;

  bool fail(const std::string &Msg) {
    if (Err.empty())
      Err = Msg;
    return false;
  }
  bool overflow(const DescExpr &E) {
    return fail(std::string("overflow in (") + exprOperatorName(E.Kind) +
                " ...)");
  }
  bool extend(uint64_t Raw, const DescExpr &E, int64_t &Out);
  bool load(const DescExpr &E, Interval Address, Interval &Out);
  /// The step G of Id's values as the loop variables move: every value is
  /// congruent to the least modulo G (0: Id does not move). False when Id
  /// is not linear in them (a moving load inside, a product of two, a wrap
  /// across its type's range, ...).
  bool stride(ExprId Id, uint64_t &G);
  bool wrap(const DescExpr &E, Interval A, Interval &Out);
  bool binary(const DescExpr &E, Interval A, Interval B, Interval &Out);
  bool bitwise(const DescExpr &E, Interval A, Interval B, Interval &Out);
};

/// |V| as unsigned (defined for INT64_MIN too).
uint64_t magnitude(int64_t V);

/// The header of loop L evaluated with the launch's arguments.
bool loopHeader(const KernelDescriptor &D, const DescEnv &E, unsigned L,
                int64_t &Init, int64_t &Bound, int64_t &Step, std::string &Err);

/// The product of N[From..]; false on overflow.
bool product(const std::vector<uint64_t> &N, size_t From, uint64_t &Out);

} // namespace hetero::detail

#endif // HETERO_INTERVALEVALUATOR_H

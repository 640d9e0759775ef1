//===- DescriptorEval.cpp - A descriptor's values for one launch ----------===//
#include "IntervalEvaluator.h"

#include <algorithm>
#include <cstring>
#include <limits>
#include <numeric>
#include <type_traits>

namespace hetero {
namespace detail {

static bool wrapShifts(const DescExpr &E, Interval A);

bool Evaluator::extend(uint64_t Raw, const DescExpr &E, int64_t &Out) {
  unsigned Bits = E.Bytes * 8;
  if (Bits < 64) {
    uint64_t Mask = (uint64_t(1) << Bits) - 1;
    Raw &= Mask;
    if (E.Signed && (Raw >> (Bits - 1)))
      Raw |= ~Mask;
  } else if (!E.Signed && Raw > uint64_t(INT64_MAX)) {
    return fail("unsigned 64-bit value " + std::to_string(Raw) +
                " out of range");
  }
  std::memcpy(&Out, &Raw, sizeof(Out));
  return true;
}

bool Evaluator::eval(ExprId Id, Interval &Out) {
  const DescExpr &E = D.expr(Id);
  switch (E.Kind) {
  case ExprKind::Const:
    Out = point(E.Value);
    return true;
  case ExprKind::Arg:
  case ExprKind::SArg: {
    if (E.Index >= Env.Args.size())
      return fail("argument " + std::to_string(E.Index) +
                  " missing (the launch has " +
                  std::to_string(Env.Args.size()) + ")");
    uint64_t Raw = Env.Args[E.Index];
    int64_t V;
    if (E.Kind == ExprKind::Arg)
      std::memcpy(&V, &Raw, sizeof(V));
    else if (!extend(Raw, E, V))
      return false;
    Out = point(V);
    return true;
  }
  case ExprKind::Load: {
    Interval A;
    return eval(E.Ops[0], A) && load(E, A, Out);
  }
  case ExprKind::Counter:
    if (!Counters || E.Index >= Counters->size())
      return fail("depends on loop variables");
    Out = (*Counters)[E.Index];
    return true;
  case ExprKind::Var:
    if (!Vars || E.Index >= Vars->size())
      return fail("depends on loop variables");
    Out = (*Vars)[E.Index];
    return true;
  case ExprKind::Neg: {
    Interval A;
    if (!eval(E.Ops[0], A))
      return false;
    if (__builtin_sub_overflow(int64_t(0), A.Hi, &Out.Lo) ||
        __builtin_sub_overflow(int64_t(0), A.Lo, &Out.Hi))
      return overflow(E);
    return true;
  }
  case ExprKind::Wrap: {
    Interval A;
    if (!eval(E.Ops[0], A))
      return false;
    return wrap(E, A, Out);
  }
  default: {
    Interval A, B;
    if (!eval(E.Ops[0], A) || !eval(E.Ops[1], B))
      return false;
    return binary(E, A, B, Out);
  }
  }
}

bool Evaluator::load(const DescExpr &E, Interval A, Interval &Out) {
  if (!A.isPoint()) {
    // Over a window: the values at every address the load may read.
    uint64_t G;
    if (!stride(E.Ops[0], G) || G == 0)
      return fail("load address moves unevenly with the loop variables");
    uint64_t Span = static_cast<uint64_t>(A.Hi) - static_cast<uint64_t>(A.Lo);
    uint64_t Count = Span / G + 1;
    if (Count > MaxLoadRange)
      return fail("load over " + std::to_string(Count) + " values");
    uint64_t Addr;
    std::memcpy(&Addr, &A.Lo, sizeof(Addr));
    if (!Env.LoadRange ||
        !Env.LoadRange(Addr, E.Bytes, G, Count, E.Signed, Out.Lo, Out.Hi))
      return fail("cannot read " + std::to_string(Count) + " values at " +
                  std::to_string(Addr));
    return true;
  }
  uint64_t Addr;
  std::memcpy(&Addr, &A.Lo, sizeof(Addr));
  unsigned char Buf[8] = {};
  if (!Env.Load || !Env.Load(Addr, Buf, E.Bytes))
    return fail("cannot read " + std::to_string(E.Bytes) +
                " bytes at address " + std::to_string(Addr));
  // Little-endian targets: the low bytes come first.
  uint64_t Raw = 0;
  for (unsigned I = 0; I < E.Bytes; ++I)
    Raw |= uint64_t(Buf[I]) << (8 * I);
  int64_t V;
  if (!extend(Raw, E, V))
    return false;
  Out = point(V);
  return true;
}

bool Evaluator::stride(ExprId Id, uint64_t &G) {
  const DescExpr &E = D.expr(Id);
  auto Fixed = [&](ExprId X, int64_t &V) { // X does not move: its value
    uint64_t S;
    Interval I;
    if (!stride(X, S) || S != 0 || !eval(X, I) || !I.isPoint())
      return false;
    V = I.Lo;
    return true;
  };
  switch (E.Kind) {
  case ExprKind::Const:
  case ExprKind::Arg:
  case ExprKind::SArg:
    G = 0;
    return true;
  case ExprKind::Counter:
  case ExprKind::Var:
    G = 1;
    return true;
  case ExprKind::Load: {
    Interval A;
    G = 0;
    return eval(E.Ops[0], A) && A.isPoint();
  }
  case ExprKind::Neg:
    return stride(E.Ops[0], G);
  case ExprKind::Add:
  case ExprKind::Sub: {
    uint64_t X, Y;
    if (!stride(E.Ops[0], X) || !stride(E.Ops[1], Y))
      return false;
    G = std::gcd(X, Y);
    return true;
  }
  case ExprKind::Mul:
  case ExprKind::Shl: {
    int64_t K;
    uint64_t S;
    bool LeftFixed = E.Kind == ExprKind::Mul && Fixed(E.Ops[0], K);
    if (!LeftFixed && !Fixed(E.Ops[1], K))
      return false;
    if (!stride(E.Ops[LeftFixed ? 1 : 0], S))
      return false;
    if (E.Kind == ExprKind::Shl) {
      if (K < 0 || K > 62)
        return false;
      K = int64_t(1) << K;
    }
    return !__builtin_mul_overflow(S, magnitude(K), &G);
  }
  case ExprKind::Wrap: {
    Interval A;
    if (!stride(E.Ops[0], G))
      return false;
    // Within one period of the type a wrap shifts every value alike.
    return G == 0 || (eval(E.Ops[0], A) && wrapShifts(E, A));
  }
  default: { // min, max, either, /, %, shr, and, or, xor: fixed operands only
    int64_t V;
    G = 0;
    for (ExprId X : E.Ops)
      if (X != NoExpr && !Fixed(X, V))
        return false;
    return true;
  }
  }
}

/// The W-bit type's range is [Min, Min + 2^W - 1]; A's values map to that
/// range modulo 2^W. Within one period the map is a shift (exact); an
/// interval that crosses a period boundary may take any value of the type.
/// Whether the wrap E maps all of A by one shift (no period boundary
/// inside A).
static bool wrapShifts(const DescExpr &E, Interval A) {
  if (E.Bits == 64)
    return E.Signed || A.Lo >= 0;
  __int128 Period = __int128(1) << E.Bits;
  __int128 Min = E.Signed ? -(Period / 2) : 0;
  auto Block = [&](int64_t V) {
    __int128 D = __int128(V) - Min;
    return D >= 0 ? D / Period : -((-D + Period - 1) / Period);
  };
  return Block(A.Lo) == Block(A.Hi);
}

bool Evaluator::wrap(const DescExpr &E, Interval A, Interval &Out) {
  if (E.Bits == 64) {
    // Values are int64: a signed 64-bit type holds every one of them, and an
    // unsigned one those that are not negative (the rest would be >= 2^63).
    if (E.Signed || A.Lo >= 0) {
      Out = A;
      return true;
    }
    return fail("unsigned 64-bit value " + std::to_string(A.Lo) +
                " wraps to 2^64 or more");
  }
  // W <= 63: Min and the period fit in int64, and so does A - Min in
  // __int128.
  __int128 Period = __int128(1) << E.Bits;
  __int128 Min = E.Signed ? -(Period / 2) : 0;
  auto Block = [&](int64_t V) {
    __int128 D = __int128(V) - Min;
    return D >= 0 ? D / Period : -((-D + Period - 1) / Period);
  };
  __int128 BLo = Block(A.Lo), BHi = Block(A.Hi);
  if (BLo == BHi) {
    Out.Lo = static_cast<int64_t>(A.Lo - BLo * Period);
    Out.Hi = static_cast<int64_t>(A.Hi - BLo * Period);
  } else {
    Out.Lo = static_cast<int64_t>(Min);
    Out.Hi = static_cast<int64_t>(Min + Period - 1);
  }
  return true;
}

/// |V| as unsigned (defined for INT64_MIN too).
uint64_t magnitude(int64_t V) {
  return V < 0 ? uint64_t(0) - static_cast<uint64_t>(V)
               : static_cast<uint64_t>(V);
}

bool Evaluator::binary(const DescExpr &E, Interval A, Interval B,
                       Interval &Out) {
  switch (E.Kind) {
  case ExprKind::Add:
    if (__builtin_add_overflow(A.Lo, B.Lo, &Out.Lo) ||
        __builtin_add_overflow(A.Hi, B.Hi, &Out.Hi))
      return overflow(E);
    return true;
  case ExprKind::Sub:
    if (__builtin_sub_overflow(A.Lo, B.Hi, &Out.Lo) ||
        __builtin_sub_overflow(A.Hi, B.Lo, &Out.Hi))
      return overflow(E);
    return true;
  case ExprKind::Min:
    Out = {std::min(A.Lo, B.Lo), std::min(A.Hi, B.Hi)};
    return true;
  case ExprKind::Max:
    Out = {std::max(A.Lo, B.Lo), std::max(A.Hi, B.Hi)};
    return true;
  case ExprKind::Mul:
  case ExprKind::Div: {
    // Both are monotone in each operand on a box where the divisor keeps
    // its sign: the extremes are at the corners.
    if (E.Kind == ExprKind::Div && B.Lo <= 0 && B.Hi >= 0)
      return fail("division by an interval containing 0");
    int64_t Corners[4];
    const int64_t Xs[2] = {A.Lo, A.Hi}, Ys[2] = {B.Lo, B.Hi};
    for (unsigned I = 0; I < 4; ++I) {
      int64_t X = Xs[I / 2], Y = Ys[I % 2];
      if (E.Kind == ExprKind::Mul) {
        if (__builtin_mul_overflow(X, Y, &Corners[I]))
          return overflow(E);
      } else {
        if (X == INT64_MIN && Y == -1)
          return overflow(E);
        Corners[I] = X / Y;
      }
    }
    Out = {*std::min_element(Corners, Corners + 4),
           *std::max_element(Corners, Corners + 4)};
    return true;
  }
  case ExprKind::Shl:
  case ExprKind::Shr: {
    if (!B.isPoint() || B.Lo < 0 || B.Lo > 63)
      return fail(std::string("shift count of (") + exprOperatorName(E.Kind) +
                  " ...) outside [0, 63]");
    if (E.Kind == ExprKind::Shr) { // floor(a / 2^b) is monotone
      Out = {A.Lo >> B.Lo, A.Hi >> B.Lo};
      return true;
    }
    if (B.Lo == 63)
      return A.Lo == 0 && A.Hi == 0 ? (Out = A, true) : overflow(E);
    int64_t P = int64_t(1) << B.Lo;
    if (__builtin_mul_overflow(A.Lo, P, &Out.Lo) ||
        __builtin_mul_overflow(A.Hi, P, &Out.Hi))
      return overflow(E);
    return true;
  }
  case ExprKind::And:
  case ExprKind::Or:
  case ExprKind::Xor:
    return bitwise(E, A, B, Out);
  case ExprKind::Either:
    Out = {std::min(A.Lo, B.Lo), std::max(A.Hi, B.Hi)};
    return true;
  case ExprKind::Rem: {
    if (B.Lo <= 0 && B.Hi >= 0)
      return fail("remainder by an interval containing 0");
    if (A.isPoint() && B.isPoint()) {
      Out = point(B.Lo == -1 ? 0 : A.Lo % B.Lo);
      return true;
    }
    // The result has the dividend's sign and is below the divisor's
    // magnitude; within one block of a constant divisor it is exact.
    uint64_t M = std::max(magnitude(B.Lo), magnitude(B.Hi));
    int64_t Bound = static_cast<int64_t>(M - 1); // M <= 2^63
    if (B.isPoint() && A.Lo >= 0 && A.Lo / B.Lo == A.Hi / B.Lo) {
      Out = {A.Lo % B.Lo, A.Hi % B.Lo};
      return true;
    }
    Out.Lo = A.Lo >= 0 ? 0 : std::max(A.Lo, -Bound);
    Out.Hi = A.Hi <= 0 ? 0 : std::min(A.Hi, Bound);
    return true;
  }
  default:
    return fail("bad expression");
  }
}

/// Smallest 2^k - 1 that is >= V (V >= 0): every value of at most V's bits.
static int64_t allOnesAbove(int64_t V) {
  uint64_t M = 0;
  while (M < static_cast<uint64_t>(V))
    M = M << 1 | 1;
  return static_cast<int64_t>(M);
}

bool Evaluator::bitwise(const DescExpr &E, Interval A, Interval B,
                        Interval &Out) {
  if (A.isPoint() && B.isPoint()) {
    int64_t V = E.Kind == ExprKind::And  ? (A.Lo & B.Lo)
                : E.Kind == ExprKind::Or ? (A.Lo | B.Lo)
                                         : (A.Lo ^ B.Lo);
    Out = point(V);
    return true;
  }
  if (E.Kind == ExprKind::And) {
    // A mask 2^k - 1 over values inside one block of 2^k is a shift: exact.
    for (int Swap = 0; Swap < 2; ++Swap, std::swap(A, B)) {
      if (!B.isPoint() || B.Lo < 0 || (B.Lo & (B.Lo + 1)) != 0)
        continue;
      int64_t Shift = 0;
      while (Shift < 63 && (int64_t(1) << Shift) <= B.Lo)
        ++Shift;
      if ((A.Lo >> Shift) == (A.Hi >> Shift)) {
        Out = {A.Lo & B.Lo, A.Hi & B.Lo};
        return true;
      }
    }
    // x & y lies in [0, y] for y >= 0, whatever x is.
    if (A.Lo >= 0 && B.Lo >= 0)
      Out = {0, std::min(A.Hi, B.Hi)};
    else if (A.Lo >= 0 || B.Lo >= 0)
      Out = {0, A.Lo >= 0 ? A.Hi : B.Hi};
    else
      return fail("(and ...) of two possibly negative values");
    return true;
  }
  if (A.Lo < 0 || B.Lo < 0)
    return fail(std::string("(") + exprOperatorName(E.Kind) +
                " ...) of a possibly negative value");
  // Neither sets a bit above the operands' highest one; | keeps each
  // operand's bits, so it is at least the larger of the two.
  int64_t Hi = allOnesAbove(std::max(A.Hi, B.Hi));
  Out = {E.Kind == ExprKind::Or ? std::max(A.Lo, B.Lo) : 0, Hi};
  return true;
}

bool loopHeader(const KernelDescriptor &D, const DescEnv &E, unsigned L,
                int64_t &Init, int64_t &Bound, int64_t &Step,
                std::string &Err) {
  Evaluator Ev(D, E, Err);
  const DescLoop &Lp = D.loops()[L];
  if (Ev.evalPoint(Lp.Init, Init) && Ev.evalPoint(Lp.Bound, Bound) &&
      Ev.evalPoint(Lp.Step, Step))
    return true;
  Err = "loop " + std::to_string(L) + ": " + Err;
  return false;
}

bool product(const std::vector<uint64_t> &N, size_t From, uint64_t &Out) {
  Out = 1;
  for (size_t I = From; I < N.size(); ++I)
    if (__builtin_mul_overflow(Out, N[I], &Out))
      return false;
  return true;
}

} // namespace detail

namespace {
/// The least and greatest of Count values of type T at Data, Data + Stride,
/// ...; a contiguous run (Stride == sizeof(T)) in a loop the compiler
/// vectorises: a CSR matrix's 10 MB of column indices in about a
/// millisecond, where a copy per value took 28.
template <typename T>
void minMax(const unsigned char *Data, uint64_t Stride, uint64_t Count, T &Min,
            T &Max) {
  T Lo = std::numeric_limits<T>::max(), Hi = std::numeric_limits<T>::min();
  if (Stride == sizeof(T)) {
    for (uint64_t I = 0; I < Count; ++I) {
      T V;
      std::memcpy(&V, Data + I * sizeof(T), sizeof(T));
      Lo = V < Lo ? V : Lo;
      Hi = V > Hi ? V : Hi;
    }
  } else {
    for (uint64_t I = 0; I < Count; ++I, Data += Stride) {
      T V;
      std::memcpy(&V, Data, sizeof(T));
      Lo = V < Lo ? V : Lo;
      Hi = V > Hi ? V : Hi;
    }
  }
  Min = Lo;
  Max = Hi;
}

template <typename T>
bool scanAs(const unsigned char *Data, uint64_t Stride, uint64_t Count,
            int64_t &Min, int64_t &Max) {
  T Lo, Hi;
  minMax<T>(Data, Stride, Count, Lo, Hi);
  if constexpr (std::is_same_v<T, uint64_t>)
    if (Hi > uint64_t(INT64_MAX))
      return false; // the descriptor's values are int64
  Min = static_cast<int64_t>(Lo);
  Max = static_cast<int64_t>(Hi);
  return true;
}

template <typename S, typename U>
bool scanSigned(bool Signed, const unsigned char *Data, uint64_t Stride,
                uint64_t Count, int64_t &Min, int64_t &Max) {
  return Signed ? scanAs<S>(Data, Stride, Count, Min, Max)
                : scanAs<U>(Data, Stride, Count, Min, Max);
}
} // namespace

bool scanLoadedValues(const unsigned char *Data, unsigned Bytes,
                      uint64_t Stride, uint64_t Count, bool Signed,
                      int64_t &Min, int64_t &Max) {
  if (!Count)
    return false;
  // Little-endian: a value's bytes are the type's own.
  switch (Bytes) {
  case 1:
    return scanSigned<int8_t, uint8_t>(Signed, Data, Stride, Count, Min, Max);
  case 2:
    return scanSigned<int16_t, uint16_t>(Signed, Data, Stride, Count, Min, Max);
  case 4:
    return scanSigned<int32_t, uint32_t>(Signed, Data, Stride, Count, Min, Max);
  case 8:
    return scanSigned<int64_t, uint64_t>(Signed, Data, Stride, Count, Min, Max);
  default:
    return false;
  }
}

using namespace detail;

bool tripCounts(const KernelDescriptor &D, const DescEnv &E,
                std::vector<uint64_t> &N, std::string &Err) {
  N.clear();
  Err.clear();
  if (D.depth() == 0) {
    Err = "no loop nest";
    return false;
  }
  for (unsigned L = 0; L < D.depth(); ++L) {
    int64_t Init, Bound, Step;
    if (!loopHeader(D, E, L, Init, Bound, Step, Err))
      return false;
    auto Fail = [&](const std::string &Msg) {
      Err = "loop " + std::to_string(L) + ": " + Msg;
      return false;
    };
    LoopCond C = D.loops()[L].Cond;
    bool Up = C == LoopCond::LT || C == LoopCond::LE ||
              (C == LoopCond::NE && Step > 0);
    if (Step == 0)
      return Fail("zero step");
    if (Up != (Step > 0))
      return Fail("step " + std::to_string(Step) + " goes away from the bound");
    if (C == LoopCond::NE && Step != 1 && Step != -1)
      return Fail("step of a != loop must be 1 or -1");
    int64_t From = Up ? Init : Bound, To = Up ? Bound : Init;
    uint64_t S = magnitude(Step), Count = 0;
    bool Inclusive = C == LoopCond::LE || C == LoopCond::GE;
    if (To > From || (Inclusive && To == From)) {
      int64_t Diff;
      if (__builtin_sub_overflow(To, From, &Diff))
        return Fail("overflow in the trip count");
      uint64_t U = static_cast<uint64_t>(Diff);
      if (C == LoopCond::NE)
        Count = U;
      else if (Inclusive)
        Count = U / S + 1;
      else
        Count = (U - 1) / S + 1;
    } else if (C == LoopCond::NE && To < From) {
      return Fail("the != loop never reaches its bound");
    }
    N.push_back(Count);
  }
  uint64_t Total;
  if (!product(N, 0, Total)) {
    Err = "iteration space above 2^64";
    return false;
  }
  return true;
}

bool isWrappedCountOfEmptyNest(const KernelDescriptor &D, const DescEnv &E,
                               uint64_t Count) {
  // Per level, the distance the count formula divides (negative or zero
  // for an empty level) and the step's magnitude.
  std::vector<std::pair<int64_t, uint64_t>> Levels;
  bool Empty = false;
  std::string Err;
  for (unsigned L = 0; L < D.depth(); ++L) {
    int64_t Init, Bound, Step;
    if (!loopHeader(D, E, L, Init, Bound, Step, Err) || Step == 0)
      return false;
    LoopCond C = D.loops()[L].Cond;
    bool Up = C == LoopCond::LT || C == LoopCond::LE ||
              (C == LoopCond::NE && Step > 0);
    int64_t Distance;
    if (__builtin_sub_overflow(Up ? Bound : Init, Up ? Init : Bound, &Distance))
      return false;
    if ((C == LoopCond::LE || C == LoopCond::GE) &&
        __builtin_add_overflow(Distance, 1, &Distance))
      return false;
    Empty |= Distance <= 0;
    Levels.emplace_back(Distance, magnitude(Step));
  }
  if (!Empty)
    return false;
  for (unsigned Bits : {32u, 64u}) {
    uint64_t Mask = Bits == 64 ? ~uint64_t(0) : (uint64_t(1) << Bits) - 1;
    uint64_t Product = 1; // modulo 2^64, as the 64-bit count is
    for (const auto &[Distance, S] : Levels) {
      uint64_t Numerator =
          (static_cast<uint64_t>(Distance) + S - 1) & Mask; // wraps as C does
      Product *= Numerator / S;
    }
    if (Product == Count)
      return true;
  }
  return false;
}

bool evaluateExpr(const KernelDescriptor &D, ExprId Id, const DescEnv &E,
                  const std::vector<int64_t> &Counters,
                  const std::vector<int64_t> &Vars, int64_t &Out,
                  std::string &Err) {
  Err.clear();
  std::vector<Interval> C, V;
  for (int64_t X : Counters)
    C.push_back(point(X));
  for (int64_t X : Vars)
    V.push_back(point(X));
  Evaluator Ev(D, E, Err);
  Ev.Counters = &C;
  Ev.Vars = &V;
  return Ev.evalPoint(Id, Out);
}

} // namespace hetero

//===- Reduction.cpp - Reduction variables of a split kernel --------------===//
#include "hetero/Reduction.h"

#include <cstdint>
#include <cstring>
#include <limits>
#include <type_traits>

namespace hetero {

namespace {

struct OpName {
  const char *Token;
  ReductionOp Op;
};
const OpName OpNames[] = {
    {"+", ReductionOp::Add},    {"*", ReductionOp::Mul},
    {"max", ReductionOp::Max},  {"min", ReductionOp::Min},
    {"&", ReductionOp::BitAnd}, {"|", ReductionOp::BitOr},
    {"^", ReductionOp::BitXor}, {"&&", ReductionOp::LogAnd},
    {"||", ReductionOp::LogOr},
};

struct TypeName {
  const char *Token;
  ReductionType Ty;
};
const TypeName TypeNames[] = {
    {"i8", ReductionType::I8},   {"i16", ReductionType::I16},
    {"i32", ReductionType::I32}, {"i64", ReductionType::I64},
    {"u8", ReductionType::U8},   {"u16", ReductionType::U16},
    {"u32", ReductionType::U32}, {"u64", ReductionType::U64},
    {"f32", ReductionType::F32}, {"f64", ReductionType::F64},
};

template <typename T> T load(const void *P) {
  T V;
  std::memcpy(&V, P, sizeof(T));
  return V;
}

template <typename T> void store(void *P, T V) {
  std::memcpy(P, &V, sizeof(T));
}

/// Wrapping + and * of integers, computed in an unsigned type at least as
/// wide as int so that neither promotion nor signed overflow is involved.
template <typename T> T wrapArith(ReductionOp Op, T A, T B) {
  using U = std::conditional_t<sizeof(T) <= 4, uint32_t, uint64_t>;
  U X = static_cast<U>(A), Y = static_cast<U>(B);
  U R = Op == ReductionOp::Add ? static_cast<U>(X + Y) : static_cast<U>(X * Y);
  // Truncate to T's width, then reinterpret (no implementation-defined
  // narrowing of an out-of-range value to a signed type).
  std::make_unsigned_t<T> Narrow = static_cast<std::make_unsigned_t<T>>(R);
  T Out;
  std::memcpy(&Out, &Narrow, sizeof(T));
  return Out;
}

template <typename T> void identityOf(ReductionOp Op, void *Dst) {
  constexpr bool Float = std::is_floating_point_v<T>;
  T V{};
  switch (Op) {
  case ReductionOp::Add:
  case ReductionOp::BitOr:
  case ReductionOp::BitXor:
  case ReductionOp::LogOr:
    V = T(0);
    break;
  case ReductionOp::Mul:
  case ReductionOp::LogAnd:
    V = T(1);
    break;
  case ReductionOp::Max:
    if constexpr (Float)
      V = -std::numeric_limits<T>::infinity();
    else
      V = std::numeric_limits<T>::min();
    break;
  case ReductionOp::Min:
    if constexpr (Float)
      V = std::numeric_limits<T>::infinity();
    else
      V = std::numeric_limits<T>::max();
    break;
  case ReductionOp::BitAnd:
    if constexpr (!Float)
      V = static_cast<T>(~std::make_unsigned_t<T>(0));
    break;
  }
  store(Dst, V);
}

template <typename T>
void combineOf(ReductionOp Op, void *AccP, const void *ValP) {
  constexpr bool Float = std::is_floating_point_v<T>;
  T Acc = load<T>(AccP), Val = load<T>(ValP);
  switch (Op) {
  case ReductionOp::Add:
  case ReductionOp::Mul:
    if constexpr (Float)
      Acc = Op == ReductionOp::Add ? Acc + Val : Acc * Val;
    else
      Acc = wrapArith(Op, Acc, Val);
    break;
  case ReductionOp::Max:
    Acc = Val > Acc ? Val : Acc;
    break;
  case ReductionOp::Min:
    Acc = Val < Acc ? Val : Acc;
    break;
  case ReductionOp::BitAnd:
  case ReductionOp::BitOr:
  case ReductionOp::BitXor:
    if constexpr (!Float) {
      using U = std::make_unsigned_t<T>;
      U X = static_cast<U>(Acc), Y = static_cast<U>(Val);
      U R = Op == ReductionOp::BitAnd  ? static_cast<U>(X & Y)
            : Op == ReductionOp::BitOr ? static_cast<U>(X | Y)
                                       : static_cast<U>(X ^ Y);
      std::memcpy(&Acc, &R, sizeof(T));
    }
    break;
  case ReductionOp::LogAnd:
    Acc = (Acc != T(0) && Val != T(0)) ? T(1) : T(0);
    break;
  case ReductionOp::LogOr:
    Acc = (Acc != T(0) || Val != T(0)) ? T(1) : T(0);
    break;
  }
  store(AccP, Acc);
}

/// Calls Fn with a value (zero) of the C++ type of Ty.
template <typename F> void dispatch(ReductionType Ty, F &&Fn) {
  switch (Ty) {
  case ReductionType::I8:
    return Fn(int8_t());
  case ReductionType::I16:
    return Fn(int16_t());
  case ReductionType::I32:
    return Fn(int32_t());
  case ReductionType::I64:
    return Fn(int64_t());
  case ReductionType::U8:
    return Fn(uint8_t());
  case ReductionType::U16:
    return Fn(uint16_t());
  case ReductionType::U32:
    return Fn(uint32_t());
  case ReductionType::U64:
    return Fn(uint64_t());
  case ReductionType::F32:
    return Fn(float());
  case ReductionType::F64:
    return Fn(double());
  }
}

} // namespace

bool parseReductionOp(const std::string &Token, ReductionOp &Out) {
  for (const OpName &N : OpNames)
    if (Token == N.Token) {
      Out = N.Op;
      return true;
    }
  return false;
}

bool parseReductionType(const std::string &Token, ReductionType &Out) {
  for (const TypeName &N : TypeNames)
    if (Token == N.Token) {
      Out = N.Ty;
      return true;
    }
  return false;
}

const char *reductionOpName(ReductionOp Op) {
  for (const OpName &N : OpNames)
    if (N.Op == Op)
      return N.Token;
  return "?";
}

const char *reductionTypeName(ReductionType Ty) {
  for (const TypeName &N : TypeNames)
    if (N.Ty == Ty)
      return N.Token;
  return "?";
}

size_t reductionSize(ReductionType Ty) {
  size_t Size = 0;
  dispatch(Ty, [&](auto V) { Size = sizeof(V); });
  return Size;
}

bool isFloatingType(ReductionType Ty) {
  return Ty == ReductionType::F32 || Ty == ReductionType::F64;
}

bool reductionValid(ReductionOp Op, ReductionType Ty) {
  bool Bitwise = Op == ReductionOp::BitAnd || Op == ReductionOp::BitOr ||
                 Op == ReductionOp::BitXor;
  return !(Bitwise && isFloatingType(Ty));
}

void reductionIdentity(ReductionOp Op, ReductionType Ty, void *Dst) {
  if (!reductionValid(Op, Ty)) {
    std::memset(Dst, 0, reductionSize(Ty));
    return;
  }
  dispatch(Ty, [&](auto V) { identityOf<decltype(V)>(Op, Dst); });
}

void reductionCombine(ReductionOp Op, ReductionType Ty, void *Acc,
                      const void *Val) {
  if (!reductionValid(Op, Ty))
    return;
  dispatch(Ty, [&](auto V) { combineOf<decltype(V)>(Op, Acc, Val); });
}

void reductionCombineChunks(ReductionOp Op, ReductionType Ty, void *Orig,
                            const void *Partials, size_t NumChunks) {
  if (NumChunks == 0)
    return;
  size_t Size = reductionSize(Ty);
  const auto *P = static_cast<const unsigned char *>(Partials);
  unsigned char Acc[sizeof(uint64_t)];
  std::memcpy(Acc, P, Size);
  for (size_t I = 1; I < NumChunks; ++I)
    reductionCombine(Op, Ty, Acc, P + I * Size);
  reductionCombine(Op, Ty, Orig, Acc);
}

} // namespace hetero

//===- ReductionTest.cpp - Reduction identities and combiners -------------===//
#include "hetero/Reduction.h"
#include "hetero/Backend.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <type_traits>
#include <vector>

using namespace hetero;

namespace {

const ReductionOp AllOps[] = {
    ReductionOp::Add,    ReductionOp::Mul,    ReductionOp::Max,
    ReductionOp::Min,    ReductionOp::BitAnd, ReductionOp::BitOr,
    ReductionOp::BitXor, ReductionOp::LogAnd, ReductionOp::LogOr};

template <typename T> T identity(ReductionOp Op, ReductionType Ty) {
  EXPECT_EQ(reductionSize(Ty), sizeof(T));
  // Unaligned destination on purpose.
  unsigned char Buf[sizeof(T) + 1];
  reductionIdentity(Op, Ty, Buf + 1);
  T V;
  std::memcpy(&V, Buf + 1, sizeof(T));
  return V;
}

template <typename T> T combine(ReductionOp Op, ReductionType Ty, T A, T B) {
  unsigned char Acc[sizeof(T) + 1], Val[sizeof(T) + 3];
  std::memcpy(Acc + 1, &A, sizeof(T));
  std::memcpy(Val + 3, &B, sizeof(T));
  reductionCombine(Op, Ty, Acc + 1, Val + 3);
  T R;
  std::memcpy(&R, Acc + 1, sizeof(T));
  return R;
}

/// The value C++ computes for A op B, wrapping like unsigned arithmetic for
/// + and * (what the kernel's own code does on two's complement targets).
template <typename T> T reference(ReductionOp Op, T A, T B) {
  if constexpr (std::is_integral_v<T>) {
    using U = std::make_unsigned_t<T>;
    auto Wrap = [](uint64_t X) {
      U N = static_cast<U>(X);
      T R;
      std::memcpy(&R, &N, sizeof(T));
      return R;
    };
    uint64_t X = static_cast<uint64_t>(A), Y = static_cast<uint64_t>(B);
    switch (Op) {
    case ReductionOp::Add:
      return Wrap(X + Y);
    case ReductionOp::Mul:
      return Wrap(X * Y);
    case ReductionOp::BitAnd:
      return Wrap(X & Y);
    case ReductionOp::BitOr:
      return Wrap(X | Y);
    case ReductionOp::BitXor:
      return Wrap(X ^ Y);
    default:
      break;
    }
  } else {
    if (Op == ReductionOp::Add)
      return A + B;
    if (Op == ReductionOp::Mul)
      return A * B;
  }
  switch (Op) {
  case ReductionOp::Max:
    return B > A ? B : A;
  case ReductionOp::Min:
    return B < A ? B : A;
  case ReductionOp::LogAnd:
    return (A != 0 && B != 0) ? 1 : 0;
  case ReductionOp::LogOr:
    return (A != 0 || B != 0) ? 1 : 0;
  default:
    return A;
  }
}

template <typename T> std::vector<T> samples() {
  using L = std::numeric_limits<T>;
  std::vector<T> V = {T(0),   T(1),     T(2),        T(3),           T(7),
                      T(100), L::max(), L::lowest(), T(L::max() / 2)};
  if constexpr (std::is_signed_v<T>)
    for (T X : {T(-1), T(-2), T(-3), T(-100), T(L::lowest() + 1)})
      V.push_back(X);
  if constexpr (std::is_floating_point_v<T>)
    for (T X : {T(0.5), T(-0.25), T(-0.0), L::infinity(), -L::infinity(),
                L::min(), L::denorm_min()})
      V.push_back(X);
  return V;
}

bool same(double A, double B) {
  return (std::isnan(A) && std::isnan(B)) ||
         std::memcmp(&A, &B, sizeof(A)) == 0 || A == B;
}

template <typename T> void checkType(ReductionType Ty) {
  constexpr bool Float = std::is_floating_point_v<T>;
  using L = std::numeric_limits<T>;
  EXPECT_EQ(isFloatingType(Ty), Float);
  for (ReductionOp Op : AllOps) {
    bool Bitwise = Op == ReductionOp::BitAnd || Op == ReductionOp::BitOr ||
                   Op == ReductionOp::BitXor;
    SCOPED_TRACE(std::string(reductionOpName(Op)) + " " +
                 reductionTypeName(Ty));
    if (Float && Bitwise) {
      EXPECT_FALSE(reductionValid(Op, Ty));
      EXPECT_EQ(identity<T>(Op, Ty), T(0));
      EXPECT_EQ(combine<T>(Op, Ty, T(3), T(5)), T(3)); // left alone
      continue;
    }
    EXPECT_TRUE(reductionValid(Op, Ty));
    T Id = identity<T>(Op, Ty);
    switch (Op) {
    case ReductionOp::Add:
    case ReductionOp::BitOr:
    case ReductionOp::BitXor:
    case ReductionOp::LogOr:
      EXPECT_EQ(Id, T(0));
      break;
    case ReductionOp::Mul:
    case ReductionOp::LogAnd:
      EXPECT_EQ(Id, T(1));
      break;
    case ReductionOp::Max:
      EXPECT_EQ(Id, Float ? -L::infinity() : L::lowest());
      break;
    case ReductionOp::Min:
      EXPECT_EQ(Id, Float ? L::infinity() : L::max());
      break;
    case ReductionOp::BitAnd:
      if constexpr (!Float) {
        EXPECT_EQ(Id, static_cast<T>(~std::make_unsigned_t<T>(0)));
      }
      break;
    }
    bool Logical = Op == ReductionOp::LogAnd || Op == ReductionOp::LogOr;
    for (T A : samples<T>()) {
      // The identity is neutral (&& and || normalize to 0/1).
      T Expect = Logical ? T(A != 0 ? 1 : 0) : A;
      EXPECT_TRUE(same(double(combine<T>(Op, Ty, Id, A)), double(Expect)))
          << double(A);
      EXPECT_TRUE(same(double(combine<T>(Op, Ty, A, Id)), double(Expect)))
          << double(A);
      for (T B : samples<T>())
        EXPECT_TRUE(same(double(combine<T>(Op, Ty, A, B)),
                         double(reference<T>(Op, A, B))))
            << double(A) << " " << double(B);
    }
  }
}

} // namespace

TEST(Reduction, IdentityAndCombineForEveryOpAndType) {
  checkType<int8_t>(ReductionType::I8);
  checkType<int16_t>(ReductionType::I16);
  checkType<int32_t>(ReductionType::I32);
  checkType<int64_t>(ReductionType::I64);
  checkType<uint8_t>(ReductionType::U8);
  checkType<uint16_t>(ReductionType::U16);
  checkType<uint32_t>(ReductionType::U32);
  checkType<uint64_t>(ReductionType::U64);
  checkType<float>(ReductionType::F32);
  checkType<double>(ReductionType::F64);
}

TEST(Reduction, IntegerArithmeticWraps) {
  EXPECT_EQ(combine<int8_t>(ReductionOp::Add, ReductionType::I8, 127, 1), -128);
  EXPECT_EQ(combine<int16_t>(ReductionOp::Mul, ReductionType::I16, 256, 256),
            0);
  EXPECT_EQ(
      combine<uint16_t>(ReductionOp::Mul, ReductionType::U16, 65535, 65535), 1);
  EXPECT_EQ(
      combine<int32_t>(ReductionOp::Mul, ReductionType::I32, INT32_MIN, -1),
      INT32_MIN);
  EXPECT_EQ(
      combine<int64_t>(ReductionOp::Add, ReductionType::I64, INT64_MAX, 1),
      INT64_MIN);
  EXPECT_EQ(combine<int32_t>(ReductionOp::LogAnd, ReductionType::I32, 5, -3),
            1);
  EXPECT_EQ(combine<double>(ReductionOp::LogOr, ReductionType::F64, 0.0, 0.5),
            1.0);
  EXPECT_EQ(
      combine<float>(ReductionOp::LogAnd, ReductionType::F32, -0.0f, 2.0f),
      0.0f);
  EXPECT_EQ(combine<int8_t>(ReductionOp::Max, ReductionType::I8, -5, -7), -5);
  EXPECT_EQ(combine<uint8_t>(ReductionOp::Min, ReductionType::U8, 200, 7), 7);
}

TEST(Reduction, ParsesTheDescriptorTokens) {
  const char *Ops[] = {"+", "*", "max", "min", "&", "|", "^", "&&", "||"};
  for (const char *Tok : Ops) {
    ReductionOp Op;
    ASSERT_TRUE(parseReductionOp(Tok, Op)) << Tok;
    EXPECT_STREQ(reductionOpName(Op), Tok);
  }
  const char *Types[] = {"i8",  "i16", "i32", "i64", "u8",
                         "u16", "u32", "u64", "f32", "f64"};
  const size_t Sizes[] = {1, 2, 4, 8, 1, 2, 4, 8, 4, 8};
  for (size_t I = 0; I < 10; ++I) {
    ReductionType Ty;
    ASSERT_TRUE(parseReductionType(Types[I], Ty)) << Types[I];
    EXPECT_STREQ(reductionTypeName(Ty), Types[I]);
    EXPECT_EQ(reductionSize(Ty), Sizes[I]);
  }
  ReductionOp Op;
  ReductionType Ty;
  for (const char *Bad : {"", "-", "MAX", "&&&", "+ ", "add"})
    EXPECT_FALSE(parseReductionOp(Bad, Op)) << Bad;
  for (const char *Bad : {"", "i128", "f16", "I32", "int", "u"})
    EXPECT_FALSE(parseReductionType(Bad, Ty)) << Bad;
}

TEST(Reduction, ChunksCombineInOrderThenWithTheOriginal) {
  // Floating + is not associative: the order is observable.
  float Partials[3] = {1e8f, 1.0f, -1e8f};
  float Orig = 0.5f;
  reductionCombineChunks(ReductionOp::Add, ReductionType::F32, &Orig, Partials,
                         3);
  EXPECT_EQ(Orig, 0.5f + ((1e8f + 1.0f) + -1e8f));
  // Original value last: for max the original can win.
  int16_t P16[2] = {3, 9};
  int16_t O16 = 12;
  reductionCombineChunks(ReductionOp::Max, ReductionType::I16, &O16, P16, 2);
  EXPECT_EQ(O16, 12);
  O16 = 4;
  reductionCombineChunks(ReductionOp::Max, ReductionType::I16, &O16, P16, 2);
  EXPECT_EQ(O16, 9);
  // Unaligned, packed partials of 8 bytes.
  unsigned char Packed[1 + 3 * 8];
  for (int I = 0; I < 3; ++I) {
    uint64_t V = uint64_t(1) << (I * 8);
    std::memcpy(Packed + 1 + I * 8, &V, 8);
  }
  uint64_t O64 = 0x100000000ull;
  reductionCombineChunks(ReductionOp::BitOr, ReductionType::U64, &O64,
                         Packed + 1, 3);
  EXPECT_EQ(O64, 0x100010101ull);
  // No chunks: nothing changes.
  reductionCombineChunks(ReductionOp::Mul, ReductionType::U64, &O64, nullptr,
                         0);
  EXPECT_EQ(O64, 0x100010101ull);
}

// A chunk on the host's addresses: the arguments a chunk's partials name
// point at slots holding the identities, the others keep their values, and
// done() copies each partial's bytes, and only those, to its result.
TEST(Reduction, HostPartialsBindIdentitiesAndCopyResultsOut) {
  ChunkRun C;
  C.Args = {11, 22, 33};
  double SumResult = -1;
  unsigned char MaxResult[4] = {0xAA, 0xAA, 0xAA, 0xAA};
  ChunkPartial Sum, Max;
  Sum.Arg = 2;
  Sum.Size = 8;
  reductionIdentity(ReductionOp::Add, ReductionType::F64, Sum.Identity);
  Sum.Result = reinterpret_cast<unsigned char *>(&SumResult);
  Max.Arg = 0;
  Max.Size = 2;
  reductionIdentity(ReductionOp::Max, ReductionType::I16, Max.Identity);
  Max.Result = MaxResult;
  C.Partials = {Sum, Max};
  HostPartials P(C);
  std::vector<uintptr_t> Args = C.Args;
  P.bind(Args);
  EXPECT_EQ(Args[1], 22u);
  auto *S = reinterpret_cast<double *>(Args[2]);
  auto *M = reinterpret_cast<int16_t *>(Args[0]);
  EXPECT_EQ(reinterpret_cast<uintptr_t>(S) % 8, 0u);
  EXPECT_EQ(*S, 0.0);
  EXPECT_EQ(*M, std::numeric_limits<int16_t>::min());
  *S += 2.5; // the kernel
  *M = 7;
  P.done();
  EXPECT_EQ(SumResult, 2.5);
  int16_t Got;
  std::memcpy(&Got, MaxResult, 2);
  EXPECT_EQ(Got, 7);
  EXPECT_EQ(MaxResult[2], 0xAA); // beyond the partial's size: untouched
  EXPECT_EQ(MaxResult[3], 0xAA);
}

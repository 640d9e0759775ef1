//===- Reduction.h - Reduction variables of a split kernel ------*- C++ -*-===//
//
// A split kernel runs its chunks with private copies of every reduction
// variable: before a chunk runs, its copy is set to the operator's identity;
// the chunk's kernel combines its iterations into that copy. When every
// chunk is done the plugin combines the chunk partials on the host, in chunk
// order (which is iteration order), and then folds the result into the
// original value:
//
//   Acc = P_0; Acc = Acc op P_1; ...; Acc = Acc op P_{n-1};
//   Orig = Orig op Acc;
//
// (reductionCombineChunks). For floating types the result can differ from an
// unsplit run in the last bits, as between two unsplit runs with different
// team counts; the order above at least makes it deterministic for a given
// chunking.
//
//===----------------------------------------------------------------------===//
#ifndef HETERO_REDUCTION_H
#define HETERO_REDUCTION_H

#include <cstddef>
#include <string>

namespace hetero {

enum class ReductionOp {
  Add,
  Mul,
  Max,
  Min,
  BitAnd,
  BitOr,
  BitXor,
  LogAnd,
  LogOr
};

enum class ReductionType { I8, I16, I32, I64, U8, U16, U32, U64, F32, F64 };

/// Parses the descriptor's operator token: + * max min & | ^ && ||.
bool parseReductionOp(const std::string &Token, ReductionOp &Out);
/// Parses the descriptor's type token: i8 i16 i32 i64 u8 u16 u32 u64 f32 f64.
bool parseReductionType(const std::string &Token, ReductionType &Out);
/// The descriptor tokens back, for messages.
const char *reductionOpName(ReductionOp Op);
const char *reductionTypeName(ReductionType Ty);

/// Size in bytes of a value of the type.
size_t reductionSize(ReductionType Ty);
bool isFloatingType(ReductionType Ty);
/// False for the bitwise operators on floating types (not valid OpenMP); the
/// functions below leave such combinations alone (identity: zero bytes).
bool reductionValid(ReductionOp Op, ReductionType Ty);

/// Writes the identity of Op over Ty to Dst (reductionSize(Ty) bytes, no
/// alignment needed): + | ^ ||: 0; * &&: 1; &: all ones; max: the lowest
/// value (-infinity for floating types); min: the highest (+infinity).
void reductionIdentity(ReductionOp Op, ReductionType Ty, void *Dst);

/// Acc = Acc op Val, as OpenMP's combiners: max is `Val > Acc ? Val : Acc`,
/// min `Val < Acc ? Val : Acc`; && and || give 0 or 1 of the type. Integer
/// + and * wrap around (no undefined behavior on signed overflow). Neither
/// pointer needs alignment.
void reductionCombine(ReductionOp Op, ReductionType Ty, void *Acc,
                      const void *Val);

/// Combines NumChunks chunk partials, each reductionSize(Ty) bytes, stored
/// one after the other at Partials, in chunk order, then folds the result
/// into Orig (see the file comment). Nothing happens when NumChunks is 0.
void reductionCombineChunks(ReductionOp Op, ReductionType Ty, void *Orig,
                            const void *Partials, size_t NumChunks);

} // namespace hetero

#endif // HETERO_REDUCTION_H

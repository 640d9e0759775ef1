//===- DescriptorEval.h - A descriptor's values for one launch --*- C++ -*-===//
//
// The descriptor's expressions evaluated with a launch's arguments (and the
// memory they point to): the collapsed nest's trip counts, and any
// expression at a point of the iteration space. Evaluation is interval
// arithmetic over int64, every operation overflow-checked (grammar and
// value rules: KernelDescriptor.h); WindowSections.h uses the same
// evaluator over whole windows.
//
//===----------------------------------------------------------------------===//
#ifndef HETERO_DESCRIPTOREVAL_H
#define HETERO_DESCRIPTOREVAL_H

#include "hetero/KernelDescriptor.h"

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

namespace hetero {

/// What evaluation needs from the launch.
struct DescEnv {
  /// Raw 64-bit argument slots.
  std::vector<uint64_t> Args;
  /// Reads Bytes bytes at Addr into Dst for (load ...); false (or no
  /// callback) is an evaluation error.
  std::function<bool(uint64_t Addr, void *Dst, unsigned Bytes)> Load;
  /// For (load ...) at an address that moves with the loop variables over a
  /// window: the least and greatest of the Count values of Bytes bytes at
  /// Addr, Addr + Stride, ..., each extended as the load says (Signed; an
  /// unsigned 8-byte value must be below 2^63). False (or no callback): an
  /// evaluation error, upon which a read becomes a read of its whole buffer.
  std::function<bool(uint64_t Addr, unsigned Bytes, uint64_t Stride,
                     uint64_t Count, bool Signed, int64_t &Min, int64_t &Max)>
      LoadRange;
};

/// At most this many values are scanned for one (load ...) over a window.
constexpr uint64_t MaxLoadRange = uint64_t(1) << 28;

/// The least and greatest of Count values of Bytes bytes (little-endian) at
/// Data, Data + Stride, ..., extended as Signed says: LoadRange's work over
/// host memory. False for an unsigned 8-byte value of 2^63 or more.
bool scanLoadedValues(const unsigned char *Data, unsigned Bytes,
                      uint64_t Stride, uint64_t Count, bool Signed,
                      int64_t &Min, int64_t &Max);

/// Trip count of every collapsed level, outermost first. False, with Err,
/// when not computable (overflow, a zero step, a step against the condition,
/// a product of the counts above 2^64 - 1).
bool tripCounts(const KernelDescriptor &D, const DescEnv &E,
                std::vector<uint64_t> &N, std::string &Err);

/// Whether Count, the trip count libomptarget was given for a launch whose
/// nest D is empty (a level runs no iteration), is what the compiler's
/// unsigned formula gives for it: clang computes a level's count as
/// (distance + step - 1) / step in the unsigned type of the loop variable's
/// width (32 or 64 bits here), so an empty strided level such as
/// `for (i = lo; i < lo - 2; i += 2)` arrives as 2^31 - 1, not as 0; the
/// kernel's own guard runs nothing. False for a nest that is not empty.
bool isWrappedCountOfEmptyNest(const KernelDescriptor &D, const DescEnv &E,
                               uint64_t Count);

/// Evaluates expression Id at one point: Counters[l] is (c l), Vars[i] is
/// (v i). False, with Err, on overflow, division by zero, a failed load, or
/// a loop variable missing from the vectors.
bool evaluateExpr(const KernelDescriptor &D, ExprId Id, const DescEnv &E,
                  const std::vector<int64_t> &Counters,
                  const std::vector<int64_t> &Vars, int64_t &Out,
                  std::string &Err);

} // namespace hetero

#endif // HETERO_DESCRIPTOREVAL_H

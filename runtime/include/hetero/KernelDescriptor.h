//===- KernelDescriptor.h - Sections of an offloaded loop --*- C++ -*-===//
//
// The compiler (clang-patches/analysis) emits one text descriptor per
// offloaded loop kernel; lines are separated by '\n':
//
//   hetero-kernel 1
//   split yes                     or: split no <reasons, the rest of the line;
//                                 several are joined by "; ">
//   nest <D>                      collapsed loops of the nest (D >= 1)
//   loop <l> <init> <cond> <bound> <step>
//                                 one per level l = 0..D-1, outermost first;
//                                 cond: lt le gt ge ne. No loop variables in
//                                 init, bound, step.
//   var <id> <lo> <hi>            inner (not collapsed) loop counter (v id):
//                                 its value lies in [lo, hi], inclusive; lo and
//                                 hi may use (c l), (v j) for j < id, args
//                                 and loads (a CSR row's rowptr[i])
//   source <file>:<line>          where the loop's directive is (the rest
//                                 of the line; optional)
//   read <size> <base> <offset> [when <guard>]... [src <file>:<line> <name>]
//                                 may read [base+offset, base+offset+size) for
//                                 every value of the loop variables in range
//                                 that satisfies every guard; src: the array
//                                 (or pointer) as the source names it, and
//                                 where (for messages; no blank in either)
//   write <size> <base> <offset> [when <guard>]... [every]
//         [src <file>:<line> <name>]
//                                 the same, written; every: each iteration
//                                 writes all <size> bytes, once (a store at
//                                 the top of the loop body, which nothing
//                                 leaves early), so where the offsets of a
//                                 window's iterations tile a range the
//                                 window writes every byte of it
//   A guard (<cmp> <x> <e>), cmp one of lt le gt ge eq ne, x a loop variable
//   ((c l) or (v i)) and e an expression without x: the access happens only
//   where x <cmp> e holds (it sits in that branch of an if or ?:).
//   readall <base> [src <file>:<line> <name>]
//                                 may read anything in base's buffer
//   readany                       may read memory the compiler could not
//                                 attribute: every buffer
//   reduce <arg> <op> <type>      reduction variable, pointed to by kernel
//                                 argument <arg> (Reduction.h for op, type)
//   host-only <reason>            run it on CPU members only, split or not
//                                 (a GPU device runtime defect); the reason
//                                 is the rest of the line
//   one-kind <reason>             split it over members of one kind only
//                                 (GPUs, or CPU-side members): its results
//                                 depend on the device's math library
//
// After the first line, lines come in any order; empty lines are ignored.
// Expressions are s-expressions over int64 (parentheses need no spaces):
//
//   12  -4                 integer literal
//   (arg K)                the raw 64-bit slot of kernel argument K
//   (sarg K B S)           by-value scalar: the low B (1, 2, 4, 8) bytes of
//                          argument K's slot, sign- (S=1) or zero- (S=0)
//                          extended
//   (load P B S)           B bytes read at address P, extended like sarg;
//                          the kernel never stores there. Where P moves with
//                          the loop variables (col[k] in x[col[k]]), its
//                          value over a window is the least to the greatest
//                          value at the addresses P takes: P must move in
//                          even steps (linear in them), else the load has no
//                          value there (a read through it reads its buffer)
//   (c L)                  the counter of collapsed loop L (init + step * k)
//   (v I)                  inner loop counter I
//   (+ a b) (- a b) (* a b) (/ a b) (% a b) (neg a) (min a b) (max a b)
//                          / and % as in C (truncating)
//   (wrap W S a)           a converted to the W-bit integer type (W in 1..64),
//                          signed (S=1) or unsigned (S=0): reduced modulo 2^W
//                          into the type's range, as C converts integers and
//                          as unsigned arithmetic wraps
//   (shl a b) (shr a b)    a * 2^b and floor(a / 2^b), b in [0, 63]
//   (and a b) (or a b) (xor a b)
//                          bitwise, on two's complement values
//   (either a b)           the value of a or that of b (a conditional
//                          expression): it lies in the hull of the two
//
// Every value is the exact mathematical integer: the compiler writes a wrap
// wherever C arithmetic or a conversion may leave the range of its type, so
// an expression means what the kernel computes. 8-byte values from
// (sarg K 8 0), (load P 8 0) and (wrap 64 0 a) must be below 2^63 (an error
// otherwise); (arg K) is taken as it is, as two's complement.
//
// The collapsed nest is OpenMP's: level l runs
// `for (x = init; x <cond> bound; x += step)` N_l times; the normalized
// iteration space t in [0, N_0 * ... * N_{D-1}) maps to (k_0, ..., k_{D-1})
// row-major (k_0 slowest), and c_l = init_l + step_l * k_l. All arithmetic is
// overflow-checked; an overflow is an evaluation error, upon which the caller
// runs the kernel unsplit.
//
//===----------------------------------------------------------------------===//
#ifndef HETERO_KERNELDESCRIPTOR_H
#define HETERO_KERNELDESCRIPTOR_H

#include "hetero/Reduction.h"

#include <algorithm>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace hetero {

/// Index of an expression node in its descriptor.
using ExprId = uint32_t;
constexpr ExprId NoExpr = ~ExprId(0);

enum class ExprKind {
  Const,   // Value
  Arg,     // Index
  SArg,    // Index, Bytes, Signed
  Load,    // Ops[0] (address), Bytes, Signed
  Counter, // Index
  Var,     // Index
  Add,
  Sub,
  Mul,
  Div,
  Rem,
  Neg, // Ops[0]
  Min,
  Max,
  Wrap, // Ops[0], Bits, Signed
  Shl,
  Shr,
  And,
  Or,
  Xor,
  Either,
};

/// One node of an expression tree; the descriptor owns every node.
struct DescExpr {
  ExprKind Kind = ExprKind::Const;
  int64_t Value = 0;
  unsigned Index = 0;
  unsigned Bytes = 0; // SArg, Load
  unsigned Bits = 0;  // Wrap
  bool Signed = false;
  ExprId Ops[2] = {NoExpr, NoExpr};
};

enum class LoopCond { LT, LE, GT, GE, NE };

struct DescLoop {
  ExprId Init = NoExpr, Bound = NoExpr, Step = NoExpr;
  LoopCond Cond = LoopCond::LT;
};

struct DescVar {
  ExprId Lo = NoExpr, Hi = NoExpr; // inclusive
};

enum class AccessKind { Read, Write, ReadAll, ReadAny };

enum class GuardCmp { LT, LE, GT, GE, EQ, NE };

/// `x <cmp> e` holds wherever the access happens.
struct DescGuard {
  GuardCmp Cmp = GuardCmp::LT;
  ExprId Var = NoExpr; // a (c l) or (v i) node
  ExprId Bound = NoExpr;
};

struct DescAccess {
  AccessKind Kind = AccessKind::Read;
  uint64_t Size = 0;             // Read, Write
  ExprId Base = NoExpr;          // all but ReadAny
  ExprId Offset = NoExpr;        // Read, Write
  std::vector<DescGuard> Guards; // Read, Write
  /// Write: every iteration writes all Size bytes, once ("every").
  bool Every = false;
  /// The array as the source names it ("a", "p->x") and where
  /// ("jacobi.c:88"): empty when unknown. Messages only: two accesses that
  /// differ in these alone are one.
  std::string Name, Where;
};

/// "'a' at jacobi.c:88" (or what of it is known; "access <Index>" when
/// nothing is): an access in a message.
std::string accessText(const DescAccess &A, size_t Index);

struct DescReduction {
  unsigned Arg = 0;
  ReductionOp Op = ReductionOp::Add;
  ReductionType Type = ReductionType::I32;
};

class KernelDescriptor {
public:
  /// Parses Text. On error returns false with a one-line message in Err
  /// ("line N: ..."); Out is then unspecified.
  static bool parse(const std::string &Text, KernelDescriptor &Out,
                    std::string &Err);

  /// "split yes"; when false, reason() says why ("split no <reason>").
  bool splittable() const { return Splittable; }
  const std::string &reason() const { return Reason; }
  /// Why the kernel must stay off GPUs ("host-only <reason>"), or empty.
  const std::string &hostOnly() const { return HostOnly; }
  /// Why a split must not mix GPUs with CPU-side members ("one-kind
  /// <reason>"), or empty.
  const std::string &oneKind() const { return OneKind; }
  /// Where the loop's directive is ("jacobi.c:88"), or empty.
  const std::string &source() const { return Source; }
  void setSource(std::string Where) { Source = std::move(Where); }
  /// Number of collapsed loops; 0 when the descriptor has no nest line.
  unsigned depth() const { return static_cast<unsigned>(Loops.size()); }
  const std::vector<DescLoop> &loops() const { return Loops; }
  const std::vector<DescVar> &vars() const { return Vars; }
  /// In the order of the descriptor's lines.
  const std::vector<DescAccess> &accesses() const { return Accesses; }
  const std::vector<DescReduction> &reductions() const { return Reductions; }
  /// Highest argument index any expression or reduction uses (to check
  /// against the launch's argument count); -1 when none.
  int maxArgIndex() const { return MaxArg; }
  /// The argument indices any expression or reduction uses, ascending:
  /// what of a launch's arguments its sections can depend on.
  const std::vector<unsigned> &argsUsed() const { return ArgsUsed; }

  const DescExpr &expr(ExprId Id) const { return Exprs[Id]; }
  /// The expression in the descriptor's syntax.
  std::string exprToString(ExprId Id) const;
  /// Whether expression Id uses a loop variable, (c l) or (v i).
  bool usesLoopVariable(ExprId Id) const;

  /// Makes it "split no <Why>" (a kernel the device code cannot window):
  /// only the host-only and one-kind rules stay.
  void refuse(const std::string &Why) {
    Splittable = false;
    Reason = Why; // Source stays
    Loops.clear();
    Vars.clear();
    Accesses.clear();
    Reductions.clear();
  }

private:
  bool Splittable = false;
  std::string Reason;
  std::string HostOnly;
  std::string OneKind;
  std::string Source;
  std::vector<DescLoop> Loops;
  std::vector<DescVar> Vars;
  std::vector<DescAccess> Accesses;
  std::vector<DescReduction> Reductions;
  std::vector<DescExpr> Exprs;
  int MaxArg = -1;
  std::vector<unsigned> ArgsUsed;
  void noteArg(unsigned K) {
    MaxArg = std::max(MaxArg, int(K));
    auto It = std::lower_bound(ArgsUsed.begin(), ArgsUsed.end(), K);
    if (It == ArgsUsed.end() || *It != K)
      ArgsUsed.insert(It, K);
  }

  friend class DescriptorParser;
  friend class DescriptorBuilder;
};

/// The operator's name in the descriptor syntax ("+", "wrap", ...), or "?".
const char *exprOperatorName(ExprKind K);

/// The descriptor as text, in the syntax above (parse() reads it back to an
/// equivalent descriptor).
std::string writeDescriptor(const KernelDescriptor &D);

/// Whether A and B say the same thing: every line equal, expressions
/// compared by their text.
bool equivalent(const KernelDescriptor &A, const KernelDescriptor &B);

/// Builds a descriptor from typed parts, the way the compiler writes one:
/// expressions are nodes (shared, never copied as text), accesses are kept
/// once each and in a canonical order, and a refusal drops the nest.
class DescriptorBuilder {
public:
  ExprId constant(int64_t V);
  ExprId arg(unsigned K);
  ExprId scalarArg(unsigned K, unsigned Bytes, bool Signed);
  ExprId load(ExprId Addr, unsigned Bytes, bool Signed);
  ExprId counter(unsigned Level);
  ExprId var(unsigned Id);
  ExprId neg(ExprId A);
  /// Add .. Either: any two-operand kind.
  ExprId binary(ExprKind K, ExprId A, ExprId B);
  ExprId wrap(unsigned Bits, bool Signed, ExprId A);

  /// Whether E is a literal, and its value.
  bool constantValue(ExprId E, int64_t &V) const;
  /// Whether E uses (c Level) (Counter) or (v Id) (Var).
  bool uses(ExprId E, ExprKind K, unsigned Index) const;
  /// E in the descriptor syntax.
  std::string text(ExprId E) const { return D.exprToString(E); }

  /// "split no <Why>"; every distinct reason is kept, in the order given,
  /// joined by "; " (a user sees at once all that blocks the split), up to
  /// MaxReasons, then how many more there were.
  void refuse(const std::string &Why);
  bool refused() const { return !D.Reason.empty(); }
  void setHostOnly(const std::string &Why) { D.HostOnly = Why; }
  void setOneKind(const std::string &Why) { D.OneKind = Why; }
  void addLoop(ExprId Init, LoopCond C, ExprId Bound, ExprId Step);
  /// A new inner variable (v id) with the range [Lo, Hi]; returns its id.
  unsigned addVar(ExprId Lo, ExprId Hi);
  /// Keeps A unless an access differing at most in its Name and Where is
  /// kept already (the first one's source then stands for both). Blanks in
  /// Name and Where become '_'; parentheses go.
  void addAccess(DescAccess A);
  void addReduction(const DescReduction &R);

  /// The descriptor: "split yes" unless refused.
  KernelDescriptor take();

private:
  ExprId add(const DescExpr &E);
  static constexpr unsigned MaxReasons = 8;
  unsigned MoreReasons = 0; // distinct reasons past MaxReasons
  KernelDescriptor D;
};

} // namespace hetero

#endif // HETERO_KERNELDESCRIPTOR_H

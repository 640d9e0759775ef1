//===- DescriptorWriter.cpp - Building and writing a kernel descriptor ----===//
//
// The compiler side (clang-patches/analysis) builds descriptors through
// DescriptorBuilder and writes them with writeDescriptor; the runtime reads
// them with KernelDescriptor::parse. Both ends share this code, so the text
// between them has one grammar (KernelDescriptor.h), and a descriptor read
// back is equivalent to the one written (tests/unit: DescriptorRoundTrip).
//
//===----------------------------------------------------------------------===//
#include "hetero/KernelDescriptor.h"

#include <algorithm>
#include <sstream>

namespace hetero {

namespace {

const char *condName(LoopCond C) {
  switch (C) {
  case LoopCond::LT:
    return "lt";
  case LoopCond::LE:
    return "le";
  case LoopCond::GT:
    return "gt";
  case LoopCond::GE:
    return "ge";
  case LoopCond::NE:
    return "ne";
  }
  return "?";
}

const char *guardName(GuardCmp C) {
  switch (C) {
  case GuardCmp::LT:
    return "lt";
  case GuardCmp::LE:
    return "le";
  case GuardCmp::GT:
    return "gt";
  case GuardCmp::GE:
    return "ge";
  case GuardCmp::EQ:
    return "eq";
  case GuardCmp::NE:
    return "ne";
  }
  return "?";
}

/// " src <where> <name>", or nothing when neither is known.
std::string sourceSuffix(const DescAccess &A) {
  if (A.Name.empty() && A.Where.empty())
    return "";
  return " src " + (A.Where.empty() ? "?" : A.Where) + " " +
         (A.Name.empty() ? "?" : A.Name);
}

/// One access line, without the newline; its source only where WithSource
/// (two accesses that differ there alone are one).
std::string accessLine(const KernelDescriptor &D, const DescAccess &A,
                       bool WithSource = false) {
  std::string L;
  switch (A.Kind) {
  case AccessKind::ReadAny:
    return "readany";
  case AccessKind::ReadAll:
    return "readall " + D.exprToString(A.Base) +
           (WithSource ? sourceSuffix(A) : "");
  case AccessKind::Read:
    L = "read ";
    break;
  case AccessKind::Write:
    L = "write ";
    break;
  }
  L += std::to_string(A.Size) + " " + D.exprToString(A.Base) + " " +
       D.exprToString(A.Offset);
  for (const DescGuard &G : A.Guards)
    L += std::string(" when (") + guardName(G.Cmp) + " " +
         D.exprToString(G.Var) + " " + D.exprToString(G.Bound) + ")";
  if (A.Kind == AccessKind::Write && A.Every)
    L += " every";
  return WithSource ? L + sourceSuffix(A) : L;
}

/// Text of a name or place on an access line: no blank, no parenthesis.
std::string lineWord(std::string W) {
  W.erase(std::remove_if(W.begin(), W.end(),
                         [](char C) { return C == '(' || C == ')'; }),
          W.end());
  std::replace_if(
      W.begin(), W.end(),
      [](char C) { return C == ' ' || C == '\t' || C == '\n' || C == '\r'; },
      '_');
  return W;
}

std::string reduceLine(const DescReduction &R) {
  return "reduce " + std::to_string(R.Arg) + " " + reductionOpName(R.Op) + " " +
         reductionTypeName(R.Type);
}

} // namespace

std::string accessText(const DescAccess &A, size_t Index) {
  if (A.Name.empty() && A.Where.empty())
    return "access " + std::to_string(Index);
  if (A.Where.empty())
    return "'" + A.Name + "'";
  return (A.Name.empty() ? "an access" : "'" + A.Name + "'") + " at " + A.Where;
}

std::string writeDescriptor(const KernelDescriptor &D) {
  std::ostringstream OS;
  OS << "hetero-kernel 2\n";
  if (!D.source().empty())
    OS << "source " << D.source() << "\n";
  if (!D.hostOnly().empty())
    OS << "host-only " << D.hostOnly() << "\n";
  if (!D.oneKind().empty())
    OS << "one-kind " << D.oneKind() << "\n";
  if (D.splittable())
    OS << "split yes\n";
  else
    OS << "split no " << D.reason() << "\n";
  if (D.depth() == 0)
    return OS.str();
  OS << "nest " << D.depth() << "\n";
  for (unsigned L = 0; L < D.depth(); ++L) {
    const DescLoop &Lp = D.loops()[L];
    OS << "loop " << L << " " << D.exprToString(Lp.Init) << " "
       << condName(Lp.Cond) << " " << D.exprToString(Lp.Bound) << " "
       << D.exprToString(Lp.Step) << "\n";
  }
  for (size_t I = 0; I < D.vars().size(); ++I)
    OS << "var " << I << " " << D.exprToString(D.vars()[I].Lo) << " "
       << D.exprToString(D.vars()[I].Hi) << "\n";
  for (const DescAccess &A : D.accesses())
    OS << accessLine(D, A, /*WithSource=*/true) << "\n";
  for (const DescReduction &R : D.reductions())
    OS << reduceLine(R) << "\n";
  return OS.str();
}

bool equivalent(const KernelDescriptor &A, const KernelDescriptor &B) {
  auto Lines = [](const KernelDescriptor &D) {
    std::vector<std::string> Out;
    Out.push_back(D.splittable() ? "split yes" : "split no " + D.reason());
    Out.push_back("host-only " + D.hostOnly());
    Out.push_back("one-kind " + D.oneKind());
    Out.push_back("source " + D.source());
    for (const DescLoop &Lp : D.loops())
      Out.push_back(D.exprToString(Lp.Init) + condName(Lp.Cond) +
                    D.exprToString(Lp.Bound) + D.exprToString(Lp.Step));
    for (const DescVar &V : D.vars())
      Out.push_back(D.exprToString(V.Lo) + " " + D.exprToString(V.Hi));
    for (const DescAccess &Acc : D.accesses())
      Out.push_back(accessLine(D, Acc, /*WithSource=*/true));
    for (const DescReduction &R : D.reductions())
      Out.push_back(reduceLine(R));
    return Out;
  };
  return Lines(A) == Lines(B);
}

//===----------------------------------------------------------------------===//
// DescriptorBuilder
//===----------------------------------------------------------------------===//

ExprId DescriptorBuilder::add(const DescExpr &E) {
  for (ExprId Op : E.Ops)
    if (Op != NoExpr && Op >= D.Exprs.size())
      return NoExpr;
  D.Exprs.push_back(E);
  return static_cast<ExprId>(D.Exprs.size() - 1);
}

ExprId DescriptorBuilder::constant(int64_t V) {
  DescExpr E;
  E.Value = V;
  return add(E);
}

ExprId DescriptorBuilder::arg(unsigned K) {
  DescExpr E;
  E.Kind = ExprKind::Arg;
  E.Index = K;
  D.noteArg(K);
  return add(E);
}

ExprId DescriptorBuilder::scalarArg(unsigned K, unsigned Bytes, bool Signed) {
  DescExpr E;
  E.Kind = ExprKind::SArg;
  E.Index = K;
  E.Bytes = Bytes;
  E.Signed = Signed;
  D.noteArg(K);
  return add(E);
}

ExprId DescriptorBuilder::load(ExprId Addr, unsigned Bytes, bool Signed) {
  DescExpr E;
  E.Kind = ExprKind::Load;
  E.Ops[0] = Addr;
  E.Bytes = Bytes;
  E.Signed = Signed;
  return add(E);
}

ExprId DescriptorBuilder::counter(unsigned Level) {
  DescExpr E;
  E.Kind = ExprKind::Counter;
  E.Index = Level;
  return add(E);
}

ExprId DescriptorBuilder::var(unsigned Id) {
  DescExpr E;
  E.Kind = ExprKind::Var;
  E.Index = Id;
  return add(E);
}

ExprId DescriptorBuilder::neg(ExprId A) {
  DescExpr E;
  E.Kind = ExprKind::Neg;
  E.Ops[0] = A;
  return add(E);
}

ExprId DescriptorBuilder::binary(ExprKind K, ExprId A, ExprId B) {
  DescExpr E;
  E.Kind = K;
  E.Ops[0] = A;
  E.Ops[1] = B;
  return add(E);
}

ExprId DescriptorBuilder::wrap(unsigned Bits, bool Signed, ExprId A) {
  DescExpr E;
  E.Kind = ExprKind::Wrap;
  E.Bits = Bits;
  E.Signed = Signed;
  E.Ops[0] = A;
  return add(E);
}

bool DescriptorBuilder::constantValue(ExprId Id, int64_t &V) const {
  if (Id >= D.Exprs.size() || D.Exprs[Id].Kind != ExprKind::Const)
    return false;
  V = D.Exprs[Id].Value;
  return true;
}

bool DescriptorBuilder::uses(ExprId Id, ExprKind K, unsigned Index) const {
  if (Id >= D.Exprs.size())
    return false;
  const DescExpr &E = D.Exprs[Id];
  if (E.Kind == K && E.Index == Index)
    return true;
  for (ExprId Op : E.Ops)
    if (Op != NoExpr && uses(Op, K, Index))
      return true;
  return false;
}

void DescriptorBuilder::refuse(const std::string &Why) {
  // One line: a reason never holds a line break.
  std::string One = Why;
  std::replace(One.begin(), One.end(), '\n', ' ');
  if (One.empty())
    One = "refused";
  unsigned Kept = 0;
  for (size_t At = 0; !D.Reason.empty() && At <= D.Reason.size(); ++Kept) {
    size_t End = D.Reason.find("; ", At);
    if (End == std::string::npos)
      End = D.Reason.size();
    if (D.Reason.compare(At, End - At, One) == 0)
      return; // known already
    At = End + 2;
  }
  if (Kept == MaxReasons) {
    ++MoreReasons;
    return;
  }
  D.Reason += (D.Reason.empty() ? "" : "; ") + One;
}

void DescriptorBuilder::addLoop(ExprId Init, LoopCond C, ExprId Bound,
                                ExprId Step) {
  DescLoop L;
  L.Init = Init;
  L.Cond = C;
  L.Bound = Bound;
  L.Step = Step;
  D.Loops.push_back(L);
}

unsigned DescriptorBuilder::addVar(ExprId Lo, ExprId Hi) {
  D.Vars.push_back({Lo, Hi});
  return static_cast<unsigned>(D.Vars.size() - 1);
}

void DescriptorBuilder::addAccess(DescAccess A) {
  std::string Line = accessLine(D, A);
  for (const DescAccess &Have : D.Accesses)
    if (accessLine(D, Have) == Line)
      return;
  A.Name = lineWord(A.Name);
  A.Where = lineWord(A.Where);
  D.Accesses.push_back(A);
}

void DescriptorBuilder::addReduction(const DescReduction &R) {
  D.noteArg(R.Arg);
  D.Reductions.push_back(R);
}

KernelDescriptor DescriptorBuilder::take() {
  KernelDescriptor Out = std::move(D);
  D = KernelDescriptor();
  if (MoreReasons)
    Out.Reason += "; and " + std::to_string(MoreReasons) + " more";
  MoreReasons = 0;
  if (!Out.Reason.empty()) {
    // A refused kernel says only why: no nest, no sections.
    Out.Splittable = false;
    Out.Loops.clear();
    Out.Vars.clear();
    Out.Accesses.clear();
    Out.Reductions.clear();
    return Out;
  }
  Out.Splittable = true;
  // One canonical order (the text's), whatever order the body was walked in.
  std::vector<std::pair<std::string, DescAccess>> Sorted;
  for (const DescAccess &A : Out.Accesses)
    Sorted.push_back({accessLine(Out, A), A});
  std::sort(Sorted.begin(), Sorted.end(),
            [](const auto &X, const auto &Y) { return X.first < Y.first; });
  Out.Accesses.clear();
  for (auto &[Line, A] : Sorted)
    Out.Accesses.push_back(A);
  return Out;
}

} // namespace hetero

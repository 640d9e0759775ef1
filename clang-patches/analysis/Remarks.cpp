//===- Remarks.cpp - What the analysis decided, as clang remarks ----------===//
#include "Remarks.h"

#include "hetero/WritePrediction.h"

#include "clang/Basic/Diagnostic.h"

using namespace clang;

namespace hetero {

RemarkRequest RemarkRequest::from(const CodeGenOptions &Opts) {
  RemarkRequest R;
  R.Passed = Opts.OptimizationRemark.patternMatches("hetero");
  R.Missed = Opts.OptimizationRemarkMissed.patternMatches("hetero");
  R.Analysis = Opts.OptimizationRemarkAnalysis.patternMatches("hetero");
  return R;
}

namespace {

const char *infixOperator(ExprKind K) {
  switch (K) {
  case ExprKind::Add:
    return " + ";
  case ExprKind::Sub:
    return " - ";
  case ExprKind::Mul:
    return " * ";
  case ExprKind::Div:
    return " / ";
  case ExprKind::Rem:
    return " % ";
  case ExprKind::Shl:
    return " << ";
  case ExprKind::Shr:
    return " >> ";
  case ExprKind::And:
    return " & ";
  case ExprKind::Or:
    return " | ";
  case ExprKind::Xor:
    return " ^ ";
  default:
    return nullptr;
  }
}

/// The C type a wrap converts to, when it is one of the usual ones.
std::string wrapType(unsigned Bits, bool Signed) {
  const char *Name = nullptr;
  switch (Bits) {
  case 8:
    Name = "char";
    break;
  case 16:
    Name = "short";
    break;
  case 32:
    Name = "int";
    break;
  case 64:
    Name = "long";
    break;
  default:
    return (Signed ? "int" : "uint") + std::to_string(Bits) + "_t";
  }
  return Signed ? Name : std::string("unsigned ") + Name;
}

/// C's binding strength of an infix operator (higher binds tighter).
int precedence(ExprKind K) {
  switch (K) {
  case ExprKind::Mul:
  case ExprKind::Div:
  case ExprKind::Rem:
    return 5;
  case ExprKind::Add:
  case ExprKind::Sub:
    return 4;
  case ExprKind::Shl:
  case ExprKind::Shr:
    return 3;
  case ExprKind::And:
    return 2;
  case ExprKind::Xor:
    return 1;
  default:
    return 0; // Or
  }
}

class Printer {
public:
  Printer(const KernelDescriptor &D, const KernelAnalysis::SourceNames &N)
      : D(D), N(N) {}

  /// E, in parentheses where an operator around it binding at least
  /// Outer (more than Outer, on its left) would otherwise take it apart.
  std::string print(ExprId E, int Outer = -1, bool Right = false) const {
    const DescExpr &X = D.expr(E);
    switch (X.Kind) {
    case ExprKind::Const:
      return X.Value < 0 && Outer >= 0 ? "(" + std::to_string(X.Value) + ")"
                                       : std::to_string(X.Value);
    case ExprKind::Arg:
    case ExprKind::SArg:
      return argName(X.Index);
    case ExprKind::Load:
      return "*" + print(X.Ops[0], 6);
    case ExprKind::Counter:
      return X.Index < N.Counters.size() ? N.Counters[X.Index]
                                         : "c" + std::to_string(X.Index);
    case ExprKind::Var: {
      auto It = N.Vars.find(X.Index);
      return It != N.Vars.end() ? It->second : "v" + std::to_string(X.Index);
    }
    case ExprKind::Neg:
      return "-" + print(X.Ops[0], 6);
    case ExprKind::Min:
    case ExprKind::Max:
    case ExprKind::Either:
      return std::string(exprOperatorName(X.Kind)) + "(" + print(X.Ops[0]) +
             ", " + print(X.Ops[1]) + ")";
    case ExprKind::Wrap:
      return "(" + wrapType(X.Bits, X.Signed) + ")" + print(X.Ops[0], 6);
    default:
      break;
    }
    const char *Op = infixOperator(X.Kind);
    if (!Op)
      return "?";
    // 0 + x (a section of an array at its start) says nothing.
    int64_t V;
    if (X.Kind == ExprKind::Add && isConstant(X.Ops[0], V) && V == 0)
      return print(X.Ops[1], Outer, Right);
    if (X.Kind == ExprKind::Add && isConstant(X.Ops[1], V) && V == 0)
      return print(X.Ops[0], Outer, Right);
    int P = precedence(X.Kind);
    std::string S = print(X.Ops[0], P) + Op + print(X.Ops[1], P, true);
    bool Paren = Outer > P || (Outer == P && Right);
    return Paren ? "(" + S + ")" : S;
  }

  std::string argName(unsigned K) const {
    auto It = N.Args.find(K);
    return It != N.Args.end() ? It->second : "argument " + std::to_string(K);
  }

private:
  bool isConstant(ExprId E, int64_t &V) const {
    if (D.expr(E).Kind != ExprKind::Const)
      return false;
    V = D.expr(E).Value;
    return true;
  }
  const KernelDescriptor &D;
  const KernelAnalysis::SourceNames &N;
};

const char *guardOperator(GuardCmp C) {
  switch (C) {
  case GuardCmp::LT:
    return " < ";
  case GuardCmp::LE:
    return " <= ";
  case GuardCmp::GT:
    return " > ";
  case GuardCmp::GE:
    return " >= ";
  case GuardCmp::EQ:
    return " == ";
  case GuardCmp::NE:
    return " != ";
  }
  return " ? ";
}

std::string describeAccess(const DescAccess &A, const Printer &P) {
  switch (A.Kind) {
  case AccessKind::ReadAny:
    return "reads memory it cannot attribute to an array: every member "
           "reads every buffer";
  case AccessKind::ReadAll:
    return "reads all of '" + P.print(A.Base) +
           "' (a subscript that is not affine)";
  case AccessKind::Read:
  case AccessKind::Write:
    break;
  }
  std::string S = A.Kind == AccessKind::Read ? "reads '" : "writes '";
  S += P.print(A.Base) + "' at byte offset " + P.print(A.Offset) + ", " +
       std::to_string(A.Size) + (A.Size == 1 ? " byte" : " bytes");
  const char *Sep = " where ";
  for (const DescGuard &G : A.Guards) {
    S += Sep + P.print(G.Var) + guardOperator(G.Cmp) + P.print(G.Bound);
    Sep = " and ";
  }
  return S;
}

/// What WritePrediction.h predicts, in the source's names.
std::string overlapText(const KernelDescriptor &D, const OverlapPrediction &P,
                        const KernelAnalysis::SourceNames &N) {
  const DescAccess &A = D.accesses()[P.Access];
  std::string Split = N.Counters.empty() ? "the split loop's counter"
                                         : "'" + N.Counters[0] + "'";
  auto Var = [&](const OverlapPrediction &P) -> std::string {
    if (P.VarKind == ExprKind::Counter && P.VarIndex < N.Counters.size())
      return "'" + N.Counters[P.VarIndex] + "'";
    if (auto It = N.Vars.find(P.VarIndex);
        P.VarKind == ExprKind::Var && It != N.Vars.end())
      return "'" + It->second + "'";
    return "an inner loop's counter";
  };
  std::string Why;
  if (P.VarKind == ExprKind::Const) {
    Why = P.SplitStride ? "" : "the same bytes whatever the iteration";
  } else {
    Why = "its offset moves by " +
          (P.VarStride ? std::to_string(*P.VarStride) + " bytes"
                       : std::string("a stride set at run time")) +
          " along " + Var(P) + " but " +
          (P.SplitStride ? std::to_string(P.SplitStride) + " bytes"
                         : std::string("not at all")) +
          " along " + Split + ", the loop the chunks split";
  }
  if (P.UnlessAtMost)
    return "loop splits at run time only where " + Var(P) + " takes at most " +
           std::to_string(*P.UnlessAtMost) + " values: else the chunks' " +
           "writes of " + accessText(A, P.Access) + " overlap (" + Why +
           "), and each launch runs whole";
  return "loop not split at run time: the chunks' writes of " +
         accessText(A, P.Access) + " will overlap (" + Why +
         "), so each launch runs whole";
}

} // namespace

std::string sourceText(const KernelDescriptor &D, ExprId E,
                       const KernelAnalysis::SourceNames &Names) {
  return Printer(D, Names).print(E);
}

void emitRemarks(ASTContext &Ctx, SourceLocation Loc, const RemarkRequest &R,
                 const KernelDescriptor &D,
                 const KernelAnalysis::SourceNames &Names) {
  DiagnosticsEngine &Diags = Ctx.getDiagnostics();
  auto Report = [&](const char *Option, const std::string &Text) {
    unsigned Id =
        Diags.getCustomDiagID(DiagnosticsEngine::Remark, "hetero: %0 [%1]");
    Diags.Report(Loc, Id) << Text << Option;
  };
  // A write whose chunks' sections will overlap runs unsplit at every
  // launch: said as a missed split, not as a split (WritePrediction.h).
  std::optional<OverlapPrediction> Overlap = predictOverlappingWrites(D);
  if (D.splittable() && Overlap && R.Missed)
    Report("-Rpass-missed=hetero", overlapText(D, *Overlap, Names));
  if (D.splittable() && (!Overlap || Overlap->UnlessAtMost) && R.Passed)
    Report("-Rpass=hetero",
           "loop split across the pool's members (" +
               std::to_string(D.depth()) +
               (D.depth() == 1 ? " loop" : " collapsed loops") + ")");
  if (!D.splittable() && R.Missed)
    Report("-Rpass-missed=hetero", "loop not split: " + D.reason());
  if (!R.Analysis)
    return;
  Printer P(D, Names);
  for (const DescAccess &A : D.accesses())
    Report("-Rpass-analysis=hetero", describeAccess(A, P));
  for (const DescReduction &Red : D.reductions())
    Report("-Rpass-analysis=hetero",
           std::string("reduction(") + reductionOpName(Red.Op) + ") of '" +
               P.argName(Red.Arg) + "' (" + reductionTypeName(Red.Type) +
               "): partial results combined on the host in chunk order");
  if (!D.hostOnly().empty())
    Report("-Rpass-analysis=hetero",
           "runs on CPU members only: " + D.hostOnly());
  if (!D.oneKind().empty())
    Report("-Rpass-analysis=hetero",
           "split over members of one kind only: " + D.oneKind());
}

} // namespace hetero

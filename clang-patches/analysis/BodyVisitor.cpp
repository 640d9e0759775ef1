//===- BodyVisitor.cpp - Accesses, inner loops and guards of a loop body --===//
//
// Walks the body of the collapsed nest: every memory access becomes a read
// or write section (with the guards of the branch it sits in), every inner
// `for` loop gives its counter a range, and whatever cannot be proven safe
// (writes to shared variables, atomics, nested constructs, impure calls, ...)
// refuses the split with the reason.
//
//===----------------------------------------------------------------------===//
#include "KernelAnalysis.h"
#include "RegionLoop.h"

#include "clang/AST/Attr.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/StmtOpenMP.h"
#include "clang/Basic/SourceManager.h"
#include "clang/Lex/Lexer.h"
#include "llvm/Support/Path.h"

#include <algorithm>
#include <functional>

using namespace clang;

namespace hetero {

//===--- Written variables, inner loops ----------------------------------===//

void KernelAnalysis::noteWrite(const Expr *LHS) {
  const VarDecl *VD = counterOf(LHS);
  if (VD)
    Written.insert(VD);
  if (!VD || VD->getType()->isReferenceType())
    StoredTypes.push_back(LHS->getType().getCanonicalType());
}

void KernelAnalysis::noteAssignment(const VarDecl *VD, const Expr *Value) {
  std::vector<const Expr *> &Values = Assignments[VD];
  if (std::find(Values.begin(), Values.end(), Value) == Values.end())
    Values.push_back(Value);
}

bool KernelAnalysis::readsAnyOf(const Stmt *E,
                                const std::set<const VarDecl *> &Vars) {
  if (const auto *DRE = dyn_cast<DeclRefExpr>(E))
    if (const auto *VD = dyn_cast<VarDecl>(DRE->getDecl());
        VD && Vars.count(VD->getCanonicalDecl()))
      return true;
  for (const Stmt *C : E->children())
    if (C && readsAnyOf(C, Vars))
      return true;
  return false;
}

/// A value computed inside the loop over a counter that the loop does not
/// declare holds one of the loop's values while the walk is inside that
/// loop; anywhere else (after the loop, or in a later loop over the same
/// counter) the counter has other values.
bool KernelAnalysis::readsCounterOutsideItsLoop(const Stmt *E) {
  if (const auto *DRE = dyn_cast<DeclRefExpr>(E))
    if (const auto *VD = dyn_cast<VarDecl>(DRE->getDecl())) {
      const VarDecl *C = VD->getCanonicalDecl();
      if (OpenCounters.count(C) && !LevelOf.count(C)) {
        auto It = InnerLoop.find(C);
        if (It == InnerLoop.end())
          return true;
        const SourceManager &SM = Ctx.getSourceManager();
        if (!SM.isPointWithin(SM.getExpansionLoc(DRE->getBeginLoc()),
                              SM.getExpansionLoc(It->second->getBeginLoc()),
                              SM.getExpansionLoc(It->second->getEndLoc())))
          return true;
      }
    }
  for (const Stmt *C : E->children())
    if (C && readsCounterOutsideItsLoop(C))
      return true;
  return false;
}

void KernelAnalysis::noteWrittenIn(const Stmt *S,
                                   std::set<const VarDecl *> &Vars) {
  if (!S)
    return;
  const VarDecl *VD = nullptr;
  if (const auto *BO = dyn_cast<BinaryOperator>(S); BO && BO->isAssignmentOp())
    VD = counterOf(BO->getLHS());
  else if (const auto *U = dyn_cast<UnaryOperator>(S);
           U && U->isIncrementDecrementOp())
    VD = counterOf(U->getSubExpr());
  if (VD)
    Vars.insert(VD);
  for (const Stmt *C : S->children())
    noteWrittenIn(C, Vars);
}

bool KernelAnalysis::straightAssignment(
    const Stmt *S, std::map<const VarDecl *, const Expr *> &Last) {
  const auto *BO = dyn_cast<BinaryOperator>(S);
  const VarDecl *VD =
      BO && BO->getOpcode() == BO_Assign ? counterOf(BO->getLHS()) : nullptr;
  if (!VD || BO->getRHS()->HasSideEffects(Ctx))
    return false;
  noteWrite(BO->getLHS());
  // `dif = donor` right after `donor = i + 1` in the same block holds
  // i + 1, not every value donor takes elsewhere (CloverLeaf's advection:
  // the hull of all of them reached past its arrays' ends).
  const Expr *Value = BO->getRHS();
  if (const VarDecl *From = counterOf(Value);
      From && Last.count(From) &&
      Ctx.hasSameType(From->getType(), VD->getType()))
    Value = Last[From];
  noteAssignment(VD, Value);
  for (auto It = Last.begin(); It != Last.end();)
    It = readsAnyOf(It->second, {VD}) ? Last.erase(It) : std::next(It);
  Last[VD] = Value;
  return true;
}

void KernelAnalysis::collectWrittenVars(const Stmt *S) {
  if (!S)
    return;
  // A nested simd construct's body is its captured statement (which a
  // CapturedStmt's children leave out).
  if (const auto *CS = dyn_cast<CapturedStmt>(S))
    collectWrittenVars(CS->getCapturedStmt());
  // A block's plain assignments one after the other are followed as a
  // sequence (straightAssignment); anything else ends the sequence.
  if (const auto *Block = dyn_cast<CompoundStmt>(S)) {
    std::map<const VarDecl *, const Expr *> Last;
    for (const Stmt *Child : Block->body()) {
      if (straightAssignment(Child, Last))
        continue;
      Last.clear();
      collectWrittenVars(Child);
    }
    return;
  }
  // A loop whose counter is declared before it leaves the counter's last
  // value behind: a value read from it is not one of the loop's.
  if (const auto *F = dyn_cast<ForStmt>(S);
      F && !isa_and_nonnull<DeclStmt>(F->getInit())) {
    noteWrittenIn(F->getInit(), OpenCounters);
    noteWrittenIn(F->getInc(), OpenCounters);
  }
  if (const auto *BO = dyn_cast<BinaryOperator>(S)) {
    if (BO->isAssignmentOp()) {
      noteWrite(BO->getLHS());
      // A plain assignment's value is one its variable may hold
      // (assignedValue); any other write leaves its values unknown.
      if (const VarDecl *VD = counterOf(BO->getLHS())) {
        if (BO->getOpcode() == BO_Assign)
          noteAssignment(VD, BO->getRHS());
        else
          Unassignable.insert(VD);
      }
    }
  } else if (const auto *U = dyn_cast<UnaryOperator>(S)) {
    if (U->isIncrementDecrementOp() || U->getOpcode() == UO_AddrOf) {
      noteWrite(U->getSubExpr());
      if (const VarDecl *VD = counterOf(U->getSubExpr()))
        Unassignable.insert(VD);
    }
  } else if (const auto *DS = dyn_cast<DeclStmt>(S)) {
    for (const Decl *Dc : DS->decls())
      if (const auto *VD = dyn_cast<VarDecl>(Dc)) {
        Locals.insert(VD->getCanonicalDecl());
        if (VD->getInit() && !VD->getType()->isReferenceType()) {
          LocalInits[VD->getCanonicalDecl()] = VD->getInit();
          InitDepth[VD->getCanonicalDecl()] = ThisStack.size();
        }
      }
  }
  for (const Stmt *C : S->children())
    collectWrittenVars(C);
}

void KernelAnalysis::countWrites(const Stmt *S, const VarDecl *V, unsigned &N) {
  if (!S)
    return;
  if (const auto *BO = dyn_cast<BinaryOperator>(S)) {
    if (BO->isAssignmentOp() && counterOf(BO->getLHS()) == V)
      ++N;
  } else if (const auto *U = dyn_cast<UnaryOperator>(S)) {
    if ((U->isIncrementDecrementOp() || U->getOpcode() == UO_AddrOf) &&
        counterOf(U->getSubExpr()) == V)
      ++N;
  }
  for (const Stmt *C : S->children())
    countWrites(C, V, N);
}

/// Gives the counter of inner loop F a range, valid inside F only; returns
/// it (null when F's counter has none).
const VarDecl *KernelAnalysis::addInnerLoop(const ForStmt &F) {
  const VarDecl *Counter;
  Term Init, Bound, Step;
  LoopCond Cond;
  // The counter is written by its own header: translate() must not see it
  // as a plain written variable while reading the header.
  bool Ok = readLoop(F, Counter, Init, Cond, Bound, Step, /*Inner=*/true);
  if (Ok && (InnerVar.count(Counter) || LevelOf.count(Counter)))
    Ok = false; // the counter of an enclosing loop
  if (Ok) {
    // Written in its own body (besides the increment)?
    unsigned Writes = 0;
    countWrites(F.getBody(), Counter, Writes);
    Ok = Writes == 0;
  }
  // A constant step's sign says which end the first value is.
  int64_t S = 0;
  if (Ok && !B.constantValue(Step.Id, S))
    S = 0;
  ExprId Lo = NoExpr, Hi = NoExpr;
  if (S > 0 && (Cond == LoopCond::LT || Cond == LoopCond::LE)) {
    Lo = Init.Id;
    Hi = Cond == LoopCond::LT ? B.binary(ExprKind::Sub, Bound.Id, B.constant(1))
                              : Bound.Id;
  } else if (S < 0 && (Cond == LoopCond::GT || Cond == LoopCond::GE)) {
    Hi = Init.Id;
    Lo = Cond == LoopCond::GT ? B.binary(ExprKind::Add, Bound.Id, B.constant(1))
                              : Bound.Id;
  }
  if (Lo == NoExpr) {
    if (Counter)
      UnknownVars.insert(Counter);
    return nullptr;
  }
  // A counter declared outside F may have been given a range by an earlier
  // loop: the range of this loop holds in its body.
  InnerVar[Counter] = B.addVar(Lo, Hi);
  InnerLoop[Counter] = &F;
  VarNames[InnerVar[Counter]] = Counter->getNameAsString();
  UnknownVars.erase(Counter);
  return Counter;
}

//===--- Accesses ---------------------------------------------------------===//

bool KernelAnalysis::isMemory(const Expr *E) {
  E = E->IgnoreParens();
  if (isa<ArraySubscriptExpr>(E) || isa<MemberExpr>(E))
    return true;
  // An accessor's call stands for the lvalue it returns a reference to.
  if (const auto *C = dyn_cast<CallExpr>(E))
    return returnedLvalue(*C) != nullptr;
  if (const auto *U = dyn_cast<UnaryOperator>(E))
    return U->getOpcode() == UO_Deref;
  if (const auto *DRE = dyn_cast<DeclRefExpr>(E)) {
    const auto *VD = dyn_cast<VarDecl>(DRE->getDecl());
    if (!VD)
      return false;
    if (closureCapture(VD))
      return true; // the closure's field
    auto It = Captures.find(VD->getCanonicalDecl());
    return It != Captures.end() && !It->second.ByCopy;
  }
  return false;
}

/// The variable behind a direct reference; null otherwise.
const VarDecl *KernelAnalysis::varOf(const Expr *E) {
  if (const auto *DRE = dyn_cast<DeclRefExpr>(E->IgnoreParens()))
    if (const auto *VD = dyn_cast<VarDecl>(DRE->getDecl()))
      return VD->getCanonicalDecl();
  return nullptr;
}

/// Records an access of the memory lvalue E.
void KernelAnalysis::access(const Expr *E, bool Read, bool Write) {
  if (const VarDecl *VD = varOf(E)) {
    if (ReductionVars.count(VD))
      return; // private per chunk, combined on the host
    // A guarded write (`if (i == 0) flag = ...`) is a section of the chunks
    // where the guard can hold; the runtime refuses overlapping ones.
    if (Write && Guards.empty())
      return refuse("writes '" + VD->getNameAsString() +
                    "', shared by all iterations");
  }
  // A whole struct copied in or out counts as its bytes.
  uint64_t Size = sizeOf(E->getType());
  std::optional<Address> A = lvalueAddress(E);
  if (A && A->Private)
    return; // one iteration's own storage
  if (!A || !Size) {
    if (Write)
      return refuse("writes memory the analysis cannot attribute");
    ReadAny = true;
    return;
  }
  if (Write && !(A->known() && A->Offset->Affine))
    return refuse("non-affine write");
  DescAccess Acc;
  Acc.Size = Size;
  Acc.Base = A->Base;
  Acc.Name = accessName(E);
  Acc.Where = placeOf(E);
  if (A->known()) {
    Acc.Offset = A->Offset->Id;
    Acc.Guards = Guards;
  }
  Acc.Every = Write && Guards.empty() && EveryStores.count(E->IgnoreParens());
  if (Read) {
    Acc.Kind = A->known() ? AccessKind::Read : AccessKind::ReadAll;
    B.addAccess(Acc);
  }
  if (Write) {
    Acc.Kind = AccessKind::Write;
    B.addAccess(Acc);
  }
}

/// The array an access reaches, as the source writes it: `a` of `a[i]`,
/// `p->x` of `p->x[i]`, `s` of `s[i].v` and of `*(s + i)`.
std::string KernelAnalysis::accessName(const Expr *E) {
  const Expr *Base = E->IgnoreParenImpCasts();
  for (;;) {
    if (const auto *AS = dyn_cast<ArraySubscriptExpr>(Base)) {
      Base = AS->getBase()->IgnoreParenImpCasts();
    } else if (const auto *UO = dyn_cast<UnaryOperator>(Base);
               UO && UO->getOpcode() == UO_Deref) {
      Base = UO->getSubExpr()->IgnoreParenImpCasts();
    } else if (const auto *BO = dyn_cast<BinaryOperator>(Base);
               BO && BO->isAdditiveOp()) {
      // Pointer arithmetic: the pointer's side.
      const Expr *L = BO->getLHS()->IgnoreParenImpCasts();
      Base = L->getType()->isPointerType()
                 ? L
                 : BO->getRHS()->IgnoreParenImpCasts();
    } else if (const auto *ME = dyn_cast<MemberExpr>(Base);
               ME &&
               (isa<ArraySubscriptExpr>(ME->getBase()->IgnoreParenImpCasts()) ||
                ME->isArrow())) {
      // A field of an element: the elements' array.
      const Expr *Of = ME->getBase()->IgnoreParenImpCasts();
      if (ME->isArrow() && !isa<ArraySubscriptExpr>(Of) &&
          !isa<BinaryOperator>(Of))
        break; // p->x: the field is the array
      Base = Of;
    } else {
      break;
    }
  }
  const SourceManager &SM = Ctx.getSourceManager();
  SourceRange R = Base->getSourceRange();
  if (R.isValid() && !R.getBegin().isMacroID() && !R.getEnd().isMacroID()) {
    llvm::StringRef Text = Lexer::getSourceText(
        CharSourceRange::getTokenRange(R), SM, Ctx.getLangOpts());
    if (!Text.empty() && Text.size() <= 64)
      return Text.str();
  }
  std::string Printed;
  llvm::raw_string_ostream OS(Printed);
  Base->printPretty(OS, nullptr, Ctx.getPrintingPolicy());
  return OS.str().size() <= 64 ? OS.str() : "";
}

/// "file.c:88": where S is (its expansion, for a macro).
std::string KernelAnalysis::placeOf(const Stmt *S) {
  const SourceManager &SM = Ctx.getSourceManager();
  PresumedLoc P = SM.getPresumedLoc(SM.getExpansionLoc(S->getBeginLoc()));
  if (P.isInvalid())
    return "";
  return llvm::sys::path::filename(P.getFilename()).str() + ":" +
         std::to_string(P.getLine());
}

//===--- Guards: the conditions of the branch an access sits in ----------===//

/// The loop variable E is, compared in type T without a change of value.
std::optional<KernelAnalysis::VarSide> KernelAnalysis::loopVarIn(const Expr *E,
                                                                 QualType T) {
  const Expr *Inner = E->IgnoreParenImpCasts();
  const VarDecl *VD = counterOf(Inner);
  if (!VD || !T->isIntegerType() || !Inner->getType()->isIntegerType() ||
      !represents(T, Inner->getType()))
    return std::nullopt;
  VarSide V;
  if (auto It = LevelOf.find(VD); It != LevelOf.end()) {
    V.Kind = ExprKind::Counter;
    V.Index = It->second;
    V.X = B.counter(It->second);
    return V;
  }
  if (auto It = InnerVar.find(VD); It != InnerVar.end()) {
    V.Kind = ExprKind::Var;
    V.Index = It->second;
    V.X = B.var(It->second);
    return V;
  }
  return std::nullopt;
}

/// One side of a comparison as `x + s`, `x - s`, `s + x` or `s - x`. Only
/// exact arithmetic qualifies: the value must keep its meaning in the type
/// the comparison converts it to, and a sum must be signed (no wrap).
std::optional<KernelAnalysis::VarSide>
KernelAnalysis::asLoopVarSide(const Expr *Side) {
  QualType T = Side->getType();
  const Expr *E = Side->IgnoreParenImpCasts();
  if (!E->getType()->isIntegerType() || !T->isIntegerType() ||
      !represents(T, E->getType()))
    return std::nullopt;
  if (std::optional<VarSide> V = loopVarIn(E, E->getType()))
    return V;
  const auto *BO = dyn_cast<BinaryOperator>(E);
  if (!BO || (BO->getOpcode() != BO_Add && BO->getOpcode() != BO_Sub) ||
      !BO->getType()->isSignedIntegerType())
    return std::nullopt;
  std::optional<VarSide> L = loopVarIn(BO->getLHS(), BO->getType());
  std::optional<VarSide> R = loopVarIn(BO->getRHS(), BO->getType());
  if (L.has_value() == R.has_value())
    return std::nullopt;
  std::optional<Term> S = translate(L ? BO->getRHS() : BO->getLHS());
  if (!S)
    return std::nullopt;
  VarSide V = L ? *L : *R;
  V.Shift = *S;
  if (L && BO->getOpcode() == BO_Sub) // x - s == x + (-s)
    V.Shift->Id = B.neg(S->Id);
  V.Negated = !L && BO->getOpcode() == BO_Sub; // s - x
  return V;
}

namespace {
bool guardCmp(BinaryOperatorKind Op, GuardCmp &Out) {
  switch (Op) {
  case BO_LT:
    Out = GuardCmp::LT;
    return true;
  case BO_LE:
    Out = GuardCmp::LE;
    return true;
  case BO_GT:
    Out = GuardCmp::GT;
    return true;
  case BO_GE:
    Out = GuardCmp::GE;
    return true;
  case BO_EQ:
    Out = GuardCmp::EQ;
    return true;
  case BO_NE:
    Out = GuardCmp::NE;
    return true;
  default:
    return false;
  }
}
} // namespace

/// The guard of `a <op> b` holding (or failing): x <op'> bound.
void KernelAnalysis::comparisonGuard(const BinaryOperator *BO, bool Holds,
                                     std::vector<DescGuard> &Out) {
  BinaryOperatorKind Op = BO->getOpcode();
  std::optional<VarSide> V = asLoopVarSide(BO->getLHS());
  const Expr *Other = BO->getRHS();
  if (!V) {
    V = asLoopVarSide(BO->getRHS());
    Other = BO->getLHS();
    Op = BinaryOperator::reverseComparisonOp(Op);
  }
  if (!V)
    return;
  if (!Holds)
    Op = BinaryOperator::negateComparisonOp(Op);
  std::optional<Term> E = translate(Other);
  if (!E)
    return;
  // x + s <op> e  is  x <op> e - s;  s - x <op> e  is  x <op'> s - e.
  ExprId Bound = E->Id;
  if (V->Shift)
    Bound = V->Negated ? B.binary(ExprKind::Sub, V->Shift->Id, E->Id)
                       : B.binary(ExprKind::Sub, E->Id, V->Shift->Id);
  if (V->Negated)
    Op = BinaryOperator::reverseComparisonOp(Op);
  DescGuard G;
  if (B.uses(Bound, V->Kind, V->Index) || !guardCmp(Op, G.Cmp))
    return;
  G.Var = V->X;
  G.Bound = Bound;
  Out.push_back(G);
}

/// Appends to Out the guards that hold where Cond is true (Holds) or false
/// (!Holds). Conditions it cannot read add nothing, which is sound: a guard
/// only narrows where an access may happen.
void KernelAnalysis::guardsOf(const Expr *Cond, bool Holds,
                              std::vector<DescGuard> &Out) {
  if (!GuardsHold)
    return;
  Cond = Cond->IgnoreParenImpCasts();
  if (const auto *U = dyn_cast<UnaryOperator>(Cond)) {
    if (U->getOpcode() == UO_LNot)
      guardsOf(U->getSubExpr(), !Holds, Out);
    return;
  }
  const auto *BO = dyn_cast<BinaryOperator>(Cond);
  if (!BO)
    return;
  // a && b holds: both hold; a || b fails: both fail.
  if ((BO->getOpcode() == BO_LAnd && Holds) ||
      (BO->getOpcode() == BO_LOr && !Holds)) {
    guardsOf(BO->getLHS(), Holds, Out);
    guardsOf(BO->getRHS(), Holds, Out);
    return;
  }
  if (BO->isComparisonOp() && BO->getOpcode() != BO_Cmp)
    comparisonGuard(BO, Holds, Out);
}

bool KernelAnalysis::hasJumpTargets(const Stmt *S) {
  return containsStmt(
      S, [](const Stmt *X) { return isa<LabelStmt>(X) || isa<SwitchCase>(X); });
}

bool KernelAnalysis::hasLeavingJump(const Stmt *S) {
  // A break or continue in an inner loop or switch leaves only that; taken
  // as leaving the body all the same (the stores then are not every
  // iteration's, which costs copies, never answers).
  auto Leaves = [](const Stmt *X) {
    return isa<ReturnStmt>(X) || isa<GotoStmt>(X) || isa<IndirectGotoStmt>(X) ||
           isa<BreakStmt>(X) || isa<ContinueStmt>(X) || isa<CoreturnStmt>(X) ||
           isa<LabelStmt>(X);
  };
  // A closure's returns leave the closure.
  auto Closure = [](const Stmt *X) {
    return isa<LambdaExpr>(X) || isa<BlockExpr>(X);
  };
  return containsStmt(S, Leaves, Closure);
}

void KernelAnalysis::collectEveryStores(const Stmt *Body) {
  if (!Body || hasLeavingJump(Body))
    return;
  auto Top = [&](const Stmt *S) {
    const auto *E = dyn_cast<Expr>(S);
    if (!E)
      return;
    E = E->IgnoreParens();
    if (const auto *EWC = dyn_cast<ExprWithCleanups>(E))
      E = EWC->getSubExpr()->IgnoreParens();
    const auto *BO = dyn_cast<BinaryOperator>(E);
    if (!BO || !BO->isAssignmentOp())
      return;
    const Expr *LHS = BO->getLHS()->IgnoreParens();
    if (!LHS->refersToBitField() && LHS->getType()->isScalarType() &&
        !LHS->getType().isVolatileQualified())
      EveryStores.insert(LHS);
  };
  if (const auto *CS = dyn_cast<CompoundStmt>(Body))
    for (const Stmt *S : CS->body())
      Top(S);
  else
    Top(Body);
}

/// Walks S (a branch taken where Cond is true, or false) with its guards.
void KernelAnalysis::visitGuarded(const Stmt *S, const Expr *Cond, bool Holds,
                                  bool Read, bool Write) {
  size_t Depth = Guards.size();
  guardsOf(Cond, Holds, Guards);
  visit(S, Read, Write);
  Guards.resize(Depth);
}

//===--- Calls ------------------------------------------------------------===//

/// A function a kernel may call without touching memory: scalar parameters,
/// no globals but constants, calls only to such functions or math builtins.
bool KernelAnalysis::isPureFunction(const FunctionDecl *FD, unsigned Depth) {
  // Exact (or correctly rounded) on every member.
  static const std::set<std::string> ExactMath = {
      "sqrt",  "fabs",   "fabsf",    "floor",    "floorf", "ceil",
      "ceilf", "fmin",   "fminf",    "fmax",     "fmaxf",  "abs",
      "labs",  "llabs",  "fmod",     "fmodf",    "trunc",  "truncf",
      "round", "roundf", "copysign", "copysignf"};
  // Rounded by each device's own library (within a few ulp): sqrtf too, as
  // CUDA's __nv_sqrtf may be an approximation.
  static const std::set<std::string> DeviceDependentMath = {
      "sqrtf", "exp",  "expf",  "log",   "logf",   "sin",   "sinf",  "cos",
      "cosf",  "tan",  "tanf",  "pow",   "powf",   "exp2",  "exp2f", "log2",
      "log2f", "atan", "atanf", "atan2", "atan2f", "tanh",  "tanhf", "erf",
      "erff",  "cbrt", "cbrtf", "hypot", "hypotf", "log10", "log10f"};
  // The GPU compile calls the math headers' `declare variant`s, named
  // "sqrt[device={arch(nvptx, nvptx64)}, ...]": the same function.
  std::string Name = FD->getNameAsString();
  Name = Name.substr(0, Name.find('['));
  if (Name.rfind("__builtin_", 0) == 0)
    Name = Name.substr(10);
  // C++'s float overload std::sqrt(float) is sqrtf on the GPU.
  if (Name == "sqrt" &&
      !FD->getReturnType()->isSpecificBuiltinType(BuiltinType::Double))
    Name = "sqrtf";
  if (DeviceDependentMath.count(Name)) {
    DeviceMath.insert(Name);
    return true;
  }
  if (ExactMath.count(Name))
    return true;
  // Other builtins, as long as they cannot touch memory (memcpy, frexp,
  // sincos do).
  if (FD->getBuiltinID() != 0) {
    for (const ParmVarDecl *P : FD->parameters())
      if (P->getType()->isPointerType())
        return false;
    return true;
  }
  if (Depth > 4 || !FD->hasBody())
    return false;
  for (const ParmVarDecl *P : FD->parameters())
    if (!P->getType()->isScalarType() || P->getType()->isPointerType())
      return false;
  if (!FD->getReturnType()->isVoidType() &&
      !FD->getReturnType()->isScalarType())
    return false;
  bool Pure = true;
  std::function<void(const Stmt *)> Walk = [&](const Stmt *S) {
    if (!S || !Pure)
      return;
    if (const auto *DRE = dyn_cast<DeclRefExpr>(S)) {
      if (const auto *VD = dyn_cast<VarDecl>(DRE->getDecl()))
        if (VD->hasGlobalStorage() && !VD->getType().isConstQualified())
          Pure = false;
    } else if (const auto *C = dyn_cast<CallExpr>(S)) {
      const FunctionDecl *Callee = C->getDirectCallee();
      if (!Callee || Callee == FD || !isPureFunction(Callee, Depth + 1))
        Pure = false;
    } else if (isa<UnaryOperator>(S) &&
               cast<UnaryOperator>(S)->getOpcode() == UO_Deref) {
      Pure = false;
    } else if (isa<ArraySubscriptExpr>(S) || isa<GCCAsmStmt>(S) ||
               isa<CXXThisExpr>(S)) {
      Pure = false; // memory the caller cannot see (*this included)
    }
    for (const Stmt *Ch : S->children())
      Walk(Ch);
  };
  Walk(FD->getBody());
  return Pure;
}

void KernelAnalysis::visitCall(const CallExpr &C) {
  const FunctionDecl *FD = C.getDirectCallee();
  if (!FD)
    return refuse("indirect call");
  std::string Name = FD->getNameAsString();
  if (Name.rfind("omp_get_team", 0) == 0 ||
      Name.rfind("omp_get_thread", 0) == 0 ||
      Name.rfind("omp_get_num_t", 0) == 0 || Name == "omp_get_level" ||
      Name == "omp_get_ancestor_thread_num" || Name == "omp_get_team_size")
    return refuse("depends on team or thread numbers (" + Name + ")");
  // Queries that touch no memory and answer alike on every member (all of
  // them run device code).
  if (Name == "omp_is_initial_device" || Name == "omp_get_initial_device")
    return;
  // A call that does not return ends the program (an abort on a failed
  // check): whatever it touches, no result of the kernel is read after it.
  if (FD->isNoReturn())
    return;
  if (Name == "malloc" || Name == "calloc" || Name == "realloc" ||
      Name == "free" || Name.rfind("omp_alloc", 0) == 0 || Name == "omp_free" ||
      Name.rfind("omp_target_alloc", 0) == 0)
    return refuse("device-side allocation (" + Name + ")");
  // A member function of a class is walked with `this` bound to the call's
  // object (ThisStack); a lambda's call operator only where it captures by
  // copy only: the closure is its first argument, read whole below.
  const auto *MD = dyn_cast<CXXMethodDecl>(FD);
  bool Lambda = MD && MD->isInstance() && MD->getParent()->isLambda();
  bool Method = MD && MD->isInstance() && !Lambda;
  if (MD && MD->isInstance()) {
    // A trivial copy or move assignment copies bytes (`atoms[i] = a`): it
    // writes its object and reads the other, as a C struct assignment does.
    if (isa<CXXOperatorCallExpr>(C) && C.getNumArgs() == 2 && MD->isTrivial() &&
        (MD->isCopyAssignmentOperator() || MD->isMoveAssignmentOperator())) {
      visit(C.getArg(0), false, true);
      visit(C.getArg(1), true, false);
      return;
    }
    // A virtual call may run another class's override than the one seen.
    if (Method && MD->isVirtual() && !MD->hasAttr<FinalAttr>() &&
        !MD->getParent()->hasAttr<FinalAttr>())
      return refuse("calls virtual member function '" + Name + "'");
    if (Lambda && !isa<CXXOperatorCallExpr>(C))
      return refuse("calls member function '" + Name + "'");
    if (Lambda)
      for (const LambdaCapture &LC : MD->getParent()->captures())
        if (LC.getCaptureKind() != LCK_ByCopy)
          return refuse("calls a lambda that does not capture by copy");
  }
  if (isPureFunction(FD, 0)) {
    for (const Expr *A : C.arguments())
      visit(A, true, false);
    return;
  }
  const FunctionDecl *Def = nullptr;
  if (!FD->hasBody(Def) || !Def)
    return refuse("calls '" + Name + "', whose body is not visible here");
  // A lambda's body names the variables it captured, but reads the
  // closure's copies of them: made in this iteration they hold the same
  // values; a closure made outside the loop (mapped into the region) holds
  // those of when it was made: its fields, through the closure.
  if (Lambda && MD->getParent()->capture_size() > 0 &&
      !closureOfTheIteration(C.getArg(0))) {
    BoundThis Closure{C.getArg(0), false, MD->getParent()};
    return visitCallee(C, *Def, &Closure);
  }
  if (!Method)
    return visitCallee(C, *Def);
  // The object's address is computed here (a pointer it is reached
  // through is read); the body reaches its members through `this`.
  BoundThis Object = objectOf(C);
  if (isa<CXXMemberCallExpr>(C))
    visitLocalAddress(Object.Object);
  visitCallee(C, *Def, &Object);
}

bool KernelAnalysis::closureOfTheIteration(const Expr *Closure) {
  const Expr *E = Closure->IgnoreImplicit()->IgnoreParens();
  if (const auto *M = dyn_cast<MaterializeTemporaryExpr>(E))
    E = M->getSubExpr()->IgnoreImplicit()->IgnoreParens();
  if (isa<LambdaExpr>(E))
    return true; // invoked where it is written
  const VarDecl *VD = varOf(E);
  return VD && Locals.count(VD) && VD->hasLocalStorage() &&
         !VD->getType()->isReferenceType();
}

bool KernelAnalysis::referenceParameters(const FunctionDecl &Def,
                                         std::vector<char> &ByRef) {
  std::string Name = Def.getNameAsString();
  ByRef.assign(Def.getNumParams(), 0);
  for (unsigned I = 0; I < Def.getNumParams(); ++I) {
    const ParmVarDecl *P = Def.getParamDecl(I);
    QualType T = P->getType();
    if (!T->isReferenceType())
      continue;
    QualType To = T.getNonReferenceType();
    // An object by const reference (a view's data handle) is read where
    // the call is; the body reaches it through its argument.
    bool ConstObject = T->isLValueReferenceType() && To.isConstQualified() &&
                       To->isRecordType();
    if (!To->isArithmeticType() && !To->isEnumeralType() && !ConstObject) {
      refuse("calls '" + Name + "', which takes a reference to '" +
             To.getAsString() + "'");
      return false;
    }
    // Its address would reach memory beside the argument's.
    bool AddressTaken = false;
    std::function<void(const Stmt *)> Find = [&](const Stmt *S) {
      if (!S || AddressTaken)
        return;
      if (const auto *U = dyn_cast<UnaryOperator>(S);
          U && U->getOpcode() == UO_AddrOf)
        if (const auto *DRE =
                dyn_cast<DeclRefExpr>(U->getSubExpr()->IgnoreParenImpCasts()))
          AddressTaken |=
              DRE->getDecl()->getCanonicalDecl() == P->getCanonicalDecl();
      for (const Stmt *Ch : S->children())
        Find(Ch);
    };
    Find(Def.getBody());
    if (AddressTaken) {
      refuse("calls '" + Name +
             "', which takes the address of its reference '" +
             P->getNameAsString() + "'");
      return false;
    }
    ByRef[I] = T->isLValueReferenceType() && To.isConstQualified() ? 1 : 2;
  }
  return true;
}

/// E, a value that goes to a local pointer or a parameter: an address of
/// mapped memory may be taken.
void KernelAnalysis::visitLocalAddress(const Expr *E) {
  bool Saved = AddressToLocal;
  AddressToLocal = true;
  visit(E, false, false);
  AddressToLocal = Saved;
}

/// A call of a function with a visible body: its body is walked in place of
/// the call, each parameter standing for its argument (a pointer to a local
/// stays the iteration's own; a pointer into mapped memory carries its
/// sections through the callee's subscripts; a parameter the callee assigns
/// has no known value). Recursion and very deep calls are refused.
void KernelAnalysis::visitCallee(const CallExpr &C, const FunctionDecl &Def,
                                 const BoundThis *Object) {
  // The object of a member operator comes first: a value read here.
  unsigned Skip = objectArguments(C, Def);
  for (unsigned I = 0; I < Skip && I < C.getNumArgs(); ++I)
    visitLocalAddress(C.getArg(I));
  std::vector<const Expr *> Args;
  for (unsigned I = Skip; I < C.getNumArgs(); ++I)
    Args.push_back(C.getArg(I));
  walkCallee(Args, Def, Object);
}

void KernelAnalysis::walkCallee(llvm::ArrayRef<const Expr *> Args,
                                const FunctionDecl &Def,
                                const BoundThis *Object) {
  std::string Name = Def.getNameAsString();
  if (std::find(CallStack.begin(), CallStack.end(), Def.getCanonicalDecl()) !=
      CallStack.end())
    return refuse("recursive call of '" + Name + "'");
  if (CallStack.size() >= MaxCallDepth)
    return refuse("calls nested deeper than " + std::to_string(MaxCallDepth) +
                  " ('" + Name + "')");
  if (Def.isVariadic())
    return refuse("calls '" + Name + "' with a variable argument list");
  if (Args.size() != Def.getNumParams())
    return refuse("calls '" + Name + "' with " + std::to_string(Args.size()) +
                  " arguments for " + std::to_string(Def.getNumParams()) +
                  " parameters");
  std::vector<char> ByRef;
  if (!referenceParameters(Def, ByRef))
    return;
  // The arguments are evaluated in the caller; one a reference binds is
  // read there (std::min(x[i], hi)), and written too through a non-const
  // reference (std::swap(x[i], y[i])).
  for (unsigned I = 0; I < Args.size(); ++I) {
    if (ByRef[I])
      visit(Args[I], true, ByRef[I] == 2);
    else
      visitLocalAddress(Args[I]);
  }
  // Bind each parameter to its argument for the walk of the body.
  Bindings Outer = bindArguments(Args, Def);
  for (const ParmVarDecl *P : Def.parameters()) {
    Locals.insert(P->getCanonicalDecl());
    if (P->getType()->isReferenceType())
      RefParams.insert(P->getCanonicalDecl());
  }
  if (Object)
    ThisStack.push_back(*Object);
  collectWrittenVars(Def.getBody());
  CallStack.push_back(Def.getCanonicalDecl());
  // A constructor's member initializers run first, in its object.
  if (const auto *Ctor = dyn_cast<CXXConstructorDecl>(&Def))
    for (const CXXCtorInitializer *Init : Ctor->inits())
      visit(Init->getInit(), false, false);
  visit(Def.getBody(), false, false);
  CallStack.pop_back();
  if (Object)
    ThisStack.pop_back();
  restoreBindings(Outer);
}

/// A constructor with a body (`Check<Space>(msg)`, a temporary Kokkos makes
/// to check a memory space): walked as a member function of the object it
/// makes, which is the iteration's own. Base-class and delegated
/// construction are not followed.
void KernelAnalysis::visitConstructor(const CXXConstructExpr &CE) {
  const CXXConstructorDecl *Ctor = CE.getConstructor();
  const FunctionDecl *Def = nullptr;
  std::string Name = Ctor->getParent()->getNameAsString();
  if (!Ctor->hasBody(Def) || !Def)
    return refuse("constructs '" + Name +
                  "', whose constructor is not "
                  "visible here");
  for (const CXXCtorInitializer *Init : cast<CXXConstructorDecl>(Def)->inits())
    if (!Init->isAnyMemberInitializer())
      return refuse("constructs '" + Name + "' through another constructor");
  std::vector<const Expr *> Args(CE.arg_begin(), CE.arg_end());
  BoundThis Object{&CE, false};
  walkCallee(Args, *Def, &Object);
}

//===--- The walk ---------------------------------------------------------===//

void KernelAnalysis::refuse(const std::string &Why) {
  const SourceManager &SM = Ctx.getSourceManager();
  SourceLocation Loc = Here ? Here->getBeginLoc() : D.getBeginLoc();
  PresumedLoc P = SM.getPresumedLoc(SM.getExpansionLoc(Loc));
  if (P.isInvalid())
    return B.refuse(Why);
  B.refuse(Why + " at " + llvm::sys::path::filename(P.getFilename()).str() +
           ":" + std::to_string(P.getLine()) + ":" +
           std::to_string(P.getColumn()));
}

/// Walks S; Read/Write: how the value of S (a memory lvalue) is used.
void KernelAnalysis::visit(const Stmt *S, bool Read, bool Write) {
  if (!S)
    return;
  const Stmt *Outer = Here;
  Here = S;
  walk(S, Read, Write);
  Here = Outer;
}

void KernelAnalysis::walk(const Stmt *S, bool Read, bool Write) {
  if (const auto *E = dyn_cast<Expr>(S))
    if (visitExpression(E, Read, Write))
      return;
  if (visitConstruct(S) || visitOperator(S, Read, Write))
    return;
  if (const auto *C = dyn_cast<CallExpr>(S))
    return visitCall(*C);
  // The object's members are memory through it (MemberExpr); its value
  // alone touches none.
  if (isa<CXXThisExpr>(S))
    return ThisArg || !ThisStack.empty() ? void() : refuse("uses 'this'");
  if (const auto *DRE = dyn_cast<DeclRefExpr>(S))
    return visitVariable(DRE, Write);
  if (isa<CXXNewExpr>(S) || isa<CXXDeleteExpr>(S))
    return refuse("device-side allocation (new/delete)");
  if (isa<GCCAsmStmt>(S) || isa<MSAsmStmt>(S))
    return refuse("inline assembly");
  // A local pointer may start at mapped memory (`T *p = &a[k]`).
  if (const auto *DS = dyn_cast<DeclStmt>(S)) {
    bool Plain = true;
    for (const Decl *Dc : DS->decls()) {
      const auto *VD = dyn_cast<VarDecl>(Dc);
      Plain &= VD && !VD->getType()->isVariablyModifiedType();
    }
    if (Plain) {
      for (const Decl *Dc : DS->decls()) {
        const auto *VD = cast<VarDecl>(Dc);
        if (!VD->getInit())
          continue;
        if (VD->getType()->isPointerType())
          visitLocalAddress(VD->getInit());
        else
          visit(VD->getInit(), false, false);
      }
      return;
    }
  }
  // A trivial constructor copies (or leaves) bytes: `Atom a = ligand[i]`
  // reads the element.
  if (const auto *CE = dyn_cast<CXXConstructExpr>(S);
      CE && CE->getConstructor()->isTrivial()) {
    for (const Expr *A : CE->arguments())
      visit(A, true, false);
    return;
  }
  if (const auto *CE = dyn_cast<CXXConstructExpr>(S))
    return visitConstructor(*CE);
  if (isa<CXXMemberCallExpr>(S))
    return refuse("C++ calls");
  for (const Stmt *C : S->children())
    visit(C, false, false);
}

/// Memory lvalues and lvalues that are not memory; true when E is done.
bool KernelAnalysis::visitExpression(const Expr *E, bool Read, bool Write) {
  const Expr *P = E->IgnoreParens();
  if (P != E) {
    visit(P, Read, Write);
    return true;
  }
  // The same lvalue under another name: a forwarding cast
  // (`static_cast<Args &&>(args)`, Kokkos' functor adapter), std::move,
  // std::forward.
  if (const auto *CE = dyn_cast<CastExpr>(E);
      CE && CE->isGLValue() && CE->getCastKind() == CK_NoOp) {
    visit(CE->getSubExpr(), Read, Write);
    return true;
  }
  if (const auto *C = dyn_cast<CallExpr>(E))
    if (const Expr *Arg = identityArgument(*C)) {
      visit(Arg, Read, Write);
      return true;
    }
  if (isMemory(E) && (Read || Write)) {
    // The subexpressions (indices, base pointers) are walked by
    // lvalueAddress through visit(..., Read).
    access(E, Read, Write);
    return true;
  }
  // A store to an lvalue other than memory or a variable (C++: a conditional
  // or comma lvalue, ...).
  if (Write && !isa<DeclRefExpr>(E)) {
    refuse("writes an lvalue the analysis cannot attribute");
    return true;
  }
  // A read of the reference a call returns, where its lvalue cannot be
  // named (an accessor whose index comes from a helper of several
  // statements): the walk of its body reads nothing of it, so it may read
  // any memory.
  if (Read && isa<CallExpr>(E) && E->isGLValue() &&
      !identityArgument(*cast<CallExpr>(E)))
    ReadAny = true;
  return false;
}

/// OpenMP constructs and loops inside the body; true when S is done.
bool KernelAnalysis::visitConstruct(const Stmt *S) {
  if (isa<OMPAtomicDirective>(S))
    return refuse("atomic construct"), true;
  if (isa<OMPCriticalDirective>(S))
    return refuse("critical construct"), true;
  if (isa<OMPOrderedDirective>(S))
    return refuse("ordered construct"), true;
  if (const auto *OD = dyn_cast<OMPExecutableDirective>(S)) {
    if (OD->getDirectiveKind() != llvm::omp::OMPD_simd)
      return refuse("nested OpenMP construct"), true;
    visit(OD->getInnermostCapturedStmt()->getCapturedStmt(), false, false);
    return true;
  }
  if (const auto *CS = dyn_cast<CapturedStmt>(S)) {
    visit(CS->getCapturedStmt(), false, false);
    return true;
  }
  if (const auto *F = dyn_cast<ForStmt>(S)) {
    const VarDecl *Counter = addInnerLoop(*F);
    for (const Stmt *C : F->children())
      visit(C, false, false);
    // After the loop (a counter declared outside it) the counter is past its
    // range: from here on its value is unknown.
    if (Counter) {
      InnerVar.erase(Counter);
      InnerLoop.erase(Counter);
      UnknownVars.insert(Counter);
    }
    return true;
  }
  if (const auto *If = dyn_cast<IfStmt>(S);
      If && !If->getConditionVariable() && !If->isConsteval()) {
    visit(If->getInit(), false, false);
    visit(If->getCond(), false, false);
    // A condition known here (a static table's `if (r == R)`): the branch
    // not taken never runs.
    if (std::optional<bool> Holds = decided(If->getCond())) {
      visit(*Holds ? If->getThen() : If->getElse(), false, false);
      return true;
    }
    visitGuarded(If->getThen(), If->getCond(), true, false, false);
    if (If->getElse())
      visitGuarded(If->getElse(), If->getCond(), false, false, false);
    return true;
  }
  return false;
}

/// Casts, assignments, short-circuits, conditionals, increments and
/// address-of; true when S is done.
bool KernelAnalysis::visitOperator(const Stmt *S, bool Read, bool Write) {
  if (const auto *CE = dyn_cast<CastExpr>(S)) {
    if (CE->getCastKind() == CK_LValueToRValue)
      visit(CE->getSubExpr(), true, false);
    else if (CE->getCastKind() == CK_NoOp && CE->isGLValue())
      visit(CE->getSubExpr(), Read, Write); // adds const
    else if (CE->getCastKind() == CK_ArrayToPointerDecay ||
             CE->getCastKind() == CK_FunctionToPointerDecay)
      visitAddressOnly(CE->getSubExpr());
    else
      visit(CE->getSubExpr(), false, false);
    return true;
  }
  if (const auto *BO = dyn_cast<BinaryOperator>(S)) {
    if (BO->isAssignmentOp()) {
      visit(BO->getLHS(), BO->isCompoundAssignmentOp(), true);
      const VarDecl *To = varOf(BO->getLHS());
      if (To && Locals.count(To) && To->getType()->isPointerType())
        visitLocalAddress(BO->getRHS());
      else
        visit(BO->getRHS(), false, false);
      return true;
    }
    // The right operand runs only where the left one decides so.
    if (BO->getOpcode() == BO_LAnd || BO->getOpcode() == BO_LOr) {
      visit(BO->getLHS(), false, false);
      visitGuarded(BO->getRHS(), BO->getLHS(), BO->getOpcode() == BO_LAnd,
                   false, false);
      return true;
    }
    // A C++ comma lvalue is its right operand.
    if (BO->getOpcode() == BO_Comma) {
      visit(BO->getLHS(), false, false);
      visit(BO->getRHS(), Read, Write);
      return true;
    }
    return false;
  }
  // A C++ conditional lvalue is one of its branches.
  if (const auto *CO = dyn_cast<ConditionalOperator>(S)) {
    visit(CO->getCond(), false, false);
    if (std::optional<bool> Holds = decided(CO->getCond())) {
      visit(*Holds ? CO->getTrueExpr() : CO->getFalseExpr(), Read, Write);
      return true;
    }
    visitGuarded(CO->getTrueExpr(), CO->getCond(), true, Read, Write);
    visitGuarded(CO->getFalseExpr(), CO->getCond(), false, Read, Write);
    return true;
  }
  if (const auto *U = dyn_cast<UnaryOperator>(S)) {
    if (U->isIncrementDecrementOp()) {
      visit(U->getSubExpr(), true, true);
      return true;
    }
    if (U->getOpcode() == UO_AddrOf) {
      // To a local pointer or a parameter, the address is followed where it
      // is used (reads through an unknown pointer read everything, writes
      // are refused); elsewhere (stored to memory) it would escape.
      if (!AddressToLocal && isMemory(U->getSubExpr()))
        refuse("takes the address of mapped memory");
      else
        visit(U->getSubExpr(), false, false);
      return true;
    }
  }
  return false;
}

/// A variable read or written directly.
void KernelAnalysis::visitVariable(const DeclRefExpr *DRE, bool Write) {
  const auto *VD = dyn_cast<VarDecl>(DRE->getDecl());
  if (!VD)
    return;
  // A reference parameter's argument was counted written at the call.
  if (Write && VD->getType()->isReferenceType() &&
      !RefParams.count(VD->getCanonicalDecl()))
    return refuse("writes through reference '" + VD->getNameAsString() + "'");
  const VarDecl *C = VD->getCanonicalDecl();
  if (Write && !Locals.count(C) && !Privates.count(C) && !LevelOf.count(C) &&
      !InnerVar.count(C) && !ReductionVars.count(C))
    return refuse("writes '" + VD->getNameAsString() +
                  "', shared by all iterations");
  if (VD->hasGlobalStorage() && !VD->isStaticLocal() && !Captures.count(C)) {
    if (Write)
      return refuse("writes a global variable");
    if (!VD->getType().isConstQualified())
      ReadAny = true;
  }
}

/// An array used as a pointer (passed on, decayed): its address matters,
/// not its contents, unless it is then dereferenced (handled above).
void KernelAnalysis::visitAddressOnly(const Expr *E) {
  if (isMemory(E))
    refuse("takes the address of mapped memory");
}

} // namespace hetero

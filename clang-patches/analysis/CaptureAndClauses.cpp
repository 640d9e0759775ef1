//===- CaptureAndClauses.cpp - Arguments, clauses and the loop nest -------===//
//
// The parts of a kernel's analysis that come before its body: which kernel
// argument each captured variable is, what the clauses allow (reductions,
// private variables, clauses that refuse the split or keep the kernel off
// GPUs), and the collapsed loop nest.
//
//===----------------------------------------------------------------------===//
#include "KernelAnalysis.h"
#include "RegionLoop.h"

#include "clang/AST/StmtOpenMP.h"
#include "clang/Basic/OpenMPKinds.h"

#include <cstdint>
#include <functional>

using namespace clang;

namespace hetero {

KernelDescriptor KernelAnalysis::run() {
  collectCaptures();
  checkClauses();
  // Every reason counts (the builder keeps them all): the nest and the body
  // are walked after a refused clause too.
  const Stmt *Body = collectNest();
  if (Body) {
    collectWrittenVars(Body);
    for (const LoopLevel &L : Levels)
      if (Written.count(L.Counter))
        refuse("a collapsed loop counter is modified in the loop body");
  }
  // The headers of the collapsed loops are evaluated in the kernel too:
  // their reads (a bound in mapped memory) are reads of the kernel.
  for (const ForStmt *F : Headers)
    for (const Stmt *C : {F->getInit(), static_cast<const Stmt *>(F->getCond()),
                          static_cast<const Stmt *>(F->getInc())})
      visit(C, false, false);
  // A jump into a branch (goto, a case label inside an if) bypasses its
  // condition: no guards in such a body.
  GuardsHold = !hasJumpTargets(Body);
  collectEveryStores(Body);
  visit(Body, false, false);
  if (!DeviceMath.empty()) {
    std::string Why = "calls";
    const char *Sep = " ";
    for (const std::string &F : DeviceMath) {
      Why += Sep + F;
      Sep = ", ";
    }
    B.setOneKind(Why + ", which GPUs and CPUs round differently");
  }
  for (const LoopLevel &L : Levels)
    B.addLoop(L.Init.Id, L.Cond, L.Bound.Id, L.Step.Id);
  if (ReadAny) {
    DescAccess A;
    A.Kind = AccessKind::ReadAny;
    B.addAccess(A);
  }
  return B.take();
}

KernelAnalysis::SourceNames KernelAnalysis::names() const {
  SourceNames N;
  for (const auto &[VD, C] : Captures)
    N.Args[C.Arg] = VD->getNameAsString();
  if (ThisArg)
    N.Args[*ThisArg] = "this";
  for (const auto &[Size, Arg] : VLASizes)
    N.Args[Arg] = "<array length>";
  for (const LoopLevel &L : Levels)
    N.Counters.push_back(L.Counter ? L.Counter->getNameAsString() : "?");
  N.Vars = VarNames;
  return N;
}

void KernelAnalysis::collectCaptures() {
  const CapturedStmt *CS = Target.getCapturedStmt(llvm::omp::OMPD_target);
  unsigned Arg = 0;
  auto Field = CS->getCapturedRecordDecl()->field_begin();
  for (const CapturedStmt::Capture &C : CS->captures()) {
    if (C.capturesVariable() || C.capturesVariableByCopy())
      Captures[C.getCapturedVar()->getCanonicalDecl()] = {
          Arg, C.capturesVariableByCopy()};
    else if (C.capturesThis())
      ThisArg = Arg;
    else if (C.capturesVariableArrayType() && Field->hasCapturedVLAType())
      // The number of elements, passed by value as a size_t.
      VLASizes[Field->getCapturedVLAType()->getSizeExpr()] = Arg;
    ++Arg;
    ++Field;
  }
}

namespace {

/// The clause's operator; false for a user-defined reduction.
bool reductionOp(const OMPReductionClause &C, ReductionOp &Op) {
  DeclarationName N = C.getNameInfo().getName();
  switch (N.getCXXOverloadedOperator()) {
  case OO_Plus:
  case OO_Minus:
    Op = ReductionOp::Add;
    return true;
  case OO_Star:
    Op = ReductionOp::Mul;
    return true;
  case OO_Amp:
    Op = ReductionOp::BitAnd;
    return true;
  case OO_Pipe:
    Op = ReductionOp::BitOr;
    return true;
  case OO_Caret:
    Op = ReductionOp::BitXor;
    return true;
  case OO_AmpAmp:
    Op = ReductionOp::LogAnd;
    return true;
  case OO_PipePipe:
    Op = ReductionOp::LogOr;
    return true;
  default:
    break;
  }
  if (N.isIdentifier() && N.getAsString() == "max") {
    Op = ReductionOp::Max;
    return true;
  }
  if (N.isIdentifier() && N.getAsString() == "min") {
    Op = ReductionOp::Min;
    return true;
  }
  return false;
}

} // namespace

std::optional<ReductionType> KernelAnalysis::scalarType(QualType T) {
  T = T.getCanonicalType().getUnqualifiedType();
  const auto *BT = T->getAs<BuiltinType>();
  if (!BT)
    return std::nullopt;
  if (BT->getKind() == BuiltinType::Float)
    return ReductionType::F32;
  if (BT->getKind() == BuiltinType::Double)
    return ReductionType::F64;
  if (!BT->isInteger() || T->isBooleanType())
    return std::nullopt;
  bool Signed = T->isSignedIntegerType();
  switch (Ctx.getTypeSize(T)) {
  case 8:
    return Signed ? ReductionType::I8 : ReductionType::U8;
  case 16:
    return Signed ? ReductionType::I16 : ReductionType::U16;
  case 32:
    return Signed ? ReductionType::I32 : ReductionType::U32;
  case 64:
    return Signed ? ReductionType::I64 : ReductionType::U64;
  default:
    return std::nullopt;
  }
}

void KernelAnalysis::checkClauses() {
  for (const OMPExecutableDirective *Level : Directives)
    for (const OMPClause *C : Level->clauses())
      checkClause(*C);
}

void KernelAnalysis::checkClause(const OMPClause &Clause) {
  const OMPClause *C = &Clause;
  // Every level's clauses apply to the one loop: a reduction listed on
  // target teams and again on distribute parallel for is one reduction.
  switch (C->getClauseKind()) {
  case llvm::omp::OMPC_lastprivate:
    refuse("lastprivate");
    // LLVM 19.1.7's NVPTX runtime loses or faults on the lastprivate
    // copy-out (measured with the stock cuda plugin).
    B.setHostOnly("lastprivate is wrong in LLVM 19's NVPTX runtime");
    break;
  case llvm::omp::OMPC_schedule: {
    // LLVM 19.1.7's NVPTX runtime faults on these now and then (the
    // stock cuda plugin too).
    auto Kind = cast<OMPScheduleClause>(C)->getScheduleKind();
    if (Kind == OMPC_SCHEDULE_dynamic || Kind == OMPC_SCHEDULE_guided ||
        Kind == OMPC_SCHEDULE_auto || Kind == OMPC_SCHEDULE_runtime)
      B.setHostOnly("schedule(" +
                    std::string(getOpenMPSimpleClauseTypeName(
                        llvm::omp::OMPC_schedule, Kind)) +
                    ") faults in LLVM 19's NVPTX runtime");
    break;
  }
  case llvm::omp::OMPC_linear:
    refuse("linear clause");
    break;
  case llvm::omp::OMPC_ordered:
    refuse("ordered");
    break;
  case llvm::omp::OMPC_in_reduction:
  case llvm::omp::OMPC_allocate:
  case llvm::omp::OMPC_uses_allocators:
    refuse(std::string(llvm::omp::getOpenMPClauseName(C->getClauseKind())) +
           " clause");
    break;
  case llvm::omp::OMPC_reduction:
    addReduction(*cast<OMPReductionClause>(C));
    break;
  case llvm::omp::OMPC_private:
    for (const Expr *E : cast<OMPPrivateClause>(C)->varlists())
      if (const VarDecl *VD = varOf(E))
        Privates.insert(VD);
    break;
  default:
    break;
  }
}

void KernelAnalysis::addReduction(const OMPReductionClause &C) {
  if (C.getModifier() != OMPC_REDUCTION_unknown &&
      C.getModifier() != OMPC_REDUCTION_default)
    return refuse("reduction modifier");
  ReductionOp Op;
  if (!reductionOp(C, Op))
    return refuse("user-defined reduction");
  for (const Expr *E : C.varlists()) {
    const auto *DRE = dyn_cast<DeclRefExpr>(E->IgnoreParenImpCasts());
    const auto *VD = DRE ? dyn_cast<VarDecl>(DRE->getDecl()) : nullptr;
    if (!VD)
      return refuse("reduction over an array section or member");
    std::optional<ReductionType> Ty = scalarType(VD->getType());
    if (!Ty)
      return refuse("reduction of a non-arithmetic type");
    if (!reductionValid(Op, *Ty))
      return refuse("bitwise reduction of a floating type");
    auto Seen = ReductionOps.find(VD->getCanonicalDecl());
    if (Seen != ReductionOps.end()) {
      if (Seen->second != Op)
        return refuse("one variable in reductions of two operators");
      continue; // the same reduction on another level of the construct
    }
    auto It = Captures.find(VD->getCanonicalDecl());
    if (It == Captures.end() || It->second.ByCopy)
      return refuse("reduction variable not passed by reference");
    ReductionVars.insert(VD->getCanonicalDecl());
    ReductionOps[VD->getCanonicalDecl()] = Op;
    DescReduction R;
    R.Arg = It->second.Arg;
    R.Op = Op;
    R.Type = *Ty;
    B.addReduction(R);
  }
}

const VarDecl *KernelAnalysis::counterOf(const Expr *E) {
  E = E->IgnoreParenImpCasts();
  if (const auto *DRE = dyn_cast<DeclRefExpr>(E))
    if (const auto *VD = dyn_cast<VarDecl>(DRE->getDecl()))
      return VD->getCanonicalDecl();
  return nullptr;
}

namespace {

/// `x <op> e` as a loop condition (x on the left); false for other ops.
bool loopCond(BinaryOperatorKind Op, LoopCond &Out) {
  switch (Op) {
  case BO_LT:
    Out = LoopCond::LT;
    return true;
  case BO_LE:
    Out = LoopCond::LE;
    return true;
  case BO_GT:
    Out = LoopCond::GT;
    return true;
  case BO_GE:
    Out = LoopCond::GE;
    return true;
  case BO_NE:
    Out = LoopCond::NE;
    return true;
  default:
    return false;
  }
}

/// The counter's first value: `int i = e` or `i = e`.
bool loopInit(const Stmt *I, const VarDecl *&Counter, const Expr *&InitE,
              const std::function<const VarDecl *(const Expr *)> &CounterOf) {
  Counter = nullptr;
  InitE = nullptr;
  if (const auto *DS = dyn_cast_or_null<DeclStmt>(I)) {
    if (!DS->isSingleDecl())
      return false;
    const auto *VD = dyn_cast<VarDecl>(DS->getSingleDecl());
    if (!VD || !VD->getInit())
      return false;
    Counter = VD->getCanonicalDecl();
    InitE = VD->getInit();
  } else if (const auto *BO = dyn_cast_or_null<BinaryOperator>(I)) {
    if (BO->getOpcode() != BO_Assign)
      return false;
    Counter = CounterOf(BO->getLHS());
    InitE = BO->getRHS();
  }
  return Counter && InitE && Counter->getType()->isIntegerType();
}

} // namespace

/// Reads `for (init; cond; inc)`: counter, first value, bound, step.
/// Expressions are translated with the translator (outer counters may
/// appear for inner loops).
bool KernelAnalysis::readLoop(const ForStmt &F, const VarDecl *&Counter,
                              Term &Init, LoopCond &Cond, Term &Bound,
                              Term &Step, bool Inner) {
  const Expr *InitE;
  auto CounterOf = [this](const Expr *E) { return counterOf(E); };
  if (!loopInit(F.getInit(), Counter, InitE, CounterOf))
    return false;
  const auto *C = dyn_cast_or_null<BinaryOperator>(F.getCond());
  if (!C)
    return false;
  const Expr *BoundE;
  BinaryOperatorKind Op = C->getOpcode();
  if (counterOf(C->getLHS()) == Counter) {
    BoundE = C->getRHS();
  } else if (counterOf(C->getRHS()) == Counter) {
    BoundE = C->getLHS();
    Op = BinaryOperator::reverseComparisonOp(Op);
  } else {
    return false;
  }
  if (!loopCond(Op, Cond))
    return false;
  const Expr *Inc = F.getInc() ? F.getInc()->IgnoreParens() : nullptr;
  if (const auto *U = dyn_cast_or_null<UnaryOperator>(Inc)) {
    if (counterOf(U->getSubExpr()) != Counter || !U->isIncrementDecrementOp())
      return false;
    Step = constantTerm(U->isIncrementOp() ? 1 : -1);
  } else if (const auto *BO = dyn_cast_or_null<BinaryOperator>(Inc)) {
    if (counterOf(BO->getLHS()) != Counter)
      return false;
    const Expr *SE = nullptr;
    bool Negate = false;
    if (BO->getOpcode() == BO_AddAssign || BO->getOpcode() == BO_SubAssign) {
      SE = BO->getRHS();
      Negate = BO->getOpcode() == BO_SubAssign;
    } else if (BO->getOpcode() == BO_Assign) {
      const auto *R =
          dyn_cast<BinaryOperator>(BO->getRHS()->IgnoreParenImpCasts());
      if (!R || (R->getOpcode() != BO_Add && R->getOpcode() != BO_Sub))
        return false;
      if (counterOf(R->getLHS()) == Counter)
        SE = R->getRHS();
      else if (R->getOpcode() == BO_Add && counterOf(R->getRHS()) == Counter)
        SE = R->getLHS();
      else
        return false;
      Negate = R->getOpcode() == BO_Sub;
    } else {
      return false;
    }
    std::optional<Term> T = translate(SE);
    if (!T || T->Degree != 0)
      return false;
    Step = *T;
    int64_t V;
    if (Negate && B.constantValue(T->Id, V) && V != INT64_MIN)
      Step = constantTerm(-V); // j -= 2: a constant step of -2
    else if (Negate)
      Step.Id = B.neg(T->Id);
  } else {
    return false;
  }
  std::optional<Term> IT = translate(InitE), BT = translate(BoundE);
  // An inner loop's ends only bound its counter's values, so a bounded one
  // will do (`j < min(i, m)`: the runtime's intervals over-approximate, and
  // write sections are made valid before the chunk runs); the collapsed
  // loops' ends define the iteration space and must be exact.
  if (!IT || !BT || (!Inner && (!IT->Affine || !BT->Affine)) ||
      IT->Degree > 1 || BT->Degree > 1)
    return false;
  Init = *IT;
  Bound = *BT;
  return true;
}

/// The collapsed loops; returns the body of the innermost one.
const Stmt *KernelAnalysis::collectNest() {
  const Stmt *S = D.getInnermostCapturedStmt()->getCapturedStmt();
  unsigned Depth = D.getLoopsNumber();
  for (unsigned L = 0; L < Depth; ++L) {
    S = stripCompound(S);
    const auto *F = dyn_cast_or_null<ForStmt>(S);
    if (!F) {
      refuse("loop nest is not a nest of for loops");
      return nullptr;
    }
    LoopLevel Level;
    if (!readLoop(*F, Level.Counter, Level.Init, Level.Cond, Level.Bound,
                  Level.Step)) {
      refuse("loop header of level " + std::to_string(L) +
             " is not an affine canonical loop");
      return nullptr;
    }
    if (Level.Init.Degree || Level.Bound.Degree) {
      refuse("non-rectangular collapsed loop nest");
      return nullptr;
    }
    LevelOf[Level.Counter] = L;
    Levels.push_back(Level);
    Headers.push_back(F);
    S = F->getBody();
  }
  return S;
}

} // namespace hetero

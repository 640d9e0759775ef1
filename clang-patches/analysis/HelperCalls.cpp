//===- HelperCalls.cpp - Integer helpers of several statements ------------===//
//
// The value of a call to an integer helper whose body does more than
// return one expression but changes nothing outside itself: layouts that
// fold an offset into a local (mdspan's `index_type res = 0; ((res = i +
// ext(r) * res), ...); return res;`), extents that pick a static or a
// dynamic value by comparing with a tag (`T s = get(r); return s == tag ?
// dyn[map(r)] : s;`), and static tables walked by an if-chain (`if (r == R)
// return E; return next::get(r);`). The body is executed with its
// parameters bound to the call's arguments: each local holds a term (and,
// where it is a constant, the number, which may not fit a term), and a
// condition must be decided by constants, else the call has no value. A
// local array of integers initialized by a braced list (mdspan's
// `index_type indices[] = {idx...}`) holds one such value per element,
// read at subscripts that are constants here.
//
//===----------------------------------------------------------------------===//
#include "KernelAnalysis.h"

#include "clang/AST/DeclCXX.h"
#include "clang/AST/Expr.h"
#include "clang/AST/ExprCXX.h"

#include <algorithm>
#include <functional>

using namespace clang;

namespace hetero {

namespace {

/// V converted to T as C converts an integer (extended by its own
/// signedness, then read in T's).
llvm::APSInt convertTo(ASTContext &Ctx, const llvm::APSInt &V, QualType T) {
  if (T->isBooleanType())
    return llvm::APSInt(llvm::APInt(Ctx.getIntWidth(T), !V.isZero()),
                        /*isUnsigned=*/true);
  llvm::APSInt X = V.extOrTrunc(Ctx.getIntWidth(T));
  X.setIsUnsigned(!T->isSignedIntegerOrEnumerationType());
  return X;
}

/// Whether VD is a local or a by-value parameter of Def (what its body may
/// assign without an effect outside it).
bool isOwnLocal(const VarDecl *VD, const FunctionDecl &Def) {
  const auto *Owner = dyn_cast<FunctionDecl>(VD->getDeclContext());
  return Owner && Owner->getCanonicalDecl() == Def.getCanonicalDecl() &&
         VD->hasLocalStorage() && !VD->getType()->isReferenceType();
}

/// Whether VD is an own local that execution can follow when assigned: an
/// integer (a pointer parameter moved by `p++` would still be read as its
/// argument's value elsewhere).
bool isAssignableLocal(const VarDecl *VD, const FunctionDecl &Def) {
  return VD && isOwnLocal(VD, Def) &&
         VD->getType()->isIntegralOrEnumerationType();
}

const VarDecl *assignedVariable(const Expr *LHS) {
  const auto *DRE = dyn_cast<DeclRefExpr>(LHS->IgnoreParens());
  const auto *VD = DRE ? dyn_cast<VarDecl>(DRE->getDecl()) : nullptr;
  return VD ? VD->getCanonicalDecl() : nullptr;
}

/// Whether VD is a local array of integers that a braced list initializes.
bool integerArray(const VarDecl *VD) {
  const auto *AT = dyn_cast<ConstantArrayType>(VD->getType().getTypePtr());
  return AT && AT->getElementType()->isIntegralOrEnumerationType() &&
         VD->getInit() && isa<InitListExpr>(VD->getInit());
}

const Expr *skipCleanups(const Expr *E) {
  E = E->IgnoreParens();
  if (const auto *EWC = dyn_cast<ExprWithCleanups>(E))
    E = EWC->getSubExpr()->IgnoreParens();
  return E;
}

} // namespace

bool KernelAnalysis::localOnlyBody(const FunctionDecl &Def, unsigned Depth) {
  const auto *Body = dyn_cast_or_null<CompoundStmt>(Def.getBody());
  return Body && Depth < MaxCallDepth &&
         Def.getReturnType()->isIntegralOrEnumerationType() &&
         localOnlyStmt(Body, Def, Depth);
}

bool KernelAnalysis::localOnlyStmt(const Stmt *S, const FunctionDecl &Def,
                                   unsigned Depth) {
  if (!S || isa<NullStmt>(S))
    return true;
  if (const auto *CS = dyn_cast<CompoundStmt>(S))
    return std::all_of(CS->body_begin(), CS->body_end(), [&](const Stmt *B) {
      return localOnlyStmt(B, Def, Depth);
    });
  if (const auto *DS = dyn_cast<DeclStmt>(S))
    return std::all_of(DS->decl_begin(), DS->decl_end(), [&](const Decl *D) {
      const auto *VD = dyn_cast<VarDecl>(D);
      if (!VD)
        return !isa<ValueDecl>(D); // a type, a static_assert
      return isOwnLocal(VD, Def) && !VD->isStaticLocal() &&
             (VD->getType()->isIntegralOrEnumerationType() ||
              integerArray(VD)) &&
             VD->getInit() && localOnlyExpr(VD->getInit(), Def, Depth);
    });
  if (const auto *R = dyn_cast<ReturnStmt>(S))
    return R->getRetValue() && localOnlyExpr(R->getRetValue(), Def, Depth);
  if (const auto *If = dyn_cast<IfStmt>(S))
    return !If->getInit() && !If->getConditionVariable() &&
           !If->isConsteval() && localOnlyExpr(If->getCond(), Def, Depth) &&
           localOnlyStmt(If->getThen(), Def, Depth) &&
           localOnlyStmt(If->getElse(), Def, Depth);
  if (const auto *E = dyn_cast<Expr>(S))
    return localOnlyExpr(E, Def, Depth);
  return false;
}

bool KernelAnalysis::localOnlyExpr(const Expr *E, const FunctionDecl &Def,
                                   unsigned Depth) {
  if (!quietCalls(E, Depth))
    return false;
  std::function<bool(const Stmt *)> Own = [&](const Stmt *S) {
    if (!S)
      return true;
    if (const auto *BO = dyn_cast<BinaryOperator>(S);
        BO && BO->isAssignmentOp()) {
      return isAssignableLocal(assignedVariable(BO->getLHS()), Def) &&
             Own(BO->getRHS());
    }
    if (const auto *U = dyn_cast<UnaryOperator>(S)) {
      if (U->getOpcode() == UO_AddrOf)
        return false;
      if (U->isIncrementDecrementOp())
        return isAssignableLocal(assignedVariable(U->getSubExpr()), Def);
    }
    if (isa<CXXNewExpr>(S) || isa<CXXDeleteExpr>(S) || isa<CXXThrowExpr>(S) ||
        isa<StmtExpr>(S) || isa<AtomicExpr>(S) || isa<LambdaExpr>(S))
      return false;
    if (const auto *CE = dyn_cast<CXXConstructExpr>(S);
        CE && !CE->getConstructor()->isTrivial())
      return false;
    return std::all_of(S->child_begin(), S->child_end(), Own);
  };
  return Own(E);
}

std::optional<Term> KernelAnalysis::helperValue(const FunctionDecl &Def) {
  std::map<const VarDecl *, HelperLocal> Outer = HelperLocals;
  std::map<const VarDecl *, std::vector<HelperLocal>> OuterArrays =
      HelperArrays;
  HelperLocal Out;
  Flow F = execute(Def.getBody(), Out);
  HelperLocals = std::move(Outer);
  HelperArrays = std::move(OuterArrays);
  if (F != Flow::Returned)
    return std::nullopt;
  return termOf(Out);
}

std::optional<Term> KernelAnalysis::termOf(const HelperLocal &L) {
  if (!L.Value && L.Constant && L.Constant->isRepresentableByInt64())
    return constantTerm(L.Constant->getExtValue());
  return L.Value;
}

KernelAnalysis::Flow KernelAnalysis::execute(const Stmt *S, HelperLocal &Out) {
  if (!S || isa<NullStmt>(S))
    return Flow::Next;
  if (const auto *CS = dyn_cast<CompoundStmt>(S)) {
    for (const Stmt *B : CS->body())
      if (Flow F = execute(B, Out); F != Flow::Next)
        return F;
    return Flow::Next;
  }
  if (const auto *DS = dyn_cast<DeclStmt>(S)) {
    // A local whose value is unknown is fine until something reads it.
    for (const Decl *D : DS->decls()) {
      const auto *VD = dyn_cast<VarDecl>(D);
      if (!VD)
        continue;
      if (!integerArray(VD)) {
        HelperLocals[VD->getCanonicalDecl()] = {translate(VD->getInit()),
                                                constantOf(VD->getInit())};
        continue;
      }
      const auto *ILE = cast<InitListExpr>(VD->getInit());
      if (ILE->isSyntacticForm() && ILE->getSemanticForm())
        ILE = ILE->getSemanticForm();
      uint64_t N = cast<ConstantArrayType>(VD->getType().getTypePtr())
                       ->getSize()
                       .getZExtValue();
      std::vector<HelperLocal> Elements(N);
      for (uint64_t I = 0; I < N; ++I) {
        // Past the list (or a filler): zero.
        const Expr *Init = I < ILE->getNumInits() ? ILE->getInit(I) : nullptr;
        if (!Init || isa<ImplicitValueInitExpr>(Init))
          Elements[I] = {constantTerm(0), llvm::APSInt::get(0)};
        else
          Elements[I] = {translate(Init), constantOf(Init)};
      }
      HelperArrays[VD->getCanonicalDecl()] = std::move(Elements);
    }
    return Flow::Next;
  }
  if (const auto *R = dyn_cast<ReturnStmt>(S)) {
    Out = {translate(R->getRetValue()), constantOf(R->getRetValue())};
    return Out.Value || Out.Constant ? Flow::Returned : Flow::Unknown;
  }
  if (const auto *If = dyn_cast<IfStmt>(S)) {
    std::optional<bool> Holds = decided(If->getCond());
    if (!Holds)
      return Flow::Unknown;
    return execute(*Holds ? If->getThen() : If->getElse(), Out);
  }
  if (const auto *E = dyn_cast<Expr>(S))
    return assignLocals(E) ? Flow::Next : Flow::Unknown;
  return Flow::Unknown;
}

bool KernelAnalysis::assignLocals(const Expr *E) {
  E = skipCleanups(E);
  if (const auto *BO = dyn_cast<BinaryOperator>(E)) {
    if (BO->getOpcode() == BO_Comma)
      return assignLocals(BO->getLHS()) && assignLocals(BO->getRHS());
    if (BO->isAssignmentOp()) {
      const VarDecl *VD = assignedVariable(BO->getLHS());
      if (!VD)
        return false;
      HelperLocal New;
      if (BO->getOpcode() == BO_Assign) {
        New = {translate(BO->getRHS()), constantOf(BO->getRHS())};
      } else {
        // `o += i * s` computed in o's own type (else unknown).
        const auto *CA = cast<CompoundAssignOperator>(BO);
        QualType T = VD->getType();
        HelperLocal Cur = currentValue(VD);
        std::optional<Term> R = translate(BO->getRHS());
        if (Cur.Value && R &&
            Ctx.hasSameUnqualifiedType(CA->getComputationLHSType(), T) &&
            Ctx.hasSameUnqualifiedType(CA->getComputationResultType(), T))
          New.Value = combine(
              BinaryOperator::getOpForCompoundAssignment(BO->getOpcode()), T,
              *Cur.Value, *R);
      }
      HelperLocals[VD] = New;
      return true;
    }
  }
  if (const auto *U = dyn_cast<UnaryOperator>(E);
      U && U->isIncrementDecrementOp()) {
    const VarDecl *VD = assignedVariable(U->getSubExpr());
    if (!VD)
      return false;
    // Below int, ++ converts back from int: not arithmetic in the type.
    QualType T = VD->getType();
    HelperLocal Cur = currentValue(VD), New;
    if (Cur.Value && T->isIntegerType() &&
        Ctx.getIntWidth(T) >= Ctx.getIntWidth(Ctx.IntTy))
      New.Value = combine(U->isIncrementOp() ? BO_Add : BO_Sub, T, *Cur.Value,
                          constantTerm(1));
    HelperLocals[VD] = New;
    return true;
  }
  // Nothing assigned (localOnlyBody: no other effect).
  return true;
}

KernelAnalysis::HelperLocal KernelAnalysis::currentValue(const VarDecl *VD) {
  if (auto It = HelperLocals.find(VD); It != HelperLocals.end())
    return It->second;
  return {translateVariable(VD), variableConstant(VD)};
}

const KernelAnalysis::HelperLocal *
KernelAnalysis::helperElement(const ArraySubscriptExpr &AS) {
  static const HelperLocal Unknown;
  const auto *DRE = dyn_cast<DeclRefExpr>(AS.getBase()->IgnoreParenImpCasts());
  const auto *VD = DRE ? dyn_cast<VarDecl>(DRE->getDecl()) : nullptr;
  auto It = VD ? HelperArrays.find(VD->getCanonicalDecl()) : HelperArrays.end();
  if (It == HelperArrays.end())
    return nullptr;
  std::optional<llvm::APSInt> I = constantOf(AS.getIdx());
  if (!I || I->isNegative() || I->getActiveBits() > 63 ||
      I->getZExtValue() >= It->second.size())
    return &Unknown;
  return &It->second[I->getZExtValue()];
}

std::optional<bool> KernelAnalysis::decided(const Expr *Cond) {
  Cond = skipCleanups(Cond);
  bool Holds;
  if (!Cond->isValueDependent() && Cond->EvaluateAsBooleanCondition(Holds, Ctx))
    return Holds;
  if (std::optional<llvm::APSInt> V = constantOf(Cond))
    return !V->isZero();
  return std::nullopt;
}

std::optional<llvm::APSInt>
KernelAnalysis::variableConstant(const VarDecl *VD) {
  if (auto It = HelperLocals.find(VD); It != HelperLocals.end())
    return It->second.Constant;
  // A parameter bound to its argument, or a local that keeps its
  // initializer: that expression's value, found in the function it is in
  // (a parameter's argument is in the caller).
  auto It = LocalInits.find(VD);
  if (It == LocalInits.end() || Written.count(VD) || Unassignable.count(VD) ||
      UnknownVars.count(VD) || (!isa<ParmVarDecl>(VD) && !Locals.count(VD)) ||
      !Resolving.insert(VD).second)
    return std::nullopt;
  const auto *Owner = dyn_cast<FunctionDecl>(VD->getDeclContext());
  auto Frame = std::find(CallStack.begin(), CallStack.end(),
                         Owner ? Owner->getCanonicalDecl() : nullptr);
  if (Frame != CallStack.end() && !isa<ParmVarDecl>(VD))
    ++Frame;
  std::optional<llvm::APSInt> V =
      withStackCut(CallStack, static_cast<size_t>(Frame - CallStack.begin()),
                   [&] { return constantOf(It->second); });
  Resolving.erase(VD);
  return V;
}

std::optional<llvm::APSInt> KernelAnalysis::constantOf(const Expr *E) {
  E = skipCleanups(E);
  if (E->isValueDependent() || !E->getType()->isIntegralOrEnumerationType())
    return std::nullopt;
  Expr::EvalResult R;
  if (E->EvaluateAsInt(R, Ctx))
    return R.Val.getInt();
  if (const auto *DRE = dyn_cast<DeclRefExpr>(E)) {
    const auto *VD = dyn_cast<VarDecl>(DRE->getDecl());
    return VD ? variableConstant(VD->getCanonicalDecl()) : std::nullopt;
  }
  if (const auto *AS = dyn_cast<ArraySubscriptExpr>(E)) {
    if (const HelperLocal *L = helperElement(*AS))
      return L->Constant;
  }
  if (const auto *CE = dyn_cast<CastExpr>(E)) {
    switch (CE->getCastKind()) {
    case CK_LValueToRValue:
    case CK_NoOp:
    case CK_IntegralCast:
    case CK_IntegralToBoolean:
      if (std::optional<llvm::APSInt> V = constantOf(CE->getSubExpr()))
        return convertTo(Ctx, *V, CE->getType());
      return std::nullopt;
    default:
      return substituted(E);
    }
  }
  if (const auto *BO = dyn_cast<BinaryOperator>(E);
      BO && BO->isComparisonOp()) {
    std::optional<llvm::APSInt> L = constantOf(BO->getLHS());
    std::optional<llvm::APSInt> X = L ? constantOf(BO->getRHS()) : L;
    if (L && X) {
      int C = llvm::APSInt::compareValues(*L, *X);
      bool Holds = BO->getOpcode() == BO_EQ   ? C == 0
                   : BO->getOpcode() == BO_NE ? C != 0
                   : BO->getOpcode() == BO_LT ? C < 0
                   : BO->getOpcode() == BO_GT ? C > 0
                   : BO->getOpcode() == BO_LE ? C <= 0
                   : BO->getOpcode() == BO_GE ? C >= 0
                                              : false;
      if (BO->getOpcode() != BO_Cmp)
        return convertTo(Ctx, llvm::APSInt::get(Holds), E->getType());
    }
  }
  return substituted(E);
}

/// E, an expression of the innermost function followed in place of its
/// call, folded by clang's constant evaluator with that function's
/// parameters that are constants here substituted (an extent's
/// `static_vals_t::get(r)`, whose r is a rank). Others are left out:
/// evaluation fails where E reads them, or reads a local, memory or `this`
/// (or is not that function's: its variables are then none of these).
std::optional<llvm::APSInt> KernelAnalysis::substituted(const Expr *E) {
  const FunctionDecl *Callee = nullptr;
  if (CallStack.empty() || Substituting || !CallStack.back()->hasBody(Callee) ||
      !Callee)
    return std::nullopt;
  const FunctionDecl &Def = *Callee;
  Substituting = true;
  std::vector<const Expr *> Args;
  for (const ParmVarDecl *P : Def.parameters()) {
    QualType T = P->getType();
    const auto *BT = T->getAs<BuiltinType>();
    std::optional<llvm::APSInt> V;
    if (BT && BT->isInteger() && !T->isBooleanType())
      V = variableConstant(P->getCanonicalDecl());
    if (V)
      Args.push_back(IntegerLiteral::Create(Ctx, convertTo(Ctx, *V, T), T,
                                            P->getLocation()));
    else
      Args.push_back(new (Ctx) OpaqueValueExpr(
          P->getLocation(), T.getNonReferenceType(),
          T->isReferenceType() ? VK_LValue : VK_PRValue));
  }
  APValue Out;
  bool Folded = E->EvaluateWithSubstitution(Out, Ctx, &Def, Args, nullptr);
  Substituting = false;
  if (!Folded || !Out.isInt())
    return std::nullopt;
  return convertTo(Ctx, Out.getInt(), E->getType());
}

} // namespace hetero

//===- AddressTranslation.cpp - C expressions in the descriptor language --===//
//
// Integer expressions (subscripts, bounds, offsets) and the addresses of
// memory lvalues, written as descriptor expressions. The value of a
// translated expression is the mathematical value of the C expression: every
// conversion to a type that cannot hold its operand's values, and every
// unsigned + - * << neg ~, becomes an explicit (wrap ...); signed overflow is
// undefined, so signed arithmetic is exact in any program with defined
// behaviour.
//
//===----------------------------------------------------------------------===//
#include "KernelAnalysis.h"

#include "clang/AST/DeclCXX.h"
#include "clang/AST/Expr.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/RecordLayout.h"

#include <algorithm>

using namespace clang;

namespace hetero {

Term KernelAnalysis::binary(ExprKind K, const Term &A, const Term &X,
                            int Degree) {
  Term T;
  T.Id = B.binary(K, A.Id, X.Id);
  T.Degree = Degree;
  T.Affine = A.Affine && X.Affine && Degree <= 1;
  return T;
}

Term KernelAnalysis::constantTerm(int64_t V) { return Term{B.constant(V)}; }

bool KernelAnalysis::represents(QualType To, QualType From) {
  unsigned WT = Ctx.getIntWidth(To), WF = Ctx.getIntWidth(From);
  bool ST = To->isSignedIntegerOrEnumerationType(),
       SF = From->isSignedIntegerOrEnumerationType();
  return ST == SF ? WT >= WF : ST && WT > WF;
}

std::optional<Term> KernelAnalysis::wrapTo(QualType T, const Term &X) {
  T = T.getCanonicalType();
  if (!T->isIntegerType() || T->isDependentType())
    return std::nullopt;
  unsigned Bits = Ctx.getIntWidth(T);
  if (Bits == 0 || Bits > 64)
    return std::nullopt;
  Term W = X;
  W.Id = B.wrap(Bits, T->isSignedIntegerOrEnumerationType(), X.Id);
  return W;
}

std::optional<Term> KernelAnalysis::arithmetic(QualType T, const Term &X) {
  if (T->isUnsignedIntegerOrEnumerationType())
    return wrapTo(T, X);
  return X;
}

/// A term whose value is bounded but not affine in the counters: a valid
/// interval of a read, but no exact section of a write.
Term KernelAnalysis::bounded(Term T) {
  if (T.Degree > 0)
    T.Affine = false;
  return T;
}

/// The bytes and signedness the descriptor extends a T with; false for
/// other types.
bool KernelAnalysis::extension(QualType T, unsigned &Bytes, bool &Signed) {
  T = T.getCanonicalType();
  if (!T->isIntegerType() || T->isDependentType() || T->isIncompleteType())
    return false;
  Bytes = static_cast<unsigned>(Ctx.getTypeSize(T) / 8);
  Signed = T->isSignedIntegerOrEnumerationType();
  return Bytes == 1 || Bytes == 2 || Bytes == 4 || Bytes == 8;
}

std::optional<Term> KernelAnalysis::scalarArg(const VarDecl *VD,
                                              const Capture &C) {
  unsigned Bytes;
  bool Signed;
  if (!extension(VD->getType(), Bytes, Signed))
    return std::nullopt;
  if (C.ByCopy)
    return Term{B.scalarArg(C.Arg, Bytes, Signed)};
  return Term{B.load(B.arg(C.Arg), Bytes, Signed)};
}

/// Whether the kernel may store to memory holding T, an integer or a
/// pointer (a store of an integer of the same size, of a pointer, of a
/// character type or of a whole record): a value loaded from such memory
/// may change while the kernel runs.
bool KernelAnalysis::mayBeStored(QualType T) {
  uint64_t Bits = Ctx.getTypeSize(T);
  for (QualType W : StoredTypes) {
    if (!W->isScalarType() || W->isCharType() ||
        W->isSpecificBuiltinType(BuiltinType::UChar) ||
        W->isSpecificBuiltinType(BuiltinType::SChar))
      return true;
    if (T->isIntegerType() && W->isIntegerType() && Ctx.getTypeSize(W) == Bits)
      return true;
    if (T->isPointerType() && W->isPointerType())
      return true;
  }
  return false;
}

/// An integer read from mapped memory (a struct member, an element, a
/// pointee) that the kernel never stores to. At an address that depends on
/// the loop variables (a CSR row's bounds rowptr[i], a gathered column
/// col[k]) it is a bound, not affine: the runtime takes the least and the
/// greatest value over the addresses a window reaches (DescriptorEval.h).
std::optional<Term> KernelAnalysis::loadedScalar(const Expr *LV) {
  unsigned Bytes;
  bool Signed;
  if (!extension(LV->getType(), Bytes, Signed) || mayBeStored(LV->getType()))
    return std::nullopt;
  std::optional<Address> A = lvalueAddress(LV);
  if (!A || A->Private || !A->known())
    return std::nullopt;
  visit(LV, true, false);
  Term T{
      B.load(B.binary(ExprKind::Add, A->Base, A->Offset->Id), Bytes, Signed)};
  if (A->Offset->Degree != 0) {
    T.Degree = std::max(1, A->Offset->Degree);
    T.Affine = false;
  }
  return T;
}

/// Min for `a < b ? a : b` (or `b > a`, `<=`, `>=`), Max for the other
/// way round, when both sides compare in the conditional's own type (no
/// conversion changes which is smaller).
std::optional<ExprKind>
KernelAnalysis::minOrMax(const ConditionalOperator &CO) {
  const auto *C = dyn_cast<BinaryOperator>(CO.getCond()->IgnoreParenImpCasts());
  if (!C || !C->isRelationalOp() || !CO.getType()->isIntegerType())
    return std::nullopt;
  const Expr *L = C->getLHS(), *R = C->getRHS();
  if (!Ctx.hasSameType(L->getType(), CO.getType()) ||
      !Ctx.hasSameType(R->getType(), CO.getType()))
    return std::nullopt;
  bool LessLeft =
      C->getOpcode() == BO_LT || C->getOpcode() == BO_LE; // L is smaller
  auto Same = [this](const Expr *X, const Expr *Y) {
    llvm::FoldingSetNodeID IX, IY;
    X->IgnoreParenImpCasts()->Profile(IX, Ctx, /*Canonical=*/true);
    Y->IgnoreParenImpCasts()->Profile(IY, Ctx, /*Canonical=*/true);
    return IX == IY;
  };
  const Expr *T = CO.getTrueExpr(), *F = CO.getFalseExpr();
  if (Same(T, L) && Same(F, R))
    return LessLeft ? ExprKind::Min : ExprKind::Max;
  if (Same(T, R) && Same(F, L))
    return LessLeft ? ExprKind::Max : ExprKind::Min;
  return std::nullopt;
}

std::optional<Term> KernelAnalysis::translate(const Expr *E) {
  E = E->IgnoreParens();
  // A C++ initializer with temporaries (a lambda's closure invoked there).
  if (const auto *EWC = dyn_cast<ExprWithCleanups>(E))
    E = EWC->getSubExpr()->IgnoreParens();
  if (!E->isValueDependent() && E->getType()->isIntegerType()) {
    Expr::EvalResult R;
    if (E->EvaluateAsInt(R, Ctx)) {
      const llvm::APSInt &V = R.Val.getInt();
      // The descriptor's values are int64.
      if (V.isUnsigned() ? V.getActiveBits() > 63 : V.getSignificantBits() > 64)
        return std::nullopt;
      return constantTerm(V.getExtValue());
    }
  }
  if (const auto *CE = dyn_cast<CastExpr>(E))
    return translateCast(CE);
  if (const auto *CO = dyn_cast<ConditionalOperator>(E)) {
    // A condition known here leaves one value (an extent's `static_val ==
    // dynamic_extent ? m_dyn_vals[k] : static_val`).
    if (std::optional<bool> Holds = decided(CO->getCond()))
      return translate(*Holds ? CO->getTrueExpr() : CO->getFalseExpr());
    std::optional<Term> A = translate(CO->getTrueExpr());
    std::optional<Term> X = translate(CO->getFalseExpr());
    if (!A || !X)
      return std::nullopt;
    int Degree = std::max(A->Degree, X->Degree);
    // `a < b ? a : b` is min(a, b) exactly (a loop's end `n < m ? n : m`
    // stays exact); any other condition leaves one of the two values.
    if (std::optional<ExprKind> K = minOrMax(*CO))
      return bounded(binary(*K, *A, *X, Degree));
    return bounded(binary(ExprKind::Either, *A, *X, Degree));
  }
  size_t Outer;
  if (const auto *ME = dyn_cast<MemberExpr>(E))
    if (const Expr *Init = temporaryField(*ME, Outer))
      return outOfThis(Outer, [&] { return translate(Init); });
  if (const auto *AS = dyn_cast<ArraySubscriptExpr>(E)) {
    if (const HelperLocal *L = helperElement(*AS))
      return termOf(*L);
  }
  if (isa<MemberExpr>(E) || isa<ArraySubscriptExpr>(E) ||
      (isa<UnaryOperator>(E) &&
       cast<UnaryOperator>(E)->getOpcode() == UO_Deref))
    return loadedScalar(E);
  if (const auto *DRE = dyn_cast<DeclRefExpr>(E)) {
    const auto *VD = dyn_cast<VarDecl>(DRE->getDecl());
    if (closureCapture(VD))
      return loadedScalar(E); // the closure's copy
    return VD ? translateVariable(VD->getCanonicalDecl()) : std::nullopt;
  }
  if (const auto *C = dyn_cast<CallExpr>(E)) {
    if (const Expr *Arg = identityArgument(*C))
      return translate(Arg);
    return translateCall(C);
  }
  if (const auto *U = dyn_cast<UnaryOperator>(E)) {
    std::optional<Term> A = translate(U->getSubExpr());
    if (!A || !U->getType()->isIntegerType())
      return std::nullopt;
    switch (U->getOpcode()) {
    case UO_Plus:
      return A;
    case UO_Minus:
      return arithmetic(U->getType(), Term{B.neg(A->Id), A->Degree, A->Affine});
    case UO_Not: // ~x == -x - 1 in two's complement
      return arithmetic(U->getType(), Term{B.binary(ExprKind::Sub, B.neg(A->Id),
                                                    B.constant(1)),
                                           A->Degree, A->Affine});
    default:
      return std::nullopt;
    }
  }
  if (const auto *BO = dyn_cast<BinaryOperator>(E))
    return translateBinary(BO);
  return std::nullopt;
}

std::optional<Term> KernelAnalysis::translateCast(const CastExpr *CE) {
  switch (CE->getCastKind()) {
  case CK_LValueToRValue:
  case CK_NoOp:
    return translate(CE->getSubExpr());
  case CK_IntegralCast: {
    std::optional<Term> X = translate(CE->getSubExpr());
    QualType From = CE->getSubExpr()->getType(), To = CE->getType();
    if (!X || !From->isIntegerType() || !To->isIntegerType())
      return std::nullopt;
    if (represents(To, From))
      return X;
    return wrapTo(To, *X);
  }
  default:
    return std::nullopt;
  }
}

std::optional<Term> KernelAnalysis::translateBinary(const BinaryOperator *BO) {
  if (!BO->getType()->isIntegerType())
    return std::nullopt;
  std::optional<Term> L = translate(BO->getLHS());
  std::optional<Term> R = translate(BO->getRHS());
  if (!L || !R)
    return std::nullopt;
  return combine(BO->getOpcode(), BO->getType(), *L, *R);
}

std::optional<Term> KernelAnalysis::combine(BinaryOperatorKind Op, QualType T,
                                            const Term &L, const Term &R) {
  int Max = std::max(L.Degree, R.Degree);
  switch (Op) {
  case BO_Add:
    return arithmetic(T, binary(ExprKind::Add, L, R, Max));
  case BO_Sub:
    return arithmetic(T, binary(ExprKind::Sub, L, R, Max));
  case BO_Mul:
    return arithmetic(T, binary(ExprKind::Mul, L, R, L.Degree + R.Degree));
  case BO_Div:
  case BO_Rem:
    // The operands are in T's range (C converted them), and so is the
    // quotient (INT_MIN / -1 is undefined). Exact in the arguments only;
    // with a counter it is a valid (interval) bound but not affine.
    return bounded(
        binary(Op == BO_Div ? ExprKind::Div : ExprKind::Rem, L, R, Max));
  case BO_Shl:
    // The shifted operand has T (the promoted left operand's type).
    return arithmetic(T, binary(ExprKind::Shl, L, R, Max + (R.Degree ? 1 : 0)));
  case BO_Shr:
    return bounded(binary(ExprKind::Shr, L, R, Max));
  case BO_And:
    return bounded(binary(ExprKind::And, L, R, Max));
  case BO_Or:
    return bounded(binary(ExprKind::Or, L, R, Max));
  case BO_Xor:
    return bounded(binary(ExprKind::Xor, L, R, Max));
  default:
    return std::nullopt;
  }
}

std::optional<Term> KernelAnalysis::translateVariable(const VarDecl *VD) {
  // A local of a helper being executed (HelperCalls.cpp).
  if (auto It = HelperLocals.find(VD); It != HelperLocals.end())
    return termOf(It->second);
  if (UnknownVars.count(VD))
    return std::nullopt;
  if (auto It = LevelOf.find(VD); It != LevelOf.end())
    return Term{B.counter(It->second), 1, true};
  if (auto It = InnerVar.find(VD); It != InnerVar.end())
    return Term{B.var(It->second), 1, true};
  // A reduction variable is private in the kernel, and so is a private
  // one: neither has the value of the variable captured.
  if (ReductionVars.count(VD) || Privates.count(VD))
    return std::nullopt;
  if (Written.count(VD))
    return assignedValue(VD);
  if (auto It = Captures.find(VD); It != Captures.end())
    return scalarArg(VD, It->second);
  if (auto It = LocalInits.find(VD); It != LocalInits.end())
    return readsCounterOutsideItsLoop(It->second)
               ? std::nullopt
               : whereInitialized(VD, [&] { return translate(It->second); });
  return std::nullopt;
}

/// A local of the loop's body that plain assignments set (CloverLeaf's
/// upwind, donor and downwind cells: `if (flux > 0) { upwind = j - 2; ...}
/// else { upwind = MIN(j + 1, y_max + 2); ...}`) holds its initializer or
/// one of the values assigned to it: (either ...) of them, each translated
/// where the variable is used (the loop counters keep their values through
/// an iteration, and inner ones range over all theirs: a sound hull). None
/// where any write is not a plain assignment (+=, ++, its address taken),
/// or a value depends on the variable itself or on the counter of a loop
/// that does not declare it where it is read outside that loop
/// (readsCounterOutsideItsLoop).
std::optional<Term> KernelAnalysis::assignedValue(const VarDecl *VD) {
  auto It = Assignments.find(VD);
  if (!Locals.count(VD) || Unassignable.count(VD) || It == Assignments.end() ||
      !Resolving.insert(VD).second)
    return std::nullopt;
  std::vector<const Expr *> Values = It->second;
  auto Init = LocalInits.find(VD);
  if (Init != LocalInits.end())
    Values.push_back(Init->second);
  std::optional<Term> Out;
  for (const Expr *V : Values) {
    auto Translate = [&] { return translate(V); };
    std::optional<Term> T = readsCounterOutsideItsLoop(V) ? std::nullopt
                            : Init != LocalInits.end() && V == Init->second
                                ? whereInitialized(VD, Translate)
                                : Translate();
    if (!T) {
      Out.reset();
      break;
    }
    Out = Out ? bounded(binary(ExprKind::Either, *Out, *T,
                               std::max(Out->Degree, T->Degree)))
              : T;
  }
  Resolving.erase(VD);
  return Out;
}

/// Whether C calls a lambda whose captures hold the values their variables
/// have at the call: one invoked where it is written (`[=](auto v) {...}(e)`)
/// or one that captures nothing. (A closure kept in a variable holds the
/// values of when it was made, which the variables may no longer have.)
static bool lambdaOfTheCall(const CallExpr *C, const CXXMethodDecl *MD) {
  if (!MD->getParent()->isLambda() || !isa<CXXOperatorCallExpr>(C) ||
      C->getNumArgs() == 0)
    return false;
  if (MD->getParent()->capture_size() == 0)
    return true;
  const Expr *Object = C->getArg(0)->IgnoreImplicit()->IgnoreParens();
  if (const auto *M = dyn_cast<MaterializeTemporaryExpr>(Object))
    Object = M->getSubExpr()->IgnoreImplicit()->IgnoreParens();
  return isa<LambdaExpr>(Object);
}

/// A call of a function whose body is one `return <expression>;` without
/// side effects (an index helper `idx(x, y, z)`, or such a lambda): that
/// expression, each parameter standing for its argument; or of one whose
/// body changes only its own locals (localOnlyBody): what executing it
/// returns. Other calls have no known value.
std::optional<Term> KernelAnalysis::translateCall(const CallExpr *C) {
  const FunctionDecl *FD = C->getDirectCallee();
  const auto *MD = dyn_cast_or_null<CXXMethodDecl>(FD);
  bool Method = MD && MD->isInstance() && !MD->getParent()->isLambda();
  bool Lambda = MD && MD->getParent()->isLambda();
  if (!FD || !C->getType()->isIntegerType() ||
      (Lambda && !lambdaOfTheCall(C, MD)) || (Method && MD->isVirtual()))
    return std::nullopt;
  const FunctionDecl *Def = inlinableCallee(*C);
  if (!Def)
    return std::nullopt;
  // Calls in the returned expression are followed where they are quiet
  // too (a mapping's `return compute_offset(seq{}, i...);`).
  const Expr *Returned = quietReturn(*Def, /*IncludePossibleEffects=*/false);
  if (Returned && quietCalls(Returned, 0))
    return inCallee(*C, *Def, Method, [&] { return translate(Returned); });
  if (!localOnlyBody(*Def, 0))
    return std::nullopt;
  return inCallee(*C, *Def, Method, [&] { return helperValue(*Def); });
}

const FunctionDecl *KernelAnalysis::inlinableCallee(const CallExpr &C) {
  const FunctionDecl *FD = C.getDirectCallee();
  const FunctionDecl *Def = nullptr;
  if (!FD || !FD->hasBody(Def) || !Def || Def->isVariadic() ||
      C.getNumArgs() != objectArguments(C, *Def) + Def->getNumParams() ||
      CallStack.size() >= MaxCallDepth ||
      std::find(CallStack.begin(), CallStack.end(), Def->getCanonicalDecl()) !=
          CallStack.end())
    return nullptr;
  // A const reference reads its argument, which stands in for it (as a
  // by-value parameter's does); another reference could write it.
  for (const ParmVarDecl *P : Def->parameters())
    if (P->getType()->isReferenceType() &&
        !(P->getType()->isLValueReferenceType() &&
          P->getType().getNonReferenceType().isConstQualified()))
      return nullptr;
  return Def;
}

KernelAnalysis::Bindings
KernelAnalysis::bindParameters(const CallExpr &C, const FunctionDecl &Def) {
  unsigned Skip = objectArguments(C, Def);
  std::vector<const Expr *> Args;
  for (unsigned I = Skip; I < C.getNumArgs(); ++I)
    Args.push_back(C.getArg(I));
  return bindArguments(Args, Def);
}

KernelAnalysis::Bindings
KernelAnalysis::bindArguments(llvm::ArrayRef<const Expr *> Args,
                              const FunctionDecl &Def) {
  Bindings Outer;
  for (unsigned I = 0; I < Def.getNumParams() && I < Args.size(); ++I) {
    const VarDecl *P = Def.getParamDecl(I)->getCanonicalDecl();
    auto It = LocalInits.find(P);
    auto D = InitDepth.find(P);
    Outer.emplace_back(P, It == LocalInits.end() ? nullptr : It->second,
                       D == InitDepth.end() ? 0 : D->second);
    LocalInits[P] = Args[I];
    InitDepth[P] = ThisStack.size(); // where the call is
  }
  return Outer;
}

unsigned KernelAnalysis::objectArguments(const CallExpr &C,
                                         const FunctionDecl &Def) {
  const auto *MD = dyn_cast<CXXMethodDecl>(&Def);
  return isa<CXXOperatorCallExpr>(C) && MD && MD->isInstance() ? 1 : 0;
}

void KernelAnalysis::restoreBindings(const Bindings &Outer) {
  for (const auto &[P, Init, Depth] : Outer) {
    if (Init) {
      LocalInits[P] = Init;
      InitDepth[P] = Depth;
    } else {
      LocalInits.erase(P);
      InitDepth.erase(P);
    }
  }
}

//===--- Addresses --------------------------------------------------------===//

KernelAnalysis::Address KernelAnalysis::offsetBy(Address A, const Term &Bytes) {
  if (!A.known())
    return A;
  A.Offset = binary(ExprKind::Add, *A.Offset, Bytes,
                    std::max(A.Offset->Degree, Bytes.Degree));
  return A;
}

/// Adds Idx elements of type Elem to A (Negate: subtracts); an unknown
/// index or element size leaves the offset unknown.
std::optional<KernelAnalysis::Address>
KernelAnalysis::indexBy(std::optional<Address> A, std::optional<Term> Idx,
                        QualType Elem, bool Negate) {
  if (!A)
    return A;
  std::optional<Term> Size = sizeTerm(Elem);
  if (!Idx || !Size) {
    A->Offset.reset();
    return A;
  }
  if (Negate)
    Idx->Id = B.neg(Idx->Id);
  return offsetBy(
      *A, binary(ExprKind::Mul, *Idx, *Size, Idx->Degree + Size->Degree));
}

uint64_t KernelAnalysis::sizeOf(QualType T) {
  if (T->isIncompleteType() || T->isDependentType() ||
      T->isVariablyModifiedType())
    return 0;
  return Ctx.getTypeSizeInChars(T).getQuantity();
}

/// The size of T in bytes; a variable-length array's comes from the kernel
/// argument clang passes its number of elements in.
std::optional<Term> KernelAnalysis::sizeTerm(QualType T) {
  if (const VariableArrayType *VAT = Ctx.getAsVariableArrayType(T)) {
    auto It = VLASizes.find(VAT->getSizeExpr());
    std::optional<Term> Elem = sizeTerm(VAT->getElementType());
    if (It == VLASizes.end() || !Elem)
      return std::nullopt;
    Term N{B.scalarArg(It->second, 8, false)};
    return binary(ExprKind::Mul, N, *Elem, 0);
  }
  if (const ConstantArrayType *CAT = Ctx.getAsConstantArrayType(T))
    if (CAT->getElementType()->isVariablyModifiedType()) {
      std::optional<Term> Elem = sizeTerm(CAT->getElementType());
      if (!Elem)
        return std::nullopt;
      Term N =
          constantTerm(static_cast<int64_t>(CAT->getSize().getZExtValue()));
      return binary(ExprKind::Mul, N, *Elem, 0);
    }
  if (uint64_t Size = sizeOf(T))
    return constantTerm(static_cast<int64_t>(Size));
  return std::nullopt;
}

/// A pointer read from a variable or from mapped memory (a struct member,
/// an array of pointers): its value as a base.
std::optional<KernelAnalysis::Address>
KernelAnalysis::pointerLoaded(const Expr *Sub) {
  Sub = Sub->IgnoreParens();
  size_t Outer;
  if (const auto *ME = dyn_cast<MemberExpr>(Sub))
    if (const Expr *Init = temporaryField(*ME, Outer))
      return outOfThis(Outer, [&] { return pointerValue(Init); });
  const auto *DRE = dyn_cast<DeclRefExpr>(Sub);
  // A pointer a closure captured is loaded from the closure (below).
  if (DRE && !closureCapture(dyn_cast<VarDecl>(DRE->getDecl()))) {
    const auto *VD = dyn_cast<VarDecl>(DRE->getDecl());
    if (!VD)
      return std::nullopt;
    VD = VD->getCanonicalDecl();
    auto It = Captures.find(VD);
    if (It != Captures.end() && !Written.count(VD)) {
      ExprId A = B.arg(It->second.Arg);
      if (It->second.ByCopy)
        return Address{A, constantTerm(0)};
      return Address{B.load(A, 8, false), constantTerm(0)};
    }
    if (auto LI = LocalInits.find(VD);
        LI != LocalInits.end() && !Written.count(VD))
      return whereInitialized(VD, [&] { return pointerValue(LI->second); });
    return std::nullopt;
  }
  std::optional<Address> Slot = lvalueAddress(Sub);
  // A pointer kept in an iteration's own storage: its value is unknown.
  if (!Slot || Slot->Private || !Slot->known() || Slot->Offset->Degree != 0 ||
      mayBeStored(Sub->getType()))
    return std::nullopt;
  visit(Sub, /*Read=*/true, /*Write=*/false);
  return Address{
      B.load(B.binary(ExprKind::Add, Slot->Base, Slot->Offset->Id), 8, false),
      constantTerm(0)};
}

/// A pointer value; nullopt when its base cannot be named.
std::optional<KernelAnalysis::Address>
KernelAnalysis::pointerValue(const Expr *E) {
  E = E->IgnoreParens();
  if (const auto *CE = dyn_cast<CastExpr>(E)) {
    switch (CE->getCastKind()) {
    case CK_ArrayToPointerDecay:
      return lvalueAddress(CE->getSubExpr());
    case CK_NoOp:
    case CK_BitCast:
      return pointerValue(CE->getSubExpr());
    case CK_DerivedToBase:
    case CK_UncheckedDerivedToBase:
      return toBase(pointerValue(CE->getSubExpr()), *CE,
                    CE->getSubExpr()->getType()->getPointeeType());
    case CK_LValueToRValue:
      return pointerLoaded(CE->getSubExpr());
    default:
      return std::nullopt;
    }
  }
  if (const auto *BO = dyn_cast<BinaryOperator>(E)) {
    if (BO->getOpcode() != BO_Add && BO->getOpcode() != BO_Sub)
      return std::nullopt;
    const Expr *P = BO->getLHS(), *I = BO->getRHS();
    if (!P->getType()->isPointerType())
      std::swap(P, I);
    if (!P->getType()->isPointerType() || !I->getType()->isIntegerType())
      return std::nullopt;
    std::optional<Address> A = pointerValue(P);
    if (!A)
      return std::nullopt;
    visit(I, false, false);
    return indexBy(A, translate(I), P->getType()->getPointeeType(),
                   BO->getOpcode() == BO_Sub);
  }
  if (const auto *U = dyn_cast<UnaryOperator>(E))
    if (U->getOpcode() == UO_AddrOf)
      return lvalueAddress(U->getSubExpr());
  if (isa<CXXThisExpr>(E))
    return thisAddress();
  if (const auto *C = dyn_cast<CallExpr>(E)) {
    if (const Expr *Arg = identityArgument(*C))
      return pointerValue(Arg);
    return returnedPointer(*C);
  }
  return std::nullopt;
}

std::optional<KernelAnalysis::Address>
KernelAnalysis::toBase(std::optional<Address> A, const CastExpr &CE,
                       QualType Derived) {
  if (!A || !A->known())
    return A;
  const CXXRecordDecl *From = Derived->getAsCXXRecordDecl();
  int64_t Off = 0;
  for (const CXXBaseSpecifier *Base : CE.path()) {
    const CXXRecordDecl *To = Base->getType()->getAsCXXRecordDecl();
    // A virtual base lies where the object's dynamic type puts it.
    if (!From || !To || Base->isVirtual() || !From->hasDefinition())
      return std::nullopt;
    Off += Ctx.getASTRecordLayout(From).getBaseClassOffset(To).getQuantity();
    From = To;
  }
  return offsetBy(*A, constantTerm(Off));
}

std::optional<KernelAnalysis::Address> KernelAnalysis::thisAddress() {
  // In a member function walked in place of its call: the call's object,
  // computed where the call is (one level out: its object may be `this`).
  if (!ThisStack.empty()) {
    BoundThis T = ThisStack.back();
    ThisStack.pop_back();
    // A const member function's object is the lvalue as const: a no-op.
    const Expr *O = T.Object->IgnoreParens();
    while (const auto *IC = dyn_cast<ImplicitCastExpr>(O)) {
      if (IC->getCastKind() != CK_NoOp)
        break;
      O = IC->getSubExpr()->IgnoreParens();
    }
    std::optional<Address> A = T.Pointer ? pointerValue(O) : lvalueAddress(O);
    ThisStack.push_back(T);
    return A;
  }
  // The object of the member function the region is in: its pointer is a
  // kernel argument, as a pointer captured by copy is.
  if (ThisArg)
    return Address{B.arg(*ThisArg), constantTerm(0)};
  return std::nullopt;
}

const Expr *KernelAnalysis::returnedLvalue(const CallExpr &C) {
  const FunctionDecl *FD = C.getDirectCallee();
  if (!FD || !FD->getReturnType()->isLValueReferenceType())
    return nullptr;
  if (const auto *MD = dyn_cast<CXXMethodDecl>(FD);
      MD && (MD->getParent()->isLambda() || MD->isVirtual()))
    return nullptr;
  const FunctionDecl *Def = inlinableCallee(C);
  const Expr *Returned = Def ? quietReturn(*Def, /*IncludePossibleEffects=*/
                                           false, /*AllowChecks=*/true)
                             : nullptr;
  return Returned && quietCalls(Returned, 0, /*AllowChecks=*/true) ? Returned
                                                                   : nullptr;
}

const Expr *KernelAnalysis::quietReturn(const FunctionDecl &Def,
                                        bool IncludePossibleEffects,
                                        bool AllowChecks) {
  const auto *Body = dyn_cast<CompoundStmt>(Def.getBody());
  const auto *Ret =
      Body && Body->size() > 0 && (Body->size() == 1 || AllowChecks)
          ? dyn_cast<ReturnStmt>(Body->body_back())
          : nullptr;
  if (!Ret || !Ret->getRetValue() ||
      Ret->getRetValue()->HasSideEffects(Ctx, IncludePossibleEffects))
    return nullptr;
  for (const Stmt *S : Body->body())
    if (S != Ret && !isCheck(S))
      return nullptr;
  return Ret->getRetValue();
}

bool KernelAnalysis::isCheck(const Stmt *S) {
  if (!S)
    return true;
  // Declarations of nothing that holds a value (static_assert, a type).
  if (const auto *DS = dyn_cast<DeclStmt>(S))
    return std::none_of(DS->decl_begin(), DS->decl_end(),
                        [](const Decl *D) { return isa<ValueDecl>(D); });
  if (isa<ReturnStmt>(S) || isa<GotoStmt>(S) || isa<IndirectGotoStmt>(S) ||
      isa<LabelStmt>(S) || isa<AsmStmt>(S) || isa<CXXTryStmt>(S) ||
      isa<CXXThrowExpr>(S))
    return false;
  if (const auto *BO = dyn_cast<BinaryOperator>(S); BO && BO->isAssignmentOp())
    return false;
  if (const auto *U = dyn_cast<UnaryOperator>(S);
      U && (U->isIncrementDecrementOp() || U->getOpcode() == UO_AddrOf))
    return false;
  // A call changes nothing the return reads when it is given no non-const
  // reference and no non-const object of this function's.
  auto NonConstRef = [](const FunctionDecl *FD, unsigned Param) {
    if (!FD || Param >= FD->getNumParams())
      return false;
    QualType T = FD->getParamDecl(Param)->getType();
    return T->isReferenceType() && !T.getNonReferenceType().isConstQualified();
  };
  if (const auto *C = dyn_cast<CallExpr>(S)) {
    const FunctionDecl *FD = C->getDirectCallee();
    if (!FD)
      return false;
    const auto *MD = dyn_cast<CXXMethodDecl>(FD);
    if (MD && MD->isInstance() && !MD->isConst())
      return false;
    unsigned Skip = objectArguments(*C, *FD);
    for (unsigned I = Skip; I < C->getNumArgs(); ++I)
      if (NonConstRef(FD, I - Skip))
        return false;
  } else if (const auto *CE = dyn_cast<CXXConstructExpr>(S)) {
    for (unsigned I = 0; I < CE->getNumArgs(); ++I)
      if (NonConstRef(CE->getConstructor(), I))
        return false;
  }
  for (const Stmt *Ch : S->children())
    if (!isCheck(Ch))
      return false;
  return true;
}

void KernelAnalysis::visitChecks(const CallExpr &C) {
  const FunctionDecl *FD = C.getDirectCallee();
  const FunctionDecl *Def = nullptr;
  if (FD && FD->hasBody(Def) && Def)
    if (const auto *Body = dyn_cast<CompoundStmt>(Def->getBody()))
      for (const Stmt *S : Body->body())
        if (S != Body->body_back())
          visit(S, false, false);
}

bool KernelAnalysis::quietCalls(const Stmt *S, unsigned Depth,
                                bool AllowChecks) {
  if (!S)
    return true;
  if (const auto *C = dyn_cast<CallExpr>(S)) {
    const FunctionDecl *FD = C->getDirectCallee();
    const FunctionDecl *Def = nullptr;
    if (!FD || Depth >= MaxCallDepth)
      return false;
    if (!isPureFunction(FD, 0)) {
      const Expr *Returned =
          FD->hasBody(Def) && Def
              ? quietReturn(*Def, /*IncludePossibleEffects=*/false, AllowChecks)
              : nullptr;
      if (Returned ? !quietCalls(Returned, Depth + 1, AllowChecks)
                   : !Def || !localOnlyBody(*Def, Depth + 1))
        return false;
    }
  }
  for (const Stmt *Ch : S->children())
    if (!quietCalls(Ch, Depth, AllowChecks))
      return false;
  return true;
}

const Expr *KernelAnalysis::identityArgument(const CallExpr &C) {
  const FunctionDecl *FD = C.getDirectCallee();
  if (!FD || !FD->isInStdNamespace() || C.getNumArgs() != 1 ||
      !FD->getIdentifier())
    return nullptr;
  StringRef Name = FD->getName();
  return Name == "move" || Name == "forward" || Name == "as_const" ? C.getArg(0)
                                                                   : nullptr;
}

std::optional<KernelAnalysis::Address>
KernelAnalysis::returnedPointer(const CallExpr &C) {
  const FunctionDecl *FD = C.getDirectCallee();
  if (!FD || !FD->getReturnType()->isPointerType())
    return std::nullopt;
  if (const auto *MD = dyn_cast<CXXMethodDecl>(FD);
      MD && (MD->getParent()->isLambda() || MD->isVirtual()))
    return std::nullopt;
  const FunctionDecl *Def = inlinableCallee(C);
  const Expr *Returned = Def ? quietReturn(*Def, /*IncludePossibleEffects=*/
                                           false, /*AllowChecks=*/true)
                             : nullptr;
  if (!Returned || !quietCalls(Returned, 0, /*AllowChecks=*/true))
    return std::nullopt;
  return inQuietCallee(C, [&] {
    visitChecks(C);
    return pointerValue(Returned);
  });
}

std::optional<KernelAnalysis::Address>
KernelAnalysis::referenceCallAddress(const CallExpr &C) {
  const Expr *Returned = returnedLvalue(C);
  if (!Returned)
    return std::nullopt;
  return inQuietCallee(C, [&] {
    visitChecks(C);
    return lvalueAddress(Returned);
  });
}

template <typename Fn>
auto KernelAnalysis::inQuietCallee(const CallExpr &C, Fn In) -> decltype(In()) {
  const FunctionDecl *Def = nullptr;
  C.getDirectCallee()->hasBody(Def);
  // The arguments are values read here; a pointer the object is reached
  // through too.
  const auto *MD = dyn_cast<CXXMethodDecl>(Def);
  bool Method = MD && MD->isInstance();
  unsigned Skip = objectArguments(C, *Def);
  if (Method && !Skip)
    visitLocalAddress(objectOf(C).Object);
  for (unsigned I = 0; I < C.getNumArgs(); ++I)
    if (I < Skip)
      visitLocalAddress(C.getArg(I));
    else
      visit(C.getArg(I), true, false);
  return inCallee(C, *Def, Method, In);
}

const FieldDecl *KernelAnalysis::closureCapture(const VarDecl *VD) const {
  if (ThisStack.empty() || !ThisStack.back().Lambda || !VD)
    return nullptr;
  llvm::DenseMap<const ValueDecl *, FieldDecl *> Fields;
  FieldDecl *ThisField = nullptr;
  ThisStack.back().Lambda->getCaptureFields(Fields, ThisField);
  for (const auto &[Captured, F] : Fields)
    if (Captured->getCanonicalDecl() == VD->getCanonicalDecl())
      return F;
  return nullptr;
}

KernelAnalysis::BoundThis KernelAnalysis::objectOf(const CallExpr &C) {
  const auto *MD = dyn_cast_or_null<CXXMethodDecl>(C.getDirectCallee());
  if (const auto *MC = dyn_cast<CXXMemberCallExpr>(&C)) {
    const Expr *Object = MC->getImplicitObjectArgument();
    return {Object, Object->getType()->isPointerType(), nullptr, MD};
  }
  // A member operator: the object comes first.
  return {C.getArg(0), false, nullptr, MD};
}

/// Address of a memory lvalue; an unknown offset: base known, offset not.
std::optional<KernelAnalysis::Address>
KernelAnalysis::lvalueAddress(const Expr *E) {
  E = E->IgnoreParens();
  if (const auto *C = dyn_cast<CallExpr>(E)) {
    if (const Expr *Arg = identityArgument(*C))
      return lvalueAddress(Arg);
    return referenceCallAddress(*C);
  }
  // A temporary (`Keep{v}.get()`'s object, one a constructor makes) is
  // the iteration's own.
  if (isa<MaterializeTemporaryExpr>(E) || isa<CXXConstructExpr>(E))
    return Address{NoExpr, constantTerm(0), /*Private=*/true};
  if (const auto *AS = dyn_cast<ArraySubscriptExpr>(E)) {
    std::optional<Address> A = pointerValue(AS->getBase());
    if (!A)
      return A;
    visit(AS->getIdx(), true, false);
    return indexBy(A, translate(AS->getIdx()), AS->getType());
  }
  if (const auto *U = dyn_cast<UnaryOperator>(E)) {
    if (U->getOpcode() == UO_Deref)
      return pointerValue(U->getSubExpr());
    return std::nullopt;
  }
  // A derived object as its base (a Kokkos View as its BasicView), or a
  // const view of the same object.
  if (const auto *CE = dyn_cast<CastExpr>(E)) {
    if (CE->getCastKind() == CK_NoOp)
      return lvalueAddress(CE->getSubExpr());
    if (CE->getCastKind() == CK_DerivedToBase ||
        CE->getCastKind() == CK_UncheckedDerivedToBase)
      return toBase(lvalueAddress(CE->getSubExpr()), *CE,
                    CE->getSubExpr()->getType());
    return std::nullopt;
  }
  if (const auto *ME = dyn_cast<MemberExpr>(E)) {
    const auto *FD = dyn_cast<FieldDecl>(ME->getMemberDecl());
    if (!FD || FD->isBitField())
      return std::nullopt;
    std::optional<Address> A = ME->isArrow() ? pointerValue(ME->getBase())
                                             : lvalueAddress(ME->getBase());
    if (!A || !A->known())
      return A;
    uint64_t Off = Ctx.getFieldOffset(FD) / 8;
    return offsetBy(*A, constantTerm(static_cast<int64_t>(Off)));
  }
  if (const auto *DRE = dyn_cast<DeclRefExpr>(E)) {
    const auto *VD = dyn_cast<VarDecl>(DRE->getDecl());
    if (!VD)
      return std::nullopt;
    if (const FieldDecl *F = closureCapture(VD)) {
      std::optional<Address> Closure = thisAddress();
      if (!Closure || !Closure->known())
        return Closure;
      return offsetBy(*Closure, constantTerm(static_cast<int64_t>(
                                    Ctx.getFieldOffset(F) / 8)));
    }
    auto It = Captures.find(VD->getCanonicalDecl());
    if (It != Captures.end() && !It->second.ByCopy)
      return Address{B.arg(It->second.Arg), constantTerm(0)};
    // A reference parameter of a function walked in place of its call
    // (`access(const Handle &p, size_t i)`): its argument's object, as the
    // caller names it.
    if (isa<ParmVarDecl>(VD) && VD->getType()->isLValueReferenceType())
      if (auto LI = LocalInits.find(VD->getCanonicalDecl());
          LI != LocalInits.end())
        return whereInitialized(VD->getCanonicalDecl(),
                                [&] { return lvalueAddress(LI->second); });
    // A variable of the iteration's own: declared in the loop body or in a
    // function it calls, or a by-value parameter of such a function.
    if (Locals.count(VD->getCanonicalDecl()) && VD->hasLocalStorage() &&
        !VD->getType()->isReferenceType())
      return Address{NoExpr, constantTerm(0), /*Private=*/true};
    return std::nullopt;
  }
  return std::nullopt;
}

} // namespace hetero

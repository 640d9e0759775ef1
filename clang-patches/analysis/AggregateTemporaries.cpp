//===- AggregateTemporaries.cpp - Fields of views made where they are used ===//
//
// An accessor made in the loop body from the mapped pointer and used at
// once (`View<double>{a, n}(i, j)`, the way mdspan and view classes are
// often written inside kernels) is a temporary of the iteration: its
// storage has no section, but its fields hold what it was made from. A
// field of such an aggregate, read directly or as `this->f` in a const
// member function called on it, is the expression that initialized it,
// translated where the temporary is made.
//
//===----------------------------------------------------------------------===//
#include "KernelAnalysis.h"

#include "clang/AST/DeclCXX.h"
#include "clang/AST/Expr.h"
#include "clang/AST/ExprCXX.h"

using namespace clang;

namespace hetero {

namespace {

/// The braced initializer (semantic form) E makes its temporary from:
/// `T{...}`, possibly materialized, bound or converted to const.
const InitListExpr *aggregateOf(const Expr *E) {
  for (;;) {
    E = E->IgnoreParens();
    if (const auto *EWC = dyn_cast<ExprWithCleanups>(E))
      E = EWC->getSubExpr();
    else if (const auto *M = dyn_cast<MaterializeTemporaryExpr>(E))
      E = M->getSubExpr();
    else if (const auto *BT = dyn_cast<CXXBindTemporaryExpr>(E))
      E = BT->getSubExpr();
    else if (const auto *FC = dyn_cast<CXXFunctionalCastExpr>(E))
      E = FC->getSubExpr();
    else if (const auto *IC = dyn_cast<ImplicitCastExpr>(E);
             IC && IC->getCastKind() == CK_NoOp)
      E = IC->getSubExpr();
    else
      break;
  }
  const auto *ILE = dyn_cast<InitListExpr>(E);
  if (ILE && ILE->isSyntacticForm() && ILE->getSemanticForm())
    ILE = ILE->getSemanticForm();
  return ILE;
}

} // namespace

const Expr *KernelAnalysis::temporaryField(const MemberExpr &ME,
                                           size_t &OuterThis) {
  OuterThis = 0;
  const auto *FD = dyn_cast<FieldDecl>(ME.getMemberDecl());
  if (!FD || FD->isBitField() || FD->isMutable())
    return nullptr;
  const Expr *Object = ME.getBase()->IgnoreParenImpCasts();
  // `this->f` in const member functions (which cannot change f) called on
  // the temporary, directly or through `this` (a view's operator() calling
  // this->offset(i, j)).
  size_t Level = ThisStack.size();
  while (ME.isArrow()) {
    if (!isa<CXXThisExpr>(Object) || Level == 0)
      return nullptr;
    const BoundThis &T = ThisStack[Level - 1];
    if (T.Lambda || !T.Method || !T.Method->isConst())
      return nullptr;
    --Level;
    Object = T.Object->IgnoreParenImpCasts();
    if (!T.Pointer)
      break;
  }
  OuterThis = ThisStack.size() - Level;
  const InitListExpr *ILE = aggregateOf(Object);
  const RecordDecl *RD = FD->getParent();
  const auto *CXXRD = dyn_cast<CXXRecordDecl>(RD);
  if (!ILE || RD->isUnion() || (CXXRD && CXXRD->getNumBases() > 0) ||
      !Ctx.hasSameUnqualifiedType(ILE->getType(), Ctx.getRecordType(RD)) ||
      FD->getFieldIndex() >= ILE->getNumInits())
    return nullptr;
  const Expr *Init = ILE->getInit(FD->getFieldIndex());
  return isa<ImplicitValueInitExpr>(Init) ? nullptr : Init;
}

} // namespace hetero

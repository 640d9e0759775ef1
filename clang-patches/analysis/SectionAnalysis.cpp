//===- SectionAnalysis.cpp - Affine sections of offloaded loops -----------===//
//
// Clang plugin (runs before code generation, in every compile job): for each
// combined target loop construct it writes the descriptor the hetero runtime
// uses to split the kernel (format: runtime/include/hetero/KernelDescriptor.h):
//
//   - the collapsed loop nest (init, condition, bound, step per level), which
//     defines the normalized iteration space the runtime hands out windows of;
//   - per memory access in the body, its base (a kernel argument, or a pointer
//     loaded from mapped memory) and byte offset as an expression of the loop
//     counters and the kernel's scalar arguments; inner loop counters get a
//     value range. Writes must be affine in the counters; a non-affine read
//     reads its whole buffer;
//   - the reduction variables (argument, operator, type);
//   - "split no <reason>" when something cannot be proven safe.
//
// Kernel arguments are numbered like clang numbers the kernel's parameters:
// one per capture of the target region, in capture order.
//
//===----------------------------------------------------------------------===//
#include "DescriptorRegistry.h"

#include "clang/AST/ASTConsumer.h"
#include "clang/AST/Mangle.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/AST/StmtOpenMP.h"
#include "clang/Basic/OpenMPKinds.h"
#include "clang/Frontend/CompilerInstance.h"
#include "clang/Frontend/FrontendPluginRegistry.h"

#include <map>
#include <optional>
#include <set>
#include <sstream>

using namespace clang;

namespace hetero {
namespace {

/// An expression of the descriptor language and how it depends on counters.
struct Term {
  std::string S;
  int Degree = 0; // polynomial degree in loop counters; > 1: not affine
  bool Affine = true;
};

struct Capture {
  unsigned Arg;
  bool ByCopy;
};

struct LoopLevel {
  const VarDecl *Counter = nullptr;
  std::string Init, Cond, Bound, Step;
};

class KernelAnalysis {
public:
  KernelAnalysis(ASTContext &Ctx, const OMPLoopDirective &D) : Ctx(Ctx), D(D) {}

  std::string run() {
    collectCaptures();
    checkClauses();
    const Stmt *Body = nullptr;
    if (Reason.empty())
      Body = collectNest();
    if (Reason.empty()) {
      collectWrittenVars(Body);
      for (const LoopLevel &L : Levels)
        if (Written.count(L.Counter))
          refuse("a collapsed loop counter is modified in the loop body");
    }
    // The headers of the collapsed loops are evaluated in the kernel too:
    // their reads (a bound in mapped memory) are reads of the kernel.
    for (const ForStmt *F : Headers)
      for (const Stmt *C :
           {F->getInit(), static_cast<const Stmt *>(F->getCond()),
            static_cast<const Stmt *>(F->getInc())})
        visit(C, false, false);
    // A jump into a branch (goto, a case label inside an if) bypasses its
    // condition: no guards in such a body.
    GuardsHold = !hasJumpTargets(Body);
    if (Reason.empty())
      walk(Body);
    return render();
  }

private:
  ASTContext &Ctx;
  const OMPLoopDirective &D;
  std::string Reason;
  std::map<const VarDecl *, Capture> Captures;
  std::map<const Expr *, unsigned> VLASizes; // VLA size expression -> arg
  std::vector<LoopLevel> Levels;
  std::vector<const ForStmt *> Headers; // of the collapsed loops
  std::map<const VarDecl *, unsigned> LevelOf;
  std::map<const VarDecl *, unsigned> InnerVar; // counter -> id
  std::set<const VarDecl *> UnknownVars;        // values not expressible
  std::vector<std::string> VarLines, AccessLines, ReduceLines;
  std::set<const VarDecl *> ReductionVars;
  std::set<const VarDecl *> Written;
  std::vector<QualType> StoredTypes; // of the memory the kernel stores to
  std::map<const VarDecl *, const Expr *> LocalInits; // never-written locals
  std::set<const VarDecl *> Locals;   // declared inside the construct
  std::set<const VarDecl *> Privates; // private clause
  std::set<std::string> AccessSet;
  // Guards of the branch being walked: " when (<cmp> <x> <e>)" each (see
  // KernelDescriptor.h); every access found there holds them.
  std::vector<std::string> Guards;
  bool GuardsHold = true;
  bool ReadAny = false;
  // Why the kernel should stay off GPUs (an LLVM 19 device runtime defect
  // that the stock cuda plugin shows too), or empty.
  std::string HostOnly;
  // Math functions GPUs and CPUs round differently (CUDA's libdevice against
  // glibc): the kernel's iterations must all run on members of one kind.
  std::set<std::string> DeviceMath;

  void refuse(const std::string &Why) {
    if (Reason.empty())
      Reason = Why;
  }

  //===--- Captures, clauses, loop nest ----------------------------------===//

  void collectCaptures() {
    const CapturedStmt *CS = D.getCapturedStmt(llvm::omp::OMPD_target);
    unsigned Arg = 0;
    auto Field = CS->getCapturedRecordDecl()->field_begin();
    for (const CapturedStmt::Capture &C : CS->captures()) {
      if (C.capturesVariable() || C.capturesVariableByCopy())
        Captures[C.getCapturedVar()->getCanonicalDecl()] = {
            Arg, C.capturesVariableByCopy()};
      else if (C.capturesThis())
        refuse("uses 'this'");
      else if (C.capturesVariableArrayType() && Field->hasCapturedVLAType())
        // The number of elements, passed by value as a size_t.
        VLASizes[Field->getCapturedVLAType()->getSizeExpr()] = Arg;
      ++Arg;
      ++Field;
    }
  }

  static bool reductionOp(const OMPReductionClause &C, std::string &Op) {
    DeclarationName N = C.getNameInfo().getName();
    switch (N.getCXXOverloadedOperator()) {
    case OO_Plus:
    case OO_Minus:
      Op = "+";
      return true;
    case OO_Star:
      Op = "*";
      return true;
    case OO_Amp:
      Op = "&";
      return true;
    case OO_Pipe:
      Op = "|";
      return true;
    case OO_Caret:
      Op = "^";
      return true;
    case OO_AmpAmp:
      Op = "&&";
      return true;
    case OO_PipePipe:
      Op = "||";
      return true;
    default:
      break;
    }
    if (N.isIdentifier() &&
        (N.getAsString() == "max" || N.getAsString() == "min")) {
      Op = N.getAsString();
      return true;
    }
    return false;
  }

  std::optional<std::string> scalarType(QualType T) {
    T = T.getCanonicalType().getUnqualifiedType();
    if (const auto *BT = T->getAs<BuiltinType>()) {
      if (BT->getKind() == BuiltinType::Float)
        return "f32";
      if (BT->getKind() == BuiltinType::Double)
        return "f64";
      if (BT->isInteger() && !T->isBooleanType()) {
        uint64_t Bits = Ctx.getTypeSize(T);
        if (Bits != 8 && Bits != 16 && Bits != 32 && Bits != 64)
          return std::nullopt;
        return std::string(T->isSignedIntegerType() ? "i" : "u") +
               std::to_string(Bits);
      }
    }
    return std::nullopt;
  }

  void checkClauses() {
    for (const OMPClause *C : D.clauses()) {
      switch (C->getClauseKind()) {
      case llvm::omp::OMPC_lastprivate:
        refuse("lastprivate");
        // LLVM 19.1.7's NVPTX runtime loses or faults on the lastprivate
        // copy-out (measured with the stock cuda plugin).
        HostOnly = "lastprivate is wrong in LLVM 19's NVPTX runtime";
        break;
      case llvm::omp::OMPC_schedule: {
        // LLVM 19.1.7's NVPTX runtime faults on these now and then (the
        // stock cuda plugin too).
        auto Kind = cast<OMPScheduleClause>(C)->getScheduleKind();
        if (Kind == OMPC_SCHEDULE_dynamic || Kind == OMPC_SCHEDULE_guided ||
            Kind == OMPC_SCHEDULE_auto || Kind == OMPC_SCHEDULE_runtime)
          HostOnly = "schedule(" +
                     std::string(getOpenMPSimpleClauseTypeName(
                         llvm::omp::OMPC_schedule, Kind)) +
                     ") faults in LLVM 19's NVPTX runtime";
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
  }

  void addReduction(const OMPReductionClause &C) {
    if (C.getModifier() != OMPC_REDUCTION_unknown &&
        C.getModifier() != OMPC_REDUCTION_default)
      return refuse("reduction modifier");
    std::string Op;
    if (!reductionOp(C, Op))
      return refuse("user-defined reduction");
    for (const Expr *E : C.varlists()) {
      const auto *DRE = dyn_cast<DeclRefExpr>(E->IgnoreParenImpCasts());
      const auto *VD = DRE ? dyn_cast<VarDecl>(DRE->getDecl()) : nullptr;
      if (!VD)
        return refuse("reduction over an array section or member");
      std::optional<std::string> Ty = scalarType(VD->getType());
      if (!Ty)
        return refuse("reduction of a non-arithmetic type");
      if ((Op == "&" || Op == "|" || Op == "^") && (*Ty)[0] == 'f')
        return refuse("bitwise reduction of a floating type");
      auto It = Captures.find(VD->getCanonicalDecl());
      if (It == Captures.end() || It->second.ByCopy)
        return refuse("reduction variable not passed by reference");
      ReductionVars.insert(VD->getCanonicalDecl());
      ReduceLines.push_back("reduce " + std::to_string(It->second.Arg) + " " +
                            Op + " " + *Ty);
    }
  }

  static const Stmt *stripCompound(const Stmt *S) {
    while (const auto *CS = dyn_cast_or_null<CompoundStmt>(S)) {
      if (CS->size() != 1)
        break;
      S = CS->body_front();
    }
    return S;
  }

  const VarDecl *counterOf(const Expr *E) {
    E = E->IgnoreParenImpCasts();
    if (const auto *DRE = dyn_cast<DeclRefExpr>(E))
      if (const auto *VD = dyn_cast<VarDecl>(DRE->getDecl()))
        return VD->getCanonicalDecl();
    return nullptr;
  }

  /// Reads `for (init; cond; inc)`: counter, first value, bound, step.
  /// Expressions are translated with the translator (outer counters may
  /// appear for inner loops).
  bool readLoop(const ForStmt &F, const VarDecl *&Counter, Term &Init,
                std::string &Cond, Term &Bound, Term &Step) {
    const Stmt *I = F.getInit();
    const Expr *InitE = nullptr;
    Counter = nullptr;
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
      Counter = counterOf(BO->getLHS());
      InitE = BO->getRHS();
    }
    if (!Counter || !InitE || !Counter->getType()->isIntegerType())
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
    switch (Op) {
    case BO_LT:
      Cond = "lt";
      break;
    case BO_LE:
      Cond = "le";
      break;
    case BO_GT:
      Cond = "gt";
      break;
    case BO_GE:
      Cond = "ge";
      break;
    case BO_NE:
      Cond = "ne";
      break;
    default:
      return false;
    }
    const Expr *Inc = F.getInc() ? F.getInc()->IgnoreParens() : nullptr;
    if (const auto *U = dyn_cast_or_null<UnaryOperator>(Inc)) {
      if (counterOf(U->getSubExpr()) != Counter || !U->isIncrementDecrementOp())
        return false;
      Step.S = U->isIncrementOp() ? "1" : "-1";
    } else if (const auto *B = dyn_cast_or_null<BinaryOperator>(Inc)) {
      if (counterOf(B->getLHS()) != Counter)
        return false;
      const Expr *SE = nullptr;
      bool Negate = false;
      if (B->getOpcode() == BO_AddAssign || B->getOpcode() == BO_SubAssign) {
        SE = B->getRHS();
        Negate = B->getOpcode() == BO_SubAssign;
      } else if (B->getOpcode() == BO_Assign) {
        const auto *R =
            dyn_cast<BinaryOperator>(B->getRHS()->IgnoreParenImpCasts());
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
      Step.S = Negate ? "(neg " + T->S + ")" : T->S;
    } else {
      return false;
    }
    std::optional<Term> IT = translate(InitE), BT = translate(BoundE);
    if (!IT || !BT || !IT->Affine || !BT->Affine || IT->Degree > 1 ||
        BT->Degree > 1)
      return false;
    Init = *IT;
    Bound = *BT;
    return true;
  }

  /// The collapsed loops; returns the body of the innermost one.
  const Stmt *collectNest() {
    const Stmt *S = D.getInnermostCapturedStmt()->getCapturedStmt();
    unsigned Depth = D.getLoopsNumber();
    for (unsigned L = 0; L < Depth; ++L) {
      S = stripCompound(S);
      const auto *F = dyn_cast_or_null<ForStmt>(S);
      if (!F) {
        refuse("loop nest is not a nest of for loops");
        return nullptr;
      }
      const VarDecl *Counter;
      Term Init, Bound, Step;
      std::string Cond;
      if (!readLoop(*F, Counter, Init, Cond, Bound, Step)) {
        refuse("loop header of level " + std::to_string(L) +
               " is not an affine canonical loop");
        return nullptr;
      }
      if (Init.Degree || Bound.Degree) {
        refuse("non-rectangular collapsed loop nest");
        return nullptr;
      }
      LevelOf[Counter] = L;
      Levels.push_back({Counter, Init.S, Cond, Bound.S, Step.S});
      Headers.push_back(F);
      S = F->getBody();
    }
    return S;
  }

  //===--- Expressions ----------------------------------------------------===//

  static Term bin(const char *Op, const Term &A, const Term &B, int Degree) {
    Term T;
    T.S = std::string("(") + Op + " " + A.S + " " + B.S + ")";
    T.Degree = Degree;
    T.Affine = A.Affine && B.Affine && Degree <= 1;
    return T;
  }

  /// "<bytes> <signed>" of an integer type the descriptor can extend; empty
  /// for other types.
  std::string extension(QualType T) {
    T = T.getCanonicalType();
    if (!T->isIntegerType() || T->isDependentType() || T->isIncompleteType())
      return "";
    uint64_t Bytes = Ctx.getTypeSize(T) / 8;
    if (Bytes != 1 && Bytes != 2 && Bytes != 4 && Bytes != 8)
      return "";
    return std::to_string(Bytes) +
           (T->isSignedIntegerOrEnumerationType() ? " 1" : " 0");
  }

  std::optional<Term> scalarArg(const VarDecl *VD, const Capture &C) {
    std::string Ext = extension(VD->getType());
    if (Ext.empty())
      return std::nullopt;
    std::string A = std::to_string(C.Arg);
    if (C.ByCopy)
      return Term{"(sarg " + A + " " + Ext + ")", 0, true};
    return Term{"(load (arg " + A + ") " + Ext + ")", 0, true};
  }

  /// Whether the kernel may store to memory holding T, an integer or a
  /// pointer (a store of an integer of the same size, of a pointer, of a
  /// character type or of a whole record): a value loaded from such memory
  /// may change while the kernel runs.
  bool mayBeStored(QualType T) {
    uint64_t Bits = Ctx.getTypeSize(T);
    for (QualType W : StoredTypes) {
      if (!W->isScalarType() || W->isCharType() ||
          W->isSpecificBuiltinType(BuiltinType::UChar) ||
          W->isSpecificBuiltinType(BuiltinType::SChar))
        return true;
      if (T->isIntegerType() && W->isIntegerType() &&
          Ctx.getTypeSize(W) == Bits)
        return true;
      if (T->isPointerType() && W->isPointerType())
        return true;
    }
    return false;
  }

  /// An integer read from mapped memory (a struct member, an element, a
  /// pointee) at an address that does not depend on the loop variables.
  std::optional<Term> loadedScalar(const Expr *LV) {
    std::string Ext = extension(LV->getType());
    if (Ext.empty() || mayBeStored(LV->getType()))
      return std::nullopt;
    std::optional<Address> A = lvalueAddress(LV);
    if (!A || !A->known() || A->Offset.Degree != 0)
      return std::nullopt;
    visit(LV, true, false);
    return Term{"(load (+ " + A->Base + " " + A->Offset.S + ") " + Ext + ")", 0,
                true};
  }

  /// Whether every value of integer type From is a value of type To.
  bool represents(QualType To, QualType From) {
    unsigned WT = Ctx.getIntWidth(To), WF = Ctx.getIntWidth(From);
    bool ST = To->isSignedIntegerOrEnumerationType(),
         SF = From->isSignedIntegerOrEnumerationType();
    return ST == SF ? WT >= WF : ST && WT > WF;
  }

  /// X as a value of integer type T: reduced modulo 2^width into T's range,
  /// as C converts integers and as unsigned arithmetic wraps. Null for a
  /// type the descriptor cannot name.
  std::optional<Term> wrapTo(QualType T, const Term &X) {
    T = T.getCanonicalType();
    if (!T->isIntegerType() || T->isDependentType())
      return std::nullopt;
    unsigned Bits = Ctx.getIntWidth(T);
    if (Bits == 0 || Bits > 64)
      return std::nullopt;
    Term W = X;
    W.S = "(wrap " + std::to_string(Bits) +
          (T->isSignedIntegerOrEnumerationType() ? " 1 " : " 0 ") + X.S + ")";
    return W;
  }

  /// The result of arithmetic on T: unsigned arithmetic wraps; signed
  /// arithmetic that overflows is undefined, so it is exact in any program
  /// with defined behaviour.
  std::optional<Term> arithmetic(QualType T, const Term &X) {
    if (T->isUnsignedIntegerOrEnumerationType())
      return wrapTo(T, X);
    return X;
  }

  /// A term whose value is bounded but not affine in the counters: a valid
  /// interval of a read, but no exact section of a write.
  static Term bounded(Term T) {
    if (T.Degree > 0)
      T.Affine = false;
    return T;
  }

  /// An integer expression in the descriptor language; its value is the
  /// mathematical value of the C expression (wraps made explicit).
  std::optional<Term> translate(const Expr *E) {
    E = E->IgnoreParens();
    if (!E->isValueDependent() && E->getType()->isIntegerType()) {
      Expr::EvalResult R;
      if (E->EvaluateAsInt(R, Ctx)) {
        const llvm::APSInt &V = R.Val.getInt();
        // The descriptor's values are int64.
        if (V.isUnsigned() ? V.getActiveBits() > 63
                           : V.getSignificantBits() > 64)
          return std::nullopt;
        return Term{llvm::toString(V, 10), 0, true};
      }
    }
    if (const auto *CE = dyn_cast<CastExpr>(E)) {
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
    if (const auto *CO = dyn_cast<ConditionalOperator>(E)) {
      std::optional<Term> A = translate(CO->getTrueExpr());
      std::optional<Term> B = translate(CO->getFalseExpr());
      if (!A || !B)
        return std::nullopt;
      return bounded(bin("either", *A, *B, std::max(A->Degree, B->Degree)));
    }
    if (isa<MemberExpr>(E) || isa<ArraySubscriptExpr>(E) ||
        (isa<UnaryOperator>(E) &&
         cast<UnaryOperator>(E)->getOpcode() == UO_Deref))
      return loadedScalar(E);
    if (const auto *DRE = dyn_cast<DeclRefExpr>(E)) {
      const auto *VD = dyn_cast<VarDecl>(DRE->getDecl());
      if (!VD)
        return std::nullopt;
      VD = VD->getCanonicalDecl();
      if (UnknownVars.count(VD))
        return std::nullopt;
      if (auto It = LevelOf.find(VD); It != LevelOf.end())
        return Term{"(c " + std::to_string(It->second) + ")", 1, true};
      if (auto It = InnerVar.find(VD); It != InnerVar.end())
        return Term{"(v " + std::to_string(It->second) + ")", 1, true};
      // A reduction variable is private in the kernel, and so is a private
      // one: neither has the value of the variable captured.
      if (Written.count(VD) || ReductionVars.count(VD) || Privates.count(VD))
        return std::nullopt;
      if (auto It = Captures.find(VD); It != Captures.end())
        return scalarArg(VD, It->second);
      if (auto It = LocalInits.find(VD); It != LocalInits.end())
        return translate(It->second);
      return std::nullopt;
    }
    if (const auto *U = dyn_cast<UnaryOperator>(E)) {
      std::optional<Term> A = translate(U->getSubExpr());
      if (!A || !U->getType()->isIntegerType())
        return std::nullopt;
      switch (U->getOpcode()) {
      case UO_Plus:
        return A;
      case UO_Minus:
        return arithmetic(U->getType(),
                          Term{"(neg " + A->S + ")", A->Degree, A->Affine});
      case UO_Not: // ~x == -x - 1 in two's complement
        return arithmetic(U->getType(), Term{"(- (neg " + A->S + ") 1)",
                                             A->Degree, A->Affine});
      default:
        return std::nullopt;
      }
    }
    if (const auto *B = dyn_cast<BinaryOperator>(E)) {
      if (!B->getType()->isIntegerType())
        return std::nullopt;
      std::optional<Term> L = translate(B->getLHS());
      std::optional<Term> R = translate(B->getRHS());
      if (!L || !R)
        return std::nullopt;
      int Max = std::max(L->Degree, R->Degree);
      QualType T = B->getType();
      switch (B->getOpcode()) {
      case BO_Add:
        return arithmetic(T, bin("+", *L, *R, Max));
      case BO_Sub:
        return arithmetic(T, bin("-", *L, *R, Max));
      case BO_Mul:
        return arithmetic(T, bin("*", *L, *R, L->Degree + R->Degree));
      case BO_Div:
      case BO_Rem:
        // The operands are in T's range (C converted them), and so is the
        // quotient (INT_MIN / -1 is undefined). Exact in the arguments only;
        // with a counter it is a valid (interval) bound but not affine.
        return bounded(bin(B->getOpcode() == BO_Div ? "/" : "%", *L, *R, Max));
      case BO_Shl:
        // The shifted operand has T (the promoted left operand's type).
        return arithmetic(T, bin("shl", *L, *R, Max + (R->Degree ? 1 : 0)));
      case BO_Shr:
        return bounded(bin("shr", *L, *R, Max));
      case BO_And:
        return bounded(bin("and", *L, *R, Max));
      case BO_Or:
        return bounded(bin("or", *L, *R, Max));
      case BO_Xor:
        return bounded(bin("xor", *L, *R, Max));
      default:
        return std::nullopt;
      }
    }
    return std::nullopt;
  }

  //===--- Body: written variables, inner loops, accesses ----------------===//

  void noteWrite(const Expr *LHS) {
    const VarDecl *VD = counterOf(LHS);
    if (VD)
      Written.insert(VD);
    if (!VD || VD->getType()->isReferenceType())
      StoredTypes.push_back(LHS->getType().getCanonicalType());
  }

  void collectWrittenVars(const Stmt *S) {
    if (!S)
      return;
    if (const auto *B = dyn_cast<BinaryOperator>(S)) {
      if (B->isAssignmentOp())
        noteWrite(B->getLHS());
    } else if (const auto *U = dyn_cast<UnaryOperator>(S)) {
      if (U->isIncrementDecrementOp() || U->getOpcode() == UO_AddrOf)
        noteWrite(U->getSubExpr());
    } else if (const auto *DS = dyn_cast<DeclStmt>(S)) {
      for (const Decl *Dc : DS->decls())
        if (const auto *VD = dyn_cast<VarDecl>(Dc)) {
          Locals.insert(VD->getCanonicalDecl());
          if (VD->getInit() && !VD->getType()->isReferenceType())
            LocalInits[VD->getCanonicalDecl()] = VD->getInit();
        }
    }
    for (const Stmt *C : S->children())
      collectWrittenVars(C);
  }

  /// Gives the counter of inner loop F a range, valid inside F only; returns
  /// it (null when F's counter has none).
  const VarDecl *addInnerLoop(const ForStmt &F) {
    const VarDecl *Counter;
    Term Init, Bound, Step;
    std::string Cond;
    // The counter is written by its own header: translate() must not see it
    // as a plain written variable while reading the header.
    bool Ok = readLoop(F, Counter, Init, Cond, Bound, Step);
    if (Ok && (InnerVar.count(Counter) || LevelOf.count(Counter)))
      Ok = false; // the counter of an enclosing loop
    if (Ok) {
      // Written in its own body (besides the increment)?
      unsigned Writes = 0;
      countWrites(F.getBody(), Counter, Writes);
      Ok = Writes == 0;
    }
    // The step's sign says which end the first value is.
    int Sign = 0;
    if (Ok) {
      if (Step.S == "1")
        Sign = 1;
      else if (Step.S == "-1")
        Sign = -1;
      else if (Step.S.find_first_not_of("-0123456789") == std::string::npos)
        Sign = Step.S[0] == '-' ? -1 : 1;
    }
    if (!Ok || Sign == 0 || Cond == "ne") {
      if (Counter)
        UnknownVars.insert(Counter);
      return nullptr;
    }
    std::string Lo, Hi;
    if (Sign > 0 && (Cond == "lt" || Cond == "le")) {
      Lo = Init.S;
      Hi = Cond == "lt" ? "(- " + Bound.S + " 1)" : Bound.S;
    } else if (Sign < 0 && (Cond == "gt" || Cond == "ge")) {
      Hi = Init.S;
      Lo = Cond == "gt" ? "(+ " + Bound.S + " 1)" : Bound.S;
    } else {
      UnknownVars.insert(Counter);
      return nullptr;
    }
    // A counter declared outside F may have been given a range by an earlier
    // loop: the range of this loop holds in its body.
    unsigned Id = VarLines.size();
    InnerVar[Counter] = Id;
    UnknownVars.erase(Counter);
    VarLines.push_back("var " + std::to_string(Id) + " " + Lo + " " + Hi);
    return Counter;
  }

  void countWrites(const Stmt *S, const VarDecl *V, unsigned &N) {
    if (!S)
      return;
    if (const auto *B = dyn_cast<BinaryOperator>(S)) {
      if (B->isAssignmentOp() && counterOf(B->getLHS()) == V)
        ++N;
    } else if (const auto *U = dyn_cast<UnaryOperator>(S)) {
      if ((U->isIncrementDecrementOp() || U->getOpcode() == UO_AddrOf) &&
          counterOf(U->getSubExpr()) == V)
        ++N;
    }
    for (const Stmt *C : S->children())
      countWrites(C, V, N);
  }

  /// Address of a memory lvalue: base pointer expression and byte offset.
  /// An offset of "?" means: base known, offset unknown (see known()); it
  /// never appears inside a larger expression.
  struct Address {
    std::string Base;
    Term Offset{"0", 0, true};
    bool known() const { return Offset.S != "?"; }
    void forgetOffset() { Offset = Term{"?", 0, false}; }
  };

  static Address offsetBy(Address A, const Term &Bytes) {
    if (!A.known())
      return A;
    A.Offset =
        bin("+", A.Offset, Bytes, std::max(A.Offset.Degree, Bytes.Degree));
    return A;
  }

  /// Adds Idx elements of type Elem to A (Negate: subtracts); an unknown
  /// index or element size leaves the offset unknown.
  std::optional<Address> indexBy(std::optional<Address> A,
                                 std::optional<Term> Idx, QualType Elem,
                                 bool Negate = false) {
    if (!A)
      return A;
    std::optional<Term> Size = sizeTerm(Elem);
    if (!Idx || !Size) {
      A->forgetOffset();
      return A;
    }
    if (Negate)
      Idx = Term{"(neg " + Idx->S + ")", Idx->Degree, Idx->Affine};
    return offsetBy(*A, bin("*", *Idx, *Size, Idx->Degree + Size->Degree));
  }

  uint64_t sizeOf(QualType T) {
    if (T->isIncompleteType() || T->isDependentType() ||
        T->isVariablyModifiedType())
      return 0;
    return Ctx.getTypeSizeInChars(T).getQuantity();
  }

  /// The size of T in bytes; a variable-length array's comes from the
  /// kernel argument clang passes its number of elements in.
  std::optional<Term> sizeTerm(QualType T) {
    if (const VariableArrayType *VAT = Ctx.getAsVariableArrayType(T)) {
      auto It = VLASizes.find(VAT->getSizeExpr());
      std::optional<Term> Elem = sizeTerm(VAT->getElementType());
      if (It == VLASizes.end() || !Elem)
        return std::nullopt;
      Term N{"(sarg " + std::to_string(It->second) + " 8 0)", 0, true};
      return bin("*", N, *Elem, 0);
    }
    if (const ConstantArrayType *CAT = Ctx.getAsConstantArrayType(T))
      if (CAT->getElementType()->isVariablyModifiedType()) {
        std::optional<Term> Elem = sizeTerm(CAT->getElementType());
        if (!Elem)
          return std::nullopt;
        Term N{std::to_string(CAT->getSize().getZExtValue()), 0, true};
        return bin("*", N, *Elem, 0);
      }
    if (uint64_t Size = sizeOf(T))
      return Term{std::to_string(Size), 0, true};
    return std::nullopt;
  }

  /// A pointer value; nullopt when its base cannot be named.
  std::optional<Address> pointerValue(const Expr *E) {
    E = E->IgnoreParens();
    if (const auto *CE = dyn_cast<CastExpr>(E)) {
      switch (CE->getCastKind()) {
      case CK_ArrayToPointerDecay:
        return lvalueAddress(CE->getSubExpr());
      case CK_NoOp:
      case CK_BitCast:
        return pointerValue(CE->getSubExpr());
      case CK_LValueToRValue: {
        const Expr *Sub = CE->getSubExpr()->IgnoreParens();
        if (const auto *DRE = dyn_cast<DeclRefExpr>(Sub)) {
          const auto *VD = dyn_cast<VarDecl>(DRE->getDecl());
          if (!VD)
            return std::nullopt;
          VD = VD->getCanonicalDecl();
          auto It = Captures.find(VD);
          if (It != Captures.end() && !Written.count(VD)) {
            std::string A = "(arg " + std::to_string(It->second.Arg) + ")";
            if (It->second.ByCopy)
              return Address{A};
            return Address{"(load " + A + " 8 0)"};
          }
          if (auto LI = LocalInits.find(VD);
              LI != LocalInits.end() && !Written.count(VD))
            return pointerValue(LI->second);
          return std::nullopt;
        }
        // A pointer stored in mapped memory (a struct member, an array of
        // pointers): a read of that memory, then its value.
        std::optional<Address> Slot = lvalueAddress(Sub);
        if (!Slot || !Slot->known() || Slot->Offset.Degree != 0 ||
            mayBeStored(Sub->getType()))
          return std::nullopt;
        visit(Sub, /*Read=*/true, /*Write=*/false);
        return Address{"(load (+ " + Slot->Base + " " + Slot->Offset.S +
                       ") 8 0)"};
      }
      default:
        return std::nullopt;
      }
    }
    if (const auto *B = dyn_cast<BinaryOperator>(E)) {
      if (B->getOpcode() != BO_Add && B->getOpcode() != BO_Sub)
        return std::nullopt;
      const Expr *P = B->getLHS(), *I = B->getRHS();
      if (!P->getType()->isPointerType())
        std::swap(P, I);
      if (!P->getType()->isPointerType() || !I->getType()->isIntegerType())
        return std::nullopt;
      std::optional<Address> A = pointerValue(P);
      if (!A)
        return std::nullopt;
      visit(I, false, false);
      return indexBy(A, translate(I), P->getType()->getPointeeType(),
                     B->getOpcode() == BO_Sub);
    }
    if (const auto *U = dyn_cast<UnaryOperator>(E))
      if (U->getOpcode() == UO_AddrOf)
        return lvalueAddress(U->getSubExpr());
    return std::nullopt;
  }

  /// Address of a memory lvalue. "?" as offset: base known, offset unknown.
  std::optional<Address> lvalueAddress(const Expr *E) {
    E = E->IgnoreParens();
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
    if (const auto *ME = dyn_cast<MemberExpr>(E)) {
      const auto *FD = dyn_cast<FieldDecl>(ME->getMemberDecl());
      if (!FD || FD->isBitField())
        return std::nullopt;
      std::optional<Address> A = ME->isArrow() ? pointerValue(ME->getBase())
                                               : lvalueAddress(ME->getBase());
      if (!A || !A->known())
        return A;
      uint64_t Off = Ctx.getFieldOffset(FD) / 8;
      return offsetBy(*A, Term{std::to_string(Off), 0, true});
    }
    if (const auto *DRE = dyn_cast<DeclRefExpr>(E)) {
      const auto *VD = dyn_cast<VarDecl>(DRE->getDecl());
      if (!VD)
        return std::nullopt;
      auto It = Captures.find(VD->getCanonicalDecl());
      if (It != Captures.end() && !It->second.ByCopy)
        return Address{"(arg " + std::to_string(It->second.Arg) + ")"};
      return std::nullopt;
    }
    return std::nullopt;
  }

  bool isMemory(const Expr *E) {
    E = E->IgnoreParens();
    if (isa<ArraySubscriptExpr>(E) || isa<MemberExpr>(E))
      return true;
    if (const auto *U = dyn_cast<UnaryOperator>(E))
      return U->getOpcode() == UO_Deref;
    if (const auto *DRE = dyn_cast<DeclRefExpr>(E)) {
      const auto *VD = dyn_cast<VarDecl>(DRE->getDecl());
      if (!VD)
        return false;
      auto It = Captures.find(VD->getCanonicalDecl());
      return It != Captures.end() && !It->second.ByCopy;
    }
    return false;
  }

  /// The variable behind a direct reference; null otherwise.
  const VarDecl *varOf(const Expr *E) {
    if (const auto *DRE = dyn_cast<DeclRefExpr>(E->IgnoreParens()))
      if (const auto *VD = dyn_cast<VarDecl>(DRE->getDecl()))
        return VD->getCanonicalDecl();
    return nullptr;
  }

  /// Records an access of the memory lvalue E.
  void access(const Expr *E, bool Read, bool Write) {
    if (const VarDecl *VD = varOf(E)) {
      if (ReductionVars.count(VD))
        return; // private per chunk, combined on the host
      if (Write)
        return refuse("writes '" + VD->getNameAsString() +
                      "', shared by all iterations");
    }
    // A whole struct copied in or out counts as its bytes.
    uint64_t Size = sizeOf(E->getType());
    std::optional<Address> A = lvalueAddress(E);
    if (!A || !Size) {
      if (Write)
        return refuse("writes memory the analysis cannot attribute");
      ReadAny = true;
      return;
    }
    bool Affine = A->known() && A->Offset.Affine;
    if (Write && !Affine)
      return refuse("non-affine write");
    std::string Sz = std::to_string(Size);
    std::string When;
    for (const std::string &G : Guards)
      When += G;
    if (Read) {
      if (!A->known())
        AccessSet.insert("readall " + A->Base);
      else
        AccessSet.insert("read " + Sz + " " + A->Base + " " + A->Offset.S +
                         When);
    }
    if (Write)
      AccessSet.insert("write " + Sz + " " + A->Base + " " + A->Offset.S +
                       When);
  }

  //===--- Guards: the conditions of the branch an access sits in ---------===//

  /// The loop variable (c l) or (v i) that E is, compared in type T without
  /// a change of value; empty otherwise.
  std::string loopVarIn(const Expr *E, QualType T) {
    const Expr *Inner = E->IgnoreParenImpCasts();
    const VarDecl *VD = counterOf(Inner);
    if (!VD || !T->isIntegerType() || !Inner->getType()->isIntegerType() ||
        !represents(T, Inner->getType()))
      return "";
    if (auto It = LevelOf.find(VD); It != LevelOf.end())
      return "(c " + std::to_string(It->second) + ")";
    if (auto It = InnerVar.find(VD); It != InnerVar.end())
      return "(v " + std::to_string(It->second) + ")";
    return "";
  }

  /// One side of a comparison as `x + Shift` (or `Shift - x`: Negated), x a
  /// loop variable; X empty when it is not of that form. Only exact
  /// arithmetic qualifies: the value must keep its meaning in the type the
  /// comparison converts it to, and a sum must be signed (no wrap).
  struct VarSide {
    std::string X, Shift;
    bool Negated = false;
  };
  VarSide asLoopVarSide(const Expr *Side) {
    VarSide V;
    QualType T = Side->getType();
    const Expr *E = Side->IgnoreParenImpCasts();
    if (!E->getType()->isIntegerType() || !T->isIntegerType() ||
        !represents(T, E->getType()))
      return V;
    V.X = loopVarIn(E, E->getType());
    if (!V.X.empty())
      return V;
    const auto *B = dyn_cast<BinaryOperator>(E);
    if (!B || (B->getOpcode() != BO_Add && B->getOpcode() != BO_Sub) ||
        !B->getType()->isSignedIntegerType())
      return V;
    std::string L = loopVarIn(B->getLHS(), B->getType());
    std::string R = loopVarIn(B->getRHS(), B->getType());
    const Expr *Rest = !L.empty() ? B->getRHS() : B->getLHS();
    std::optional<Term> S = translate(Rest);
    if ((L.empty() == R.empty()) || !S)
      return V;
    if (!L.empty()) { // x + s, x - s
      V.X = L;
      V.Shift = B->getOpcode() == BO_Add ? S->S : "(neg " + S->S + ")";
    } else if (B->getOpcode() == BO_Add) { // s + x
      V.X = R;
      V.Shift = S->S;
    } else { // s - x
      V.X = R;
      V.Shift = S->S;
      V.Negated = true;
    }
    return V;
  }

  /// Appends to Out the guards that hold where Cond is true (Holds) or
  /// false (!Holds). Conditions it cannot read add nothing, which is sound:
  /// a guard only narrows where an access may happen.
  void guardsOf(const Expr *Cond, bool Holds, std::vector<std::string> &Out) {
    if (!GuardsHold)
      return;
    Cond = Cond->IgnoreParenImpCasts();
    if (const auto *U = dyn_cast<UnaryOperator>(Cond)) {
      if (U->getOpcode() == UO_LNot)
        guardsOf(U->getSubExpr(), !Holds, Out);
      return;
    }
    const auto *B = dyn_cast<BinaryOperator>(Cond);
    if (!B)
      return;
    // a && b holds: both hold; a || b fails: both fail.
    if ((B->getOpcode() == BO_LAnd && Holds) ||
        (B->getOpcode() == BO_LOr && !Holds)) {
      guardsOf(B->getLHS(), Holds, Out);
      guardsOf(B->getRHS(), Holds, Out);
      return;
    }
    if (!B->isComparisonOp() || B->getOpcode() == BO_Cmp)
      return;
    BinaryOperatorKind Op = B->getOpcode();
    VarSide V = asLoopVarSide(B->getLHS());
    const Expr *Other = B->getRHS();
    if (V.X.empty()) {
      V = asLoopVarSide(B->getRHS());
      Other = B->getLHS();
      Op = BinaryOperator::reverseComparisonOp(Op);
    }
    if (V.X.empty())
      return;
    if (!Holds)
      Op = BinaryOperator::negateComparisonOp(Op);
    std::optional<Term> E = translate(Other);
    if (!E)
      return;
    // x + s <op> e  is  x <op> e - s;  s - x <op> e  is  x <op'> s - e.
    std::string Bound = E->S;
    if (!V.Shift.empty())
      Bound = V.Negated ? "(- " + V.Shift + " " + E->S + ")"
                        : "(- " + E->S + " " + V.Shift + ")";
    if (V.Negated)
      Op = BinaryOperator::reverseComparisonOp(Op);
    if (Bound.find(V.X) != std::string::npos)
      return;
    const std::string &X = V.X;
    const char *Cmp = Op == BO_LT   ? "lt"
                      : Op == BO_LE ? "le"
                      : Op == BO_GT ? "gt"
                      : Op == BO_GE ? "ge"
                      : Op == BO_EQ ? "eq"
                                    : "ne";
    Out.push_back(std::string(" when (") + Cmp + " " + X + " " + Bound + ")");
  }

  static bool hasJumpTargets(const Stmt *S) {
    if (!S)
      return false;
    if (isa<LabelStmt>(S) || isa<SwitchCase>(S))
      return true;
    for (const Stmt *C : S->children())
      if (hasJumpTargets(C))
        return true;
    return false;
  }

  /// Walks S (a branch taken where Cond is true, or false) with its guards.
  void visitGuarded(const Stmt *S, const Expr *Cond, bool Holds, bool Read,
                    bool Write) {
    size_t Depth = Guards.size();
    guardsOf(Cond, Holds, Guards);
    visit(S, Read, Write);
    Guards.resize(Depth);
  }

  bool isPureFunction(const FunctionDecl *FD, unsigned Depth);

  void visitCall(const CallExpr &C) {
    const FunctionDecl *FD = C.getDirectCallee();
    if (!FD)
      return refuse("indirect call");
    std::string Name = FD->getNameAsString();
    if (Name.rfind("omp_get_team", 0) == 0 ||
        Name.rfind("omp_get_thread", 0) == 0 ||
        Name.rfind("omp_get_num_t", 0) == 0 || Name == "omp_get_level" ||
        Name == "omp_get_ancestor_thread_num" || Name == "omp_get_team_size")
      return refuse("depends on team or thread numbers (" + Name + ")");
    if (Name == "malloc" || Name == "calloc" || Name == "realloc" ||
        Name == "free" || Name.rfind("omp_alloc", 0) == 0 ||
        Name == "omp_free" || Name.rfind("omp_target_alloc", 0) == 0)
      return refuse("device-side allocation (" + Name + ")");
    // A member function reads its object. Only the call operator of a
    // lambda that captures by copy only: the closure is its first argument,
    // read whole below.
    if (const auto *MD = dyn_cast<CXXMethodDecl>(FD); MD && MD->isInstance()) {
      if (!isa<CXXOperatorCallExpr>(C) || !MD->getParent()->isLambda())
        return refuse("calls member function '" + Name + "'");
      for (const LambdaCapture &LC : MD->getParent()->captures())
        if (LC.getCaptureKind() != LCK_ByCopy)
          return refuse("calls a lambda that does not capture by copy");
    }
    if (!isPureFunction(FD, 0))
      return refuse("calls '" + Name + "'");
    for (const Expr *A : C.arguments())
      visit(A, true, false);
  }

  /// Walks S; Read/Write: how the value of S (a memory lvalue) is used.
  void visit(const Stmt *S, bool Read, bool Write) {
    if (!S || !Reason.empty())
      return;
    if (const auto *E = dyn_cast<Expr>(S)) {
      const Expr *P = E->IgnoreParens();
      if (P != E)
        return visit(P, Read, Write);
      if (isMemory(E) && (Read || Write)) {
        access(E, Read, Write);
        // The subexpressions (indices, base pointers) are walked by
        // lvalueAddress through visit(..., Read).
        return;
      }
      // A store to an lvalue other than memory or a variable (C++: a
      // conditional or comma lvalue, ...).
      if (Write && !isa<DeclRefExpr>(E))
        return refuse("writes an lvalue the analysis cannot attribute");
    }
    if (isa<OMPAtomicDirective>(S))
      return refuse("atomic construct");
    if (isa<OMPCriticalDirective>(S))
      return refuse("critical construct");
    if (isa<OMPOrderedDirective>(S))
      return refuse("ordered construct");
    if (const auto *OD = dyn_cast<OMPExecutableDirective>(S)) {
      if (OD->getDirectiveKind() != llvm::omp::OMPD_simd)
        return refuse("nested OpenMP construct");
      return visit(OD->getInnermostCapturedStmt()->getCapturedStmt(), false,
                   false);
    }
    if (const auto *CS = dyn_cast<CapturedStmt>(S))
      return visit(CS->getCapturedStmt(), false, false);
    if (const auto *F = dyn_cast<ForStmt>(S)) {
      const VarDecl *Counter = addInnerLoop(*F);
      for (const Stmt *C : F->children())
        visit(C, false, false);
      // After the loop (a counter declared outside it) the counter is past
      // its range: from here on its value is unknown.
      if (Counter) {
        InnerVar.erase(Counter);
        UnknownVars.insert(Counter);
      }
      return;
    }
    if (const auto *CE = dyn_cast<CastExpr>(S)) {
      if (CE->getCastKind() == CK_LValueToRValue)
        return visit(CE->getSubExpr(), true, false);
      if (CE->getCastKind() == CK_NoOp && CE->isGLValue())
        return visit(CE->getSubExpr(), Read, Write); // adds const
      if (CE->getCastKind() == CK_ArrayToPointerDecay ||
          CE->getCastKind() == CK_FunctionToPointerDecay)
        return visitAddressOnly(CE->getSubExpr());
      return visit(CE->getSubExpr(), false, false);
    }
    if (const auto *B = dyn_cast<BinaryOperator>(S)) {
      if (B->isAssignmentOp()) {
        bool Compound = B->isCompoundAssignmentOp();
        visit(B->getLHS(), Compound, true);
        visit(B->getRHS(), false, false);
        return;
      }
      // The right operand runs only where the left one decides so.
      if (B->getOpcode() == BO_LAnd || B->getOpcode() == BO_LOr) {
        visit(B->getLHS(), false, false);
        visitGuarded(B->getRHS(), B->getLHS(), B->getOpcode() == BO_LAnd, false,
                     false);
        return;
      }
      // A C++ comma lvalue is its right operand.
      if (B->getOpcode() == BO_Comma) {
        visit(B->getLHS(), false, false);
        visit(B->getRHS(), Read, Write);
        return;
      }
    }
    // A C++ conditional lvalue is one of its branches.
    if (const auto *CO = dyn_cast<ConditionalOperator>(S)) {
      visit(CO->getCond(), false, false);
      visitGuarded(CO->getTrueExpr(), CO->getCond(), true, Read, Write);
      visitGuarded(CO->getFalseExpr(), CO->getCond(), false, Read, Write);
      return;
    }
    if (const auto *If = dyn_cast<IfStmt>(S);
        If && !If->getConditionVariable() && !If->isConsteval()) {
      visit(If->getInit(), false, false);
      visit(If->getCond(), false, false);
      visitGuarded(If->getThen(), If->getCond(), true, false, false);
      if (If->getElse())
        visitGuarded(If->getElse(), If->getCond(), false, false, false);
      return;
    }
    if (const auto *U = dyn_cast<UnaryOperator>(S)) {
      if (U->isIncrementDecrementOp())
        return visit(U->getSubExpr(), true, true);
      if (U->getOpcode() == UO_AddrOf) {
        if (isMemory(U->getSubExpr()))
          return refuse("takes the address of mapped memory");
        return;
      }
    }
    if (const auto *C = dyn_cast<CallExpr>(S))
      return visitCall(*C);
    if (isa<CXXThisExpr>(S))
      return refuse("uses 'this'");
    if (const auto *DRE = dyn_cast<DeclRefExpr>(S)) {
      const auto *VD = dyn_cast<VarDecl>(DRE->getDecl());
      if (VD && Write && VD->getType()->isReferenceType())
        return refuse("writes through reference '" + VD->getNameAsString() +
                      "'");
      if (VD && Write) {
        const VarDecl *C = VD->getCanonicalDecl();
        if (!Locals.count(C) && !Privates.count(C) && !LevelOf.count(C) &&
            !InnerVar.count(C) && !ReductionVars.count(C))
          return refuse("writes '" + VD->getNameAsString() +
                        "', shared by all iterations");
      }
      if (VD)
        if (VD->hasGlobalStorage() && !VD->isStaticLocal() &&
            !Captures.count(VD->getCanonicalDecl())) {
          if (Write)
            return refuse("writes a global variable");
          if (!VD->getType().isConstQualified())
            ReadAny = true;
        }
      return;
    }
    if (isa<CXXNewExpr>(S) || isa<CXXDeleteExpr>(S))
      return refuse("device-side allocation (new/delete)");
    if (isa<GCCAsmStmt>(S) || isa<MSAsmStmt>(S))
      return refuse("inline assembly");
    if (isa<CXXMemberCallExpr>(S) || isa<CXXConstructExpr>(S))
      return refuse("C++ calls");
    for (const Stmt *C : S->children())
      visit(C, false, false);
  }

  /// An array used as a pointer (passed on, decayed): its address matters,
  /// not its contents, unless it is then dereferenced (handled above).
  void visitAddressOnly(const Expr *E) {
    if (isMemory(E))
      return refuse("takes the address of mapped memory");
  }

  void walk(const Stmt *Body) { visit(Body, false, false); }

  std::string render() {
    std::ostringstream OS;
    OS << "hetero-kernel 1\n";
    if (!HostOnly.empty())
      OS << "host-only " << HostOnly << "\n";
    if (!DeviceMath.empty()) {
      OS << "one-kind calls";
      const char *Sep = " ";
      for (const std::string &F : DeviceMath) {
        OS << Sep << F;
        Sep = ", ";
      }
      OS << ", which GPUs and CPUs round differently\n";
    }
    if (!Reason.empty()) {
      OS << "split no " << Reason << "\n";
      return OS.str();
    }
    OS << "split yes\n";
    OS << "nest " << Levels.size() << "\n";
    for (size_t L = 0; L < Levels.size(); ++L)
      OS << "loop " << L << " " << Levels[L].Init << " " << Levels[L].Cond
         << " " << Levels[L].Bound << " " << Levels[L].Step << "\n";
    for (const std::string &V : VarLines)
      OS << V << "\n";
    for (const std::string &A : AccessSet)
      OS << A << "\n";
    if (ReadAny)
      OS << "readany\n";
    for (const std::string &R : ReduceLines)
      OS << R << "\n";
    return OS.str();
  }
};

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

class Visitor : public RecursiveASTVisitor<Visitor> {
public:
  explicit Visitor(ASTContext &Ctx)
      : Ctx(Ctx), Names(std::make_unique<ASTNameGenerator>(Ctx)) {}
  bool shouldVisitTemplateInstantiations() const { return true; }

  bool TraverseFunctionDecl(FunctionDecl *FD) {
    return traverseFunction(
        FD, [&] { return RecursiveASTVisitor::TraverseFunctionDecl(FD); });
  }
  bool TraverseCXXMethodDecl(CXXMethodDecl *FD) {
    return traverseFunction(
        FD, [&] { return RecursiveASTVisitor::TraverseCXXMethodDecl(FD); });
  }

  // Not VisitOMPLoopDirective: clang 19 does not walk every loop directive
  // class up to it (target parallel for is missed).
  bool VisitOMPExecutableDirective(OMPExecutableDirective *E) {
    auto *D = dyn_cast<OMPLoopDirective>(E);
    if (!D)
      return true;
    if (!isOpenMPTargetExecutionDirective(D->getDirectiveKind()) ||
        Functions.empty() || D->getDirectiveKind() == llvm::omp::OMPD_target)
      return true;
    const FunctionDecl *FD = Functions.back();
    if (FD->isDependentContext())
      return true;
    std::string Parent = Names->getName(FD);
    PresumedLoc PLoc = Ctx.getSourceManager().getPresumedLoc(D->getBeginLoc());
    if (PLoc.isInvalid())
      return true;
    KernelAnalysis A(Ctx, *D);
    recordDescriptor(kernelKey(Parent, PLoc.getLine()), A.run());
    return true;
  }

private:
  template <typename Fn> bool traverseFunction(FunctionDecl *FD, Fn F) {
    Functions.push_back(FD);
    bool R = F();
    Functions.pop_back();
    return R;
  }
  ASTContext &Ctx;
  std::unique_ptr<ASTNameGenerator> Names;
  std::vector<const FunctionDecl *> Functions;
};

class Consumer : public ASTConsumer {
public:
  void HandleTranslationUnit(ASTContext &Ctx) override {
    if (!Ctx.getLangOpts().OpenMP)
      return;
    Visitor V(Ctx);
    V.TraverseDecl(Ctx.getTranslationUnitDecl());
  }
};

class SectionAnalysisAction : public PluginASTAction {
protected:
  std::unique_ptr<ASTConsumer> CreateASTConsumer(CompilerInstance &,
                                                 llvm::StringRef) override {
    return std::make_unique<Consumer>();
  }
  bool ParseArgs(const CompilerInstance &,
                 const std::vector<std::string> &) override {
    return true;
  }
  ActionType getActionType() override { return AddBeforeMainAction; }
};

} // namespace
} // namespace hetero

static FrontendPluginRegistry::Add<hetero::SectionAnalysisAction>
    X("hetero-sections", "hetero: affine sections of offloaded loops");

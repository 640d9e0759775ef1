//===- KernelAnalysis.h - Sections of one offloaded loop --------*- C++ -*-===//
//
// The analysis of one offloaded loop (its AST): a combined target loop
// construct, or a target region whose whole body is one worksharing loop
// construct (target teams + distribute parallel for, target + teams
// distribute ..., target + teams + distribute ..., target parallel + for,
// with clauses on any level; SectionAnalysis.cpp finds it). It builds the
// kernel's descriptor (runtime/include/hetero/KernelDescriptor.h) through the
// runtime's own DescriptorBuilder:
//
//   - the collapsed loop nest (init, condition, bound, step per level), which
//     defines the normalized iteration space the runtime hands out windows of;
//   - per memory access in the body, its base (a kernel argument, or a pointer
//     loaded from mapped memory) and byte offset as an expression of the loop
//     counters and the kernel's scalar arguments, with the C integer
//     semantics made explicit (wraps), and the guards of the branch it sits
//     in; inner loop counters get a value range. Writes must be affine in
//     the counters; a non-affine read reads its whole buffer. A called
//     function with a visible body is walked in place of the call, its
//     parameters standing for the arguments; locals (the iteration's and
//     its callees') and by-value parameters are private storage, whose
//     accesses make no section. A call of a function whose body is one
//     `return <expression>;` (an index helper) stands for that expression
//     in an index; a trivial copy or move assignment of a C++ object
//     writes its object and reads the other, like a C struct assignment;
//   - the reduction variables (argument, operator, type);
//   - "split no <reasons>" when something cannot be proven safe: every
//     reason found, each with its source location (file:line:col).
//
// After run(), names() gives the source names of the arguments and loop
// counters the descriptor's expressions refer to (for the remarks).
//
// Kernel arguments are numbered like clang numbers the kernel's parameters:
// one per capture of the target region, in capture order.
//
// The work is in three files: CaptureAndClauses.cpp (captures, clauses, the
// collapsed nest), AddressTranslation.cpp (integer expressions and memory
// addresses in the descriptor language) and BodyVisitor.cpp (the body:
// accesses, inner loops, guards, calls).
//
//===----------------------------------------------------------------------===//
#ifndef HETERO_ANALYSIS_KERNELANALYSIS_H
#define HETERO_ANALYSIS_KERNELANALYSIS_H

#include "hetero/KernelDescriptor.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/StmtOpenMP.h"
#include "llvm/ADT/APSInt.h"

#include <map>
#include <optional>
#include <set>
#include <string>
#include <tuple>
#include <vector>

namespace hetero {

/// An integer expression of the descriptor and how it depends on the loop
/// counters.
struct Term {
  ExprId Id = NoExpr;
  int Degree = 0; // polynomial degree in loop counters; > 1: not affine
  bool Affine = true;
};

class KernelAnalysis {
public:
  /// \p Target is the target directive, whose captures are the kernel's
  /// arguments; \p D the worksharing loop directive that is the target
  /// region's whole body (the same directive for a combined construct);
  /// \p Levels every directive from \p Target down to \p D, whose clauses
  /// all apply to the loop.
  KernelAnalysis(clang::ASTContext &Ctx,
                 const clang::OMPExecutableDirective &Target,
                 const clang::OMPLoopDirective &D,
                 std::vector<const clang::OMPExecutableDirective *> Levels)
      : Ctx(Ctx), Target(Target), D(D), Directives(std::move(Levels)) {}
  /// A combined construct (target ... for/distribute/loop).
  KernelAnalysis(clang::ASTContext &Ctx, const clang::OMPLoopDirective &D)
      : KernelAnalysis(Ctx, D, D, {&D}) {}

  /// The kernel's descriptor.
  KernelDescriptor run();

  /// What (arg K), (sarg K ...), (c L) and (v I) stand for in the source.
  struct SourceNames {
    std::map<unsigned, std::string> Args;
    std::vector<std::string> Counters;
    std::map<unsigned, std::string> Vars;
  };
  /// The names, once run() has returned.
  SourceNames names() const;

private:
  struct Capture {
    unsigned Arg;
    bool ByCopy;
  };
  struct LoopLevel {
    const clang::VarDecl *Counter = nullptr;
    Term Init, Bound, Step;
    LoopCond Cond = LoopCond::LT;
  };
  /// A memory lvalue's address: a base pointer and a byte offset, or no
  /// offset when it cannot be expressed (the whole buffer).
  struct Address {
    ExprId Base = NoExpr;
    std::optional<Term> Offset;
    // Storage of one iteration's own (a local variable or array, a
    // by-value parameter of a called function): no section.
    bool Private = false;
    bool known() const { return Offset.has_value(); }
  };
  /// One side of a comparison as `x + Shift` (or `Shift - x`: Negated), x a
  /// loop variable (none when it is not of that form).
  struct VarSide {
    ExprId X = NoExpr;
    ExprKind Kind = ExprKind::Counter;
    unsigned Index = 0;
    std::optional<Term> Shift;
    bool Negated = false;
  };

  clang::ASTContext &Ctx;
  const clang::OMPExecutableDirective &Target;
  const clang::OMPLoopDirective &D;
  std::vector<const clang::OMPExecutableDirective *> Directives;
  DescriptorBuilder B;
  std::map<const clang::VarDecl *, Capture> Captures;
  /// The kernel argument holding `this` (a region in a member function):
  /// a pointer to the object, which the region maps (`this[:1]`).
  std::optional<unsigned> ThisArg;
  /// The objects of the member functions being walked in place of their
  /// calls, innermost last: `this` in such a body is the call's object, an
  /// lvalue (`f(i)`, `obj.get(i)`) or a pointer (`p->get(i)`), as the
  /// caller's code computes it.
  struct BoundThis {
    const clang::Expr *Object = nullptr;
    bool Pointer = false;
    /// A lambda's closure made outside the loop: the variables its body
    /// names that it captured are the closure's fields (closureCapture).
    const clang::CXXRecordDecl *Lambda = nullptr;
    /// The member function called on the object (objectOf).
    const clang::CXXMethodDecl *Method = nullptr;
  };
  std::vector<BoundThis> ThisStack;
  /// `this` where the walk is: the innermost call's object, else ThisArg's.
  std::optional<Address> thisAddress();
  /// The field of the innermost bound closure (BoundThis::Lambda) that
  /// holds its capture of VD; null when it did not capture VD.
  const clang::FieldDecl *closureCapture(const clang::VarDecl *VD) const;
  /// The object of C, a call of a member function (of a class, not a
  /// lambda's call operator), as ThisStack holds it.
  static BoundThis objectOf(const clang::CallExpr &C);
  /// The lvalue that C's callee returns a reference to, where its body is
  /// one side-effect free `return <lvalue>;` (an accessor: `double &at(i)
  /// { return data_[i]; }`, a view's operator()), after checks (isCheck)
  /// if any; null otherwise.
  const clang::Expr *returnedLvalue(const clang::CallExpr &C);
  /// The definition of C's callee where its body can stand in for the
  /// call: visible, not variadic, neither being walked already (recursion)
  /// nor too deep, one argument per parameter (after the object), none of
  /// them bound to a reference but a const one; null otherwise.
  const clang::FunctionDecl *inlinableCallee(const clang::CallExpr &C);
  /// Def's body, where it is one `return <expression>;` without side
  /// effects (assignments, increments; with IncludePossibleEffects, calls
  /// too); else null.
  /// With AllowChecks, checks (isCheck) may come before the return.
  const clang::Expr *quietReturn(const clang::FunctionDecl &Def,
                                 bool IncludePossibleEffects,
                                 bool AllowChecks = false);
  /// Whether S, before an accessor's return, changes nothing the return
  /// reads (a bounds or memory-space check: Kokkos' view operator()): no
  /// declaration, jump, assignment, increment or address taken; calls given
  /// no non-const reference, of no non-const member function. Its reads
  /// and writes are walked where the accessor stands (visitChecks).
  bool isCheck(const clang::Stmt *S);
  /// Walks the checks of C's callee, in the callee (inQuietCallee).
  void visitChecks(const clang::CallExpr &C);
  /// Whether every call in S is of a pure function (isPureFunction) or of
  /// one whose body is such a return, whose calls are too.
  bool quietCalls(const clang::Stmt *S, unsigned Depth,
                  bool AllowChecks = false);
  /// The address of that lvalue, each parameter standing for its argument
  /// and `this` for the call's object.
  std::optional<Address> referenceCallAddress(const clang::CallExpr &C);
  /// The pointer C's callee returns, where its body is one side-effect free
  /// `return <pointer>;` (a handle's getter: `T *get() const { return
  /// ptr_; }`), as referenceCallAddress; nullopt otherwise.
  std::optional<Address> returnedPointer(const clang::CallExpr &C);
  /// In(), as inCallee, for a call whose body is the quiet Returned: its
  /// arguments (and the pointer its object is reached through) read here.
  template <typename Fn>
  auto inQuietCallee(const clang::CallExpr &C, Fn In) -> decltype(In());
  /// The argument of std::move, std::forward or std::as_const (their value
  /// is their argument's), else null.
  static const clang::Expr *identityArgument(const clang::CallExpr &C);
  std::map<const clang::Expr *, unsigned> VLASizes; // VLA size expr -> arg
  std::vector<LoopLevel> Levels;
  std::vector<const clang::ForStmt *> Headers; // of the collapsed loops
  std::map<const clang::VarDecl *, unsigned> LevelOf;
  std::map<const clang::VarDecl *, unsigned> InnerVar; // counter -> id
  std::map<const clang::VarDecl *, const clang::ForStmt *> InnerLoop;
  // Every inner variable's source name, kept after its loop's walk.
  std::map<unsigned, std::string> VarNames;
  std::set<const clang::VarDecl *> UnknownVars; // values not expressible
  std::set<const clang::VarDecl *> ReductionVars;
  std::map<const clang::VarDecl *, ReductionOp> ReductionOps;
  std::set<const clang::VarDecl *> Written;
  // Per written variable, the right-hand sides of its plain assignments;
  // the variables written otherwise (+=, ++, address taken); those whose
  // values are being translated (assignedValue); the counters of loops
  // that do not declare them (their values outlive the loop).
  std::map<const clang::VarDecl *, std::vector<const clang::Expr *>>
      Assignments;
  std::set<const clang::VarDecl *> Unassignable, Resolving, OpenCounters;
  std::vector<clang::QualType> StoredTypes; // of the memory stored to
  std::map<const clang::VarDecl *, const clang::Expr *> LocalInits;
  /// Where each of LocalInits is evaluated: the depth of ThisStack at the
  /// declaration, or at the call for a parameter bound to its argument (an
  /// argument reads the caller's members, not the callee's).
  std::map<const clang::VarDecl *, size_t> InitDepth;
  std::set<const clang::VarDecl *> Locals;   // declared inside the construct
  std::set<const clang::VarDecl *> Privates; // private clause
  /// Reference parameters of arithmetic type of the functions being walked
  /// (visitCallee): their arguments' reads and writes are the caller's.
  std::set<const clang::VarDecl *> RefParams;
  // The guards of the branch being walked: every access found there holds
  // them.
  std::vector<DescGuard> Guards;
  bool GuardsHold = true;
  /// The stores at the top of the loop body (`b[i] = ...;`), where nothing
  /// in it leaves an iteration early: each runs once in every iteration
  /// (DescAccess::Every).
  std::set<const clang::Expr *> EveryStores;
  void collectEveryStores(const clang::Stmt *Body);
  static bool hasLeavingJump(const clang::Stmt *S);
  bool ReadAny = false;
  // Math functions GPUs and CPUs round differently (CUDA's libdevice against
  // glibc): the kernel's iterations must all run on members of one kind.
  std::set<std::string> DeviceMath;
  // The functions whose bodies are being walked in place of their calls.
  std::vector<const clang::FunctionDecl *> CallStack;
  static constexpr size_t MaxCallDepth = 16;
  // The address being walked goes to a local pointer or a parameter (a
  // call's argument): taking the address of mapped memory is fine there.
  bool AddressToLocal = false;

  /// Adds a reason the kernel cannot be split, with the source location of
  /// the statement being walked (else the directive's). Every reason is
  /// kept: the walk goes on, so that a user sees all of them at once.
  void refuse(const std::string &Why);
  // The statement being walked: where a refusal points.
  const clang::Stmt *Here = nullptr;

  // CaptureAndClauses.cpp
  void collectCaptures();
  void checkClauses();
  void checkClause(const clang::OMPClause &C);
  void addReduction(const clang::OMPReductionClause &C);
  std::optional<ReductionType> scalarType(clang::QualType T);
  const clang::VarDecl *counterOf(const clang::Expr *E);
  bool readLoop(const clang::ForStmt &F, const clang::VarDecl *&Counter,
                Term &Init, LoopCond &Cond, Term &Bound, Term &Step,
                bool Inner = false);
  const clang::Stmt *collectNest();

  // AddressTranslation.cpp
  Term binary(ExprKind K, const Term &A, const Term &B, int Degree);
  Term constantTerm(int64_t V);
  bool represents(clang::QualType To, clang::QualType From);
  std::optional<Term> wrapTo(clang::QualType T, const Term &X);
  std::optional<Term> arithmetic(clang::QualType T, const Term &X);
  static Term bounded(Term T);
  bool extension(clang::QualType T, unsigned &Bytes, bool &Signed);
  std::optional<Term> scalarArg(const clang::VarDecl *VD, const Capture &C);
  bool mayBeStored(clang::QualType T);
  std::optional<Term> loadedScalar(const clang::Expr *LV);
  std::optional<Term> translate(const clang::Expr *E);
  std::optional<Term> translateCast(const clang::CastExpr *CE);
  std::optional<Term> translateBinary(const clang::BinaryOperator *BO);
  /// L Op R in type T (Op a C binary operator: + - * / % << >> & | ^).
  std::optional<Term> combine(clang::BinaryOperatorKind Op, clang::QualType T,
                              const Term &L, const Term &R);
  std::optional<Term> translateVariable(const clang::VarDecl *VD);
  std::optional<Term> assignedValue(const clang::VarDecl *VD);
  std::optional<Term> translateCall(const clang::CallExpr *C);
  /// The bindings of parameters to arguments that bindParameters replaced.
  using Bindings = std::vector<
      std::tuple<const clang::VarDecl *, const clang::Expr *, size_t>>;
  /// Binds each parameter of Def to its argument in C (LocalInits), for the
  /// walk or the translation of Def's body in place of the call.
  Bindings bindParameters(const clang::CallExpr &C,
                          const clang::FunctionDecl &Def);
  /// Binds each parameter of Def to one of Args (the call's, after its
  /// object).
  Bindings bindArguments(llvm::ArrayRef<const clang::Expr *> Args,
                         const clang::FunctionDecl &Def);
  /// The arguments of C before Def's parameters': 1 for the object of a
  /// member operator call (a lambda's `f(x)` passes the closure first).
  static unsigned objectArguments(const clang::CallExpr &C,
                                  const clang::FunctionDecl &Def);
  void restoreBindings(const Bindings &Outer);
  /// F() with ThisStack as it was where VD's initializer (or argument) is:
  /// the objects of the calls made since are set aside meanwhile.
  template <typename Fn>
  auto whereInitialized(const clang::VarDecl *VD, Fn F) -> decltype(F()) {
    auto D = InitDepth.find(VD);
    if (D == InitDepth.end() || D->second >= ThisStack.size())
      return F();
    return withStackCut(ThisStack, D->second, F);
  }
  /// F() with Stack cut to its first Keep entries; the rest are put back
  /// after (the analysis steps out to an outer function or object).
  template <typename T, typename Fn>
  static auto withStackCut(std::vector<T> &Stack, size_t Keep, Fn F)
      -> decltype(F()) {
    std::vector<T> Inner(Stack.begin() + Keep, Stack.end());
    Stack.resize(Keep);
    auto Result = F();
    Stack.insert(Stack.end(), Inner.begin(), Inner.end());
    return Result;
  }
  /// In(), with Def's parameters bound to C's arguments, Def on the call
  /// stack and, for a member function, C's object as `this`: the
  /// translation of Def's returned expression in place of the call.
  template <typename Fn>
  auto inCallee(const clang::CallExpr &C, const clang::FunctionDecl &Def,
                bool Method, Fn In) -> decltype(In()) {
    Bindings Outer = bindParameters(C, Def);
    CallStack.push_back(Def.getCanonicalDecl());
    if (Method)
      ThisStack.push_back(objectOf(C));
    auto Result = In();
    if (Method)
      ThisStack.pop_back();
    CallStack.pop_back();
    restoreBindings(Outer);
    return Result;
  }
  std::optional<ExprKind> minOrMax(const clang::ConditionalOperator &CO);
  Address offsetBy(Address A, const Term &Bytes);
  std::optional<Address> indexBy(std::optional<Address> A,
                                 std::optional<Term> Idx, clang::QualType Elem,
                                 bool Negate = false);
  uint64_t sizeOf(clang::QualType T);
  std::optional<Term> sizeTerm(clang::QualType T);
  std::optional<Address> pointerValue(const clang::Expr *E);
  /// A (the address of an object of type Derived) as the base that CE, a
  /// derived-to-base cast, converts it to; nullopt through a virtual base.
  std::optional<Address> toBase(std::optional<Address> A,
                                const clang::CastExpr &CE,
                                clang::QualType Derived);
  std::optional<Address> pointerLoaded(const clang::Expr *Sub);
  std::optional<Address> lvalueAddress(const clang::Expr *E);

  // BodyVisitor.cpp
  void noteWrite(const clang::Expr *LHS);
  void noteAssignment(const clang::VarDecl *VD, const clang::Expr *Value);
  /// Whether E reads any of Vars (canonical declarations).
  static bool readsAnyOf(const clang::Stmt *E,
                         const std::set<const clang::VarDecl *> &Vars);
  /// Whether E, a value that holds where it appears, reads a counter of a
  /// loop that does not declare it outside the walk's loop over it.
  bool readsCounterOutsideItsLoop(const clang::Stmt *E);
  /// Adds to Vars the variables that S's assignments and increments write.
  void noteWrittenIn(const clang::Stmt *S,
                     std::set<const clang::VarDecl *> &Vars);
  /// S, a plain assignment to a variable in a block's sequence (Last: the
  /// sequence's values so far), recorded; false for any other statement.
  bool straightAssignment(
      const clang::Stmt *S,
      std::map<const clang::VarDecl *, const clang::Expr *> &Last);
  void collectWrittenVars(const clang::Stmt *S);
  const clang::VarDecl *addInnerLoop(const clang::ForStmt &F);
  void countWrites(const clang::Stmt *S, const clang::VarDecl *V, unsigned &N);
  bool isMemory(const clang::Expr *E);
  const clang::VarDecl *varOf(const clang::Expr *E);
  void access(const clang::Expr *E, bool Read, bool Write);
  /// The array an access reaches, as the source names it; where S is
  /// ("file.c:88"): for messages (DescAccess::Name, Where).
  std::string accessName(const clang::Expr *E);
  std::string placeOf(const clang::Stmt *S);
  std::optional<VarSide> loopVarIn(const clang::Expr *E, clang::QualType T);
  std::optional<VarSide> asLoopVarSide(const clang::Expr *Side);
  void guardsOf(const clang::Expr *Cond, bool Holds,
                std::vector<DescGuard> &Out);
  void comparisonGuard(const clang::BinaryOperator *BO, bool Holds,
                       std::vector<DescGuard> &Out);
  static bool hasJumpTargets(const clang::Stmt *S);
  void visitGuarded(const clang::Stmt *S, const clang::Expr *Cond, bool Holds,
                    bool Read, bool Write);
  bool isPureFunction(const clang::FunctionDecl *FD, unsigned Depth);
  void visitCall(const clang::CallExpr &C);
  /// Walks Def's body in place of the call C; Object (a member function's
  /// or a stored closure's) is `this` there, not where the arguments are.
  void visitCallee(const clang::CallExpr &C, const clang::FunctionDecl &Def,
                   const BoundThis *Object = nullptr);
  /// visitCallee's walk, given the arguments after the object.
  void walkCallee(llvm::ArrayRef<const clang::Expr *> Args,
                  const clang::FunctionDecl &Def, const BoundThis *Object);
  void visitConstructor(const clang::CXXConstructExpr &CE);
  /// How each parameter of Def takes its argument: 0 by value, 1 by const
  /// reference (the argument is read), 2 by other reference (read and
  /// written); false, with the reason refused, for one it cannot follow.
  bool referenceParameters(const clang::FunctionDecl &Def,
                           std::vector<char> &ByRef);
  void visitLocalAddress(const clang::Expr *E);
  /// Whether Closure, the object of a lambda's call, was made in this
  /// iteration (a local of the loop's body, or the lambda expression
  /// itself): its captures then hold their variables' values; else they
  /// are the closure's fields.
  bool closureOfTheIteration(const clang::Expr *Closure);
  void visit(const clang::Stmt *S, bool Read, bool Write);
  void walk(const clang::Stmt *S, bool Read, bool Write);
  bool visitExpression(const clang::Expr *E, bool Read, bool Write);
  bool visitConstruct(const clang::Stmt *S);
  bool visitOperator(const clang::Stmt *S, bool Read, bool Write);
  void visitVariable(const clang::DeclRefExpr *DRE, bool Write);
  void visitAddressOnly(const clang::Expr *E);

  // AggregateTemporaries.cpp
  /// The expression that initialized the field ME reads, where ME reads a
  /// field of an aggregate temporary made in the loop body (`V{p, n}.f`, or
  /// `this->f` in a const member function called on `V{p, n}`); null
  /// otherwise. OuterThis: the expression is the caller's, one level out
  /// of ThisStack by OuterThis levels (outOfThis).
  const clang::Expr *temporaryField(const clang::MemberExpr &ME,
                                    size_t &OuterThis);
  /// F() with the N innermost objects of ThisStack set aside.
  template <typename Fn> auto outOfThis(size_t N, Fn F) -> decltype(F()) {
    return withStackCut(ThisStack, ThisStack.size() - N, F);
  }

  // HelperCalls.cpp: integer helpers of several statements.
  /// A local (or by-value parameter) of a helper being executed
  /// (helperValue): its value so far as a term and, where it is a constant,
  /// as a number (which may not fit a term: an extent's 2^64 - 1 tag).
  struct HelperLocal {
    std::optional<Term> Value;
    std::optional<llvm::APSInt> Constant;
  };
  /// L as a term: its value, else its constant where a term holds it.
  std::optional<Term> termOf(const HelperLocal &L);
  std::map<const clang::VarDecl *, HelperLocal> HelperLocals;
  /// The elements of a helper's local arrays of integers.
  std::map<const clang::VarDecl *, std::vector<HelperLocal>> HelperArrays;
  /// The element AS reads, where its array is a helper's local one (an
  /// unknown value where the subscript is not a constant in range); null
  /// for other arrays.
  const HelperLocal *helperElement(const clang::ArraySubscriptExpr &AS);
  /// Set while a function's constant arguments are being found
  /// (substituted): no substitution meanwhile.
  bool Substituting = false;
  /// Whether Def's body only declares integer locals, assigns them and its
  /// by-value integer parameters, decides and returns (`index_type res = 0;
  /// ((res = i + ext(r) * res), ...); return res;`, `if (r == R) return E;
  /// return next::get(r);`), nothing in it taking an address or having another
  /// effect, and every call in it quiet (quietCalls).
  bool localOnlyBody(const clang::FunctionDecl &Def, unsigned Depth);
  bool localOnlyStmt(const clang::Stmt *S, const clang::FunctionDecl &Def,
                     unsigned Depth);
  /// Whether E changes nothing but Def's locals and by-value parameters.
  bool localOnlyExpr(const clang::Expr *E, const clang::FunctionDecl &Def,
                     unsigned Depth);
  /// The value Def's body returns, executed with its parameters bound (in
  /// inCallee: Def innermost on CallStack); nullopt where a value or a
  /// decision is unknown.
  std::optional<Term> helperValue(const clang::FunctionDecl &Def);
  enum class Flow { Next, Returned, Unknown };
  Flow execute(const clang::Stmt *S, HelperLocal &Out);
  /// Executes E's assignments to the helper's locals; false where one is
  /// not of a kind executed here.
  bool assignLocals(const clang::Expr *E);
  /// VD's value where execution is, as HelperLocals or its binding has it.
  HelperLocal currentValue(const clang::VarDecl *VD);
  /// E's value where it is a constant here: a constant expression, a
  /// helper's local known constant, a parameter or unassigned local bound
  /// to one, a comparison or conversion of those, or an expression of the
  /// innermost function followed that clang's evaluator folds with its
  /// constant parameters substituted.
  std::optional<llvm::APSInt> constantOf(const clang::Expr *E);
  std::optional<llvm::APSInt> substituted(const clang::Expr *E);
  /// VD's value where it is a constant here (constantOf).
  std::optional<llvm::APSInt> variableConstant(const clang::VarDecl *VD);
  /// Whether Cond holds here: nullopt where that is not known.
  std::optional<bool> decided(const clang::Expr *Cond);
};

} // namespace hetero

#endif // HETERO_ANALYSIS_KERNELANALYSIS_H

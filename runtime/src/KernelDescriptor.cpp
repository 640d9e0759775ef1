//===- KernelDescriptor.cpp - Sections of an offloaded loop kernel --------===//
#include "hetero/KernelDescriptor.h"

#include <algorithm>
#include <charconv>
#include <cstring>
#include <map>

namespace hetero {

namespace {

/// Deeper expressions are refused, which bounds every recursion here.
constexpr unsigned MaxExprDepth = 128;
constexpr unsigned MaxIndex = 65535;
constexpr uint64_t MaxNest = 64;

bool parseInt64(const std::string &S, int64_t &Out) {
  if (S.empty())
    return false;
  const char *End = S.data() + S.size();
  auto [Ptr, Ec] = std::from_chars(S.data(), End, Out);
  return Ec == std::errc() && Ptr == End;
}

bool parseUnsigned(const std::string &S, uint64_t Max, uint64_t &Out) {
  if (S.empty() || S[0] == '-')
    return false;
  const char *End = S.data() + S.size();
  auto [Ptr, Ec] = std::from_chars(S.data(), End, Out);
  return Ec == std::errc() && Ptr == End && Out <= Max;
}

bool isSpace(char C) { return C == ' ' || C == '\t' || C == '\r'; }

std::string trim(const std::string &S) {
  size_t B = 0, E = S.size();
  while (B < E && isSpace(S[B]))
    ++B;
  while (E > B && isSpace(S[E - 1]))
    --E;
  return S.substr(B, E - B);
}

/// Words separated by blanks; parentheses are words of their own.
std::vector<std::string> tokenize(const std::string &Line) {
  std::vector<std::string> Toks;
  std::string Cur;
  auto Flush = [&] {
    if (!Cur.empty())
      Toks.push_back(std::move(Cur));
    Cur.clear();
  };
  for (char C : Line) {
    if (isSpace(C)) {
      Flush();
    } else if (C == '(' || C == ')') {
      Flush();
      Toks.push_back(std::string(1, C));
    } else {
      Cur += C;
    }
  }
  Flush();
  return Toks;
}

struct OperatorName {
  const char *Name;
  ExprKind Kind;
  unsigned Operands;
};
const OperatorName Operators[] = {
    {"+", ExprKind::Add, 2},     {"-", ExprKind::Sub, 2},
    {"*", ExprKind::Mul, 2},     {"/", ExprKind::Div, 2},
    {"%", ExprKind::Rem, 2},     {"neg", ExprKind::Neg, 1},
    {"min", ExprKind::Min, 2},   {"max", ExprKind::Max, 2},
    {"shl", ExprKind::Shl, 2},   {"shr", ExprKind::Shr, 2},
    {"and", ExprKind::And, 2},   {"or", ExprKind::Or, 2},
    {"xor", ExprKind::Xor, 2},   {"either", ExprKind::Either, 2},
    {"wrap", ExprKind::Wrap, 1},
};

const char *operatorName(ExprKind K) {
  for (const OperatorName &O : Operators)
    if (O.Kind == K)
      return O.Name;
  return "?";
}

struct CondName {
  const char *Name;
  LoopCond Cond;
};
const CondName Conds[] = {{"lt", LoopCond::LT},
                          {"le", LoopCond::LE},
                          {"gt", LoopCond::GT},
                          {"ge", LoopCond::GE},
                          {"ne", LoopCond::NE}};

} // namespace

//===----------------------------------------------------------------------===//
// Parsing
//===----------------------------------------------------------------------===//

class DescriptorParser {
public:
  DescriptorParser(KernelDescriptor &Out, std::string &Err)
      : Out(Out), Err(Err) {}

  bool run(const std::string &Text);

private:
  KernelDescriptor &Out;
  std::string &Err;
  unsigned LineNo = 0;
  std::vector<std::string> Toks;
  size_t Pos = 0;

  bool HaveSplit = false, HaveNest = false;
  uint64_t Nest = 0;
  std::map<uint64_t, std::pair<DescLoop, unsigned>> LoopLines; // -> line
  std::map<uint64_t, std::pair<DescVar, unsigned>> VarLines;
  std::vector<unsigned> AccessLines;

  bool fail(const std::string &Msg) { return failAt(LineNo, Msg); }
  bool failAt(unsigned Line, const std::string &Msg) {
    if (Err.empty())
      Err = "line " + std::to_string(Line) + ": " + Msg;
    return false;
  }

  bool atEnd() const { return Pos >= Toks.size(); }
  bool word(std::string &W, const char *What) {
    if (atEnd())
      return fail(std::string("missing ") + What);
    W = Toks[Pos++];
    if (W == "(" || W == ")")
      return fail(std::string("expected ") + What + ", got '" + W + "'");
    return true;
  }
  bool number(uint64_t Max, uint64_t &V, const char *What) {
    std::string W;
    if (!word(W, What))
      return false;
    if (!parseUnsigned(W, Max, V))
      return fail(std::string("bad ") + What + " '" + W + "'");
    return true;
  }
  bool index(unsigned &V, const char *What) {
    uint64_t U;
    if (!number(MaxIndex, U, What))
      return false;
    V = static_cast<unsigned>(U);
    return true;
  }
  bool endOfLine() {
    if (!atEnd())
      return fail("unexpected '" + Toks[Pos] + "' at end of line");
    return true;
  }

  ExprId add(const DescExpr &E) {
    Out.Exprs.push_back(E);
    return static_cast<ExprId>(Out.Exprs.size() - 1);
  }
  void noteArg(unsigned K) { Out.MaxArg = std::max(Out.MaxArg, int(K)); }

  bool expr(ExprId &Id, unsigned Depth = 0);
  bool guard(DescGuard &G);
  bool extension(DescExpr &E);
  bool line(const std::string &Raw);
  bool validate();
  void uses(ExprId Id, int &MaxCounter, int &MaxVar) const;
  bool usesNode(ExprId Id, ExprKind K, unsigned Index) const;
};

bool DescriptorParser::extension(DescExpr &E) {
  uint64_t B, S;
  if (!number(8, B, "byte count"))
    return false;
  if (B != 1 && B != 2 && B != 4 && B != 8)
    return fail("byte count must be 1, 2, 4 or 8, not " + std::to_string(B));
  if (!number(1, S, "signedness (0 or 1)"))
    return false;
  E.Bytes = static_cast<unsigned>(B);
  E.Signed = S == 1;
  return true;
}

bool DescriptorParser::expr(ExprId &Id, unsigned Depth) {
  if (atEnd())
    return fail("missing expression");
  const std::string &T = Toks[Pos++];
  if (T == ")")
    return fail("unexpected ')'");
  DescExpr E;
  if (T != "(") {
    if (!parseInt64(T, E.Value))
      return fail("bad token '" + T + "'");
    Id = add(E);
    return true;
  }
  if (Depth >= MaxExprDepth)
    return fail("expression nested too deeply");
  std::string Head;
  if (!word(Head, "operator"))
    return false;
  if (Head == "arg") {
    E.Kind = ExprKind::Arg;
    if (!index(E.Index, "argument index"))
      return false;
    noteArg(E.Index);
  } else if (Head == "sarg") {
    E.Kind = ExprKind::SArg;
    if (!index(E.Index, "argument index") || !extension(E))
      return false;
    noteArg(E.Index);
  } else if (Head == "wrap") {
    E.Kind = ExprKind::Wrap;
    uint64_t Bits, S;
    if (!number(64, Bits, "bit count"))
      return false;
    if (Bits == 0)
      return fail("bit count must be 1 to 64");
    if (!number(1, S, "signedness (0 or 1)") || !expr(E.Ops[0], Depth + 1))
      return false;
    E.Bits = static_cast<unsigned>(Bits);
    E.Signed = S == 1;
  } else if (Head == "load") {
    E.Kind = ExprKind::Load;
    if (!expr(E.Ops[0], Depth + 1) || !extension(E))
      return false;
  } else if (Head == "c") {
    E.Kind = ExprKind::Counter;
    if (!index(E.Index, "loop level"))
      return false;
  } else if (Head == "v") {
    E.Kind = ExprKind::Var;
    if (!index(E.Index, "variable id"))
      return false;
  } else {
    const OperatorName *Op = nullptr;
    for (const OperatorName &O : Operators)
      if (Head == O.Name)
        Op = &O;
    if (!Op)
      return fail("unknown operator '" + Head + "'");
    E.Kind = Op->Kind;
    for (unsigned I = 0; I < Op->Operands; ++I)
      if (!expr(E.Ops[I], Depth + 1))
        return false;
  }
  if (atEnd())
    return fail("missing ')'");
  if (Toks[Pos] != ")")
    return fail("unexpected '" + Toks[Pos] + "' in (" + Head + " ...)");
  ++Pos;
  Id = add(E);
  return true;
}

bool DescriptorParser::guard(DescGuard &G) {
  static const std::pair<const char *, GuardCmp> Cmps[] = {
      {"lt", GuardCmp::LT}, {"le", GuardCmp::LE}, {"gt", GuardCmp::GT},
      {"ge", GuardCmp::GE}, {"eq", GuardCmp::EQ}, {"ne", GuardCmp::NE}};
  if (atEnd() || Toks[Pos] != "(")
    return fail("expected '(' to open a guard");
  ++Pos;
  std::string Cmp;
  if (!word(Cmp, "guard comparison"))
    return false;
  bool Known = false;
  for (const auto &[Name, C] : Cmps)
    if (Cmp == Name) {
      G.Cmp = C;
      Known = true;
    }
  if (!Known)
    return fail("unknown guard comparison '" + Cmp + "'");
  if (!expr(G.Var) || !expr(G.Bound))
    return false;
  const DescExpr &V = Out.Exprs[G.Var];
  if (V.Kind != ExprKind::Counter && V.Kind != ExprKind::Var)
    return fail("a guard compares a loop variable, (c l) or (v i)");
  if (usesNode(G.Bound, V.Kind, V.Index))
    return fail("a guard's bound uses its own variable");
  if (atEnd() || Toks[Pos] != ")")
    return fail("missing ')' after a guard");
  ++Pos;
  return true;
}

bool DescriptorParser::usesNode(ExprId Id, ExprKind K, unsigned Index) const {
  const DescExpr &E = Out.Exprs[Id];
  if (E.Kind == K && E.Index == Index)
    return true;
  for (ExprId Op : E.Ops)
    if (Op != NoExpr && usesNode(Op, K, Index))
      return true;
  return false;
}

bool DescriptorParser::line(const std::string &Raw) {
  std::string L = trim(Raw);
  if (L.empty())
    return true;
  Toks = tokenize(L);
  Pos = 0;
  std::string Kind = Toks[Pos++];
  if (Kind == "split") {
    if (HaveSplit)
      return fail("second split line");
    HaveSplit = true;
    std::string Answer;
    if (!word(Answer, "yes or no"))
      return false;
    if (Answer == "yes") {
      Out.Splittable = true;
      return endOfLine();
    }
    if (Answer != "no")
      return fail("split must be yes or no, not '" + Answer + "'");
    // The reason is the raw rest of the line (it may hold parentheses).
    size_t At = L.find("no", L.find("split") + 5);
    Out.Reason = trim(L.substr(At + 2));
    return true;
  }
  if (Kind == "host-only" || Kind == "one-kind") {
    // The reason is the raw rest of the line.
    std::string &Why = Kind == "host-only" ? Out.HostOnly : Out.OneKind;
    Why = trim(L.substr(L.find(Kind) + Kind.size()));
    if (Why.empty())
      return fail(Kind + " needs a reason");
    return true;
  }
  if (Kind == "nest") {
    if (HaveNest)
      return fail("second nest line");
    HaveNest = true;
    if (!number(MaxNest, Nest, "nest depth"))
      return false;
    if (Nest == 0)
      return fail("nest depth must be at least 1");
    return endOfLine();
  }
  if (Kind == "loop") {
    uint64_t Level;
    DescLoop Lp;
    std::string Cond;
    if (!number(MaxNest - 1, Level, "loop level") || !expr(Lp.Init) ||
        !word(Cond, "loop condition"))
      return false;
    bool Known = false;
    for (const CondName &C : Conds)
      if (Cond == C.Name) {
        Lp.Cond = C.Cond;
        Known = true;
      }
    if (!Known)
      return fail("unknown loop condition '" + Cond + "'");
    if (!expr(Lp.Bound) || !expr(Lp.Step) || !endOfLine())
      return false;
    if (!LoopLines.emplace(Level, std::make_pair(Lp, LineNo)).second)
      return fail("second loop line for level " + std::to_string(Level));
    return true;
  }
  if (Kind == "var") {
    uint64_t Id;
    DescVar V;
    if (!number(MaxIndex, Id, "variable id") || !expr(V.Lo) || !expr(V.Hi) ||
        !endOfLine())
      return false;
    if (!VarLines.emplace(Id, std::make_pair(V, LineNo)).second)
      return fail("second var line for variable " + std::to_string(Id));
    return true;
  }
  if (Kind == "read" || Kind == "write") {
    DescAccess A;
    A.Kind = Kind == "read" ? AccessKind::Read : AccessKind::Write;
    if (!number(UINT64_MAX, A.Size, "access size"))
      return false;
    if (A.Size == 0)
      return fail("access size must not be 0");
    if (!expr(A.Base) || !expr(A.Offset))
      return false;
    while (!atEnd()) {
      if (Toks[Pos] != "when")
        return fail("unexpected '" + Toks[Pos] + "' at end of line");
      ++Pos;
      DescGuard G;
      if (!guard(G))
        return false;
      A.Guards.push_back(G);
    }
    Out.Accesses.push_back(A);
    AccessLines.push_back(LineNo);
    return true;
  }
  if (Kind == "readall") {
    DescAccess A;
    A.Kind = AccessKind::ReadAll;
    if (!expr(A.Base) || !endOfLine())
      return false;
    Out.Accesses.push_back(A);
    AccessLines.push_back(LineNo);
    return true;
  }
  if (Kind == "readany") {
    DescAccess A;
    A.Kind = AccessKind::ReadAny;
    if (!endOfLine())
      return false;
    Out.Accesses.push_back(A);
    AccessLines.push_back(LineNo);
    return true;
  }
  if (Kind == "reduce") {
    DescReduction R;
    std::string Op, Ty;
    if (!index(R.Arg, "argument index") || !word(Op, "reduction operator") ||
        !word(Ty, "reduction type") || !endOfLine())
      return false;
    if (!parseReductionOp(Op, R.Op))
      return fail("unknown reduction operator '" + Op + "'");
    if (!parseReductionType(Ty, R.Type))
      return fail("unknown reduction type '" + Ty + "'");
    if (!reductionValid(R.Op, R.Type))
      return fail("reduction " + Op + " is not defined on " + Ty);
    noteArg(R.Arg);
    Out.Reductions.push_back(R);
    return true;
  }
  if (Kind == "hetero-kernel")
    return fail("hetero-kernel line after the first line");
  return fail("unknown line kind '" + Kind + "'");
}

void DescriptorParser::uses(ExprId Id, int &MaxCounter, int &MaxVar) const {
  const DescExpr &E = Out.Exprs[Id];
  if (E.Kind == ExprKind::Counter)
    MaxCounter = std::max(MaxCounter, int(E.Index));
  if (E.Kind == ExprKind::Var)
    MaxVar = std::max(MaxVar, int(E.Index));
  for (ExprId Op : E.Ops)
    if (Op != NoExpr)
      uses(Op, MaxCounter, MaxVar);
}

bool DescriptorParser::validate() {
  if (!HaveSplit)
    return failAt(1, "missing split line");
  if (Out.Splittable && !HaveNest)
    return failAt(1, "missing nest line");
  for (const auto &[Level, LL] : LoopLines)
    if (Level >= Nest)
      return failAt(LL.second, "loop level " + std::to_string(Level) +
                                   " outside the nest of depth " +
                                   std::to_string(Nest));
  for (uint64_t L = 0; L < Nest; ++L) {
    auto It = LoopLines.find(L);
    if (It == LoopLines.end())
      return failAt(1, "missing loop line for level " + std::to_string(L));
    const DescLoop &Lp = It->second.first;
    int MaxC = -1, MaxV = -1;
    for (ExprId Id : {Lp.Init, Lp.Bound, Lp.Step})
      uses(Id, MaxC, MaxV);
    if (MaxC >= 0 || MaxV >= 0)
      return failAt(It->second.second, "loop header uses a loop variable");
    Out.Loops.push_back(Lp);
  }
  int Depth = static_cast<int>(Nest);
  for (const auto &[Id, VL] : VarLines) {
    if (Id != Out.Vars.size())
      return failAt(VL.second, "missing var line for variable " +
                                   std::to_string(Out.Vars.size()));
    int MaxC = -1, MaxV = -1;
    uses(VL.first.Lo, MaxC, MaxV);
    uses(VL.first.Hi, MaxC, MaxV);
    if (MaxC >= Depth)
      return failAt(VL.second,
                    "(c " + std::to_string(MaxC) + ") outside the nest");
    if (MaxV >= int(Id))
      return failAt(VL.second, "bounds of variable " + std::to_string(Id) +
                                   " use (v " + std::to_string(MaxV) + ")");
    Out.Vars.push_back(VL.first);
  }
  for (size_t I = 0; I < Out.Accesses.size(); ++I) {
    const DescAccess &A = Out.Accesses[I];
    int MaxC = -1, MaxV = -1;
    for (ExprId Id : {A.Base, A.Offset})
      if (Id != NoExpr)
        uses(Id, MaxC, MaxV);
    for (const DescGuard &G : A.Guards) {
      uses(G.Var, MaxC, MaxV);
      uses(G.Bound, MaxC, MaxV);
    }
    if (MaxC >= Depth)
      return failAt(AccessLines[I],
                    "(c " + std::to_string(MaxC) + ") outside the nest");
    if (MaxV >= int(Out.Vars.size()))
      return failAt(AccessLines[I],
                    "(v " + std::to_string(MaxV) + ") has no var line");
  }
  return true;
}

bool DescriptorParser::run(const std::string &Text) {
  size_t Start = 0;
  bool First = true;
  while (Start <= Text.size()) {
    size_t End = Text.find('\n', Start);
    if (End == std::string::npos)
      End = Text.size();
    std::string Raw = Text.substr(Start, End - Start);
    Start = End + 1;
    ++LineNo;
    if (First) {
      First = false;
      std::vector<std::string> Header = tokenize(trim(Raw));
      if (Header.empty() || Header[0] != "hetero-kernel")
        return fail("expected 'hetero-kernel 1'");
      if (Header.size() != 2 || Header[1] != "1")
        return fail("unsupported descriptor version");
      continue;
    }
    if (!line(Raw))
      return false;
  }
  return validate();
}

bool KernelDescriptor::parse(const std::string &Text, KernelDescriptor &Out,
                             std::string &Err) {
  Out = KernelDescriptor();
  Err.clear();
  DescriptorParser P(Out, Err);
  return P.run(Text);
}

std::string KernelDescriptor::exprToString(ExprId Id) const {
  if (Id >= Exprs.size())
    return "?";
  const DescExpr &E = Exprs[Id];
  auto Ext = [&] {
    return " " + std::to_string(E.Bytes) + " " + (E.Signed ? "1" : "0");
  };
  switch (E.Kind) {
  case ExprKind::Const:
    return std::to_string(E.Value);
  case ExprKind::Arg:
    return "(arg " + std::to_string(E.Index) + ")";
  case ExprKind::SArg:
    return "(sarg " + std::to_string(E.Index) + Ext() + ")";
  case ExprKind::Load:
    return "(load " + exprToString(E.Ops[0]) + Ext() + ")";
  case ExprKind::Counter:
    return "(c " + std::to_string(E.Index) + ")";
  case ExprKind::Var:
    return "(v " + std::to_string(E.Index) + ")";
  case ExprKind::Neg:
    return "(neg " + exprToString(E.Ops[0]) + ")";
  case ExprKind::Wrap:
    return "(wrap " + std::to_string(E.Bits) + (E.Signed ? " 1 " : " 0 ") +
           exprToString(E.Ops[0]) + ")";
  default:
    return std::string("(") + operatorName(E.Kind) + " " +
           exprToString(E.Ops[0]) + " " + exprToString(E.Ops[1]) + ")";
  }
}

//===----------------------------------------------------------------------===//
// Evaluation
//===----------------------------------------------------------------------===//

namespace {

struct Interval {
  int64_t Lo = 0, Hi = 0; // inclusive
  bool isPoint() const { return Lo == Hi; }
};

Interval point(int64_t V) { return {V, V}; }

/// Interval evaluation; a point evaluation is one over points. Counter and
/// Var give the intervals of (c l) and (v i); null: the expression must not
/// use them.
class Evaluator {
public:
  Evaluator(const KernelDescriptor &D, const DescEnv &E, std::string &Err)
      : D(D), Env(E), Err(Err) {}

  const std::vector<Interval> *Counters = nullptr;
  const std::vector<Interval> *Vars = nullptr;

  bool eval(ExprId Id, Interval &Out);
  bool evalPoint(ExprId Id, int64_t &Out) {
    Interval I;
    if (!eval(Id, I))
      return false;
    if (!I.isPoint())
      return fail("depends on loop variables");
    Out = I.Lo;
    return true;
  }

private:
  const KernelDescriptor &D;
  const DescEnv &Env;
  std::string &Err;

  bool fail(const std::string &Msg) {
    if (Err.empty())
      Err = Msg;
    return false;
  }
  bool overflow(const DescExpr &E) {
    return fail(std::string("overflow in (") + operatorName(E.Kind) + " ...)");
  }
  bool extend(uint64_t Raw, const DescExpr &E, int64_t &Out);
  bool wrap(const DescExpr &E, Interval A, Interval &Out);
  bool binary(const DescExpr &E, Interval A, Interval B, Interval &Out);
  bool bitwise(const DescExpr &E, Interval A, Interval B, Interval &Out);
};

bool Evaluator::extend(uint64_t Raw, const DescExpr &E, int64_t &Out) {
  unsigned Bits = E.Bytes * 8;
  if (Bits < 64) {
    uint64_t Mask = (uint64_t(1) << Bits) - 1;
    Raw &= Mask;
    if (E.Signed && (Raw >> (Bits - 1)))
      Raw |= ~Mask;
  } else if (!E.Signed && Raw > uint64_t(INT64_MAX)) {
    return fail("unsigned 64-bit value " + std::to_string(Raw) +
                " out of range");
  }
  std::memcpy(&Out, &Raw, sizeof(Out));
  return true;
}

bool Evaluator::eval(ExprId Id, Interval &Out) {
  const DescExpr &E = D.expr(Id);
  switch (E.Kind) {
  case ExprKind::Const:
    Out = point(E.Value);
    return true;
  case ExprKind::Arg:
  case ExprKind::SArg: {
    if (E.Index >= Env.Args.size())
      return fail("argument " + std::to_string(E.Index) +
                  " missing (the launch has " +
                  std::to_string(Env.Args.size()) + ")");
    uint64_t Raw = Env.Args[E.Index];
    int64_t V;
    if (E.Kind == ExprKind::Arg)
      std::memcpy(&V, &Raw, sizeof(V));
    else if (!extend(Raw, E, V))
      return false;
    Out = point(V);
    return true;
  }
  case ExprKind::Load: {
    Interval A;
    if (!eval(E.Ops[0], A))
      return false;
    if (!A.isPoint())
      return fail("load address depends on loop variables");
    uint64_t Addr;
    std::memcpy(&Addr, &A.Lo, sizeof(Addr));
    unsigned char Buf[8] = {};
    if (!Env.Load || !Env.Load(Addr, Buf, E.Bytes))
      return fail("cannot read " + std::to_string(E.Bytes) +
                  " bytes at address " + std::to_string(Addr));
    // Little-endian targets: the low bytes come first.
    uint64_t Raw = 0;
    for (unsigned I = 0; I < E.Bytes; ++I)
      Raw |= uint64_t(Buf[I]) << (8 * I);
    int64_t V;
    if (!extend(Raw, E, V))
      return false;
    Out = point(V);
    return true;
  }
  case ExprKind::Counter:
    if (!Counters || E.Index >= Counters->size())
      return fail("depends on loop variables");
    Out = (*Counters)[E.Index];
    return true;
  case ExprKind::Var:
    if (!Vars || E.Index >= Vars->size())
      return fail("depends on loop variables");
    Out = (*Vars)[E.Index];
    return true;
  case ExprKind::Neg: {
    Interval A;
    if (!eval(E.Ops[0], A))
      return false;
    if (__builtin_sub_overflow(int64_t(0), A.Hi, &Out.Lo) ||
        __builtin_sub_overflow(int64_t(0), A.Lo, &Out.Hi))
      return overflow(E);
    return true;
  }
  case ExprKind::Wrap: {
    Interval A;
    if (!eval(E.Ops[0], A))
      return false;
    return wrap(E, A, Out);
  }
  default: {
    Interval A, B;
    if (!eval(E.Ops[0], A) || !eval(E.Ops[1], B))
      return false;
    return binary(E, A, B, Out);
  }
  }
}

/// The W-bit type's range is [Min, Min + 2^W - 1]; A's values map to that
/// range modulo 2^W. Within one period the map is a shift (exact); an
/// interval that crosses a period boundary may take any value of the type.
bool Evaluator::wrap(const DescExpr &E, Interval A, Interval &Out) {
  if (E.Bits == 64) {
    // Values are int64: a signed 64-bit type holds every one of them, and an
    // unsigned one those that are not negative (the rest would be >= 2^63).
    if (E.Signed || A.Lo >= 0) {
      Out = A;
      return true;
    }
    return fail("unsigned 64-bit value " + std::to_string(A.Lo) +
                " wraps to 2^64 or more");
  }
  // W <= 63: Min and the period fit in int64, and so does A - Min in
  // __int128.
  __int128 Period = __int128(1) << E.Bits;
  __int128 Min = E.Signed ? -(Period / 2) : 0;
  auto Block = [&](int64_t V) {
    __int128 D = __int128(V) - Min;
    return D >= 0 ? D / Period : -((-D + Period - 1) / Period);
  };
  __int128 BLo = Block(A.Lo), BHi = Block(A.Hi);
  if (BLo == BHi) {
    Out.Lo = static_cast<int64_t>(A.Lo - BLo * Period);
    Out.Hi = static_cast<int64_t>(A.Hi - BLo * Period);
  } else {
    Out.Lo = static_cast<int64_t>(Min);
    Out.Hi = static_cast<int64_t>(Min + Period - 1);
  }
  return true;
}

/// |V| as unsigned (defined for INT64_MIN too).
uint64_t magnitude(int64_t V) {
  return V < 0 ? uint64_t(0) - static_cast<uint64_t>(V)
               : static_cast<uint64_t>(V);
}

bool Evaluator::binary(const DescExpr &E, Interval A, Interval B,
                       Interval &Out) {
  switch (E.Kind) {
  case ExprKind::Add:
    if (__builtin_add_overflow(A.Lo, B.Lo, &Out.Lo) ||
        __builtin_add_overflow(A.Hi, B.Hi, &Out.Hi))
      return overflow(E);
    return true;
  case ExprKind::Sub:
    if (__builtin_sub_overflow(A.Lo, B.Hi, &Out.Lo) ||
        __builtin_sub_overflow(A.Hi, B.Lo, &Out.Hi))
      return overflow(E);
    return true;
  case ExprKind::Min:
    Out = {std::min(A.Lo, B.Lo), std::min(A.Hi, B.Hi)};
    return true;
  case ExprKind::Max:
    Out = {std::max(A.Lo, B.Lo), std::max(A.Hi, B.Hi)};
    return true;
  case ExprKind::Mul:
  case ExprKind::Div: {
    // Both are monotone in each operand on a box where the divisor keeps
    // its sign: the extremes are at the corners.
    if (E.Kind == ExprKind::Div && B.Lo <= 0 && B.Hi >= 0)
      return fail("division by an interval containing 0");
    int64_t Corners[4];
    const int64_t Xs[2] = {A.Lo, A.Hi}, Ys[2] = {B.Lo, B.Hi};
    for (unsigned I = 0; I < 4; ++I) {
      int64_t X = Xs[I / 2], Y = Ys[I % 2];
      if (E.Kind == ExprKind::Mul) {
        if (__builtin_mul_overflow(X, Y, &Corners[I]))
          return overflow(E);
      } else {
        if (X == INT64_MIN && Y == -1)
          return overflow(E);
        Corners[I] = X / Y;
      }
    }
    Out = {*std::min_element(Corners, Corners + 4),
           *std::max_element(Corners, Corners + 4)};
    return true;
  }
  case ExprKind::Shl:
  case ExprKind::Shr: {
    if (!B.isPoint() || B.Lo < 0 || B.Lo > 63)
      return fail(std::string("shift count of (") + operatorName(E.Kind) +
                  " ...) outside [0, 63]");
    if (E.Kind == ExprKind::Shr) { // floor(a / 2^b) is monotone
      Out = {A.Lo >> B.Lo, A.Hi >> B.Lo};
      return true;
    }
    if (B.Lo == 63)
      return A.Lo == 0 && A.Hi == 0 ? (Out = A, true) : overflow(E);
    int64_t P = int64_t(1) << B.Lo;
    if (__builtin_mul_overflow(A.Lo, P, &Out.Lo) ||
        __builtin_mul_overflow(A.Hi, P, &Out.Hi))
      return overflow(E);
    return true;
  }
  case ExprKind::And:
  case ExprKind::Or:
  case ExprKind::Xor:
    return bitwise(E, A, B, Out);
  case ExprKind::Either:
    Out = {std::min(A.Lo, B.Lo), std::max(A.Hi, B.Hi)};
    return true;
  case ExprKind::Rem: {
    if (B.Lo <= 0 && B.Hi >= 0)
      return fail("remainder by an interval containing 0");
    if (A.isPoint() && B.isPoint()) {
      Out = point(B.Lo == -1 ? 0 : A.Lo % B.Lo);
      return true;
    }
    // The result has the dividend's sign and is below the divisor's
    // magnitude; within one block of a constant divisor it is exact.
    uint64_t M = std::max(magnitude(B.Lo), magnitude(B.Hi));
    int64_t Bound = static_cast<int64_t>(M - 1); // M <= 2^63
    if (B.isPoint() && A.Lo >= 0 && A.Lo / B.Lo == A.Hi / B.Lo) {
      Out = {A.Lo % B.Lo, A.Hi % B.Lo};
      return true;
    }
    Out.Lo = A.Lo >= 0 ? 0 : std::max(A.Lo, -Bound);
    Out.Hi = A.Hi <= 0 ? 0 : std::min(A.Hi, Bound);
    return true;
  }
  default:
    return fail("bad expression");
  }
}

/// Smallest 2^k - 1 that is >= V (V >= 0): every value of at most V's bits.
int64_t allOnesAbove(int64_t V) {
  uint64_t M = 0;
  while (M < static_cast<uint64_t>(V))
    M = M << 1 | 1;
  return static_cast<int64_t>(M);
}

bool Evaluator::bitwise(const DescExpr &E, Interval A, Interval B,
                        Interval &Out) {
  if (A.isPoint() && B.isPoint()) {
    int64_t V = E.Kind == ExprKind::And  ? (A.Lo & B.Lo)
                : E.Kind == ExprKind::Or ? (A.Lo | B.Lo)
                                         : (A.Lo ^ B.Lo);
    Out = point(V);
    return true;
  }
  if (E.Kind == ExprKind::And) {
    // A mask 2^k - 1 over values inside one block of 2^k is a shift: exact.
    for (int Swap = 0; Swap < 2; ++Swap, std::swap(A, B)) {
      if (!B.isPoint() || B.Lo < 0 || (B.Lo & (B.Lo + 1)) != 0)
        continue;
      int64_t Shift = 0;
      while (Shift < 63 && (int64_t(1) << Shift) <= B.Lo)
        ++Shift;
      if ((A.Lo >> Shift) == (A.Hi >> Shift)) {
        Out = {A.Lo & B.Lo, A.Hi & B.Lo};
        return true;
      }
    }
    // x & y lies in [0, y] for y >= 0, whatever x is.
    if (A.Lo >= 0 && B.Lo >= 0)
      Out = {0, std::min(A.Hi, B.Hi)};
    else if (A.Lo >= 0 || B.Lo >= 0)
      Out = {0, A.Lo >= 0 ? A.Hi : B.Hi};
    else
      return fail("(and ...) of two possibly negative values");
    return true;
  }
  if (A.Lo < 0 || B.Lo < 0)
    return fail(std::string("(") + operatorName(E.Kind) +
                " ...) of a possibly negative value");
  // Neither sets a bit above the operands' highest one; | keeps each
  // operand's bits, so it is at least the larger of the two.
  int64_t Hi = allOnesAbove(std::max(A.Hi, B.Hi));
  Out = {E.Kind == ExprKind::Or ? std::max(A.Lo, B.Lo) : 0, Hi};
  return true;
}

/// Narrows the intervals of the loop variables in C and V to where every
/// guard holds; false when nowhere (the access is not reached). A bound that
/// cannot be evaluated narrows nothing, which is sound.
bool applyGuards(const KernelDescriptor &D, Evaluator &Ev,
                 const std::vector<DescGuard> &Guards, std::vector<Interval> &C,
                 std::vector<Interval> &V, std::string &Err) {
  for (const DescGuard &G : Guards) {
    const DescExpr &X = D.expr(G.Var);
    std::vector<Interval> &Set = X.Kind == ExprKind::Counter ? C : V;
    if (X.Index >= Set.size())
      continue;
    Interval B;
    if (!Ev.eval(G.Bound, B)) {
      Err.clear();
      continue;
    }
    Interval &I = Set[X.Index];
    int64_t T;
    switch (G.Cmp) {
    case GuardCmp::LT:
      if (!__builtin_sub_overflow(B.Hi, int64_t(1), &T))
        I.Hi = std::min(I.Hi, T);
      break;
    case GuardCmp::LE:
      I.Hi = std::min(I.Hi, B.Hi);
      break;
    case GuardCmp::GT:
      if (!__builtin_add_overflow(B.Lo, int64_t(1), &T))
        I.Lo = std::max(I.Lo, T);
      break;
    case GuardCmp::GE:
      I.Lo = std::max(I.Lo, B.Lo);
      break;
    case GuardCmp::EQ:
      I.Lo = std::max(I.Lo, B.Lo);
      I.Hi = std::min(I.Hi, B.Hi);
      break;
    case GuardCmp::NE:
      // Only a single excluded value at an end of the interval narrows it.
      if (B.isPoint() && I.Lo == B.Lo && I.Lo < I.Hi)
        ++I.Lo;
      else if (B.isPoint() && I.Hi == B.Lo && I.Lo < I.Hi)
        --I.Hi;
      else if (B.isPoint() && I.isPoint() && I.Lo == B.Lo)
        return false;
      break;
    }
    if (I.Lo > I.Hi)
      return false;
  }
  return true;
}

/// Whether expression Id uses a variable marked in Empty.
bool usesEmpty(const KernelDescriptor &D, ExprId Id,
               const std::vector<char> &Empty) {
  const DescExpr &E = D.expr(Id);
  if (E.Kind == ExprKind::Var)
    return E.Index < Empty.size() && Empty[E.Index];
  for (ExprId Op : E.Ops)
    if (Op != NoExpr && usesEmpty(D, Op, Empty))
      return true;
  return false;
}

bool loopHeader(const KernelDescriptor &D, const DescEnv &E, unsigned L,
                int64_t &Init, int64_t &Bound, int64_t &Step,
                std::string &Err) {
  Evaluator Ev(D, E, Err);
  const DescLoop &Lp = D.loops()[L];
  if (Ev.evalPoint(Lp.Init, Init) && Ev.evalPoint(Lp.Bound, Bound) &&
      Ev.evalPoint(Lp.Step, Step))
    return true;
  Err = "loop " + std::to_string(L) + ": " + Err;
  return false;
}

bool product(const std::vector<uint64_t> &N, size_t From, uint64_t &Out) {
  Out = 1;
  for (size_t I = From; I < N.size(); ++I)
    if (__builtin_mul_overflow(Out, N[I], &Out))
      return false;
  return true;
}

void boxesFrom(const std::vector<uint64_t> &N,
               const std::vector<uint64_t> &Stride, size_t L, uint64_t Lo,
               uint64_t Hi, WindowBox &Prefix, std::vector<WindowBox> &Out) {
  if (L + 1 == N.size()) {
    Prefix[L] = {Lo, Hi - 1};
    Out.push_back(Prefix);
    return;
  }
  uint64_t R = Stride[L];
  uint64_t A = Lo / R, RA = Lo % R, B = (Hi - 1) / R, RB = (Hi - 1) % R;
  if (A == B) {
    Prefix[L] = {A, A};
    boxesFrom(N, Stride, L + 1, RA, RB + 1, Prefix, Out);
    return;
  }
  uint64_t First = A, Last = B;
  if (RA != 0) { // partial head row
    Prefix[L] = {A, A};
    boxesFrom(N, Stride, L + 1, RA, R, Prefix, Out);
    First = A + 1;
  }
  bool Tail = RB != R - 1;
  if (Tail)
    Last = B - 1;
  if (First <= Last) { // whole rows
    WindowBox Box = Prefix;
    Box[L] = {First, Last};
    for (size_t I = L + 1; I < N.size(); ++I)
      Box[I] = {0, N[I] - 1};
    Out.push_back(std::move(Box));
  }
  if (Tail) { // partial tail row
    Prefix[L] = {B, B};
    boxesFrom(N, Stride, L + 1, 0, RB + 1, Prefix, Out);
  }
}

} // namespace

bool tripCounts(const KernelDescriptor &D, const DescEnv &E,
                std::vector<uint64_t> &N, std::string &Err) {
  N.clear();
  Err.clear();
  if (D.depth() == 0) {
    Err = "no loop nest";
    return false;
  }
  for (unsigned L = 0; L < D.depth(); ++L) {
    int64_t Init, Bound, Step;
    if (!loopHeader(D, E, L, Init, Bound, Step, Err))
      return false;
    auto Fail = [&](const std::string &Msg) {
      Err = "loop " + std::to_string(L) + ": " + Msg;
      return false;
    };
    LoopCond C = D.loops()[L].Cond;
    bool Up = C == LoopCond::LT || C == LoopCond::LE ||
              (C == LoopCond::NE && Step > 0);
    if (Step == 0)
      return Fail("zero step");
    if (Up != (Step > 0))
      return Fail("step " + std::to_string(Step) + " goes away from the bound");
    if (C == LoopCond::NE && Step != 1 && Step != -1)
      return Fail("step of a != loop must be 1 or -1");
    int64_t From = Up ? Init : Bound, To = Up ? Bound : Init;
    uint64_t S = magnitude(Step), Count = 0;
    bool Inclusive = C == LoopCond::LE || C == LoopCond::GE;
    if (To > From || (Inclusive && To == From)) {
      int64_t Diff;
      if (__builtin_sub_overflow(To, From, &Diff))
        return Fail("overflow in the trip count");
      uint64_t U = static_cast<uint64_t>(Diff);
      if (C == LoopCond::NE)
        Count = U;
      else if (Inclusive)
        Count = U / S + 1;
      else
        Count = (U - 1) / S + 1;
    } else if (C == LoopCond::NE && To < From) {
      return Fail("the != loop never reaches its bound");
    }
    N.push_back(Count);
  }
  uint64_t Total;
  if (!product(N, 0, Total)) {
    Err = "iteration space above 2^64";
    return false;
  }
  return true;
}

bool evaluateExpr(const KernelDescriptor &D, ExprId Id, const DescEnv &E,
                  const std::vector<int64_t> &Counters,
                  const std::vector<int64_t> &Vars, int64_t &Out,
                  std::string &Err) {
  Err.clear();
  std::vector<Interval> C, V;
  for (int64_t X : Counters)
    C.push_back(point(X));
  for (int64_t X : Vars)
    V.push_back(point(X));
  Evaluator Ev(D, E, Err);
  Ev.Counters = &C;
  Ev.Vars = &V;
  return Ev.evalPoint(Id, Out);
}

void windowBoxes(const std::vector<uint64_t> &N, uint64_t Lo, uint64_t Hi,
                 std::vector<WindowBox> &Out) {
  Out.clear();
  uint64_t Total;
  if (N.empty() || !product(N, 0, Total) || Lo >= Hi || Hi > Total)
    return;
  std::vector<uint64_t> Stride(N.size());
  for (size_t L = 0; L < N.size(); ++L)
    product(N, L + 1, Stride[L]);
  WindowBox Prefix(N.size());
  boxesFrom(N, Stride, 0, Lo, Hi, Prefix, Out);
}

bool windowSections(const KernelDescriptor &D, const DescEnv &E,
                    const std::vector<uint64_t> &N, uint64_t Lo, uint64_t Hi,
                    std::vector<WindowSection> &Out, std::string &Err) {
  Out.clear();
  Err.clear();
  auto Fail = [&](std::string Msg) {
    Err = std::move(Msg);
    return false;
  };
  unsigned Depth = D.depth();
  uint64_t Total;
  if (Depth == 0 || N.size() != Depth)
    return Fail("trip counts do not match the nest");
  if (!product(N, 0, Total) || Lo >= Hi || Hi > Total)
    return Fail("bad window [" + std::to_string(Lo) + ", " +
                std::to_string(Hi) + ")");

  std::vector<int64_t> Init(Depth), Step(Depth);
  for (unsigned L = 0; L < Depth; ++L) {
    int64_t Bound;
    if (!loopHeader(D, E, L, Init[L], Bound, Step[L], Err))
      return false;
  }

  // Bases: single values.
  const std::vector<DescAccess> &Accesses = D.accesses();
  Out.resize(Accesses.size());
  for (size_t I = 0; I < Accesses.size(); ++I) {
    const DescAccess &A = Accesses[I];
    Out[I].Kind = A.Kind;
    if (A.Kind == AccessKind::ReadAny)
      continue;
    Evaluator Ev(D, E, Err);
    int64_t Base;
    if (!Ev.evalPoint(A.Base, Base))
      return Fail("base of access " + std::to_string(I) + ": " + Err);
    std::memcpy(&Out[I].Base, &Base, sizeof(Base));
  }

  std::vector<WindowBox> Boxes;
  windowBoxes(N, Lo, Hi, Boxes);
  std::vector<Interval> C(Depth), V(D.vars().size());
  std::vector<char> Empty(V.size());
  Evaluator Ev(D, E, Err);
  Ev.Counters = &C;
  Ev.Vars = &V;
  for (const WindowBox &Box : Boxes) {
    for (unsigned L = 0; L < Depth; ++L) {
      int64_t X, Y;
      if (__builtin_mul_overflow(Step[L], Box[L].first, &X) ||
          __builtin_add_overflow(Init[L], X, &X) ||
          __builtin_mul_overflow(Step[L], Box[L].second, &Y) ||
          __builtin_add_overflow(Init[L], Y, &Y))
        return Fail("overflow in the counter of loop " + std::to_string(L));
      C[L] = {std::min(X, Y), std::max(X, Y)};
    }
    // Inner variables in order of id; one whose loop runs zero times at
    // every point of the box is empty, and so is every loop nested in it.
    for (size_t I = 0; I < V.size(); ++I) {
      const DescVar &DV = D.vars()[I];
      Empty[I] = usesEmpty(D, DV.Lo, Empty) || usesEmpty(D, DV.Hi, Empty);
      if (Empty[I])
        continue;
      Interval L, H;
      if (!Ev.eval(DV.Lo, L) || !Ev.eval(DV.Hi, H))
        return Fail("bounds of variable " + std::to_string(I) + ": " + Err);
      V[I] = {L.Lo, H.Hi};
      Empty[I] = L.Lo > H.Hi;
    }
    for (size_t I = 0; I < Accesses.size(); ++I) {
      const DescAccess &A = Accesses[I];
      if (Out[I].Kind != AccessKind::Read && Out[I].Kind != AccessKind::Write)
        continue;
      if (usesEmpty(D, A.Offset, Empty))
        continue; // not reached in this box
      bool Ok = true;
      Interval Off;
      if (A.Guards.empty()) {
        Ok = Ev.eval(A.Offset, Off);
      } else {
        std::vector<Interval> GC = C, GV = V;
        if (!applyGuards(D, Ev, A.Guards, GC, GV, Err))
          continue; // no iteration of the box takes this branch
        Evaluator GEv(D, E, Err);
        GEv.Counters = &GC;
        GEv.Vars = &GV;
        Ok = GEv.eval(A.Offset, Off);
      }
      if (!Ok) {
        if (A.Kind == AccessKind::Write)
          return Fail("offset of access " + std::to_string(I) + ": " + Err);
        // A read without computable bounds may read anything in its buffer.
        Out[I].Kind = AccessKind::ReadAll;
        Out[I].Ranges.clear();
        Err.clear();
        continue;
      }
      uint64_t RLo, RHi;
      if (__builtin_add_overflow(Out[I].Base, Off.Lo, &RLo) ||
          __builtin_add_overflow(Out[I].Base, Off.Hi, &RHi) ||
          __builtin_add_overflow(RHi, A.Size, &RHi))
        return Fail("access " + std::to_string(I) +
                    " outside the address space");
      Out[I].Ranges.push_back({RLo, RHi});
    }
  }

  for (WindowSection &S : Out) {
    std::sort(S.Ranges.begin(), S.Ranges.end());
    std::vector<std::pair<uint64_t, uint64_t>> Merged;
    for (const auto &R : S.Ranges) {
      if (!Merged.empty() && R.first <= Merged.back().second)
        Merged.back().second = std::max(Merged.back().second, R.second);
      else
        Merged.push_back(R);
    }
    S.Ranges = std::move(Merged);
  }
  return true;
}

} // namespace hetero

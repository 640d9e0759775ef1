//===- DescriptorParser.cpp - Reading a kernel descriptor -----------------===//
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

const char *exprOperatorName(ExprKind K) {
  for (const OperatorName &O : Operators)
    if (O.Kind == K)
      return O.Name;
  return "?";
}

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
  void noteArg(unsigned K) { Out.noteArg(K); }

  bool expr(ExprId &Id, unsigned Depth = 0);
  bool guard(DescGuard &G);
  /// An access line's optional `src <where> <name>`, then its end.
  bool source(DescAccess &A);
  bool extension(DescExpr &E);
  /// One line of the body, by its kind (the first token); one parser per
  /// kind below.
  bool line(const std::string &Raw);
  bool splitLine(const std::string &L);
  /// host-only, one-kind and source: the raw rest of the line.
  bool restOfLine(const std::string &Kind, const std::string &L);
  bool nestLine();
  bool loopLine();
  bool varLine();
  bool accessLine(AccessKind Kind);      // read, write
  bool wholeAccessLine(AccessKind Kind); // readall, readany
  bool reduceLine();
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

bool DescriptorParser::source(DescAccess &A) {
  if (atEnd())
    return true;
  if (Toks[Pos] != "src")
    return fail("unexpected '" + Toks[Pos] + "' at end of line");
  ++Pos;
  if (!word(A.Where, "the place of an access") ||
      !word(A.Name, "the name of an access"))
    return false;
  if (A.Where == "?")
    A.Where.clear();
  if (A.Name == "?")
    A.Name.clear();
  return endOfLine();
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
  if (Kind == "split")
    return splitLine(L);
  if (Kind == "host-only" || Kind == "one-kind" || Kind == "source")
    return restOfLine(Kind, L);
  if (Kind == "nest")
    return nestLine();
  if (Kind == "loop")
    return loopLine();
  if (Kind == "var")
    return varLine();
  if (Kind == "read" || Kind == "write")
    return accessLine(Kind == "read" ? AccessKind::Read : AccessKind::Write);
  if (Kind == "readall" || Kind == "readany")
    return wholeAccessLine(Kind == "readall" ? AccessKind::ReadAll
                                             : AccessKind::ReadAny);
  if (Kind == "reduce")
    return reduceLine();
  if (Kind == "hetero-kernel")
    return fail("hetero-kernel line after the first line");
  return fail("unknown line kind '" + Kind + "'");
}

bool DescriptorParser::splitLine(const std::string &L) {
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

bool DescriptorParser::restOfLine(const std::string &Kind,
                                  const std::string &L) {
  // A reason, or where the directive is: the raw rest of the line.
  std::string &Text = Kind == "host-only"  ? Out.HostOnly
                      : Kind == "one-kind" ? Out.OneKind
                                           : Out.Source;
  Text = trim(L.substr(L.find(Kind) + Kind.size()));
  if (Text.empty())
    return fail(Kind == "source" ? "source needs a place"
                                 : Kind + " needs a reason");
  return true;
}

bool DescriptorParser::nestLine() {
  if (HaveNest)
    return fail("second nest line");
  HaveNest = true;
  if (!number(MaxNest, Nest, "nest depth"))
    return false;
  if (Nest == 0)
    return fail("nest depth must be at least 1");
  return endOfLine();
}

bool DescriptorParser::loopLine() {
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

bool DescriptorParser::varLine() {
  uint64_t Id;
  DescVar V;
  if (!number(MaxIndex, Id, "variable id") || !expr(V.Lo) || !expr(V.Hi) ||
      !endOfLine())
    return false;
  if (!VarLines.emplace(Id, std::make_pair(V, LineNo)).second)
    return fail("second var line for variable " + std::to_string(Id));
  return true;
}

bool DescriptorParser::accessLine(AccessKind Kind) {
  DescAccess A;
  A.Kind = Kind;
  if (!number(UINT64_MAX, A.Size, "access size"))
    return false;
  if (A.Size == 0)
    return fail("access size must not be 0");
  if (!expr(A.Base) || !expr(A.Offset))
    return false;
  while (!atEnd() && Toks[Pos] != "src") {
    if (Toks[Pos] == "every" && Kind == AccessKind::Write && !A.Every) {
      A.Every = true;
      ++Pos;
      continue;
    }
    if (Toks[Pos] != "when" || A.Every)
      return fail("unexpected '" + Toks[Pos] + "' at end of line");
    ++Pos;
    DescGuard G;
    if (!guard(G))
      return false;
    A.Guards.push_back(G);
  }
  if (!source(A))
    return false;
  Out.Accesses.push_back(A);
  AccessLines.push_back(LineNo);
  return true;
}

bool DescriptorParser::wholeAccessLine(AccessKind Kind) {
  DescAccess A;
  A.Kind = Kind;
  // readall names its base and may say where; readany has nothing more.
  if (Kind == AccessKind::ReadAll ? !expr(A.Base) || !source(A) : !endOfLine())
    return false;
  Out.Accesses.push_back(A);
  AccessLines.push_back(LineNo);
  return true;
}

bool DescriptorParser::reduceLine() {
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
        return fail("expected 'hetero-kernel 2'");
      // Version 1 is version 2 without its source lines and fields.
      if (Header.size() != 2 || (Header[1] != "1" && Header[1] != "2"))
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

bool KernelDescriptor::usesLoopVariable(ExprId Id) const {
  const DescExpr &E = expr(Id);
  if (E.Kind == ExprKind::Counter || E.Kind == ExprKind::Var)
    return true;
  for (ExprId Op : E.Ops)
    if (Op != NoExpr && usesLoopVariable(Op))
      return true;
  return false;
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
    return std::string("(") + exprOperatorName(E.Kind) + " " +
           exprToString(E.Ops[0]) + " " + exprToString(E.Ops[1]) + ")";
  }
}

} // namespace hetero

//===- KernelNames.cpp - Kernels as their source names them ---------------===//
#include "hetero/KernelNames.h"

#include <cctype>
#include <cstdlib>
#include <cstring>
#include <cxxabi.h>
#include <memory>

namespace hetero {

std::string functionOfDemangled(const std::string &Demangled) {
  std::string S = Demangled;
  // The parameter list: the last parenthesis at depth 0 and its match.
  size_t Close = S.rfind(')');
  if (Close != std::string::npos) {
    int Depth = 0;
    for (size_t I = Close + 1; I-- > 0;) {
      if (S[I] == ')')
        ++Depth;
      else if (S[I] == '(' && --Depth == 0) {
        S.erase(I);
        break;
      }
    }
  }
  // A return type (templates carry theirs): what precedes the last blank
  // outside parentheses and template arguments. An operator's name ("<",
  // "()", "new") is no bracket, and the blank after it none either.
  size_t Start = 0;
  int Paren = 0, Angle = 0;
  auto Word = [](char C) {
    return std::isalnum(static_cast<unsigned char>(C)) || C == '_';
  };
  for (size_t I = 0; I < S.size(); ++I) {
    if (S.compare(I, 8, "operator") == 0 && (I == 0 || !Word(S[I - 1])) &&
        (I + 8 == S.size() || !Word(S[I + 8]))) {
      I += 8;
      while (I < S.size() && S[I] == ' ')
        ++I;
      if (I < S.size() && Word(S[I]))
        while (I < S.size() && Word(S[I]))
          ++I;
      else
        while (I < S.size() && std::strchr("<>=!+-*/%^&|~[](),", S[I]))
          ++I;
      if (I < S.size() && S[I] == ' ')
        ++I;
      --I;
      continue;
    }
    switch (S[I]) {
    case '(':
      ++Paren;
      break;
    case ')':
      --Paren;
      break;
    case '<':
      ++Angle;
      break;
    case '>':
      --Angle;
      break;
    case ' ':
      if (Paren == 0 && Angle == 0)
        Start = I + 1;
      break;
    default:
      break;
    }
  }
  return S.substr(Start);
}

std::string kernelDisplayName(const std::string &Symbol,
                              const std::string &Source) {
  const std::string Prefix = "__omp_offloading_";
  if (Symbol.compare(0, Prefix.size(), Prefix) != 0)
    return Symbol;
  // Two hex fields, then the function, then "_l<line>".
  size_t At = Prefix.size();
  for (int Field = 0; Field < 2; ++Field) {
    size_t U = Symbol.find('_', At);
    if (U == std::string::npos)
      return Symbol;
    At = U + 1;
  }
  size_t L = Symbol.rfind("_l");
  if (L == std::string::npos || L < At || L + 2 >= Symbol.size())
    return Symbol;
  std::string Line = Symbol.substr(L + 2);
  for (char C : Line)
    if (!std::isdigit(static_cast<unsigned char>(C)))
      return Symbol;
  std::string Function = Symbol.substr(At, L - At);
  if (Function.compare(0, 2, "_Z") == 0) {
    int Err = 0;
    std::unique_ptr<char, void (*)(void *)> Demangled(
        abi::__cxa_demangle(Function.c_str(), nullptr, nullptr, &Err),
        std::free);
    if (Err == 0 && Demangled)
      Function = functionOfDemangled(Demangled.get());
  }
  return Function + "(...) " +
         (Source.empty() ? "line " + Line : "at " + Source);
}

} // namespace hetero

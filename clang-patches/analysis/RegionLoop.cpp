//===- RegionLoop.cpp - The worksharing loop of a target region -----------===//
//
// See RegionLoop.h: which nested directives make a target region one loop.
//
//===----------------------------------------------------------------------===//
#include "RegionLoop.h"

#include "clang/AST/StmtVisitor.h"
#include "clang/Basic/OpenMPKinds.h"

using namespace clang;
using llvm::omp::Directive;

namespace hetero {

const Stmt *stripCompound(const Stmt *S) {
  while (const auto *CS = dyn_cast_or_null<CompoundStmt>(S)) {
    if (CS->size() != 1)
      break;
    S = CS->body_front();
  }
  return S;
}

namespace {

/// What encloses the loop directive: it must distribute over the teams of
/// a teams region, share the threads of a parallel one, or (right inside a
/// target) create those itself.
enum class Context { Target, Teams, Parallel };

bool loopFits(Directive K, Context C) {
  using namespace llvm::omp;
  switch (C) {
  case Context::Teams:
    return K == OMPD_distribute || K == OMPD_distribute_parallel_for ||
           K == OMPD_distribute_parallel_for_simd ||
           K == OMPD_distribute_simd || K == OMPD_loop;
  case Context::Parallel:
    return K == OMPD_for || K == OMPD_for_simd || K == OMPD_loop;
  case Context::Target:
    return K == OMPD_teams_distribute ||
           K == OMPD_teams_distribute_parallel_for ||
           K == OMPD_teams_distribute_parallel_for_simd ||
           K == OMPD_teams_distribute_simd || K == OMPD_teams_loop ||
           K == OMPD_parallel_for || K == OMPD_parallel_for_simd ||
           K == OMPD_parallel_loop;
  }
  return false;
}

/// The body of a directive's region (the user's statement).
const Stmt *regionBody(const OMPExecutableDirective &D) {
  if (!D.hasAssociatedStmt())
    return nullptr;
  return stripCompound(D.getInnermostCapturedStmt()->getCapturedStmt());
}

bool containsLoopDirective(const Stmt *S) {
  return containsStmt(S,
                      [](const Stmt *X) { return isa<OMPLoopDirective>(X); });
}

} // namespace

bool containsStmt(const Stmt *S, llvm::function_ref<bool(const Stmt *)> Found,
                  llvm::function_ref<bool(const Stmt *)> Opaque) {
  if (!S || (Opaque && Opaque(S)))
    return false;
  if (Found(S))
    return true;
  for (const Stmt *C : S->children())
    if (containsStmt(C, Found, Opaque))
      return true;
  return false;
}

const OMPLoopDirective *
regionLoop(const OMPExecutableDirective &Target,
           std::vector<const OMPExecutableDirective *> &Levels,
           std::string &Why) {
  using namespace llvm::omp;
  Levels = {&Target};
  Context C;
  switch (Target.getDirectiveKind()) {
  case OMPD_target:
    C = Context::Target;
    break;
  case OMPD_target_teams:
    C = Context::Teams;
    break;
  case OMPD_target_parallel:
    C = Context::Parallel;
    break;
  default:
    Why = "not a loop construct";
    return nullptr;
  }
  const Stmt *Body = regionBody(Target);
  // target + teams + distribute ...: the teams region's body is the loop.
  if (const auto *Teams = dyn_cast_or_null<OMPTeamsDirective>(Body);
      Teams && C == Context::Target) {
    Levels.push_back(Teams);
    C = Context::Teams;
    Body = regionBody(*Teams);
  }
  const auto *Loop = dyn_cast_or_null<OMPLoopDirective>(Body);
  if (Loop && loopFits(Loop->getDirectiveKind(), C)) {
    Levels.push_back(Loop);
    return Loop;
  }
  if (Loop)
    Why = "the target region's loop is a '" +
          getOpenMPDirectiveName(Loop->getDirectiveKind()).str() +
          "' construct";
  else if (containsLoopDirective(Body))
    Why = "the target region holds code besides its worksharing loop";
  else
    Why = "no worksharing loop construct in the target region";
  return nullptr;
}

} // namespace hetero

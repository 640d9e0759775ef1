//===- RegionLoop.h - The worksharing loop of a target region ---*- C++ -*-===//
//
// Real codes write an offloaded loop as a combined construct (`target teams
// distribute parallel for`) or in parts, with clauses on any part:
//
//   target teams          + distribute [parallel for] [simd] | loop
//   target                + teams distribute [parallel for] [simd] | teams loop
//                         | parallel for [simd] | parallel loop
//   target + teams        + distribute [parallel for] [simd] | loop
//   target parallel       + for [simd] | loop
//
// Such a region is split like the combined construct when the worksharing
// loop construct is the region's whole body (braces around it allowed).
// Anything else (code before or after the loop, two loops, no loop) runs
// unsplit, with the reason.
//
//===----------------------------------------------------------------------===//
#ifndef HETERO_ANALYSIS_REGIONLOOP_H
#define HETERO_ANALYSIS_REGIONLOOP_H

#include "clang/AST/StmtOpenMP.h"
#include "llvm/ADT/STLFunctionalExtras.h"

#include <string>
#include <vector>

namespace hetero {

/// \p S without the braces of compound statements holding one statement.
const clang::Stmt *stripCompound(const clang::Stmt *S);

/// Whether \p S or a statement inside it is one \p Found accepts; what
/// \p Opaque accepts (a closure's body, say) is not looked into.
bool containsStmt(
    const clang::Stmt *S, llvm::function_ref<bool(const clang::Stmt *)> Found,
    llvm::function_ref<bool(const clang::Stmt *)> Opaque = nullptr);

/// The worksharing loop directive that is the whole body of the target
/// region \p Target (a target directive that is not a loop directive), with
/// every directive from \p Target down to it in \p Levels; null, with the
/// reason in \p Why, when there is none.
const clang::OMPLoopDirective *
regionLoop(const clang::OMPExecutableDirective &Target,
           std::vector<const clang::OMPExecutableDirective *> &Levels,
           std::string &Why);

} // namespace hetero

#endif // HETERO_ANALYSIS_REGIONLOOP_H

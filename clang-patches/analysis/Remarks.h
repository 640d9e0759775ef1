//===- Remarks.h - What the analysis decided, as clang remarks --*- C++ -*-===//
//
// Under clang's remark options, every offloaded loop of the host compile job
// (one report per loop, not one per device image) gets remarks at its
// directive, the way clang reports its optimisation decisions:
//
//   -Rpass=hetero           "hetero: loop split across the pool's members"
//   -Rpass-missed=hetero    "hetero: loop not split: <reasons>" (the reasons
//                           HETERO_STATS gives at run time, with locations)
//   -Rpass-analysis=hetero  one remark per section the kernel reads or
//                           writes (array, byte offset as an expression of
//                           the loop counters, size, guards), reduction,
//                           host-only or one-kind rule
//
// Each remark ends with the option that asked for it, like clang's own
// ("[-Rpass=hetero]"). Any regex the option is given that matches "hetero"
// selects them (-Rpass=.* too).
//
//===----------------------------------------------------------------------===//
#ifndef HETERO_ANALYSIS_REMARKS_H
#define HETERO_ANALYSIS_REMARKS_H

#include "KernelAnalysis.h"

#include "clang/AST/ASTContext.h"
#include "clang/Basic/CodeGenOptions.h"

namespace hetero {

/// Which remarks the command line asked for.
struct RemarkRequest {
  bool Passed = false, Missed = false, Analysis = false;
  static RemarkRequest from(const clang::CodeGenOptions &Opts);
  bool any() const { return Passed || Missed || Analysis; }
};

/// Reports the descriptor of the loop at Loc as the remarks R asks for.
void emitRemarks(clang::ASTContext &Ctx, clang::SourceLocation Loc,
                 const RemarkRequest &R, const KernelDescriptor &D,
                 const KernelAnalysis::SourceNames &Names);

/// Expression E of D in C-like infix, with the source names of arguments,
/// scalars and loop counters.
std::string sourceText(const KernelDescriptor &D, ExprId E,
                       const KernelAnalysis::SourceNames &Names);

} // namespace hetero

#endif // HETERO_ANALYSIS_REMARKS_H

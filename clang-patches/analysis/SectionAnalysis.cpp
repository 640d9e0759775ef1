//===- SectionAnalysis.cpp - The clang plugin of the section analysis -----===//
//
// Clang plugin (runs before code generation, in every compile job): for each
// target region (a combined target loop construct, or a target region whose
// body is one worksharing loop construct, RegionLoop.h) it runs the kernel
// analysis
// (KernelAnalysis.h) and records the descriptor's text for the loop-window
// pass of the same process (DescriptorRegistry.h), which puts it into the
// x86_64 device image. In the host compile job it also reports the
// analysis as remarks when -Rpass=hetero and its kin ask (Remarks.h).
//
//===----------------------------------------------------------------------===//
#include "DescriptorRegistry.h"
#include "KernelAnalysis.h"
#include "RegionLoop.h"
#include "Remarks.h"

#include "clang/AST/ASTConsumer.h"
#include "clang/AST/Mangle.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/AST/StmtOpenMP.h"
#include "clang/Basic/OpenMPKinds.h"
#include "clang/Frontend/CompilerInstance.h"
#include "clang/Frontend/FrontendPluginRegistry.h"
#include "llvm/Support/Path.h"

using namespace clang;

namespace hetero {
namespace {

/// The descriptor's text, read back with the runtime's own parser first: a
/// descriptor the runtime would read differently is never written; the
/// kernel then runs unsplit, and a warning says so at the directive
/// (HETERO_DESC_STRICT=1, as the lit suite sets it: an error).
std::string checkedText(const KernelDescriptor &D, ASTContext &Ctx,
                        SourceLocation Loc) {
  std::string Text = writeDescriptor(D), Err;
  KernelDescriptor Back;
  if (KernelDescriptor::parse(Text, Back, Err) && equivalent(D, Back))
    return Text;
  DiagnosticsEngine &Diags = Ctx.getDiagnostics();
  const char *Strict = getenv("HETERO_DESC_STRICT");
  unsigned Id = Diags.getCustomDiagID(
      Strict && *Strict == '1' ? DiagnosticsEngine::Error
                               : DiagnosticsEngine::Warning,
      "hetero: this loop's descriptor does not read back (%0); it runs "
      "unsplit");
  Diags.Report(Loc, Id) << (Err.empty() ? std::string("read differently")
                                        : Err);
  KernelDescriptor Refused;
  Refused.refuse("descriptor does not read back");
  return writeDescriptor(Refused);
}

class Visitor : public RecursiveASTVisitor<Visitor> {
public:
  Visitor(ASTContext &Ctx, RemarkRequest Remarks)
      : Ctx(Ctx), Names(std::make_unique<ASTNameGenerator>(Ctx)),
        Remarks(Remarks) {}
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
    if (!isOpenMPTargetExecutionDirective(E->getDirectiveKind()) ||
        Functions.empty())
      return true;
    const FunctionDecl *FD = Functions.back();
    if (FD->isDependentContext())
      return true;
    std::string Parent = Names->getName(FD);
    // The kernel is named after the target directive's line.
    PresumedLoc PLoc = Ctx.getSourceManager().getPresumedLoc(E->getBeginLoc());
    if (PLoc.isInvalid())
      return true;
    KernelDescriptor Desc;
    KernelAnalysis::SourceNames SourceNames;
    if (const auto *Combined = dyn_cast<OMPLoopDirective>(E)) {
      KernelAnalysis A(Ctx, *Combined);
      Desc = A.run();
      SourceNames = A.names();
    } else {
      std::vector<const OMPExecutableDirective *> Levels;
      std::string Why;
      if (const OMPLoopDirective *Loop = regionLoop(*E, Levels, Why)) {
        KernelAnalysis A(Ctx, *E, *Loop, std::move(Levels));
        Desc = A.run();
        SourceNames = A.names();
      } else {
        Desc.refuse(Why);
      }
    }
    Desc.setSource(llvm::sys::path::filename(PLoc.getFilename()).str() + ":" +
                   std::to_string(PLoc.getLine()));
    recordDescriptor(kernelKey(Parent, PLoc.getLine()),
                     checkedText(Desc, Ctx, E->getBeginLoc()));
    // Once per loop: the host job sees every target region, as each
    // device job does.
    if (Remarks.any() && !Ctx.getLangOpts().OpenMPIsTargetDevice)
      emitRemarks(Ctx, E->getBeginLoc(), Remarks, Desc, SourceNames);
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
  RemarkRequest Remarks;
};

class Consumer : public ASTConsumer {
public:
  explicit Consumer(RemarkRequest Remarks) : Remarks(Remarks) {}
  void HandleTranslationUnit(ASTContext &Ctx) override {
    if (!Ctx.getLangOpts().OpenMP)
      return;
    noteAnalysisRan();
    Visitor V(Ctx, Remarks);
    V.TraverseDecl(Ctx.getTranslationUnitDecl());
  }

private:
  RemarkRequest Remarks;
};

class SectionAnalysisAction : public PluginASTAction {
protected:
  std::unique_ptr<ASTConsumer> CreateASTConsumer(CompilerInstance &CI,
                                                 llvm::StringRef) override {
    return std::make_unique<Consumer>(RemarkRequest::from(CI.getCodeGenOpts()));
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

//===- SectionAnalysis.cpp - The clang plugin of the section analysis -----===//
//
// Clang plugin (runs before code generation, in every compile job): for each
// target region (a combined target loop construct, or a target region whose
// body is one worksharing loop construct, RegionLoop.h) it runs the kernel
// analysis
// (KernelAnalysis.h) and records the descriptor's text for the loop-window
// pass of the same process (DescriptorRegistry.h), which puts it into the
// x86_64 device image.
//
//===----------------------------------------------------------------------===//
#include "DescriptorRegistry.h"
#include "KernelAnalysis.h"
#include "RegionLoop.h"

#include "clang/AST/ASTConsumer.h"
#include "clang/AST/Mangle.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/AST/StmtOpenMP.h"
#include "clang/Basic/OpenMPKinds.h"
#include "clang/Frontend/CompilerInstance.h"
#include "clang/Frontend/FrontendPluginRegistry.h"

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
    if (const auto *Combined = dyn_cast<OMPLoopDirective>(E)) {
      Desc = KernelAnalysis(Ctx, *Combined).run();
    } else {
      std::vector<const OMPExecutableDirective *> Levels;
      std::string Why;
      if (const OMPLoopDirective *Loop = regionLoop(*E, Levels, Why))
        Desc = KernelAnalysis(Ctx, *E, *Loop, std::move(Levels)).run();
      else
        Desc.refuse(Why);
    }
    recordDescriptor(kernelKey(Parent, PLoc.getLine()),
                     checkedText(Desc, Ctx, E->getBeginLoc()));
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

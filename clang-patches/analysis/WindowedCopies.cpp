//===- WindowedCopies.cpp - The windowed kernels, compiled apart ----------===//
//
// Why the copies are a module of their own, and what it shares with the
// device module: WindowedCopies.h.
//
//===----------------------------------------------------------------------===//
#include "WindowedCopies.h"

#include "hetero/CompilerAbi.h"

#include "llvm/IR/Constants.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Instructions.h"
#include "llvm/Linker/Linker.h"
#include "llvm/Passes/PassBuilder.h"
#include "llvm/TargetParser/Triple.h"
#include "llvm/Transforms/Utils/Cloning.h"

#include <map>
#include <mutex>
#include <set>

using namespace llvm;

namespace hetero {
namespace {

std::mutex Mutex;
/// The copies' modules being optimised, and the optimised ones waiting for
/// the end of their device module's pipeline.
std::set<const Module *> InPipeline;
std::map<const Module *, std::unique_ptr<Module>> Held;

GlobalVariable *kernelEnvironment(Function &Kernel) {
  for (Instruction &I : instructions(Kernel))
    if (auto *CB = dyn_cast<CallBase>(&I))
      if (Function *Callee = CB->getCalledFunction())
        if (Callee->getName() == "__kmpc_target_init")
          return dyn_cast<GlobalVariable>(
              CB->getArgOperand(0)->stripPointerCasts());
  return nullptr;
}

} // namespace

WindowedCopies WindowedCopies::cloneDeviceModule(Module &M,
                                                 ValueToValueMapTy &VMap) {
  return WindowedCopies(CloneModule(M, VMap));
}

void WindowedCopies::adoptCopy(Function &Kernel) {
  Kernel.setName(abi::windowedKernelSymbol(Kernel.getName().str()));
  // The cuda plugin reads <kernel>_kernel_environment.
  if (GlobalVariable *Env = kernelEnvironment(Kernel)) {
    Env->setName(Kernel.getName() + "_kernel_environment");
    OwnEnvironments.insert(Env);
  }
  // An entry point by its calling convention, not only by its
  // nvvm.annotations: NVPTX caches annotations per function object, and a
  // copy linked in after the device module's pipeline was, now and then,
  // taken for a device function (a stale entry for a freed function).
  if (Triple(Kernel.getParent()->getTargetTriple()).isNVPTX())
    Kernel.setCallingConv(CallingConv::PTX_Kernel);
  Adopted.push_back(&Kernel);
}

GlobalVariable *WindowedCopies::declare(const GlobalVariable &Window) {
  auto *G = new GlobalVariable(
      *Copies, Window.getValueType(),
      /*Const=*/false, GlobalValue::ExternalLinkage, nullptr, Window.getName(),
      nullptr, GlobalValue::NotThreadLocal, Window.getAddressSpace());
  G->setAlignment(Window.getAlign());
  return G;
}

void WindowedCopies::strip() {
  SmallPtrSet<const Function *, 8> Keep(Adopted.begin(), Adopted.end());
  // The copies' entry-point annotations only; the offload entries' metadata
  // and the used lists stay M's.
  if (NamedMDNode *Notes = Copies->getNamedMetadata("nvvm.annotations")) {
    SmallVector<MDNode *, 8> Mine;
    for (MDNode *N : Notes->operands())
      if (N->getNumOperands() > 0)
        if (auto *V = dyn_cast_or_null<ValueAsMetadata>(N->getOperand(0)))
          if (auto *F = dyn_cast<Function>(V->getValue()); F && Keep.count(F))
            Mine.push_back(N);
    Notes->clearOperands();
    for (MDNode *N : Mine)
      Notes->addOperand(N);
  }
  if (NamedMDNode *Info = Copies->getNamedMetadata("omp_offload.info"))
    Copies->eraseNamedMetadata(Info);
  for (const char *Used : {"llvm.used", "llvm.compiler.used"})
    if (GlobalVariable *G = Copies->getGlobalVariable(Used))
      G->eraseFromParent();

  SmallVector<Function *, 8> Dropped;
  for (Function &F : *Copies) {
    if (F.isDeclaration() || Keep.count(&F))
      continue;
    if (isOffloadKernel(F)) {
      F.deleteBody();
      Dropped.push_back(&F);
    } else if (!F.hasLocalLinkage()) {
      F.setLinkage(GlobalValue::InternalLinkage);
      F.setVisibility(GlobalValue::DefaultVisibility);
      F.setComdat(nullptr);
    }
  }
  for (Function *F : Dropped)
    if (F->use_empty())
      F->eraseFromParent();
  for (GlobalVariable &G : Copies->globals()) {
    if (G.isDeclaration() || G.hasLocalLinkage() || OwnEnvironments.count(&G))
      continue;
    G.setComdat(nullptr);
    if (G.isConstant() && !G.isInterposable()) {
      // M's definition; its value may still be folded into the copies.
      G.setLinkage(GlobalValue::AvailableExternallyLinkage);
    } else {
      G.setInitializer(nullptr);
      G.setLinkage(GlobalValue::ExternalLinkage);
    }
  }
}

void WindowedCopies::finish(Module &M, PassBuilder &PB,
                            OptimizationLevel Level) {
  if (Adopted.empty())
    return;
  strip();
  {
    std::lock_guard<std::mutex> Lock(Mutex);
    InPipeline.insert(Copies.get());
  }
  // The device module's own pipeline (same target, level and tuning); the
  // pass skips this module when the pipeline's start runs it.
  LoopAnalysisManager LAM;
  FunctionAnalysisManager FAM;
  CGSCCAnalysisManager CGAM;
  ModuleAnalysisManager MAM;
  PB.registerModuleAnalyses(MAM);
  PB.registerCGSCCAnalyses(CGAM);
  PB.registerFunctionAnalyses(FAM);
  PB.registerLoopAnalyses(LAM);
  PB.crossRegisterProxies(LAM, FAM, CGAM, MAM);
  ModulePassManager MPM = Level == OptimizationLevel::O0
                              ? PB.buildO0DefaultPipeline(Level)
                              : PB.buildPerModuleDefaultPipeline(Level);
  MPM.run(*Copies, MAM);
  std::lock_guard<std::mutex> Lock(Mutex);
  InPipeline.erase(Copies.get());
  Held[&M] = std::move(Copies);
}

bool WindowedCopies::isCopiesModule(const Module &M) {
  std::lock_guard<std::mutex> Lock(Mutex);
  return InPipeline.count(&M) != 0;
}

PreservedAnalyses LinkWindowedCopies::run(Module &M, ModuleAnalysisManager &) {
  std::unique_ptr<Module> Copies;
  {
    std::lock_guard<std::mutex> Lock(Mutex);
    auto It = Held.find(&M);
    if (It == Held.end())
      return PreservedAnalyses::all();
    Copies = std::move(It->second);
    Held.erase(It);
  }
  if (Linker::linkModules(M, std::move(Copies)))
    M.getContext().emitError(
        "hetero: the windowed kernels could not be linked into " +
        M.getSourceFileName());
  return PreservedAnalyses::none();
}

} // namespace hetero

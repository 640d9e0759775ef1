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
  // The used lists, constructors and the like are M's.
  for (GlobalVariable &G : make_early_inc_range(Copies->globals()))
    if (G.hasAppendingLinkage())
      G.eraseFromParent();

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

namespace {

/// Moves the copies' functions and variables into M, whose clone Copies is
/// (same context, so the same types). What Copies only names (declarations,
/// M's constants kept for folding) becomes M's own value; the rest moves
/// as is. Not llvm::Linker: it creates new function and variable objects
/// and recreates M's variables that the copies name, which reorders M's
/// variables (the PTX's module-scope order decides the kernels' shared
/// memory offsets, and NVPTX orders what a variable refers to by pointer
/// value, so the PTX differed from build to build), and a function object
/// created this late can take the address of one M's pipeline freed, whose
/// NVPTX annotations are cached by address (a copy then lost .maxntid).
/// Every object moved here was created before M's pipeline began.
/// A local constant whose address nobody compares, the same in M and the
/// copies (the runtime's source locations), becomes M's: ConstantMerge,
/// after the device module's optimisation, would otherwise keep the copies'
/// one and drop M's, moving what M's kernels refer to behind M's own
/// variables.
bool mergeable(const GlobalVariable &G) {
  return G.hasLocalLinkage() && G.isConstant() && G.hasInitializer() &&
         G.hasGlobalUnnamedAddr() && !G.hasSection() && !G.hasComdat() &&
         !G.isThreadLocal();
}

void mergeSameConstants(Module &M, Module &Copies) {
  std::map<std::pair<const Constant *, unsigned>, GlobalVariable *> Mine;
  for (GlobalVariable &G : M.globals())
    if (mergeable(G))
      Mine.try_emplace({G.getInitializer(), G.getAddressSpace()}, &G);
  // A merge changes the initializers that refer to the merged constant (an
  // ident refers to its string): repeat until nothing merges.
  for (bool Merged = true; Merged;) {
    Merged = false;
    for (GlobalVariable &G : make_early_inc_range(Copies.globals())) {
      if (!mergeable(G))
        continue;
      auto It = Mine.find({G.getInitializer(), G.getAddressSpace()});
      if (It == Mine.end() || It->second->getValueType() != G.getValueType() ||
          It->second->getAlign() != G.getAlign())
        continue;
      G.replaceAllUsesWith(It->second);
      G.eraseFromParent();
      Merged = true;
    }
  }
}

void moveInto(Module &M, Module &Copies) {
  auto ResolvesToM = [&](GlobalValue &GV) {
    if (!GV.isDeclaration() && !GV.hasAvailableExternallyLinkage())
      return false;
    GlobalValue *Mine = M.getNamedValue(GV.getName());
    if (Mine && Mine->getType() == GV.getType()) {
      GV.replaceAllUsesWith(Mine);
      return true;
    }
    // Gone from M (M's pipeline dropped a constant it no longer used): the
    // copies keep their own.
    if (GV.hasAvailableExternallyLinkage())
      GV.setLinkage(GlobalValue::PrivateLinkage);
    return false;
  };
  for (GlobalVariable &G : make_early_inc_range(Copies.globals()))
    if (ResolvesToM(G))
      G.eraseFromParent();
  for (Function &F : make_early_inc_range(Copies))
    if (ResolvesToM(F))
      F.eraseFromParent();
  mergeSameConstants(M, Copies);
  while (!Copies.global_empty()) {
    GlobalVariable &G = *Copies.global_begin();
    G.removeFromParent();
    M.insertGlobalVariable(&G);
  }
  while (!Copies.empty()) {
    Function &F = *Copies.begin();
    F.removeFromParent();
    M.getFunctionList().push_back(&F);
  }
  // The copies' entry-point annotations, and their debug info's units.
  for (const char *Name : {"nvvm.annotations", "llvm.dbg.cu"})
    if (NamedMDNode *From = Copies.getNamedMetadata(Name)) {
      NamedMDNode *To = M.getOrInsertNamedMetadata(Name);
      SmallPtrSet<MDNode *, 8> Present(To->op_begin(), To->op_end());
      for (MDNode *N : From->operands())
        if (Present.insert(N).second)
          To->addOperand(N);
    }
}

} // namespace

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
  moveInto(M, *Copies);
  return PreservedAnalyses::none();
}

} // namespace hetero

//===- LoopWindowPass.cpp - Give offloaded loops an iteration window ------===//
//
// LLVM pass plugin, run on the device modules of -fopenmp-targets=hetero
// (NVPTX and x86_64). For every offloaded kernel whose loop it can window:
//
//   - adds a global  <kernel>_hetero_window = { i64 lo, i64 hi, i64 active }
//     (hetero/CompilerAbi.h)
//     and a copy of the kernel, <kernel>_hetero_windowed, that, before the
//     outermost worksharing loop's bounds are handed to the OpenMP runtime
//     (__kmpc_distribute_static_init / __kmpc_for_static_init with a
//     distribute schedule, or the only worksharing loop of a kernel without
//     distribute), clamps the normalized bounds [lb, ub] to [lo, hi - 1]
//     when active is non-zero. With active == 0 (its initial value) the copy
//     does what the kernel does. The copies are compiled apart and linked in
//     at the end (WindowedCopies.h): the kernels stay plain clang's, so the
//     same binary runs plain clang's code under the stock plugins;
//   - stores the section analysis' descriptor as <kernel>_hetero_desc (a
//     NUL-terminated string, x86_64 image only: the runtime reads it there).
//
// A kernel whose loop cannot be windowed gets no window global, and its
// descriptor says why; the runtime then runs it unsplit.
//
//===----------------------------------------------------------------------===//
#include "DescriptorRegistry.h"
#include "WindowedCopies.h"

#include "hetero/CompilerAbi.h"
#include "hetero/KernelDescriptor.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SetVector.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/Dominators.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/IR/Module.h"
#include "llvm/IR/PassManager.h"
#include "llvm/Passes/PassBuilder.h"
#include "llvm/Passes/PassPlugin.h"
#include "llvm/Support/raw_ostream.h"
#include "llvm/TargetParser/Triple.h"
#include "llvm/Transforms/Utils/ModuleUtils.h"

#include <optional>

using namespace llvm;

namespace hetero {
namespace {

// kmp_sched_type values (openmp/runtime/src/kmp.h).
constexpr int64_t DistributeStaticChunked = 91;
constexpr int64_t DistributeStatic = 92;

/// "__omp_offloading_<dev>_<file>_<parent>_l<line>" -> parent, line.
bool parseKernelName(StringRef Name, std::string &Parent, unsigned &Line) {
  if (!Name.consume_front("__omp_offloading_"))
    return false;
  for (int Field = 0; Field < 2; ++Field) {
    size_t U = Name.find('_');
    if (U == StringRef::npos)
      return false;
    Name = Name.drop_front(U + 1);
  }
  size_t L = Name.rfind("_l");
  if (L == StringRef::npos || Name.drop_front(L + 2).getAsInteger(10, Line))
    return false;
  Parent = Name.take_front(L).str();
  return true;
}

struct InitCall {
  CallInst *Call;
  bool ByValue; // __kmpc_dispatch_init_*: bounds are values, not pointers
  bool Signed;
};

/// Worksharing init calls reachable from the kernel: distribute ones and the
/// others.
void findInitCalls(Function &Kernel, SmallVectorImpl<InitCall> &Dist,
                   SmallVectorImpl<InitCall> &For) {
  SetVector<Function *> Work;
  Work.insert(&Kernel);
  for (size_t I = 0; I < Work.size(); ++I) {
    for (Instruction &Inst : instructions(*Work[I])) {
      auto *CB = dyn_cast<CallBase>(&Inst);
      if (!CB)
        continue;
      // Outlined regions are passed to the runtime as function pointers.
      for (Value *Op : CB->operands())
        if (auto *F = dyn_cast<Function>(Op->stripPointerCasts()))
          if (!F->isDeclaration())
            Work.insert(F);
      Function *Callee = CB->getCalledFunction();
      auto *Call = dyn_cast<CallInst>(CB);
      if (!Callee || !Call)
        continue;
      StringRef N = Callee->getName();
      bool Signed = !N.ends_with("u");
      if (N.starts_with("__kmpc_distribute_static_init_")) {
        Dist.push_back({Call, false, Signed});
      } else if (N.starts_with("__kmpc_for_static_init_")) {
        auto *Sched = dyn_cast<ConstantInt>(Call->getArgOperand(2));
        bool IsDist =
            Sched && (Sched->getSExtValue() == DistributeStatic ||
                      Sched->getSExtValue() == DistributeStaticChunked);
        (IsDist ? Dist : For).push_back({Call, false, Signed});
      } else if (N.starts_with("__kmpc_dispatch_init_")) {
        For.push_back({Call, true, Signed});
      } else if (N.starts_with("__kmpc_dist_for_static_init") ||
                 N.starts_with("__kmpc_dist_dispatch_init")) {
        // Not emitted by clang 19; make the kernel unwindowable if it is.
        Dist.push_back({Call, false, Signed});
        Dist.push_back({Call, false, Signed});
      }
    }
  }
}

/// The window's bound in the loop counter's type. The window lies in the
/// loop's own iteration space, so it fits; comparing at the counter's width
/// keeps a 32-bit loop's arithmetic 32-bit (widened, it cost a streaming
/// kernel 3% on an H100).
Value *narrowBound(IRBuilder<> &B, Value *Bound, Type *Ty) {
  return B.CreateTrunc(Bound, Ty);
}

Value *clampValue(IRBuilder<> &B, Value *V, Value *Bound, bool Signed,
                  bool Lower) {
  Value *To = narrowBound(B, Bound, V->getType());
  Value *Take =
      Lower ? (Signed ? B.CreateICmpSGT(To, V) : B.CreateICmpUGT(To, V))
            : (Signed ? B.CreateICmpSLT(To, V) : B.CreateICmpULT(To, V));
  return B.CreateSelect(Take, To, V);
}

/// The window as read at the builder's position.
struct WindowValues {
  Value *Lo, *Last, *Active;
};

/// The window, read once at the entry of F. The plugin writes it only
/// between launches, so the loads are invariant: a kernel that stores to
/// global memory in its loop does not read the window again per iteration
/// (on NVPTX they become read-only-cache loads).
WindowValues loadWindow(Function &F, GlobalVariable *Window) {
  IRBuilder<> B(&*F.getEntryBlock().getFirstInsertionPt());
  Type *I64 = B.getInt64Ty();
  MDNode *Invariant = MDNode::get(F.getContext(), {});
  auto Field = [&](unsigned I, const char *Name) {
    LoadInst *L =
        B.CreateLoad(I64, B.CreateConstInBoundsGEP1_64(I64, Window, I), Name);
    L->setMetadata(LLVMContext::MD_invariant_load, Invariant);
    return L;
  };
  Value *Lo = Field(abi::WindowLo, "hetero.lo");
  Value *Hi = Field(abi::WindowHi, "hetero.hi");
  Value *Active = B.CreateICmpNE(Field(abi::WindowActive, ""),
                                 ConstantInt::get(I64, 0), "hetero.active");
  return {Lo, B.CreateSub(Hi, ConstantInt::get(I64, 1)), Active};
}

/// V, clamped to the window (Lower: at least lo, else at most hi - 1) when
/// the window is active.
Value *clampIfActive(IRBuilder<> &B, const WindowValues &W, Value *V,
                     bool Signed, bool Lower) {
  return B.CreateSelect(
      W.Active, clampValue(B, V, Lower ? W.Lo : W.Last, Signed, Lower), V);
}

/// Redirects the uses of every load of Ptr's Ty value in F (but Skip) to
/// what Make builds right after the load; Make may decline (nullptr).
void redirectLoads(Function &F, Value *Ptr, Type *Ty, LoadInst *Skip,
                   function_ref<Value *(IRBuilder<> &, LoadInst *)> Make) {
  Value *Base = Ptr->stripPointerCasts();
  SmallVector<LoadInst *, 8> Loads;
  for (Instruction &I : instructions(F))
    if (auto *L = dyn_cast<LoadInst>(&I))
      if (L != Skip && L->getPointerOperand()->stripPointerCasts() == Base &&
          L->getType() == Ty)
        Loads.push_back(L);
  for (LoadInst *L : Loads) {
    // The uses to redirect, taken before the new value adds its own.
    SmallVector<Use *, 4> Uses;
    for (Use &U : L->uses())
      Uses.push_back(&U);
    IRBuilder<> After(L->getNextNode());
    if (Value *V = Make(After, L))
      for (Use *U : Uses)
        U->set(V);
  }
}

/// Clamps the call's [lb, ub] to the window when the window is active.
void clampToWindow(const InitCall &IC, GlobalVariable *Window) {
  IRBuilder<> B(IC.Call);
  WindowValues W = loadWindow(*IC.Call->getFunction(), Window);
  unsigned LbArg = IC.ByValue ? 3 : 4, UbArg = IC.ByValue ? 4 : 5;
  if (IC.ByValue) {
    Value *Lb = IC.Call->getArgOperand(LbArg);
    Value *Ub = IC.Call->getArgOperand(UbArg);
    IC.Call->setArgOperand(LbArg, clampIfActive(B, W, Lb, IC.Signed, true));
    IC.Call->setArgOperand(UbArg, clampIfActive(B, W, Ub, IC.Signed, false));
    return;
  }
  // The bounds' type is the init function's: i32 for _4/_4u, i64 for _8/_8u.
  Type *Ty = IC.Call->getCalledFunction()->getName().contains("_8")
                 ? B.getInt64Ty()
                 : B.getInt32Ty();
  Value *PLb = IC.Call->getArgOperand(LbArg);
  Value *PUb = IC.Call->getArgOperand(UbArg);
  LoadInst *Lb = B.CreateLoad(Ty, PLb);
  auto *Ub = B.CreateLoad(Ty, PUb);
  B.CreateStore(clampIfActive(B, W, Lb, IC.Signed, true), PLb);
  B.CreateStore(clampIfActive(B, W, Ub, IC.Signed, false), PUb);
  // Chunked schedules step [lb, ub] by the stride and bound it by the loop's
  // own last iteration, not by the ub handed to the runtime: every later read
  // of ub is clamped too, so no chunk runs past the window.
  Function &F = *IC.Call->getFunction();
  redirectLoads(F, PUb, Ty, Ub, [&](IRBuilder<> &After, LoadInst *L) {
    return clampIfActive(After, W, L, IC.Signed, false);
  });
  // They also test the next lb against the loop's own iteration count, so a
  // team whose lb has stepped past the window would still enter the loop
  // body once per stride up to the whole loop's end, as an empty parallel
  // region each time: a GPU team of 128 iterations then spent a quarter of
  // its time on them in every chunk but the last. A read of lb past the
  // window gives the loop's end instead (the ub handed in, plus one), where
  // the loop stops as it would have after its last stride.
  DominatorTree DT(F);
  Value *End = B.CreateAdd(Ub, ConstantInt::get(Ty, 1), "hetero.end");
  redirectLoads(
      F, PLb, Ty, Lb, [&](IRBuilder<> &After, LoadInst *L) -> Value * {
        if (!DT.dominates(IC.Call, L))
          return nullptr; // the lb the loop starts from is set by the call
        Value *Last = narrowBound(After, W.Last, Ty);
        Value *Past = IC.Signed ? After.CreateICmpSGT(L, Last)
                                : After.CreateICmpUGT(L, Last);
        return After.CreateSelect(After.CreateAnd(W.Active, Past), End, L);
      });
}

/// `a * b + c` in one expression is an llvm.fmuladd (clang's default
/// -ffp-contract=on), which a target may fuse or not: NVPTX fuses, x86_64
/// without FMA does not. Every member must round an iteration the same way,
/// so the device images fuse all of them (the x86_64 image is built with
/// -mfma by the clang entry points; the plugin checks the CPU has FMA).
bool fuseMultiplyAdds(Module &M) {
  SmallVector<IntrinsicInst *, 16> Calls;
  for (Function &F : M)
    for (Instruction &I : instructions(F))
      if (auto *II = dyn_cast<IntrinsicInst>(&I))
        if (II->getIntrinsicID() == Intrinsic::fmuladd)
          Calls.push_back(II);
  for (IntrinsicInst *II : Calls) {
    IRBuilder<> B(II);
    CallInst *Fma = B.CreateIntrinsic(
        Intrinsic::fma, {II->getType()},
        {II->getArgOperand(0), II->getArgOperand(1), II->getArgOperand(2)});
    Fma->copyFastMathFlags(II);
    Fma->takeName(II);
    II->replaceAllUsesWith(Fma);
    II->eraseFromParent();
  }
  return !Calls.empty();
}

GlobalVariable *addGlobal(Module &M, const std::string &Name, Constant *Init,
                          bool Const) {
  unsigned AS = M.getDataLayout().getDefaultGlobalsAddressSpace();
  if (Triple(M.getTargetTriple()).isNVPTX())
    AS = 1; // global memory: the plugin finds it with cuModuleGetGlobal
  auto *G = new GlobalVariable(M, Init->getType(), Const,
                               GlobalValue::ExternalLinkage, Init, Name,
                               nullptr, GlobalValue::NotThreadLocal, AS);
  G->setVisibility(GlobalValue::ProtectedVisibility);
  appendToUsed(M, {G});
  return G;
}

struct LoopWindowPass : PassInfoMixin<LoopWindowPass> {
  LoopWindowPass(PassBuilder &PB, OptimizationLevel Level)
      : PB(PB), Level(Level) {}

  PreservedAnalyses run(Module &M, ModuleAnalysisManager &) {
    if (!M.getModuleFlag("openmp-device") || WindowedCopies::isCopiesModule(M))
      return PreservedAnalyses::all();
    bool HostImage = Triple(M.getTargetTriple()).isX86();
    bool Changed = fuseMultiplyAdds(M);
    std::vector<Function *> Kernels;
    for (Function &F : M)
      if (!F.isDeclaration() && isOffloadKernel(F))
        Kernels.push_back(&F);
    // Said once per device image, from the x86_64 one (the NVPTX ones are
    // compiled the same way).
    bool Analysed = analysisRan();
    if (!Analysed && HostImage && !Kernels.empty())
      errs() << "hetero: warning: " << M.getSourceFileName()
             << ": the offloaded loops run unsplit: their analysis did not "
                "run in this compiler process (-save-temps compiles the "
                "source and its IR in separate processes)\n";
    struct KernelPlan {
      Function *K;
      KernelDescriptor Desc;
      std::optional<InitCall> Target;
    };
    std::vector<KernelPlan> Plans;
    for (Function *K : Kernels) {
      std::string Parent, Text, Err;
      unsigned Line;
      if (!parseKernelName(K->getName(), Parent, Line))
        continue;
      KernelPlan P{K, {}, std::nullopt};
      if (!Analysed)
        P.Desc.refuse("compiled without hetero's analysis (-save-temps)");
      else if (!lookupDescriptor(kernelKey(Parent, Line), Text) ||
               !KernelDescriptor::parse(Text, P.Desc, Err))
        P.Desc.refuse("not a combined loop construct");
      SmallVector<InitCall, 2> Dist, For;
      findInitCalls(*K, Dist, For);
      if (Dist.size() == 1)
        P.Target = Dist[0];
      else if (Dist.empty() && For.size() == 1)
        P.Target = For[0];
      if (P.Desc.splittable() && !P.Target)
        P.Desc.refuse("loop bounds not found in the device code");
      Plans.push_back(std::move(P));
    }
    // The copies are cloned from the module as clang made it (but for the
    // fused multiply-adds, which they share).
    ValueToValueMapTy VMap;
    std::optional<WindowedCopies> Copies;
    if (any_of(Plans, [](const KernelPlan &P) { return P.Desc.splittable(); }))
      Copies.emplace(WindowedCopies::cloneDeviceModule(M, VMap));
    for (KernelPlan &P : Plans) {
      if (P.Desc.splittable()) {
        Type *I64 = Type::getInt64Ty(M.getContext());
        GlobalVariable *W = addGlobal(
            M, abi::windowSymbol(P.K->getName().str()),
            ConstantAggregateZero::get(ArrayType::get(I64, abi::WindowFields)),
            /*Const=*/false);
        // Known to the copies (which only declare it) as aligned enough to
        // read lo and hi in one load.
        W->setAlignment(Align(16));
        InitCall InCopy = *P.Target;
        InCopy.Call = cast<CallInst>(VMap[P.Target->Call]);
        clampToWindow(InCopy, Copies->declare(*W));
        Copies->adoptCopy(*cast<Function>(VMap[P.K]));
      }
      if (HostImage)
        addGlobal(M, abi::descriptorSymbol(P.K->getName().str()),
                  ConstantDataArray::getString(M.getContext(),
                                               writeDescriptor(P.Desc)),
                  /*Const=*/true);
      Changed = true;
    }
    if (Copies)
      Copies->finish(M, PB, Level);
    return Changed ? PreservedAnalyses::none() : PreservedAnalyses::all();
  }

private:
  PassBuilder &PB;
  OptimizationLevel Level;
};

} // namespace
} // namespace hetero

extern "C" LLVM_ATTRIBUTE_WEAK PassPluginLibraryInfo llvmGetPassPluginInfo() {
  return {LLVM_PLUGIN_API_VERSION, "hetero-loop-window", "1",
          [](PassBuilder &PB) {
            PB.registerPipelineStartEPCallback(
                [&PB](ModulePassManager &MPM, OptimizationLevel Level) {
                  MPM.addPass(hetero::LoopWindowPass(PB, Level));
                });
            PB.registerOptimizerLastEPCallback(
                [](ModulePassManager &MPM, OptimizationLevel) {
                  MPM.addPass(hetero::LinkWindowedCopies());
                });
          }};
}

//===- LoopWindowPass.cpp - Give offloaded loops an iteration window ------===//
//
// LLVM pass plugin, run on the device modules of -fopenmp-targets=hetero
// (NVPTX and x86_64). For every offloaded kernel whose loop it can window:
//
//   - gives the kernel a loop window (hetero/CompilerAbi.h): on NVPTX, where
//     the kernel reaches its loop through direct calls, two parameters after
//     the kernel's own (i64 first, i64 last), passed down those calls and
//     marked by <kernel>_hetero_window_params; else a global
//     <kernel>_hetero_window = { i64 lo, i64 hi, i64 active } that the
//     plugin writes;
//   - adds a copy of the kernel, <kernel>_hetero_windowed, that, before the
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

#include <map>
#include <optional>
#include <tuple>

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

/// The window as the copy has it at the entry of the function that starts
/// its loop: parameters, or loads of the window global.
struct WindowFields {
  Value *Lo;     // the first iteration
  Value *Last;   // the last iteration
  Value *Active; // i64, 0: no window (every iteration); nullptr: always on
};

/// The window, folded with its active flag into the bounds a clamp takes,
/// per counter type: a clamp is then one min or max, and a kernel keeps one
/// bound live across its loop, not the window and its flag (two more
/// registers cost a 2-D Jacobi on an H200 an occupancy step).
class WindowBounds {
public:
  WindowBounds(Instruction *At, const WindowFields &W)
      : Entry(At), Lo(W.Lo), Last(W.Last) {
    if (W.Active)
      Active = Entry.CreateICmpNE(
          W.Active, ConstantInt::get(W.Active->getType(), 0), "hetero.active");
  }

  /// The least first iteration in Ty: lo while active (always, without an
  /// active flag), else Ty's least.
  Value *first(Type *Ty, bool Signed) {
    return folded(Ty, Signed, /*Lower=*/true);
  }
  /// The greatest last iteration in Ty: hi - 1 while active, else Ty's
  /// greatest, so that clamping to it changes nothing.
  Value *last(Type *Ty, bool Signed) {
    return folded(Ty, Signed, /*Lower=*/false);
  }

private:
  IRBuilder<> Entry;
  Value *Lo = nullptr, *Last = nullptr, *Active = nullptr;
  std::map<std::tuple<Type *, bool, bool>, Value *> Folded;

  Value *folded(Type *Ty, bool Signed, bool Lower) {
    Value *&V = Folded[{Ty, Signed, Lower}];
    if (V)
      return V;
    // The window lies in the loop's own iteration space, so it fits the
    // counter's type; comparing at its width keeps a 32-bit loop's
    // arithmetic 32-bit (widened, it cost a streaming kernel 3% on an H100).
    unsigned Bits = Ty->getIntegerBitWidth();
    APInt Off = Lower ? (Signed ? APInt::getSignedMinValue(Bits)
                                : APInt::getMinValue(Bits))
                      : (Signed ? APInt::getSignedMaxValue(Bits)
                                : APInt::getMaxValue(Bits));
    Value *Bound = Entry.CreateTrunc(Lower ? Lo : Last, Ty);
    if (!Active)
      return V = Bound;
    return V = Entry.CreateSelect(Active, Bound, ConstantInt::get(Ty, Off));
  }
};

/// V clamped to the window (Lower: at least its first iteration, else at
/// most its last); V itself while the window is off.
Value *clampToBound(IRBuilder<> &B, WindowBounds &W, Value *V, bool Signed,
                    bool Lower) {
  Type *Ty = V->getType();
  Intrinsic::ID Op = Lower ? (Signed ? Intrinsic::smax : Intrinsic::umax)
                           : (Signed ? Intrinsic::smin : Intrinsic::umin);
  return B.CreateBinaryIntrinsic(
      Op, V, Lower ? W.first(Ty, Signed) : W.last(Ty, Signed));
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

/// The window global's fields, read once at the entry of F. The plugin
/// writes the window only between launches, so the loads are invariant.
WindowFields loadWindow(Function &F, GlobalVariable *Window) {
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
  Value *Last = B.CreateSub(Field(abi::WindowHi, "hetero.hi"),
                            ConstantInt::get(I64, 1), "hetero.last");
  return {Lo, Last, Field(abi::WindowActive, "hetero.on")};
}

/// Path: the direct calls that lead from From to Target, each to a local
/// function with no other use (clang's outlined teams region on NVPTX).
/// False when Target is reached otherwise (through the runtime, as a
/// parallel region is, or from several places).
bool directPath(Function &From, Function &Target,
                SmallVectorImpl<CallInst *> &Path) {
  if (&From == &Target)
    return true;
  if (Path.size() >= 8)
    return false;
  for (Instruction &I : instructions(From)) {
    auto *C = dyn_cast<CallInst>(&I);
    Function *Callee = C ? C->getCalledFunction() : nullptr;
    if (!Callee || Callee->isDeclaration() || !Callee->hasLocalLinkage() ||
        !Callee->hasOneUse() || Callee->isVarArg())
      continue;
    Path.push_back(C);
    if (directPath(*Callee, Target, Path))
      return true;
    Path.pop_back();
  }
  return false;
}

/// F with two i64 parameters (the window's first and last iteration) after its
/// own, beside F: same name (F loses it), attributes, metadata and body.
/// F's uses are the caller's to move.
Function *withWindowParams(Function &F) {
  FunctionType *Old = F.getFunctionType();
  SmallVector<Type *, 8> Params(Old->params());
  Params.append(abi::WindowParams, Type::getInt64Ty(F.getContext()));
  auto *Ty = FunctionType::get(Old->getReturnType(), Params, false);
  Function *NF = Function::Create(Ty, F.getLinkage(), F.getAddressSpace(), "",
                                  F.getParent());
  NF->copyAttributesFrom(&F);
  NF->copyMetadata(&F, 0);
  NF->takeName(&F);
  NF->splice(NF->begin(), &F);
  for (auto [A, NA] : zip(F.args(), NF->args())) {
    A.replaceAllUsesWith(&NA);
    NA.takeName(&A);
  }
  const char *Names[abi::WindowParams] = {"hetero.lo", "hetero.last"};
  for (unsigned I = 0; I < abi::WindowParams; ++I)
    NF->getArg(Old->getNumParams() + I)->setName(Names[I]);
  return NF;
}

/// The window as F's last two parameters: always on (a whole launch passes
/// the whole iteration space).
WindowFields windowParams(Function &F) {
  unsigned N = F.arg_size();
  return {F.getArg(N - 2), F.getArg(N - 1), nullptr};
}

/// Gives Kernel and each function on Path the window as parameters (the
/// kernel's after its own: the plugin appends them to the launch's
/// arguments), each call passing its caller's on. Returns the new kernel;
/// the call at the path's end, if any, is remade, so Target's init calls
/// (moved, not copied) stay valid.
Function *threadWindowParams(Function &Kernel, ArrayRef<CallInst *> Path) {
  Function *NK = withWindowParams(Kernel);
  Kernel.replaceAllUsesWith(NK); // its entry-point annotations
  Function *Caller = NK;
  for (CallInst *C : Path) {
    Function *Callee = C->getCalledFunction();
    Function *NC = withWindowParams(*Callee);
    SmallVector<Value *, 8> Args(C->args());
    WindowFields In = windowParams(*Caller);
    Args.append({In.Lo, In.Last});
    auto *Call = CallInst::Create(NC, Args, "", C->getIterator());
    Call->setCallingConv(C->getCallingConv());
    Call->setAttributes(C->getAttributes());
    Call->setDebugLoc(C->getDebugLoc());
    C->replaceAllUsesWith(Call);
    C->eraseFromParent();
    Callee->eraseFromParent();
    Caller = NC;
  }
  Kernel.eraseFromParent();
  return NK;
}

/// The variable that holds the loop's last iteration, as clang's code
/// keeps it: the value it stores to ub (PUb) before the init call is a load
/// of a local variable of Ty, stored once and otherwise only read. Clang
/// reads it again to bound each chunk's ub by the loop's last iteration and
/// to test the loop variable against it; null where the code is not so.
AllocaInst *lastIterationVariable(CallInst *Call, Value *PUb, Type *Ty) {
  StoreInst *Init = nullptr;
  for (Instruction *I = Call->getPrevNode(); I && !Init; I = I->getPrevNode())
    if (auto *S = dyn_cast<StoreInst>(I);
        S &&
        S->getPointerOperand()->stripPointerCasts() == PUb->stripPointerCasts())
      Init = S;
  auto *Read = Init ? dyn_cast<LoadInst>(Init->getValueOperand()) : nullptr;
  auto *Var = Read ? dyn_cast<AllocaInst>(Read->getPointerOperand()) : nullptr;
  if (!Var || Read->getType() != Ty)
    return nullptr;
  unsigned Stores = 0;
  for (User *U : Var->users()) {
    if (auto *S = dyn_cast<StoreInst>(U)) {
      if (S->getValueOperand() == Var)
        return nullptr;
      ++Stores;
    } else if (auto *II = dyn_cast<IntrinsicInst>(U)) {
      if (!II->isLifetimeStartOrEnd())
        return nullptr;
    } else if (!isa<LoadInst>(U)) {
      return nullptr; // escapes
    }
  }
  return Stores == 1 ? Var : nullptr;
}

/// Where clang's code has no variable for the loop's last iteration
/// (lastIterationVariable): the clamps go on every read of the call's lb
/// and ub after the call. Lb and Ub: the reads of the bounds handed in.
void clampEveryRead(const InitCall &IC, Type *Ty, LoadInst *Lb, LoadInst *Ub,
                    WindowBounds &W, DominatorTree &DT) {
  Function &F = *IC.Call->getFunction();
  Value *PLb = Lb->getPointerOperand(), *PUb = Ub->getPointerOperand();
  IRBuilder<> B(IC.Call);
  // Chunked schedules step [lb, ub] by the stride and bound it by
  // the loop's own last iteration, not by the ub handed to the runtime:
  // every later read of ub is clamped too, so no chunk runs past the window.
  redirectLoads(F, PUb, Ty, Ub, [&](IRBuilder<> &After, LoadInst *L) {
    return clampToBound(After, W, L, IC.Signed, false);
  });
  // They also test the next lb against the loop's own iteration count, so a
  // team whose lb has stepped past the window would still enter the loop
  // body once per stride up to the whole loop's end, as an empty parallel
  // region each time: a GPU team of 128 iterations then spent a quarter of
  // its time on them in every chunk but the last. A read of lb past the
  // window that the loop tests (directly, or through the loop variable it
  // is copied to) gives the loop's end instead (the ub handed in, plus one),
  // where the loop stops as it would have after its last stride. The reads
  // that step lb or hand it to the parallel region stay as they are: lb
  // then remains a plain recurrence that the optimiser knows is not
  // negative, and keeps the region's loop 32-bit where clang's is (an empty
  // chunk past the window is harmless; its ub is clamped).
  Value *End = B.CreateAdd(Ub, ConstantInt::get(Ty, 1), "hetero.end");
  auto Tested = [&](LoadInst *L) {
    return any_of(L->users(), [&](User *U) {
      if (isa<ICmpInst>(U))
        return true;
      auto *S = dyn_cast<StoreInst>(U);
      return S && S->getValueOperand() == L &&
             S->getPointerOperand()->stripPointerCasts() !=
                 PLb->stripPointerCasts();
    });
  };
  redirectLoads(
      F, PLb, Ty, Lb, [&](IRBuilder<> &After, LoadInst *L) -> Value * {
        if (!DT.dominates(IC.Call, L))
          return nullptr; // the lb the loop starts from is set by the call
        if (!Tested(L))
          return nullptr;
        Value *Last = W.last(Ty, IC.Signed);
        Value *Past = IC.Signed ? After.CreateICmpSGT(L, Last)
                                : After.CreateICmpUGT(L, Last);
        return After.CreateSelect(Past, End, L);
      });
}

/// Clamps the call's [lb, ub] to the window when the window is active.
void clampToWindow(const InitCall &IC, const WindowFields &Fields) {
  IRBuilder<> B(IC.Call);
  Function &F = *IC.Call->getFunction();
  // At F's entry, after the fields that are loads there.
  Instruction *At = &*F.getEntryBlock().getFirstInsertionPt();
  for (Value *V : {Fields.Lo, Fields.Last, Fields.Active})
    if (auto *I = dyn_cast_or_null<Instruction>(V); I && !I->comesBefore(At))
      At = I->getNextNode();
  WindowBounds W(At, Fields);
  unsigned LbArg = IC.ByValue ? 3 : 4, UbArg = IC.ByValue ? 4 : 5;
  if (IC.ByValue) {
    Value *Lb = IC.Call->getArgOperand(LbArg);
    Value *Ub = IC.Call->getArgOperand(UbArg);
    IC.Call->setArgOperand(LbArg, clampToBound(B, W, Lb, IC.Signed, true));
    IC.Call->setArgOperand(UbArg, clampToBound(B, W, Ub, IC.Signed, false));
    return;
  }
  // The bounds' type is the init function's: i32 for _4/_4u, i64 for _8/_8u.
  Type *Ty = IC.Call->getCalledFunction()->getName().contains("_8")
                 ? B.getInt64Ty()
                 : B.getInt32Ty();
  Value *PLb = IC.Call->getArgOperand(LbArg);
  Value *PUb = IC.Call->getArgOperand(UbArg);
  AllocaInst *LastVar = lastIterationVariable(IC.Call, PUb, Ty);
  LoadInst *Lb = B.CreateLoad(Ty, PLb);
  auto *Ub = B.CreateLoad(Ty, PUb);
  B.CreateStore(clampToBound(B, W, Lb, IC.Signed, true), PLb);
  B.CreateStore(clampToBound(B, W, Ub, IC.Signed, false), PUb);
  DominatorTree DT(F);
  if (LastVar) {
    // The loop's own last iteration, read after the call, becomes the
    // window's: each chunk's ub and the loop's test then stop at the window
    // with the code clang wrote, and the clamp is loop-invariant (hoisted
    // once; clamps in the loop cost a streaming stencil a fifth of its
    // time on an H200, docs/measurements.md#loop-window).
    redirectLoads(F, LastVar, Ty, nullptr,
                  [&](IRBuilder<> &After, LoadInst *L) -> Value * {
                    if (!DT.dominates(IC.Call, L))
                      return nullptr;
                    return clampToBound(After, W, L, IC.Signed, false);
                  });
    return;
  }
  clampEveryRead(IC, Ty, Lb, Ub, W, DT);
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
                          bool Const, unsigned NvptxSpace = 1) {
  unsigned AS = M.getDataLayout().getDefaultGlobalsAddressSpace();
  if (Triple(M.getTargetTriple()).isNVPTX())
    AS = NvptxSpace; // the plugin finds it with cuModuleGetGlobal
  auto *G = new GlobalVariable(M, Init->getType(), Const,
                               GlobalValue::ExternalLinkage, Init, Name,
                               nullptr, GlobalValue::NotThreadLocal, AS);
  G->setVisibility(GlobalValue::ProtectedVisibility);
  appendToUsed(M, {G});
  return G;
}

/// Gives the copy of Kernel (VMap: the copies' module's values) its window
/// and the clamp of Target's bounds; returns the copy.
Function *windowCopy(Module &M, Function &Kernel, const InitCall &Target,
                     ValueToValueMapTy &VMap, WindowedCopies &Copies,
                     bool HostImage) {
  auto *Copy = cast<Function>(VMap[&Kernel]);
  InitCall InCopy = Target;
  InCopy.Call = cast<CallInst>(VMap[Target.Call]);
  Function &Starts = *InCopy.Call->getFunction();
  SmallVector<CallInst *, 2> Path;
  if (!HostImage && directPath(*Copy, Starts, Path)) {
    // A GPU kernel's parameters are in its constant bank when it starts,
    // where a global is a load that misses once per SM
    // (docs/measurements.md#loop-window). The host image's teams region is
    // reached through the runtime, and a load there costs nothing.
    Copy = threadWindowParams(*Copy, Path);
    clampToWindow(InCopy, windowParams(*InCopy.Call->getFunction()));
    addGlobal(M, abi::windowParamsSymbol(Kernel.getName().str()),
              ConstantInt::get(Type::getInt8Ty(M.getContext()), 1),
              /*Const=*/true);
    return Copy;
  }
  Type *I64 = Type::getInt64Ty(M.getContext());
  // On NVPTX in constant memory: read through the constant cache, and
  // ptxas folds it into instructions instead of registers.
  GlobalVariable *W = addGlobal(
      M, abi::windowSymbol(Kernel.getName().str()),
      ConstantAggregateZero::get(ArrayType::get(I64, abi::WindowFields)),
      /*Const=*/false, /*NvptxSpace=*/4);
  // Known to the copies (which only declare it) as aligned enough to read
  // lo and hi in one load.
  W->setAlignment(Align(16));
  clampToWindow(InCopy, loadWindow(Starts, Copies.declare(*W)));
  return Copy;
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
      if (P.Desc.splittable())
        Copies->adoptCopy(
            *windowCopy(M, *P.K, *P.Target, VMap, *Copies, HostImage));
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

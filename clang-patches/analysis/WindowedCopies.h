//===- WindowedCopies.h - The windowed kernels, compiled apart --*- C++ -*-===//
//
// A device module's windowed copies (K_hetero_windowed, CompilerAbi.h) are
// compiled as a module of their own and linked into the device module only
// after the device module's optimisation. The kernels clang compiled are
// then optimised in a module exactly like plain clang's: with the copies
// beside them, the OpenMP device runtime's entry points had one more caller
// each, which changed what the inliner and OpenMPOpt did to the kernels
// (a reduction routine no longer inlined, a store of the launch environment
// kept: 3-7% per launch of a tiny kernel under the stock cuda plugin).
//
// Contract:
//   1. cloneDeviceModule(M, VMap) before M changes, then give each copy's
//      kernel its clamp (the pass) and adoptCopy() it;
//   2. finishCopies() keeps only the adopted copies and what they reach,
//      optimises the module with the device module's own pipeline, and holds
//      it for M;
//   3. LinkWindowedCopies (at the end of M's pipeline) moves its functions
//      and variables into M, keeping M's own in their order (moveInto).
// What the copies share with M, they name: M's variables (user data, the
// window globals, the runtime's device environment) are declarations in the
// copies' module (constants keep their value for folding); its functions are
// private copies; the runtime's module-local state is the copies' own (it is
// per launch or per team, and a launch runs either a kernel or its copy).
//
//===----------------------------------------------------------------------===//
#ifndef HETERO_WINDOWEDCOPIES_H
#define HETERO_WINDOWEDCOPIES_H

#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/IR/Module.h"
#include "llvm/IR/PassManager.h"
#include "llvm/Passes/OptimizationLevel.h"
#include "llvm/Transforms/Utils/ValueMapper.h"

#include <memory>

namespace llvm {
class PassBuilder;
}

namespace hetero {

/// clang's offloaded kernels: the functions the pass windows, and those the
/// copies' module drops.
inline bool isOffloadKernel(const llvm::Function &F) {
  return !F.hasLocalLinkage() && F.getName().starts_with("__omp_offloading_");
}

class WindowedCopies {
public:
  /// A clone of M (VMap: M's values to the clone's).
  static WindowedCopies cloneDeviceModule(llvm::Module &M,
                                          llvm::ValueToValueMapTy &VMap);

  /// Kernel (the clone of a kernel of M) becomes that kernel's windowed copy:
  /// renamed, with its own kernel environment.
  void adoptCopy(llvm::Function &Kernel);

  /// Window (a global of M) as the copies name it.
  llvm::GlobalVariable *declare(const llvm::GlobalVariable &Window);

  /// Strips, optimises and holds the module for M (nothing if no copy was
  /// adopted).
  void finish(llvm::Module &M, llvm::PassBuilder &PB,
              llvm::OptimizationLevel Level);

  /// Whether M is a copies' module being optimised (the pass leaves it).
  static bool isCopiesModule(const llvm::Module &M);

private:
  explicit WindowedCopies(std::unique_ptr<llvm::Module> Copies)
      : Copies(std::move(Copies)) {}
  void strip();

  std::unique_ptr<llvm::Module> Copies;
  llvm::SmallVector<llvm::Function *, 8> Adopted;
  /// The adopted copies' own kernel environments (renamed, kept defined).
  llvm::SmallPtrSet<const llvm::GlobalVariable *, 8> OwnEnvironments;
};

/// Links the copies held for a module into it (the end of its pipeline).
struct LinkWindowedCopies : llvm::PassInfoMixin<LinkWindowedCopies> {
  llvm::PreservedAnalyses run(llvm::Module &M, llvm::ModuleAnalysisManager &);
};

} // namespace hetero

#endif // HETERO_WINDOWEDCOPIES_H

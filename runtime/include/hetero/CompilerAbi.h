//===- CompilerAbi.h - What the compiler leaves in the images ---*- C++ -*-===//
//
// The contract between the compiler side (clang-patches/analysis, which
// writes these into the device images) and the runtime (plugin/, which
// finds them there). Both include this header; nothing here may change
// without both sides changing together.
//
// For an offloaded kernel K (clang names it
// __omp_offloading_<device id>_<file id>_<parent>_l<line>):
//
//   K_hetero_window  a LoopWindow, in every device image (NVPTX: constant
//                    memory) of a kernel the pass could window, unless the
//                    image has K_hetero_window_params; absent otherwise.
//                    All zero (inactive) as compiled.
//   K_hetero_windowed
//                    a copy of K, with K's parameters and kernel
//                    environment, that runs only the window's iterations
//                    while the window is active (and all of them while it
//                    is not); beside every K_hetero_window. K itself is left
//                    as clang compiled it, so the binary runs the code of a
//                    plain build under the stock plugins (the copies are
//                    compiled in a module of their own, linked in after the
//                    device module's optimisation: WindowedCopies.h). hetero
//                    runs the copy for every launch of K on a member, whole
//                    launches with the window off, so that a split and a
//                    whole run execute the same code. (Images from before
//                    the copy existed have the clamp in K itself.)
//   K_hetero_window_params
//                    in a device image whose K_hetero_windowed takes its
//                    window as two i64 parameters after K's own: the first
//                    and the last iteration to run (WindowParams), which the
//                    plugin appends to every launch of the copy, a whole
//                    launch's being 0 and its trip count minus one; that
//                    image has no K_hetero_window. The NVPTX images, where
//                    the kernel reaches its loop through direct calls.
//   K_hetero_desc    the kernel's descriptor (KernelDescriptor.h), a
//                    NUL-terminated string, in the x86_64 image only.
//
//===----------------------------------------------------------------------===//
#ifndef HETERO_COMPILERABI_H
#define HETERO_COMPILERABI_H

#include <cstdint>
#include <string>

namespace hetero::abi {

/// The descriptor's first line is "hetero-kernel <DescriptorVersion>".
/// 2 added the `source` line and accesses' `src` (KernelDescriptor.h);
/// the runtime reads 1 as well.
constexpr unsigned DescriptorVersion = 2;

/// When Active is non-zero, the kernel runs only the iterations [Lo, Hi) of
/// its normalized iteration space.
struct LoopWindow {
  int64_t Lo = 0;
  int64_t Hi = 0;
  int64_t Active = 0;
};
static_assert(sizeof(LoopWindow) == 3 * sizeof(int64_t),
              "the pass emits the window as [3 x i64]");

/// Field positions of LoopWindow, as the pass addresses them.
enum LoopWindowField : unsigned {
  WindowLo = 0,
  WindowHi = 1,
  WindowActive = 2
};
constexpr unsigned WindowFields = 3;
/// The window as parameters (K_hetero_window_params): first, last.
constexpr unsigned WindowParams = 2;

constexpr const char *WindowSuffix = "_hetero_window";
/// The kernel's copy that reads the window (the kernel itself does not).
constexpr const char *WindowedKernelSuffix = "_hetero_windowed";
constexpr const char *DescriptorSuffix = "_hetero_desc";
constexpr const char *WindowParamsSuffix = "_hetero_window_params";

inline std::string windowSymbol(const std::string &Kernel) {
  return Kernel + WindowSuffix;
}
inline std::string windowedKernelSymbol(const std::string &Kernel) {
  return Kernel + WindowedKernelSuffix;
}
inline std::string windowParamsSymbol(const std::string &Kernel) {
  return Kernel + WindowParamsSuffix;
}
inline std::string descriptorSymbol(const std::string &Kernel) {
  return Kernel + DescriptorSuffix;
}

} // namespace hetero::abi

#endif // HETERO_COMPILERABI_H

//===- Policy.h - Which members run a launch, and their shares --*- C++ -*-===//
//
// Every decision about who runs a kernel, in one place:
//
//   - a member may run a kernel when it has not failed, its image has the
//     kernel, it has its own copy of every `declare target indirect`
//     function the launch passes, and the kernel is not host-only (an LLVM 19
//     NVPTX defect: such kernels stay on CPU-side members when one has them);
//   - a split goes to the members that may run the kernel, have its loop
//     window and get a share (HETERO_MEMBERS' weight, else the member's own:
//     32 for a GPU, 1 otherwise); a one-kind kernel (device-dependent math)
//     keeps GPUs only when a GPU takes part, else CPU-side members only;
//     HETERO_MEMBER (a pinned member) splits nothing;
//   - a whole launch goes to the pinned member, else to the first GPU, then
//     simulated accelerator, then the CPU pool among the members
//     HETERO_MEMBERS lists, the others following as fallbacks.
//
//===----------------------------------------------------------------------===//
#ifndef HETERO_POLICY_H
#define HETERO_POLICY_H

#include "hetero/KernelDescriptor.h"
#include "hetero/Pool.h"
#include "hetero/Settings.h"

#include <functional>
#include <string>
#include <vector>

namespace hetero {

/// What the engine knows of one kernel on each member.
struct KernelTraits {
  std::string Name; // the symbol
  /// As the source names it (KernelNames.h); empty: the symbol.
  std::string Display;
  const std::string &shown() const { return Display.empty() ? Name : Display; }
  /// The compiler's descriptor; null when the binary has none (NoDesc says
  /// why).
  const KernelDescriptor *Desc = nullptr;
  std::string NoDesc;
  std::vector<bool> Loaded;   // per member: its image has the kernel
  std::vector<bool> Windowed; // per member: its image has the loop window
};

/// A member that takes chunks of a split, and its weight.
struct Share {
  size_t Member = 0;
  double Weight = 1;
  bool operator==(const Share &O) const {
    return Member == O.Member && Weight == O.Weight;
  }
  bool operator!=(const Share &O) const { return !(*this == O); }
};

/// Members in order of preference for a whole launch.
struct WholeChoice {
  std::vector<size_t> Order;
  std::string Reason; // why the first
};

class Policy {
public:
  explicit Policy(const Settings &S) : S(S) {}

  /// Whether member M (its index in P) may run K at all. Covers: whether M
  /// has its own copy of the indirect functions the launch passes.
  bool mayRun(const Pool &P, size_t M, const KernelTraits &K,
              const std::function<bool(size_t)> &Covers) const;
  /// The kernel stays off GPUs (host-only, and a CPU-side member has it).
  bool offGpu(const Pool &P, const KernelTraits &K) const;

  /// The members that take chunks and their weights, in pool order; empty
  /// when the launch is not split, with the reason.
  std::vector<Share> splitShares(const Pool &P, const KernelTraits &K,
                                 const std::function<bool(size_t)> &MayRun,
                                 std::string &Reason) const;
  /// The members that may run the launch whole, best first.
  WholeChoice wholeOrder(const Pool &P,
                         const std::function<bool(size_t)> &MayRun) const;

private:
  const Settings &S;
};

} // namespace hetero

#endif // HETERO_POLICY_H

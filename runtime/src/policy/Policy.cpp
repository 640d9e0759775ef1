//===- Policy.cpp - Which members run a launch, and their shares ----------===//
#include "hetero/Policy.h"

namespace hetero {

bool Policy::offGpu(const Pool &P, const KernelTraits &K) const {
  if (!K.Desc || K.Desc->hostOnly().empty())
    return false;
  // Only when a CPU member can run it: else a GPU is the only way.
  for (size_t M = 0; M < P.size(); ++M)
    if (P[M].cpuSide() && !P[M].Failed && M < K.Loaded.size() && K.Loaded[M])
      return true;
  return false;
}

bool Policy::mayRun(const Pool &P, size_t M, const KernelTraits &K,
                    const std::function<bool(size_t)> &Covers) const {
  const Member &Mb = P[M];
  if (Mb.Failed || M >= K.Loaded.size() || !K.Loaded[M])
    return false;
  if (Mb.Kind == MemberKind::Gpu && offGpu(P, K))
    return false;
  return !Covers || Covers(M);
}

std::vector<Share>
Policy::splitShares(const Pool &P, const KernelTraits &K,
                    const std::function<bool(size_t)> &MayRun,
                    std::string &Reason) const {
  std::vector<Share> Out;
  if (!S.Member.empty()) {
    Reason = "HETERO_MEMBER runs every kernel whole on one member";
    return Out;
  }
  if (!K.Desc || !K.Desc->splittable()) {
    Reason = K.Desc ? K.Desc->reason() : K.NoDesc;
    return Out;
  }
  for (size_t M = 0; M < P.size(); ++M) {
    if (!MayRun(M) || M >= K.Windowed.size() || !K.Windowed[M])
      continue;
    double W = S.weightOf(P[M].name(), P[M].Share);
    if (W > 0)
      Out.push_back({M, W});
  }
  if (Out.empty()) {
    Reason = "no member that takes chunks has the kernel's loop window";
    return Out;
  }
  if (!K.Desc->oneKind().empty()) {
    // The GPUs when they take part (they have the throughput), else the
    // CPU-side members, which all run the same x86_64 code.
    bool AnyGpu = false;
    for (const Share &Sh : Out)
      AnyGpu |= !P[Sh.Member].cpuSide();
    std::vector<Share> Kept;
    for (const Share &Sh : Out)
      if (P[Sh.Member].cpuSide() != AnyGpu)
        Kept.push_back(Sh);
    Out.swap(Kept);
  }
  return Out;
}

WholeChoice
Policy::wholeOrder(const Pool &P,
                   const std::function<bool(size_t)> &MayRun) const {
  WholeChoice C;
  size_t Pinned = P.size();
  if (!S.Member.empty())
    for (size_t M = 0; M < P.size(); ++M)
      if (P[M].name() == S.Member && MayRun(M))
        Pinned = M;
  if (Pinned < P.size()) {
    C.Order.push_back(Pinned);
    C.Reason = "pinned by HETERO_MEMBER";
  }
  // GPUs first, then simulated accelerators, then the CPU pool; members
  // HETERO_MEMBERS leaves out only after every listed one.
  for (bool WantListed : {true, false})
    for (MemberKind K :
         {MemberKind::Gpu, MemberKind::Simulated, MemberKind::CpuPool})
      for (size_t M = 0; M < P.size(); ++M) {
        bool Listed = S.weightOf(P[M].name(), 1) > 0;
        if (P[M].Kind != K || M == Pinned || !MayRun(M) || Listed != WantListed)
          continue;
        if (C.Reason.empty())
          C.Reason = !Listed ? "no member HETERO_MEMBERS lists can run it"
                     : K == MemberKind::Gpu ? "first GPU of the pool"
                     : K == MemberKind::Simulated
                         ? "first simulated accelerator"
                         : "no accelerator: CPU pool";
        C.Order.push_back(M);
      }
  if (!S.Member.empty() && Pinned == P.size() && !C.Order.empty())
    C.Reason += " (HETERO_MEMBER=" + S.Member + " cannot run it)";
  return C;
}

} // namespace hetero

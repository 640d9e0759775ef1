//===- Scheduler.cpp - Pool members and where a launch runs ---------------===//
#include "hetero/Scheduler.h"

namespace hetero {

std::string Member::name() const {
  switch (Kind) {
  case MemberKind::CpuPool:
    return "cpu";
  case MemberKind::Gpu:
    return "cuda:" + std::to_string(Index);
  case MemberKind::Simulated:
    return "sim:" + std::to_string(Index);
  }
  return "?";
}

LaunchChoice chooseMembers(const std::vector<Member> &Members,
                           const std::function<bool(const Member &)> &CanRun,
                           const std::string &Pin,
                           const std::function<bool(const Member &)> &Listed) {
  LaunchChoice C;
  auto Usable = [&](const Member &M) { return !M.Failed && CanRun(M); };
  const Member *Pinned = nullptr;
  if (!Pin.empty()) {
    for (const Member &M : Members)
      if (M.name() == Pin && Usable(M))
        Pinned = &M;
    if (Pinned) {
      C.Order.push_back(Pinned);
      C.Reason = "pinned by HETERO_MEMBER";
    }
  }
  // GPUs first, then simulated accelerators, then the CPU pool; members
  // HETERO_MEMBERS leaves out only after every listed one.
  for (bool WantListed : {true, false})
    for (MemberKind K :
         {MemberKind::Gpu, MemberKind::Simulated, MemberKind::CpuPool})
      for (const Member &M : Members) {
        bool IsListed = !Listed || Listed(M);
        if (M.Kind != K || &M == Pinned || !Usable(M) || IsListed != WantListed)
          continue;
        if (C.Reason.empty())
          C.Reason = !IsListed ? "no member HETERO_MEMBERS lists can run it"
                     : K == MemberKind::Gpu ? "first GPU of the pool"
                     : K == MemberKind::Simulated
                         ? "first simulated accelerator"
                         : "no accelerator: CPU pool";
        C.Order.push_back(&M);
      }
  if (!Pin.empty() && !Pinned && !C.Order.empty())
    C.Reason += " (HETERO_MEMBER=" + Pin + " names no usable member)";
  return C;
}

} // namespace hetero

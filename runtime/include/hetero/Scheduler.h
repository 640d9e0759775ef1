//===- Scheduler.h - Pool members and where a launch runs -------*- C++ -*-===//
//
// A member is one executor of the pool: a GPU, a simulated accelerator, or
// the CPU pool (the remaining cores running the x86_64 image together). Here
// every launch runs whole on one member: the first GPU that has the kernel,
// else the first simulated accelerator, else the CPU pool. HETERO_MEMBER
// (cpu, cuda:<n>, sim:<n>) puts one member first, for tests.
//
//===----------------------------------------------------------------------===//
#ifndef HETERO_SCHEDULER_H
#define HETERO_SCHEDULER_H

#include "hetero/MemoryNode.h"

#include <functional>
#include <string>
#include <vector>

namespace hetero {

enum class MemberKind { CpuPool, Gpu, Simulated };

struct Member {
  MemberKind Kind = MemberKind::CpuPool;
  int Index = 0;     // GPU ordinal or simulated index
  int WorkerId = -1; // StarPU worker, -1 when running on the caller's thread
  NodeId Node = HostNode;
  bool Failed = false;
  std::string name() const;
};

struct LaunchChoice {
  std::vector<const Member *> Order; // first choice, then fallbacks
  std::string Reason;
};

/// Orders the members for one launch. CanRun says whether a member has the
/// kernel (a GPU whose image loaded). Pin is HETERO_MEMBER's value or "".
/// Listed says whether HETERO_MEMBERS lets a member take work (null: all):
/// members it leaves out come last, only as fallbacks.
LaunchChoice
chooseMembers(const std::vector<Member> &Members,
              const std::function<bool(const Member &)> &CanRun,
              const std::string &Pin,
              const std::function<bool(const Member &)> &Listed = nullptr);

} // namespace hetero

#endif // HETERO_SCHEDULER_H

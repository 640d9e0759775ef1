//===- Pool.h - The members of the hetero device ----------------*- C++ -*-===//
//
// The one OpenMP device hetero presents is a pool of members: each GPU, each
// simulated accelerator, and the CPU pool (the cores left over, running the
// x86_64 image together). A member runs kernels on its StarPU worker, keeps
// its data on its memory node, and takes a share of every split launch. A
// member on which a kernel fails leaves the pool for good.
//
//===----------------------------------------------------------------------===//
#ifndef HETERO_POOL_H
#define HETERO_POOL_H

#include "hetero/MemoryNode.h"

#include <string>
#include <vector>

namespace hetero {

enum class MemberKind { CpuPool, Gpu, Simulated };

struct Member {
  MemberKind Kind = MemberKind::CpuPool;
  int Index = 0; // GPU ordinal or simulated index
  NodeId Node = HostNode;
  int WorkerId = -1; // StarPU worker; -1: the launching thread
  /// Its share of split launches when HETERO_MEMBERS gives none: a static
  /// estimate (memory bandwidth of a GPU over the node's cores).
  double Share = 1;
  bool Failed = false; // left the pool
  /// "cuda:<n>", "sim:<n>", "cpu": how settings and messages name it.
  std::string name() const;
  /// GPU members run the NVPTX image; the others the x86_64 one.
  bool cpuSide() const { return Kind != MemberKind::Gpu; }
};

/// The members, GPUs first, then simulated accelerators, then the CPU pool.
using Pool = std::vector<Member>;

} // namespace hetero

#endif // HETERO_POOL_H

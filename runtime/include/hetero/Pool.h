//===- Pool.h - The members of the hetero device ----------------*- C++ -*-===//
//
// The one OpenMP device hetero presents is a pool of members: each GPU, each
// simulated accelerator, and the CPU pool (the cores left over, running the
// x86_64 image together). A member runs kernels on its StarPU worker, keeps
// its data on its memory node, and takes a share of every split launch. A
// member on which a kernel fails leaves the pool for good.
//
// Words: "the pool" is always this list of members (PoolPlan.h: its
// defaults; the plugin's PoolStart: its start, PoolReport: hetero-info's
// account of it), and "the default pool" the members hetero takes when
// HETERO_MEMBERS says nothing. "The CPU pool" is one member: the host's
// cores. StarPU's workers (StarPUWorkers.h) are what members run on.
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
  int Index = 0; // GPU slot (see Device, Part) or simulated index
  /// A GPU member's CUDA ordinal, and which part of that GPU it is when
  /// HETERO_GPU_SPLIT presents each GPU as several members (-1: the whole
  /// GPU). Parts have their own memory node, image copy (globals, loop
  /// windows) and worker; only the hardware is shared.
  int Device = -1;
  int Part = -1;
  NodeId Node = HostNode;
  int WorkerId = -1; // StarPU worker; -1: the launching thread
  /// Its share of split launches when HETERO_MEMBERS gives none: a static
  /// estimate (memory bandwidth of a GPU over the node's cores).
  double Share = 1;
  /// A GPU member's resident threads (SMs times the threads an SM holds,
  /// its part of them for a part of a split GPU); 0: unknown or not a GPU.
  /// The team counts of TeamsTrial.h are fractions of it.
  uint64_t ResidentThreads = 0;
  bool Failed = false; // left the pool
  /// "cuda:<n>" ("cuda:<n>.<part>" for a part of a split GPU), "sim:<n>",
  /// "cpu": how settings and messages name it.
  std::string name() const;
  /// GPU members run the NVPTX image; the others the x86_64 one.
  bool cpuSide() const { return Kind != MemberKind::Gpu; }
  /// Both are parts of one physical GPU (a fault there is a fault of both).
  bool sameGpu(const Member &O) const {
    return Kind == MemberKind::Gpu && O.Kind == MemberKind::Gpu &&
           Device >= 0 && Device == O.Device;
  }
};

/// The members, GPUs first, then simulated accelerators, then the CPU pool.
using Pool = std::vector<Member>;

} // namespace hetero

#endif // HETERO_POOL_H

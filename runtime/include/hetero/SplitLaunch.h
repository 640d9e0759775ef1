//===- SplitLaunch.h - One kernel launch as chunks -------------*- C++ -*-===//
//
// A launch of a splittable kernel (its descriptor says "split yes") becomes
// chunks: contiguous windows [Lo, Hi) of the normalized iteration space, each
// run on one pool member. Before the chunks run, each chunk's read and write
// sections are made valid on its member's memory node (only the missing
// bytes move, peer to peer where the nodes can); the chunks then run
// concurrently, one task each on the member's worker; afterwards each
// chunk's write sections are valid on its node only. Reduction variables get
// a private copy per chunk, set to the operator's identity; the partials are
// combined on the host in chunk order, then with the variable's value.
//
// Anything that makes the split unsafe or impossible (no descriptor, the
// runtime's trip count disagreeing with the descriptor's, overlapping write
// sections, host-resident memory, a member without room) returns NotSplit
// with the reason, having changed nothing the caller can observe: the caller
// then runs the kernel whole.
//
//===----------------------------------------------------------------------===//
#ifndef HETERO_SPLITLAUNCH_H
#define HETERO_SPLITLAUNCH_H

#include "hetero/KernelDescriptor.h"
#include "hetero/KernelStats.h"
#include "hetero/MemoryNode.h"

#include <cstddef>
#include <cstdint>
#include <functional>
#include <string>
#include <utility>
#include <vector>

namespace hetero {

class DataLayer;

struct SplitMember {
  NodeId Node = HostNode;
  int WorkerId = -1; // the worker its chunks run on; -1: the calling thread
  double Weight = 1; // share of the iterations
  std::string Name;  // for statistics
};

struct SplitLaunchInput {
  const KernelDescriptor *Desc = nullptr;
  /// Kernel arguments as libomptarget passes them (hetero addresses or
  /// literal values) and the offsets the kernel adds to them.
  std::vector<uintptr_t> Args;
  std::vector<ptrdiff_t> Offsets;
  /// libomptarget's trip count of the loop, 0 when unknown.
  uint64_t TripCount = 0;
  unsigned ChunksPerMember = 1;
  /// Chunks are never cut smaller than this (iterations).
  uint64_t MinChunk = 1;
};

/// Runs the iterations [Lo, Hi) of the kernel on member Member (an index into
/// the member list) with the arguments translated for its node. Called on
/// the member's worker.
using ChunkLauncher = std::function<bool(
    size_t Member, uint64_t Lo, uint64_t Hi, std::vector<uintptr_t> &NodeArgs)>;

/// Runs the tasks concurrently, each on its worker (-1: any thread), and
/// returns whether each succeeded.
using TaskRunner = std::function<std::vector<bool>(
    const std::vector<std::pair<int, std::function<bool()>>> &Tasks)>;

enum class SplitOutcome { Done, NotSplit, Failed };

struct SplitResult {
  SplitOutcome Outcome = SplitOutcome::NotSplit;
  std::string Reason; // NotSplit, Failed
  /// Members whose chunk failed (their chunks were rerun on another member).
  std::vector<size_t> FailedMembers;
  /// Members left out of this launch for lack of memory for their chunks'
  /// data (the iterations went to the others).
  std::vector<size_t> NoRoomMembers;
  /// Per member: iterations and time spent in its chunks.
  std::vector<MemberUsage> Usage;
};

/// Splits the launch over Members; a member whose node cannot hold its
/// chunks' data is left out and the launch is planned again without it.
SplitResult launchSplit(DataLayer &Layer, const SplitLaunchInput &In,
                        const std::vector<SplitMember> &Members,
                        const ChunkLauncher &Launch, const TaskRunner &Run);

} // namespace hetero

#endif // HETERO_SPLITLAUNCH_H

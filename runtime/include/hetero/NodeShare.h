//===- NodeShare.h - MPI ranks sharing a node ---------------------*- C++
//-*-===//
//
// Under an MPI launcher with several ranks per node, each rank's pool is its
// own part of the node (HETERO_NODE_SPLIT=auto, the default):
//
//   - the launcher's node-local rank and rank count come from its
//     environment (Open MPI, MPICH/Hydra, Intel MPI, PMIx, Slurm, PALS);
//     without them the process is alone on its node;
//   - cores: a rank the launcher bound (its affinity mask is a strict subset
//     of the node's online cores) keeps its binding. An unbound rank takes
//     the r-th of s contiguous slices of its mask (ranks beyond the number
//     of cores share one core each, round robin), so that no two ranks' CPU
//     pools and StarPU workers run on the same cores;
//   - GPUs: when CUDA_VISIBLE_DEVICES is set, the launcher or the user gave
//     the rank its GPUs and hetero uses every one it sees. Otherwise rank r
//     of s takes the GPUs g with g % s == r; with fewer GPUs than ranks, GPU
//     r % count (ranks then share GPUs, as they would without hetero).
//
// HETERO_INFO=1 prints the rank, where it was read, and its cores and GPUs.
//
//===----------------------------------------------------------------------===//
#ifndef HETERO_NODESHARE_H
#define HETERO_NODESHARE_H

#include "hetero/Settings.h"

#include <string>
#include <vector>

namespace hetero {

/// This process's place among the ranks of its node.
struct NodeRank {
  unsigned Rank = 0, Size = 1;
  /// The variable it was read from; empty when no launcher said.
  std::string Source;
  bool shared() const { return Size > 1; }
};

/// Reads the launcher's node-local rank and count; Size 1 when none is set
/// or the values do not make sense (a rank not below the count).
NodeRank nodeRankFromEnv(const GetEnvFn &GetEnv);

/// The cores rank R uses, of Mask (its affinity, ascending core ids) on a
/// node whose online cores are Online: Mask itself when the rank is alone
/// or was bound, else its slice of Mask.
std::vector<int> rankCores(const std::vector<int> &Mask,
                           const std::vector<int> &Online, const NodeRank &R);

/// The GPUs (of Count, numbered 0..Count-1) rank R uses when the launcher
/// did not choose them.
std::vector<int> rankGpus(int Count, const NodeRank &R);

/// "0-3,6": a list of core or GPU ids, ascending.
std::string idListText(const std::vector<int> &Ids);

/// This process's affinity mask and the node's online cores (Linux).
std::vector<int> processCores();
std::vector<int> onlineCores();
/// Narrows every thread of the process (those that exist: later ones
/// inherit it) to Cores. False with the reason in Err when the system
/// refuses.
bool restrictProcessTo(const std::vector<int> &Cores, std::string &Err);

} // namespace hetero

#endif // HETERO_NODESHARE_H

//===- NodeShare.cpp - MPI ranks sharing a node ---------------------------===//
#include "hetero/NodeShare.h"

#include <dirent.h>
#include <sched.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdlib>
#include <cstring>

namespace hetero {

namespace {

bool readCount(const char *Text, unsigned &Out) {
  if (!Text || !*Text)
    return false;
  uint64_t V;
  if (!parseInteger(Text, 0, 1u << 20, V))
    return false;
  Out = static_cast<unsigned>(V);
  return true;
}

} // namespace

NodeRank nodeRankFromEnv(const GetEnvFn &GetEnv) {
  // (rank variable, count variable), the launchers' own names.
  static const char *const Pairs[][2] = {
      {"OMPI_COMM_WORLD_LOCAL_RANK", "OMPI_COMM_WORLD_LOCAL_SIZE"},
      {"MPI_LOCALRANKID", "MPI_LOCALNRANKS"},     // MPICH Hydra, Intel MPI
      {"PMI_LOCAL_RANK", "PMI_LOCAL_SIZE"},       // PMI-2 launchers
      {"PMIX_LOCAL_RANK", "PMIX_LOCAL_SIZE"},     // PMIx
      {"PALS_LOCAL_RANKID", "PALS_LOCAL_SIZE"},   // HPE PALS
      {"SLURM_LOCALID", "SLURM_NTASKS_PER_NODE"}, // srun
  };
  NodeRank R;
  for (const auto &P : Pairs) {
    unsigned Rank, Size;
    if (!readCount(GetEnv(P[0]), Rank) || !readCount(GetEnv(P[1]), Size))
      continue;
    if (Size == 0 || Rank >= Size)
      continue;
    R.Rank = Rank;
    R.Size = Size;
    R.Source = P[0];
    return R;
  }
  return R;
}

std::vector<int> rankCores(const std::vector<int> &Mask,
                           const std::vector<int> &Online, const NodeRank &R) {
  if (!R.shared() || Mask.empty())
    return Mask;
  // A mask narrower than the node's: the launcher bound this rank.
  bool Bound = std::any_of(Online.begin(), Online.end(), [&](int C) {
    return !std::binary_search(Mask.begin(), Mask.end(), C);
  });
  if (Bound)
    return Mask;
  size_t N = Mask.size();
  if (R.Size >= N)
    return {Mask[R.Rank % N]};
  size_t Lo = N * R.Rank / R.Size, Hi = N * (R.Rank + 1) / R.Size;
  return std::vector<int>(Mask.begin() + Lo, Mask.begin() + Hi);
}

std::vector<int> rankGpus(int Count, const NodeRank &R) {
  std::vector<int> Out;
  if (Count <= 0)
    return Out;
  if (!R.shared()) {
    for (int G = 0; G < Count; ++G)
      Out.push_back(G);
    return Out;
  }
  if (static_cast<unsigned>(Count) < R.Size)
    return {static_cast<int>(R.Rank % Count)};
  for (int G = 0; G < Count; ++G)
    if (static_cast<unsigned>(G) % R.Size == R.Rank)
      Out.push_back(G);
  return Out;
}

std::string idListText(const std::vector<int> &Ids) {
  std::string Out;
  for (size_t I = 0; I < Ids.size();) {
    size_t J = I;
    while (J + 1 < Ids.size() && Ids[J + 1] == Ids[J] + 1)
      ++J;
    Out += (Out.empty() ? "" : ",") + std::to_string(Ids[I]);
    if (J > I)
      Out += "-" + std::to_string(Ids[J]);
    I = J + 1;
  }
  return Out.empty() ? "none" : Out;
}

std::vector<int> processCores() {
  std::vector<int> Cores;
  cpu_set_t Set;
  if (sched_getaffinity(0, sizeof(Set), &Set) != 0)
    return Cores;
  for (int C = 0; C < CPU_SETSIZE; ++C)
    if (CPU_ISSET(C, &Set))
      Cores.push_back(C);
  return Cores;
}

std::vector<int> onlineCores() {
  std::vector<int> Cores;
  long N = sysconf(_SC_NPROCESSORS_ONLN);
  // Online cores are numbered 0..N-1 on every machine we run on; a machine
  // with holes only makes a rank look bound, which keeps its mask.
  for (long C = 0; C < N && C < CPU_SETSIZE; ++C)
    Cores.push_back(static_cast<int>(C));
  return Cores;
}

bool restrictProcessTo(const std::vector<int> &Cores, std::string &Err) {
  cpu_set_t Set;
  CPU_ZERO(&Set);
  for (int C : Cores)
    if (C >= 0 && C < CPU_SETSIZE)
      CPU_SET(C, &Set);
  DIR *Tasks = opendir("/proc/self/task");
  if (!Tasks) {
    if (sched_setaffinity(0, sizeof(Set), &Set) == 0)
      return true;
    Err = strerror(errno);
    return false;
  }
  bool Ok = true;
  while (struct dirent *E = readdir(Tasks)) {
    if (E->d_name[0] == '.')
      continue;
    pid_t Tid = static_cast<pid_t>(atoi(E->d_name));
    // A thread that ended meanwhile is no failure.
    if (sched_setaffinity(Tid, sizeof(Set), &Set) != 0 && errno != ESRCH) {
      Err = strerror(errno);
      Ok = false;
    }
  }
  closedir(Tasks);
  return Ok;
}

} // namespace hetero

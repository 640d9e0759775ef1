//===- PoolPlan.cpp - The pool's defaults, as rules -----------------------===//
#include "hetero/PoolPlan.h"

#include <algorithm>
#include <climits>

namespace hetero::poolplan {

double gpuMemberWeight(int GpuSplit) {
  return GpuWeight / std::max(1, GpuSplit);
}

int starpuCpuWorkers(int Simulated, int Gpus, int GpuSplit) {
  return Simulated + 1 + Gpus * (std::max(1, GpuSplit) - 1);
}

int cpuPoolThreads(uint64_t Setting, int Cores, int GpuMembers) {
  if (Setting)
    return static_cast<int>(std::min<uint64_t>(Setting, INT_MAX));
  return std::max(1, Cores - GpuMembers);
}

int cpuPoolBlocktime(int GpuMembers, bool UserBlocktime) {
  return GpuMembers > 0 && !UserBlocktime ? 1 : -1;
}

int cpuChunkThreadLimit(uint32_t ThreadLimit, bool Reduces, bool CpuPool,
                        int PoolThreads) {
  int Clause = static_cast<int>(std::min<uint32_t>(ThreadLimit, INT_MAX));
  if (Clause == 1 && Reduces)
    return -1;
  if (Clause != 0)
    return Clause;
  return CpuPool ? PoolThreads : 0;
}

uint32_t gpuChunkTeams(double Fraction, uint64_t ResidentThreads,
                       uint32_t ThreadLimit) {
  uint64_t Threads = ThreadLimit ? ThreadLimit : NvptxTeamSize;
  auto Teams =
      static_cast<uint64_t>(Fraction * static_cast<double>(ResidentThreads) /
                            static_cast<double>(Threads));
  return static_cast<uint32_t>(std::clamp<uint64_t>(Teams, 1, UINT32_MAX));
}

} // namespace hetero::poolplan

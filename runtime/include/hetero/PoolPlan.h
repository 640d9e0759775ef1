//===- PoolPlan.h - The pool's defaults, as rules ---------------*- C++ -*-===//
//
// Every default number that shapes the pool, in one place and free of CUDA,
// StarPU and LLVM, so that each is a stated, unit-tested rule rather than a
// constant inside the plugin's start (tests/unit/PoolPlanTest.cpp): what a
// member weighs before anything is measured, how many CPU workers StarPU
// gets, the CPU pool's team size and blocktime beside the GPUs, a CPU
// chunk's thread limit, a GPU chunk's team count for a grid fraction. The
// plugin (PluginBackend) asks these with what it found on the machine.
//
//===----------------------------------------------------------------------===//
#ifndef HETERO_POOLPLAN_H
#define HETERO_POOLPLAN_H

#include <cstdint>

namespace hetero::poolplan {

/// A GPU's static weight against a CPU-side member's 1 (Member::Share): a
/// GPU's memory bandwidth over the node's cores', about 32 to 1. The share
/// model replaces it with measured speeds.
constexpr double GpuWeight = 32;
/// A GPU member's weight: the GPU's, over its parts under HETERO_GPU_SPLIT.
double gpuMemberWeight(int GpuSplit);

/// StarPU's CPU workers: one per CPU-side member (each simulated
/// accelerator, and the CPU pool, whose kernels fork their own OpenMP team)
/// and one for each part of a split GPU past the first (StarPU has one CUDA
/// worker per GPU). Tasks go to named workers: more would only spin against
/// the CPU pool's team (12x slower CPU chunks with one worker per core on an
/// H200 node).
int starpuCpuWorkers(int Simulated, int Gpus, int GpuSplit);

/// The CPU pool's OpenMP threads: HETERO_CPU_THREADS (Setting, 0 unset),
/// else a core per GPU member left to that member's worker, at least 1.
int cpuPoolThreads(uint64_t Setting, int Cores, int GpuMembers);

/// The CPU pool's teams' blocktime in milliseconds (CpuTeam.h): 1 beside GPU
/// members, so that its threads sleep soon after a chunk and leave the
/// cores to the GPUs' workers, unless the user set KMP_BLOCKTIME; -1 keeps
/// libomp's.
int cpuPoolBlocktime(int GpuMembers, bool UserBlocktime);

/// The thread limit of a chunk on a CPU-side member: the kernel's own
/// (ThreadLimit: a thread_limit or num_threads clause, 1 for a kernel
/// without a parallel region, 0 for none), as under the stock host plugin;
/// else the CPU pool's threads on the CPU pool, and 0 (the host plugin's
/// default) on a simulated accelerator. Never 1 on a kernel with a
/// reduction: libomp then asserts in the teams reduction's barrier after a
/// `target nowait`; such a kernel gets -1 (its teams sized by its code).
int cpuChunkThreadLimit(uint32_t ThreadLimit, bool Reduces, bool CpuPool,
                        int PoolThreads);

/// Clang's team size for NVPTX kernels without a thread limit.
constexpr uint32_t NvptxTeamSize = 128;
/// The teams of a GPU chunk whose grid fills Fraction of the member's
/// ResidentThreads (TeamsTrial.h): teams of the kernel's thread limit, else
/// of NvptxTeamSize; at least one.
uint32_t gpuChunkTeams(double Fraction, uint64_t ResidentThreads,
                       uint32_t ThreadLimit);

} // namespace hetero::poolplan

#endif // HETERO_POOLPLAN_H

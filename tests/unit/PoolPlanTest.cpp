//===- PoolPlanTest.cpp - The pool's defaults, as rules -------------------===//
//
// Each default that shapes the pool (PoolPlan.h), stated on the machines it
// is meant for: one H200 node (16 cores), four GPUs of 64 cores, a GPU split
// in parts, a CPU-only pool.
//
//===----------------------------------------------------------------------===//
#include "hetero/PoolPlan.h"

#include <gtest/gtest.h>

using namespace hetero;
using namespace hetero::poolplan;

// A GPU weighs 32 CPU-side members; its parts share that.
TEST(PoolPlan, AGpuWeighsThirtyTwoAndItsPartsShareIt) {
  EXPECT_EQ(gpuMemberWeight(1), 32);
  EXPECT_EQ(gpuMemberWeight(2), 16);
  EXPECT_EQ(gpuMemberWeight(4), 8);
  EXPECT_EQ(gpuMemberWeight(0), 32); // not split
}

// One StarPU CPU worker per CPU-side member, plus one per extra GPU part.
TEST(PoolPlan, StarPUGetsAWorkerPerCpuSideMemberAndGpuPart) {
  EXPECT_EQ(starpuCpuWorkers(0, 4, 1), 1); // four GPUs and the CPU pool
  EXPECT_EQ(starpuCpuWorkers(3, 0, 1), 4); // HETERO_SIMULATE=3, no GPU
  EXPECT_EQ(starpuCpuWorkers(0, 1, 4), 4); // one GPU in four parts
  EXPECT_EQ(starpuCpuWorkers(2, 2, 2), 5);
}

// The CPU pool leaves a core to each GPU member's worker, unless told.
TEST(PoolPlan, TheCpuPoolLeavesACorePerGpuMember) {
  EXPECT_EQ(cpuPoolThreads(0, 16, 1), 15);
  EXPECT_EQ(cpuPoolThreads(0, 64, 4), 60);
  EXPECT_EQ(cpuPoolThreads(0, 2, 0), 2); // CI: no GPU
  EXPECT_EQ(cpuPoolThreads(0, 2, 4), 1); // never none
  EXPECT_EQ(cpuPoolThreads(6, 64, 4), 6);
}

// Beside GPUs its threads sleep after 1 ms, unless the user said otherwise.
TEST(PoolPlan, TheCpuPoolSleepsSoonBesideGpus) {
  EXPECT_EQ(cpuPoolBlocktime(1, false), 1);
  EXPECT_EQ(cpuPoolBlocktime(1, true), -1);
  EXPECT_EQ(cpuPoolBlocktime(0, false), -1);
}

// A CPU chunk keeps the kernel's own thread limit, never 1 with a
// reduction; without one, the CPU pool's size (the host plugin's default on
// a simulated accelerator).
TEST(PoolPlan, ACpuChunkKeepsTheKernelsThreadLimit) {
  EXPECT_EQ(cpuChunkThreadLimit(8, false, true, 15), 8);
  EXPECT_EQ(cpuChunkThreadLimit(1, false, true, 15), 1);
  EXPECT_EQ(cpuChunkThreadLimit(1, true, true, 15), -1);
  EXPECT_EQ(cpuChunkThreadLimit(0, true, true, 15), 15);
  EXPECT_EQ(cpuChunkThreadLimit(0, false, false, 15), 0);
  EXPECT_EQ(cpuChunkThreadLimit(UINT32_MAX, false, true, 15), INT32_MAX);
}

// A GPU chunk's teams fill its fraction of the resident threads, in teams
// of the kernel's thread limit or of clang's 128; at least one.
TEST(PoolPlan, AGpuChunkFillsItsFractionOfTheResidentThreads) {
  const uint64_t H200 = 132 * 2048; // SMs x resident threads per SM
  EXPECT_EQ(gpuChunkTeams(1.0, H200, 0), 132u * 16);
  EXPECT_EQ(gpuChunkTeams(0.5, H200, 256), 132u * 4);
  EXPECT_EQ(gpuChunkTeams(2.0, H200 / 4, 0), 132u * 8); // a quarter part
  EXPECT_EQ(gpuChunkTeams(1e-9, H200, 0), 1u);
}

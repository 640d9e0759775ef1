//===- CpuTeam.h - Size of the CPU members' OpenMP teams --------*- C++ -*-===//
//
// CPU members (the CPU pool, simulated accelerators) run kernels through the
// x86_64 image, whose code forks its own OpenMP teams from the thread that
// launches it. libomp caps those teams by the thread-limit of the launching
// thread's current task (what `target thread_limit(n)` sets, and what
// omp_get_thread_limit() reports inside the kernel). For each launch that cap
// is the kernel's own thread count when it has one (as under the stock host
// plugin), except a count of 1 on a kernel with a reduction: with a task
// thread-limit of 1, libomp asserts in the teams reduction's barrier after
// a `target nowait` (as stock does under OMP_NUM_THREADS=1;
// llvm-project#81488). Otherwise, for the CPU pool, the pool's thread
// count: on a GPU node each GPU's StarPU worker polls on a core of its own,
// and a team over every core would share a core with it (every barrier would
// wait for the thread that lost it). The cap is put back when the launch
// ends, so that it never leaks into the next kernel or into the user's
// thread.
//
// Beside GPU members, the CPU pool's threads sleep a millisecond after a
// kernel's teams end (a blocktime of 1 ms) instead of spinning for libomp's
// 200 ms: a GPU's StarPU worker and the user's thread, which launch the
// next kernels, would otherwise find every core taken (CG's launches took up
// to twice as long after a CPU chunk). Not 0: the parallel regions inside
// one kernel follow each other within microseconds, and threads put to sleep
// between them ran Himeno's CPU part seven times slower. KMP_BLOCKTIME, when
// the user sets it, is left alone.
//
//===----------------------------------------------------------------------===//
#ifndef HETERO_PLUGIN_CPUTEAM_H
#define HETERO_PLUGIN_CPUTEAM_H

namespace hetero {

/// Sets the calling thread's task thread-limit to Threads (> 0) for its
/// lifetime and restores the previous one afterwards. Threads <= 0, or a
/// libomp without the entry points: no change.
class ScopedThreadLimit {
public:
  explicit ScopedThreadLimit(int Threads);
  ~ScopedThreadLimit();
  ScopedThreadLimit(const ScopedThreadLimit &) = delete;
  ScopedThreadLimit &operator=(const ScopedThreadLimit &) = delete;

private:
  int Saved = 0; // 0: nothing to restore
};

/// Sets the blocktime (KMP_BLOCKTIME, milliseconds) of the teams the
/// calling thread forks to Ms (>= 0) for its lifetime and restores the
/// previous one afterwards. Ms < 0, or a libomp without the entry points:
/// no change.
class ScopedBlocktime {
public:
  explicit ScopedBlocktime(int Ms);
  ~ScopedBlocktime();
  ScopedBlocktime(const ScopedBlocktime &) = delete;
  ScopedBlocktime &operator=(const ScopedBlocktime &) = delete;

private:
  int Saved = -1; // -1: nothing to restore
};

/// A CPU-side kernel ran: libomp runs, and StarPU workers may be its root
/// threads (see retireOpenMPHelpers).
void noteCpuKernelRan();

/// Called before StarPU's workers stop. libomp's hidden-helper team (made
/// at the first `target nowait`) is torn down by the first of its root
/// threads to exit, behind a check without a lock: StarPU workers that ran
/// CPU kernels are roots, and exiting together two of them could both wait
/// for the teardown, which signals one waiter only; StarPU's join then hung
/// for ever (0.1-0.2% of runs of `nowait` programs). Once a CPU-side kernel
/// ran, a thread of hetero's own becomes a root and exits alone, so the
/// team goes with it and the workers' exits skip it. The same teardown
/// libomp does at exit, done earlier by one thread.
void retireOpenMPHelpers();

} // namespace hetero

#endif

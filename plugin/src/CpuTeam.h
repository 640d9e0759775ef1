//===- CpuTeam.h - Size of the CPU pool's OpenMP team -----------*- C++ -*-===//
//
// The CPU pool runs its chunks through the x86_64 image, whose kernels fork
// their own OpenMP team from the StarPU worker thread. On a GPU node each
// GPU's StarPU worker polls on a core of its own: a team over every core
// would share a core with it, and every barrier would wait for the thread
// that lost it.
//
//===----------------------------------------------------------------------===//
#ifndef HETERO_PLUGIN_CPUTEAM_H
#define HETERO_PLUGIN_CPUTEAM_H

namespace hetero {

/// Caps the OpenMP teams and parallel regions that the calling thread forks
/// from now on at Threads (libomp's thread-limit of the thread's task, as a
/// `target thread_limit` clause sets it). Once per thread; a no-op for
/// Threads <= 0 or a libomp without the entry point. True when applied.
bool limitOpenMPThreads(int Threads);

} // namespace hetero

#endif

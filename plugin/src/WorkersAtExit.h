//===- WorkersAtExit.h - StarPU stops before CUDA unloads -------*- C++ -*-===//
//
// The pool starts on a thread of its own (PoolStart.h), where StarPU first
// calls the CUDA runtime: the runtime's exit handler is registered after the
// one libomptarget registered to take the plugins down, and so runs first.
// StarPU's CUDA workers then abort on their way out ("driver shutting
// down"). A handler registered after the runtime's stops them first.
//
//===----------------------------------------------------------------------===//
#ifndef HETERO_PLUGIN_WORKERSATEXIT_H
#define HETERO_PLUGIN_WORKERSATEXIT_H

namespace hetero {

class StarPUWorkers;

/// Called on the start's thread once StarPU runs: at exit, Workers stop
/// before the CUDA runtime unloads; kernels after that run on the launching
/// thread.
void stopWorkersAtExit(StarPUWorkers &Workers);
/// The workers are stopped (deinit) or about to go away.
void forgetWorkersAtExit();

} // namespace hetero

#endif // HETERO_PLUGIN_WORKERSATEXIT_H

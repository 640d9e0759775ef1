//===- GpuLane.h - A GPU member's queue of kernels and copies ---*- C++ -*-===//
//
// Every chunk a GPU member runs goes in its lane, in start order (BackEnds),
// so that a launch may leave chunks running when it returns (Engine.h's
// run-ahead) and the next launch's chunks queue behind them. Copies between
// two members' memories go in the lanes too where run-ahead is on
// (CudaNodeOps::queueCopyInLanes): ordered after what either lane holds and
// before what either is given later, with no wait on the host.
//
//===----------------------------------------------------------------------===//
#ifndef HETERO_PLUGIN_GPULANE_H
#define HETERO_PLUGIN_GPULANE_H

#include "omptarget.h"

#include <mutex>

namespace hetero {

/// A stream of the cuda plugin's pool, held in the async info until a wait
/// gives it back (the next use takes another: nothing is queued then, so
/// none need follow the last). Failed: a wait failed; the member's kernels
/// are lost from then on.
struct GpuLane {
  explicit GpuLane(int Device) : Device(Device) {}
  const int Device;
  std::mutex Mutex;
  __tgt_async_info Queue;
  bool Failed = false;
};

} // namespace hetero

#endif // HETERO_PLUGIN_GPULANE_H

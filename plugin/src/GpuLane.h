//===- GpuLane.h - A GPU member's queue of chunks and copies ----*- C++ -*-===//
//
// A GPU member's lane: a stream of the cuda plugin's pool, held in the async
// info until a wait gives it back (the next chunk takes another: nothing is
// queued then, so none need follow the last). The member's chunks run in it
// (PluginBackend), and so do copies from other GPUs into its memory
// (CudaNodeOps::queueCopyInLane): those wait in Copies until the lane's next
// chunk starts, then go in the stream right before it, from the thread that
// starts it, so that a launch's copies into several GPUs are issued in
// parallel; a wait for the lane issues what is left first. Failed: a copy or
// a wait failed (Why says which, in the driver's words); what the lane held
// is lost from then on. Another lane that
// must run after what this one holds (PluginBackend::orderAfter) waits on the
// device for Event, recorded at this lane's end (an event of its GPU) when
// something was issued since it last was: Issued counts what went in the
// stream, Recorded what the event covers. WaitedFor[S] is the Recorded
// count of lane S that this lane's stream last waited for: a launch's
// several copies from one GPU to another need its kernels' event waited
// for once (a stream synchronized since had it done by then).
//
//===----------------------------------------------------------------------===//
#ifndef HETERO_PLUGIN_GPULANE_H
#define HETERO_PLUGIN_GPULANE_H

#include "omptarget.h"

#include <cstddef>
#include <cstdint>
#include <mutex>
#include <string>
#include <vector>

namespace hetero {

struct GpuLane {
  struct Copy {
    int SrcDevice;
    const void *Src;
    void *Dst;
    size_t Size;
  };
  std::mutex Mutex; // guards all below
  __tgt_async_info Queue;
  std::vector<Copy> Copies;
  void *Event = nullptr; // a CUevent of the lane's GPU, made when first used
  uint64_t Issued = 0, Recorded = UINT64_MAX;
  std::vector<uint64_t> WaitedFor; // by source member; UINT64_MAX: never
  bool Failed = false;
  std::string Why;
};

} // namespace hetero

#endif // HETERO_PLUGIN_GPULANE_H

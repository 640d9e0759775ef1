//===- GpuLanes.h - The GPU members' chunks, copies and waits ---*- C++ -*-===//
//
// The GPU half of the plugin's Backend: each GPU member's lane (GpuLane.h,
// one stream), the chunks started in it and waited for (start, finish,
// release, settle), one lane ordered after another on the device through
// an event (orderAfter), the copies held for a lane's next chunk
// (issueHeld), and what a GPU chunk with a reduction uses there: its
// partials' slots (GpuPartialSlots.h) and its launch environment
// (GpuLaunchEnvironments.h). PluginBackend keeps the pool, the images and
// the kernels, works out each chunk's launch (entry, arguments, loop
// window: the Prepare it hands start()) and runs the CPU-side members'
// chunks itself.
//
// Every lane has a lock; a lane that failed stays failed and says why
// (GpuLane::Why) to every later start, finish and settle.
//
//===----------------------------------------------------------------------===//
#ifndef HETERO_PLUGIN_GPULANES_H
#define HETERO_PLUGIN_GPULANES_H

#include "GpuLane.h"
#include "GpuLaunchEnvironments.h"
#include "GpuPartialSlots.h"

#include "hetero/Backend.h"
#include "hetero/Pool.h"
#include "hetero/Status.h"

#include "PluginInterface.h"

#include "llvm/ADT/STLFunctionalExtras.h"

#include <cstddef>
#include <cstdint>
#include <memory>
#include <vector>

namespace hetero {

class GpuLanes {
public:
  using GenericPluginTy = llvm::omp::target::plugin::GenericPluginTy;

  /// What launching one chunk takes: the entry, libomptarget's launch
  /// arguments (a copy, adjusted) and the kernel's arguments.
  struct ChunkLaunch {
    void *Entry = nullptr;
    KernelArgsTy KA;
    std::vector<uintptr_t> Args;
    std::vector<ptrdiff_t> Offsets;
    void **argPtrs() { return reinterpret_cast<void **>(Args.data()); }
  };
  /// Works out a chunk's launch; a loop window it sets goes in Queue (the
  /// lane's stream), in order with the kernels there. A function_ref: no
  /// allocation at each chunk's start.
  using Prepare =
      llvm::function_ref<Status(__tgt_async_info *Queue, ChunkLaunch &Out)>;

  /// Members: the pool, whose GPU members get lanes (addMember).
  explicit GpuLanes(const Pool &Members) : Members(Members) {}
  ~GpuLanes();
  GpuLanes(const GpuLanes &) = delete;
  GpuLanes &operator=(const GpuLanes &) = delete;

  /// The cuda plugin, with its Devices GPUs, before any lane.
  void begin(GenericPluginTy &Cuda, int Devices);
  /// GPU D started: its reduction partials' slots (reserved now, else at
  /// the first reduction).
  void addDevice(int D);
  /// The lane of the pool's next member (GPU: a lane, shared with its
  /// memory node; otherwise null).
  std::shared_ptr<GpuLane> addMember(bool Gpu);

  /// Starts chunk C on its member's lane, after what is queued there: its
  /// window (PrepareChunk), the copies held for it, its partials'
  /// identities, the kernel, the partials' results.
  Status start(const ChunkRun &C, Prepare PrepareChunk, StartedChunk &S);
  Status finish(StartedChunk &S);
  void release(StartedChunk &S);
  Status settle(size_t M);
  LaneOrder orderAfter(size_t W, size_t S);
  void issueHeld();
  /// Waits for every lane and ends them (the nodes queue no more copies);
  /// frees the partials' device memory while the cuda plugin still runs.
  void stop();

private:
  struct StartedGpuChunk;
  /// Takes slots for chunk C's reduction partials on GPU member M (Taken),
  /// points their arguments in CL at them, and queues their identities'
  /// copies in Q.
  Status stagePartials(const Member &M, const ChunkRun &C, ChunkLaunch &CL,
                       std::vector<GpuPartialSlots::Slot> &Taken,
                       __tgt_async_info *Q);
  /// Waits for what is queued on Lane (of GPU Device), under its lock.
  Status waitLane(GpuLane &Lane, int Device);
  /// Issues the copies waiting in Lane (of GPU Device), under its lock: in
  /// its stream when it holds one, else each done before this returns.
  Status issueCopies(GpuLane &Lane, int Device);
  /// Ok, or the failure that ended Lane (GpuLane::Why).
  static Status laneStatus(const GpuLane &Lane);
  /// Ends Lane with S, unless it failed before.
  static void failLane(GpuLane &Lane, const Status &S);
  /// Makes member M's GPU context current on this thread.
  Status gpuContext(const Member &M);

  const Pool &Members;
  GenericPluginTy *Cuda = nullptr;
  /// Per member: a GPU's lane (null for the others).
  std::vector<std::shared_ptr<GpuLane>> Lanes;
  /// Per CUDA device: its chunks' reduction partials.
  std::vector<std::unique_ptr<GpuPartialSlots>> PartialSlots;
  /// Reduction kernels' launch environments.
  std::unique_ptr<GpuLaunchEnvironments> LaunchEnvs;
};

} // namespace hetero

#endif // HETERO_PLUGIN_GPULANES_H

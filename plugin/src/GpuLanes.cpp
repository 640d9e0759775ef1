//===- GpuLanes.cpp - The GPU members' chunks, copies and waits -----------===//
#include "GpuLanes.h"

#include "CudaBatchCopy.h"
#include "DriverStatus.h"

#include "hetero/Trace.h"

#include "omptarget.h"

#include <cstring>
#include <mutex>
#include <string>
#include <utility>

namespace hetero {

GpuLanes::~GpuLanes() = default;

void GpuLanes::begin(GenericPluginTy &C, int Devices) {
  Cuda = &C;
  PartialSlots.resize(static_cast<size_t>(Devices));
  LaunchEnvs = std::make_unique<GpuLaunchEnvironments>(C);
}

void GpuLanes::addDevice(int D) {
  PartialSlots[static_cast<size_t>(D)] =
      std::make_unique<GpuPartialSlots>(*Cuda, D);
  (void)PartialSlots[static_cast<size_t>(D)]->reserve();
}

std::shared_ptr<GpuLane> GpuLanes::addMember(bool Gpu) {
  Lanes.push_back(Gpu ? std::make_shared<GpuLane>() : nullptr);
  return Lanes.back();
}

void GpuLanes::stop() {
  for (size_t M = 0; M < Lanes.size(); ++M)
    if (Lanes[M]) {
      (void)settle(M); // their streams go back before the plugin stops
      std::lock_guard<std::mutex> Hold(Lanes[M]->Mutex);
      // The nodes queue no more copies there.
      failLane(*Lanes[M], Status::error(StatusCode::Invalid,
                                        "hetero's GPU lanes have stopped"));
      if (void *Event = std::exchange(Lanes[M]->Event, nullptr))
        (void)Cuda->destroy_event(Members[M].Device, Event);
    }
  Lanes.clear();
  PartialSlots.clear(); // device memory, while the cuda plugin runs
  LaunchEnvs.reset();
}

Status GpuLanes::gpuContext(const Member &M) {
  return statusOf(
      Cuda->getDevice(M.Device).setContext(), StatusCode::KernelFailed,
      [&] { return "the CUDA context of " + M.name() + " could not be set"; });
}

/// A chunk start() started: its member and its partials' slots.
struct GpuLanes::StartedGpuChunk {
  size_t Member = 0;
  int Device = -1;
  std::vector<ChunkPartial> Partials;
  std::vector<GpuPartialSlots::Slot> Slots;
};

Status GpuLanes::laneStatus(const GpuLane &Lane) {
  if (!Lane.Failed)
    return Status();
  return Status::error(StatusCode::KernelFailed, Lane.Why);
}

void GpuLanes::failLane(GpuLane &Lane, const Status &S) {
  if (!Lane.Failed)
    Lane.Why = S.message();
  Lane.Failed = true;
}

Status GpuLanes::waitLane(GpuLane &Lane, int Device) {
  if (Status S = issueCopies(Lane, Device); !S)
    return S;
  if (Lane.Queue.Queue)
    if (Status S = statusOf(Cuda->getDevice(Device).synchronize(&Lane.Queue),
                            StatusCode::KernelFailed,
                            [&] {
                              return "the stream of cuda:" +
                                     std::to_string(Device) + " failed";
                            });
        !S)
      failLane(Lane, S);
  return laneStatus(Lane);
}

// A copy in the lane's stream, a stream of the destination GPU, is issued
// with the source's context current, as the cuda plugin's peer copies are
// (CUDA runs a copy in a stream of another device's context).
Status GpuLanes::issueCopies(GpuLane &Lane, int Device) {
  Lane.Issued += !Lane.Copies.empty();
  // Several at once in one driver call, in the destination's context.
  if (!Lane.Copies.empty() && Lane.Queue.Queue &&
      CudaBatchCopy::get().available()) {
    llvm::Error Err = Cuda->getDevice(Device).setContext();
    bool Batched =
        !Err && CudaBatchCopy::get().copy(Lane.Queue.Queue, Lane.Copies);
    llvm::consumeError(std::move(Err));
    if (Batched) {
      Lane.Copies.clear();
      return Status();
    }
  }
  for (const GpuLane::Copy &C : Lane.Copies) {
    if (Lane.Failed)
      break;
    // In the lane's stream where it holds one, else done on return.
    if (Status S = statusOf(
            Cuda->getDevice(C.SrcDevice)
                .dataExchange(C.Src, Cuda->getDevice(Device), C.Dst,
                              static_cast<int64_t>(C.Size),
                              Lane.Queue.Queue ? &Lane.Queue : nullptr),
            StatusCode::CopyFailed,
            [&] {
              return "a copy of " + std::to_string(C.Size) +
                     " bytes from cuda:" + std::to_string(C.SrcDevice) +
                     " to cuda:" + std::to_string(Device) + " in its lane";
            });
        !S)
      failLane(Lane, S);
  }
  Lane.Copies.clear();
  return laneStatus(Lane);
}

// The kernel goes on the member's lane, after what is queued there. The
// partials' identities go up before it and their results come back after
// it, in that stream, through their slots' pinned twins.
Status GpuLanes::start(const ChunkRun &C, Prepare PrepareChunk,
                       StartedChunk &S) {
  const Member &M = Members[C.Member];
  if (C.Member >= Lanes.size() || !Lanes[C.Member])
    return Status::error(StatusCode::Invalid, M.name() + " has no lane");
  GpuLane &Lane = *Lanes[C.Member];
  std::lock_guard<std::mutex> Hold(Lane.Mutex);
  ++Lane.Issued; // the window, the copies, the partials, the kernel
  ChunkLaunch CL;
  if (Status Ready = laneStatus(Lane); !Ready)
    return Ready;
  if (Status Ready = gpuContext(M); !Ready)
    return Ready;
  if (Status Ready = PrepareChunk(&Lane.Queue, CL); !Ready)
    return Ready;
  // The copies into this GPU go after the window, which gave the lane its
  // stream; they leave the source's context current.
  if (!Lane.Copies.empty()) {
    TraceSpan Issuing(M.name().c_str(), "copy", "");
    if (Issuing.active())
      Issuing.setName("issue " + std::to_string(Lane.Copies.size()) +
                      " copies");
    if (Status Issued = issueCopies(Lane, M.Device); !Issued)
      return Issued;
    if (Status Ready = gpuContext(M); !Ready)
      return Ready;
  }
  auto Run = std::make_unique<StartedGpuChunk>();
  Run->Member = C.Member;
  Run->Device = M.Device;
  Run->Partials = C.Partials;
  __tgt_async_info *Q = &Lane.Queue;
  auto &Gpu = Cuda->getDevice(M.Device);
  Status Ok = stagePartials(M, C, CL, Run->Slots, Q);
  // A reduction kernel gets the member's own launch environment, first
  // among its arguments, where the plugin would make one for this launch.
  if (void *Env = (Ok && LaunchEnvs)
                      ? LaunchEnvs->get(C.Member, M.Device, CL.Entry)
                      : nullptr) {
    CL.Args.insert(CL.Args.begin(), reinterpret_cast<uintptr_t>(Env));
    CL.Offsets.insert(CL.Offsets.begin(), 0);
    CL.KA.NumArgs += 1;
    CL.KA.Version = GpuLaunchEnvironments::OwnEnvironmentVersion;
  }
  if (Ok)
    Ok = statusOf(
        Gpu.launchKernel(CL.Entry, CL.argPtrs(), CL.Offsets.data(), CL.KA, Q),
        StatusCode::KernelFailed,
        [&] { return "the kernel could not be launched on " + M.name(); });
  for (size_t I = 0; Ok && I < C.Partials.size(); ++I)
    Ok = statusOf(Gpu.dataRetrieve(Run->Slots[I].Host, Run->Slots[I].Device,
                                   C.Partials[I].Size, Q),
                  StatusCode::KernelFailed, [&] {
                    return "a reduction's partial could not be copied from " +
                           M.name();
                  });
  if (!Ok) {
    (void)waitLane(Lane, M.Device); // the slots' copies may be queued
    if (!Run->Slots.empty())
      PartialSlots[M.Device]->give(Run->Slots);
    return Ok;
  }
  S.Member = C.Member;
  S.Handle = Run.release();
  return Status();
}

Status GpuLanes::stagePartials(const Member &M, const ChunkRun &C,
                               ChunkLaunch &CL,
                               std::vector<GpuPartialSlots::Slot> &Taken,
                               __tgt_async_info *Q) {
  if (C.Partials.empty())
    return Status();
  GpuPartialSlots *Slots = static_cast<size_t>(M.Device) < PartialSlots.size()
                               ? PartialSlots[M.Device].get()
                               : nullptr;
  if (!Slots || !Slots->take(C.Partials.size(), Taken))
    return Status::error(StatusCode::KernelFailed,
                         "no room for a reduction's partials on " + M.name());
  auto &Gpu = Cuda->getDevice(M.Device);
  for (size_t I = 0; I < C.Partials.size(); ++I) {
    const ChunkPartial &P = C.Partials[I];
    const GpuPartialSlots::Slot &Slot = Taken[I];
    memcpy(Slot.Host, P.Identity, P.Size);
    if (P.Arg < CL.Args.size())
      CL.Args[P.Arg] = reinterpret_cast<uintptr_t>(Slot.Device);
    if (Status S = statusOf(Gpu.dataSubmit(Slot.Device, Slot.Host, P.Size, Q),
                            StatusCode::KernelFailed,
                            [&] {
                              return "a reduction's identity could not be "
                                     "copied to " +
                                     M.name();
                            });
        !S)
      return S;
  }
  return Status();
}

Status GpuLanes::finish(StartedChunk &S) {
  std::unique_ptr<StartedGpuChunk> Run(
      static_cast<StartedGpuChunk *>(std::exchange(S.Handle, nullptr)));
  if (!Run)
    return Status::error(StatusCode::Invalid, "no chunk was started");
  Status Ok;
  {
    GpuLane &Lane = *Lanes[Run->Member];
    std::lock_guard<std::mutex> Hold(Lane.Mutex);
    Ok = waitLane(Lane, Run->Device);
  }
  for (size_t I = 0; Ok && I < Run->Partials.size(); ++I)
    memcpy(Run->Partials[I].Result, Run->Slots[I].Host, Run->Partials[I].Size);
  if (!Run->Slots.empty())
    PartialSlots[Run->Device]->give(Run->Slots);
  return Ok;
}

void GpuLanes::release(StartedChunk &S) {
  auto *Run = static_cast<StartedGpuChunk *>(S.Handle);
  if (Run && !Run->Slots.empty()) {
    (void)finish(S); // its slots return once their copies have landed
    return;
  }
  delete Run;
  S.Handle = nullptr;
}

Status GpuLanes::settle(size_t M) {
  if (M >= Lanes.size() || !Lanes[M])
    return Status();
  GpuLane &Lane = *Lanes[M];
  std::lock_guard<std::mutex> Hold(Lane.Mutex);
  return waitLane(Lane, Members[M].Device);
}

// The event is recorded in S's stream and waited for in W's: CUDA lets a
// stream wait for an event of another device, and the wait takes the
// event's state at the call, so that one event per lane serves every wait.
LaneOrder GpuLanes::orderAfter(size_t W, size_t S) {
  if (W >= Lanes.size() || S >= Lanes.size() || !Lanes[W] || !Lanes[S])
    return LaneOrder::No;
  if (W == S)
    return LaneOrder::Ordered;
  GpuLane &From = *Lanes[S], &To = *Lanes[W];
  std::scoped_lock Hold(From.Mutex, To.Mutex);
  if (From.Failed || To.Failed)
    return LaneOrder::No;
  LaneOrder Done = From.Copies.empty() ? LaneOrder::Ordered : LaneOrder::Held;
  if (!From.Queue.Queue)
    return Done; // its stream was waited for: nothing issued is in flight
  if (From.Recorded == From.Issued && S < To.WaitedFor.size() &&
      To.WaitedFor[S] == From.Recorded)
    return Done; // waited for since, and nothing issued there after it
  TraceSpan Traced("host", "order", "order");
  const Member &Signal = Members[S], &Wait = Members[W];
  ++To.Issued; // the wait is in its stream: what waits for W waits for it
  if (!gpuContext(Signal))
    return LaneOrder::No;
  if (!From.Event &&
      Cuda->create_event(Signal.Device, &From.Event) != OFFLOAD_SUCCESS) {
    From.Event = nullptr;
    return LaneOrder::No;
  }
  // Recorded once for what the lane holds, however many lanes wait for it.
  if (From.Recorded != From.Issued) {
    if (Cuda->record_event(Signal.Device, From.Event, &From.Queue) !=
        OFFLOAD_SUCCESS)
      return LaneOrder::No;
    From.Recorded = From.Issued;
  }
  // The waiting lane may get its stream here: in its GPU's context.
  if (!gpuContext(Wait) ||
      Cuda->wait_event(Wait.Device, From.Event, &To.Queue) != OFFLOAD_SUCCESS)
    return LaneOrder::No;
  if (To.WaitedFor.size() <= S)
    To.WaitedFor.resize(S + 1, UINT64_MAX);
  To.WaitedFor[S] = From.Recorded;
  return Done;
}

void GpuLanes::issueHeld() {
  for (size_t M = 0; M < Lanes.size(); ++M) {
    if (!Lanes[M])
      continue;
    GpuLane &Lane = *Lanes[M];
    std::lock_guard<std::mutex> Hold(Lane.Mutex);
    if (!Lane.Failed && !Lane.Copies.empty())
      (void)issueCopies(Lane, Members[M].Device); // a failure marks the lane
  }
}

} // namespace hetero

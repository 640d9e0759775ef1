//===- Backend.h - What the engine asks of the back ends --------*- C++ -*-===//
//
// The engine decides who runs what and keeps the data coherent; the back ends
// (plugin/: LLVM's cuda and host plugins, one device per member) run
// kernels. This is all the engine asks of them: run one chunk of a launch on
// one member. The engine calls run() from the member's worker thread, for
// several members at once.
//
// Shaped for asynchronous launches: a chunk's window is part of the chunk,
// so a back end sets it in the member's stream order, right before the
// kernel; run() completes the chunk before it returns, and chunks of one
// member never overlap. A back end whose members queue kernels (GPUs) may
// also start a chunk from the launching thread and finish it later
// (start(), finish()): a launch whose chunks are all on such members then
// hands no chunk to a worker thread (a hand-over costs tens of
// microseconds a launch). Such a member's chunks go in one queue per
// member (a GPU's lane: one stream), in the order they start, so that the
// engine may leave a launch's chunks running after it returns (Engine.h's
// run-ahead): settle() waits for everything queued on the member so far.
//
// A split kernel's reductions give each chunk a private copy of the
// reduction variable (ChunkPartial): the back end provides its storage on
// the member, holding the operation's identity when the kernel starts, and
// hands its final bytes back with the chunk. A GPU does both copies in the
// kernel's stream, so a chunk with a reduction costs no synchronous copy
// (docs/measurements.md#reductions).
// Members that run on the host's addresses (the CPU pool, simulated
// accelerators) use HostPartials.
//
// A chunk that fails says why in the Status it returns (StatusCode::
// KernelFailed: what failed, on which member, in the driver's words); the
// engine decides what it means (another member reruns the chunk, or the
// launch fails) and prints it once. A back end prints nothing.
//
//===----------------------------------------------------------------------===//
#ifndef HETERO_BACKEND_H
#define HETERO_BACKEND_H

#include "hetero/MemoryNode.h"
#include "hetero/Status.h"

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <memory>
#include <string>
#include <vector>

namespace hetero {

/// A reduction's private copy for one chunk (Reduction.h). The back end
/// passes the kernel, as its argument Arg, the address of Size bytes on the
/// member that hold Identity when the kernel starts; once the chunk has
/// completed (run() or finish() returned ok), those bytes are in Result
/// (host memory of Size bytes).
struct ChunkPartial {
  unsigned Arg = 0;
  unsigned Size = 0; // 1 .. 8
  unsigned char Identity[8] = {};
  unsigned char *Result = nullptr;
};

/// One kernel run on one member: the whole kernel, or the window [Lo, Hi)
/// of its normalized iteration space.
struct ChunkRun {
  size_t Member = 0;
  bool Windowed = false;
  uint64_t Lo = 0, Hi = 0;
  /// A GPU chunk's grid: 0 for the back end's default, else the fraction of
  /// the member's resident threads its teams fill (TeamsTrial.h).
  double GridFraction = 0;
  /// The kernel's arguments in the member's address space (offsets applied).
  /// The arguments named by Partials are the back end's to fill.
  std::vector<uintptr_t> Args;
  std::vector<ChunkPartial> Partials;
};

/// The partials of a chunk that runs on the host's addresses: bind() points
/// the arguments at slots of this object holding the identities; after the
/// kernel, done() copies the slots to the results. Lives until the kernel
/// has completed.
class HostPartials {
public:
  explicit HostPartials(const ChunkRun &C) : Partials(C.Partials) {
    Slots.resize(Partials.size());
    for (size_t I = 0; I < Partials.size(); ++I)
      std::memcpy(&Slots[I], Partials[I].Identity, Partials[I].Size);
  }
  /// Args: the chunk's arguments, as the kernel will get them.
  void bind(std::vector<uintptr_t> &Args) {
    for (size_t I = 0; I < Partials.size(); ++I)
      if (Partials[I].Arg < Args.size())
        Args[Partials[I].Arg] = reinterpret_cast<uintptr_t>(&Slots[I]);
  }
  void done() const {
    for (size_t I = 0; I < Partials.size(); ++I)
      std::memcpy(Partials[I].Result, &Slots[I], Partials[I].Size);
  }

private:
  const std::vector<ChunkPartial> &Partials;
  std::vector<uint64_t> Slots; // 8-byte aligned, as any reduction type
};

/// A chunk start() started: its member and the back end's handle on it,
/// until finish().
struct StartedChunk {
  size_t Member = 0;
  void *Handle = nullptr;
};

class Backend {
public:
  virtual ~Backend();
  /// Runs C of the launch Launch (what the plugin handed the engine with the
  /// launch) on its member; ok when the kernel completed.
  virtual Status run(const void *Launch, const ChunkRun &C) = 0;
  /// Whether chunks on member M may be started with start() from any thread.
  virtual bool startsChunks(size_t /*M*/) const { return false; }
  /// Starts C without waiting for it, where startsChunks(C.Member); ok when
  /// it started (then finish() must be called once with S), an error when
  /// it did not (nothing to finish).
  virtual Status start(const void * /*Launch*/, const ChunkRun &C,
                       StartedChunk & /*S*/) {
    return Status::error(StatusCode::Invalid, "member " +
                                                  std::to_string(C.Member) +
                                                  " does not start chunks");
  }
  /// Waits for a started chunk (and so for everything queued before it on
  /// its member); ok when its kernel completed. A chunk that is never
  /// finished still ends: settle() waits for it.
  virtual Status finish(StartedChunk & /*S*/) {
    return Status::error(StatusCode::Invalid, "no chunk was started");
  }
  /// Forgets a started chunk without waiting for it: it stays queued on its
  /// member until settle() (or a later chunk's finish()).
  virtual void release(StartedChunk & /*S*/) {}
  /// A copy of Launch (what the plugin handed the engine) that stays valid
  /// after the launch returned, for chunks that another thread starts later
  /// (Engine.h's posted starts); null where the back end keeps none: then
  /// every chunk starts before its launch returns.
  virtual std::shared_ptr<const void> keepLaunch(const void * /*Launch*/) {
    return nullptr;
  }
  /// Waits for every chunk started on member M so far; an error when one of
  /// them failed (then every later settle() of M fails too).
  virtual Status settle(size_t /*M*/) { return Status(); }
  /// Orders two queues on the device: whatever member W's queue gets from
  /// now on runs only after everything already issued to member S's queue
  /// (its kernels and the copies issued there). A copy between two GPUs of
  /// a launch that runs ahead needs its source's kernels done: waited for
  /// on the host, each such launch drained every GPU before its chunks were
  /// queued, with the GPUs idle meanwhile.
  virtual LaneOrder orderAfter(size_t /*W*/, size_t /*S*/) {
    return LaneOrder::No;
  }
  /// Issues, on every member, the copies still held for a next chunk that
  /// did not start (a member that left the launch, a chunk that did not
  /// start): after each launch, so that the copies a lane holds are always
  /// the current launch's (LaneOrder::Held is safe to wait past: they read
  /// nothing the launch writes).
  virtual void issueHeld() {}
};

} // namespace hetero

#endif // HETERO_BACKEND_H

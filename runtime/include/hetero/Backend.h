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
// kernel; run() completes the chunk before it returns today, and chunks of
// one member never overlap.
//
//===----------------------------------------------------------------------===//
#ifndef HETERO_BACKEND_H
#define HETERO_BACKEND_H

#include <cstddef>
#include <cstdint>
#include <vector>

namespace hetero {

/// One kernel run on one member: the whole kernel, or the window [Lo, Hi)
/// of its normalized iteration space.
struct ChunkRun {
  size_t Member = 0;
  bool Windowed = false;
  uint64_t Lo = 0, Hi = 0;
  /// The kernel's arguments in the member's address space (offsets applied).
  std::vector<uintptr_t> Args;
};

class Backend {
public:
  virtual ~Backend();
  /// Runs C of the launch Launch (what the plugin handed the engine with the
  /// launch) on its member; true when the kernel completed.
  virtual bool run(const void *Launch, const ChunkRun &C) = 0;
};

} // namespace hetero

#endif // HETERO_BACKEND_H

//===- ParallelCopy.h - memcpy over several threads -------------*- C++ -*-===//
//
// Large copies between pinned staging and pageable host memory, and into
// the host's storage, which one thread does at a fraction of the link's and
// the memory's speed: into fresh (never touched) host pages, the page
// faults and the zeroing are the cost, and several threads share it
// (docs/measurements.md#host-copies). The threads start on first use and
// sleep between copies.
//
//===----------------------------------------------------------------------===//
#ifndef HETERO_PARALLELCOPY_H
#define HETERO_PARALLELCOPY_H

#include <condition_variable>
#include <cstddef>
#include <cstdint>
#include <mutex>
#include <thread>
#include <vector>

namespace hetero {

class ParallelCopier {
public:
  /// Copies use the calling thread and Threads - 1 helpers.
  explicit ParallelCopier(unsigned Threads);
  ~ParallelCopier();
  ParallelCopier(const ParallelCopier &) = delete;
  ParallelCopier &operator=(const ParallelCopier &) = delete;

  /// memcpy(Dst, Src, Size), split in pieces of at least MinPiece bytes
  /// over the threads; returns when every byte is copied. A copy that finds
  /// the helpers busy with another one copies on its own thread.
  void copy(void *Dst, const void *Src, size_t Size);
  unsigned threads() const { return NumThreads; }

  static constexpr size_t MinPiece = size_t(1) << 20;

private:
  void helperLoop();
  void runPieces(uint64_t Gen);

  unsigned NumThreads;
  std::mutex UseMutex; // one parallel copy at a time
  std::mutex JobMutex;
  std::condition_variable JobReady, JobDone;
  std::vector<std::thread> Helpers;
  // The current copy; all under JobMutex.
  char *Dst = nullptr;
  const char *Src = nullptr;
  size_t Size = 0, Piece = 0, Pieces = 0, NextPiece = 0, Finished = 0;
  uint64_t Generation = 0;
  bool Stopping = false;
};

/// The process's copier: one thread per core this process may use, at most
/// 16 (a node's memory bandwidth is reached well before).
ParallelCopier &sharedCopier();

} // namespace hetero

#endif // HETERO_PARALLELCOPY_H

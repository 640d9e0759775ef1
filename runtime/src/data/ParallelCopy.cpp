//===- ParallelCopy.cpp - memcpy over several threads ---------------------===//
#include "hetero/ParallelCopy.h"

#include <algorithm>
#include <cstring>
#include <sched.h>

namespace hetero {

ParallelCopier::ParallelCopier(unsigned Threads)
    : NumThreads(std::max(1u, Threads)) {}

ParallelCopier::~ParallelCopier() {
  {
    std::lock_guard<std::mutex> Lock(JobMutex);
    Stopping = true;
  }
  JobReady.notify_all();
  for (std::thread &T : Helpers)
    T.join();
}

void ParallelCopier::copy(void *To, const void *From, size_t Bytes) {
  std::unique_lock<std::mutex> Use(UseMutex, std::try_to_lock);
  if (NumThreads == 1 || Bytes < 2 * MinPiece || !Use.owns_lock()) {
    std::memcpy(To, From, Bytes);
    return;
  }
  uint64_t Gen;
  {
    std::lock_guard<std::mutex> Lock(JobMutex);
    if (Helpers.empty())
      for (unsigned I = 1; I < NumThreads; ++I)
        Helpers.emplace_back([this] { helperLoop(); });
    Dst = static_cast<char *>(To);
    Src = static_cast<const char *>(From);
    Size = Bytes;
    // Page-aligned pieces, one per thread (or fewer, of MinPiece).
    size_t Each = (Bytes / NumThreads + 4095) & ~size_t(4095);
    Piece = std::max(Each, MinPiece);
    Pieces = (Bytes + Piece - 1) / Piece;
    NextPiece = Finished = 0;
    Gen = ++Generation;
  }
  JobReady.notify_all();
  runPieces(Gen);
  std::unique_lock<std::mutex> Lock(JobMutex);
  JobDone.wait(Lock, [this] { return Finished == Pieces; });
}

// Pieces are claimed under the lock, for the copy of generation Gen only: a
// helper that wakes late finds that copy over (or another one) and claims
// nothing. A copy does not end before its claimed pieces are finished.
void ParallelCopier::runPieces(uint64_t Gen) {
  std::unique_lock<std::mutex> Lock(JobMutex);
  while (Generation == Gen && NextPiece < Pieces) {
    size_t Lo = NextPiece++ * Piece, N = std::min(Piece, Size - Lo);
    char *D = Dst + Lo;
    const char *S = Src + Lo;
    Lock.unlock();
    std::memcpy(D, S, N);
    Lock.lock();
    if (++Finished == Pieces)
      JobDone.notify_all();
  }
}

void ParallelCopier::helperLoop() {
  uint64_t Seen = 0;
  for (;;) {
    {
      std::unique_lock<std::mutex> Lock(JobMutex);
      JobReady.wait(Lock, [&] { return Stopping || Generation != Seen; });
      if (Stopping)
        return;
      Seen = Generation;
    }
    runPieces(Seen);
  }
}

ParallelCopier &sharedCopier() {
  static ParallelCopier Copier([] {
    cpu_set_t Set;
    unsigned Cores = 1;
    if (sched_getaffinity(0, sizeof(Set), &Set) == 0)
      Cores = static_cast<unsigned>(CPU_COUNT(&Set));
    return std::min(16u, std::max(1u, Cores));
  }());
  return Copier;
}

} // namespace hetero

//===- MemberQueues.h - What each member has queued and drained -*- C++ -*-===//
//
// A member that queues work (a GPU's lane: chunks that ran ahead, copies
// queued into it) is settled only once that work has drained. Two counts per
// member say so: Queued grows once something is in the queue (not before: a
// wait that read the count and drained the queue before the work went in
// would take it for drained), and Drained takes the value Queued had before
// a wait, once that wait has returned. A member is settled when Drained has
// reached Queued. A flag cleared before
// the wait (what this replaces) let another host thread, unmapping or freeing
// while the launching thread was still waiting, take the member for settled
// and free memory a queued kernel still read.
//
// Any thread may ask; waits may overlap (two threads waiting for the same
// queue both wait, and both raise Drained to what they waited for).
//
//===----------------------------------------------------------------------===//
#ifndef HETERO_MEMBERQUEUES_H
#define HETERO_MEMBERQUEUES_H

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <memory>

namespace hetero {

class MemberQueues {
public:
  explicit MemberQueues(size_t Members)
      : Count(Members), Queues(std::make_unique<Queue[]>(Members)) {}

  size_t size() const { return Count; }
  /// Called once something a later wait must cover is in M's queue.
  void noteQueued(size_t M) { Queues[M].Queued.fetch_add(1); }
  /// What a wait that starts now covers: pass it to drained() once the
  /// wait returned.
  uint64_t waitTarget(size_t M) const { return Queues[M].Queued.load(); }
  /// Whether M has queued work not known to have drained.
  bool ahead(size_t M) const {
    return Queues[M].Drained.load() < Queues[M].Queued.load();
  }
  /// Whether a wait for Target would find nothing to wait for.
  bool drainedUpTo(size_t M, uint64_t Target) const {
    return Queues[M].Drained.load() >= Target;
  }
  /// A wait that started when waitTarget() was Target has returned.
  void drained(size_t M, uint64_t Target) {
    std::atomic<uint64_t> &D = Queues[M].Drained;
    uint64_t Seen = D.load();
    while (Seen < Target && !D.compare_exchange_weak(Seen, Target)) {
    }
  }
  /// Queued work on M failed: for good (its results are lost).
  bool failed(size_t M) const { return Queues[M].Failed.load(); }
  /// Marks M failed; true for the first caller (who says so).
  bool markFailed(size_t M) { return !Queues[M].Failed.exchange(true); }

private:
  struct Queue {
    std::atomic<uint64_t> Queued{0}, Drained{0};
    std::atomic<bool> Failed{false};
  };
  size_t Count;
  std::unique_ptr<Queue[]> Queues;
};

} // namespace hetero

#endif // HETERO_MEMBERQUEUES_H

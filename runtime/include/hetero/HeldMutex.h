//===- HeldMutex.h - A mutex that knows which thread holds it ---*- C++ -*-===//
//
// DataLayer's and SectionCache's helpers named *Locked run under the class's
// mutex, taken by the public function that calls them. HeldMutex lets each
// of them assert that (where NDEBUG is not defined: the unit tests under
// sanitizers), for one relaxed store per lock and unlock. It is Lockable:
// std::lock_guard and std::unique_lock take it, and
// std::condition_variable_any waits on it.
//
//===----------------------------------------------------------------------===//
#ifndef HETERO_HELDMUTEX_H
#define HETERO_HELDMUTEX_H

#include <atomic>
#include <mutex>
#include <thread>

namespace hetero {

class HeldMutex {
public:
  void lock() {
    M.lock();
    Holder.store(std::this_thread::get_id(), std::memory_order_relaxed);
  }
  bool try_lock() {
    if (!M.try_lock())
      return false;
    Holder.store(std::this_thread::get_id(), std::memory_order_relaxed);
    return true;
  }
  void unlock() {
    Holder.store(std::thread::id(), std::memory_order_relaxed);
    M.unlock();
  }
  /// Whether the calling thread holds it (only the holder stores its own
  /// id, so the answer is exact for the caller).
  bool heldHere() const {
    return Holder.load(std::memory_order_relaxed) == std::this_thread::get_id();
  }

private:
  std::mutex M;
  std::atomic<std::thread::id> Holder{};
};

} // namespace hetero

#endif // HETERO_HELDMUTEX_H

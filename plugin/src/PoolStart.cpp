//===- PoolStart.cpp - The pool starts while the program does ------------===//
#include "PoolStart.h"

#include "hetero/Log.h"

namespace hetero {

const std::string &
PoolStart::wait(const std::function<void(const std::string &)> &Then) {
  std::call_once(Once, [&] {
    PhaseTimes Times;
    if (Thread.joinable())
      Thread.join();
    // The start's own phases were reported by its thread; this is what is
    // left of it when the program first needs the pool.
    Times.mark("waited at first use");
    Times.report("start");
    Then(Error);
    Done.store(true, std::memory_order_release);
  });
  return Error;
}

} // namespace hetero

//===- PoolStart.h - The pool starts while the program does ----*- C++ -*-===//
//
// Starting the pool (StarPU and its workers, the GPUs' contexts; the CUDA
// driver's own start comes first, PluginBackend::prepare) takes over 100 ms, as
// the stock cuda plugin's start does before main(). hetero runs it on a
// thread of its own from the moment libomptarget loads the plugin, so that
// it overlaps whatever the program does before it first uses the device
// (reading input, filling its arrays); the first entry point that needs the
// pool waits for the rest.
//
//===----------------------------------------------------------------------===//
#ifndef HETERO_PLUGIN_POOLSTART_H
#define HETERO_PLUGIN_POOLSTART_H

#include <atomic>
#include <functional>
#include <mutex>
#include <string>
#include <thread>

namespace hetero {

class PoolStart {
public:
  PoolStart() = default;
  PoolStart(const PoolStart &) = delete;
  PoolStart &operator=(const PoolStart &) = delete;
  ~PoolStart() {
    if (Thread.joinable())
      Thread.join();
  }

  /// Runs Start on a thread of its own; what it returns is the start's
  /// error ("" when the pool started).
  void begin(std::function<std::string()> Start) {
    Thread = std::thread([this, Start = std::move(Start)] { Error = Start(); });
  }
  /// The start ran on the calling thread, with this result.
  void ranHere(std::string Result) { Error = std::move(Result); }

  /// Waits for the start (once: later calls return at once) and returns its
  /// error. The first caller runs Then (with the error) after the wait,
  /// before any other caller returns; at HETERO_INFO=2 it says how long it
  /// waited.
  const std::string &
  wait(const std::function<void(const std::string &Error)> &Then);
  /// Whether wait() has returned to some caller.
  bool done() const { return Done.load(std::memory_order_acquire); }

private:
  std::thread Thread;
  std::string Error;
  std::once_flag Once;
  std::atomic<bool> Done{false};
};

} // namespace hetero

#endif // HETERO_PLUGIN_POOLSTART_H

//===- StarPUPool.h - The StarPU workers behind the device ------*- C++ -*-===//
//
// Starts StarPU with one CUDA worker per GPU and the CPU workers the plugin
// asks for, and runs work on a chosen worker as a StarPU task, or many at
// once. The plugin turns workers into pool members.
//
//===----------------------------------------------------------------------===//
#ifndef HETERO_STARPUPOOL_H
#define HETERO_STARPUPOOL_H

#include <functional>
#include <string>
#include <utility>
#include <vector>

namespace hetero {

class StarPUPool {
public:
  struct Config {
    int NumGpus = 0; // CUDA devices the plugin could initialise
    int NumCpus = 1; // CPU workers
  };
  struct Worker {
    int Id = -1;
    bool IsCuda = false;
    int DeviceId = -1; // CUDA ordinal for CUDA workers
  };

  /// Starts StarPU. False (and Err) when it cannot start.
  bool start(const Config &C, std::string &Err);
  void stop();
  bool started() const { return Started; }
  const std::vector<Worker> &workers() const { return Workers; }
  /// Runs Fn as a StarPU task on worker Id and waits for it. Returns what Fn
  /// returned, false if the task could not run.
  bool runOn(int Id, const std::function<bool()> &Fn);
  /// Submits every task (worker id, work) at once and waits for all of them;
  /// tasks for one worker run one after the other, in order. A task with
  /// worker -1 runs on the calling thread. Returns what each returned.
  std::vector<bool>
  runAll(const std::vector<std::pair<int, std::function<bool()>>> &Tasks);

  ~StarPUPool() { stop(); }

private:
  bool Started = false;
  std::vector<Worker> Workers;
};

/// Cores this process may use (its CPU affinity).
int availableCores();

} // namespace hetero

#endif // HETERO_STARPUPOOL_H

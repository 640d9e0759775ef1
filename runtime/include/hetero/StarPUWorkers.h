//===- StarPUWorkers.h - The StarPU workers behind the device ---*- C++ -*-===//
//
// Starts StarPU with one CUDA worker per GPU and the CPU workers the plugin
// asks for, and runs work on a chosen worker as a StarPU task, or many at
// once. The plugin turns workers into pool members. StarPU also measures
// the machine: its bus calibration (bandwidths between memories, cached in
// STARPU_HOME) and its hwloc view of the topology are reported from here.
//
//===----------------------------------------------------------------------===//
#ifndef HETERO_STARPUWORKERS_H
#define HETERO_STARPUWORKERS_H

#include <cstdio>
#include <functional>
#include <string>
#include <utility>
#include <vector>

namespace hetero {

class StarPUWorkers {
public:
  struct Config {
    int NumGpus = 0; // CUDA devices the plugin could initialise
    // Their CUDA ordinals when not 0..NumGpus-1 (a rank's GPUs, NodeShare.h).
    std::vector<int> GpuIds;
    int NumCpus = 1; // CPU workers
    // The user set STARPU_NCPU(S) / STARPU_NCUDA: StarPU reads them itself.
    bool KeepUserCpus = false;
    bool KeepUserCuda = false;
  };
  struct Worker {
    int Id = -1;
    bool IsCuda = false;
    int DeviceId = -1; // CUDA ordinal for CUDA workers
  };

  /// Sets the STARPU_* variables the pool needs, where the user has not:
  /// called before any other thread may read the environment (setenv is
  /// not safe against a concurrent getenv). start() calls it too.
  static void prepareEnvironment();
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
  /// worker -1 runs on the calling thread; without one, the calling thread
  /// runs the last task whose worker has no other (a single task never
  /// leaves it). Returns what each returned.
  std::vector<bool>
  runAll(const std::vector<std::pair<int, std::function<bool()>>> &Tasks);
  /// StarPU's measured bandwidth from worker From's memory to worker To's,
  /// in MB/s (its bus calibration); 0 when unknown.
  double bandwidth(int From, int To) const;
  /// StarPU's view of the topology (hwloc): workers, cores, memories; one
  /// line each.
  std::vector<std::string> topology() const;
  /// "1.3.10": the StarPU library in use.
  static std::string version();
  /// Where libstarpu and the CUDA runtime it uses were loaded from (or why
  /// StarPU did not load), for hetero-info.
  static std::string libraries();

  ~StarPUWorkers() { stop(); }

private:
  bool Started = false;
  std::vector<Worker> Workers;
};

/// Cores this process may use (its CPU affinity).
int availableCores();

} // namespace hetero

#endif // HETERO_STARPUWORKERS_H

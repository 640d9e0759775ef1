//===- ShareModel.h - Split shares from measured speed ----------*- C++ -*-===//
//
// The static weights (a GPU 32, a CPU-side member 1) are a guess; what a
// member is worth differs by kernel: the CPU cores run a compute-bound
// stencil at a third of a GPU's speed and a streaming kernel at a few
// percent, where the halo copies they cause cost more than they bring. So
// per kernel and problem size (the trip count, to a power of two) the model
// measures, and the launches of a split kernel go through phases:
//
//   probe     first the accelerators alone (when the CPU pool takes part
//             too: a kernel launched once, like an initialisation, never
//             pays for the CPU's first touches), then the policy's static
//             shares twice: the first of those warms up (first touches of
//             host pages, thread start-up, first copies) and is not
//             measured; at the second, every member's busy time
//             per iteration is measured; when the CPU pool's speed is less than
//             5% of everyone's (MinGain), it cannot pay for the copies and
//             the waiting it brings: settled on the accelerators at once;
//   mixed     shares proportional to the measured speeds, every member: one
//             launch moves the data to the new chunk boundaries, the next
//             is timed (wall time of the whole launch, copies included);
//   accel     the same over the accelerators alone (GPUs, simulated ones),
//             when the CPU pool takes part as well;
//   settled   the faster of the two timed launches, shares frozen from then
//             on, so chunk boundaries (and so halos) stay put between
//             launches;
//   verify    when mixed won: its launches are timed again once the other
//             kernels have settled too (the second after settling; the
//             first moves data). Each kernel chose on its own, and a
//             neighbour that settled on the accelerators can make the CPU's
//             part cost copies every launch: slower than the accelerators'
//             timed launch, the kernel settles there for good.
//
// Members of one kind are taken as equal (the GPUs of a node are one model):
// their measured speeds are averaged, and speeds within 10% of what the
// static shares assume keep the static shares, so that noise never moves a
// chunk boundary. A change in the members that may take chunks starts the
// kernel over. Disabled (HETERO_SHARES=fixed, or weights given in
// HETERO_MEMBERS), the static shares are used every time, so reductions repeat
// bit for bit from run to run; measured shares depend on timing, and a
// reduction's partials (combined in chunk order, Reduction.h) with them.
//
// Settled shares outlive the run: they are written to a file (Settings'
// SharesFile, by default ~/.cache/hetero/shares.txt) per pool (its members'
// names), kernel and problem size, and a later run of the same binary on the
// same pool starts settled ("persisted-..." in HETERO_STATS). A line of the
// file that cannot be read is ignored; the file keeps the newest MaxLines.
//
// The engine calls the model under its launch lock: one launch at a time.
//
//===----------------------------------------------------------------------===//
#ifndef HETERO_SHAREMODEL_H
#define HETERO_SHAREMODEL_H

#include "hetero/KernelStats.h"
#include "hetero/Policy.h"
#include "hetero/Pool.h"

#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace hetero {

class ShareModel {
public:
  explicit ShareModel(bool Enabled) : Enabled(Enabled) {}

  /// The model's name for a kernel's launches of one problem size.
  static std::string key(const std::string &Kernel, uint64_t TripCount);

  /// The shares of the next launch of Key, given the policy's static
  /// shares; Note says which phase chose them (for HETERO_STATS).
  std::vector<Share> shares(const std::string &Key, const Pool &P,
                            const std::vector<Share> &Static,
                            std::string &Note);
  /// What the launch that shares() planned measured: per pool member, its
  /// iterations and busy time; the launch's wall time.
  void record(const std::string &Key, const std::vector<MemberUsage> &Usage,
              double WallSeconds);

  /// Below this part of the pool's speed, the CPU pool is left out.
  static constexpr double MinGain = 0.05;
  static constexpr size_t MaxLines = 4096;

  /// Reads the settled shares of earlier runs on pool P from Path.
  void load(const std::string &Path, const Pool &P);
  /// Writes this run's settled shares to Path, keeping the other pools' and
  /// kernels' lines (newest first, at most MaxLines). False when the file
  /// could not be written.
  bool save(const std::string &Path, const Pool &P) const;

private:
  enum class Phase {
    Probe,
    Mixed,
    MixedTimed,
    Accel,
    AccelTimed,
    Verify,
    VerifyTimed,
    Settled
  };
  struct Entry {
    std::vector<size_t> Candidates; // pool indices, in pool order
    std::vector<bool> Accelerator;  // per candidate
    std::vector<MemberKind> Kind;   // per candidate
    std::vector<double> Rate;       // per candidate: iterations/s; 0 unknown
    Phase Now = Phase::Probe;
    int ProbeLaunch = 0; // measured at the last (see ProbeLaunches)
    double MixedWall = 0, AccelWall = 0;
    std::vector<Share> Static, Handed, Mixed, Accel, Settled;
    std::string Why; // of the settled shares
  };
  std::vector<Share> measured(const Entry &E, const std::vector<Share> &Static,
                              bool AcceleratorsOnly) const;
  /// E.Rate with each member's speed the average of its kind's.
  static std::vector<double> sameKindAverage(const Entry &E);
  /// Whether E's candidates hold accelerators and the CPU pool.
  static bool bothKinds(const Entry &E);
  /// The accelerators' shares of S (per candidate of E).
  static std::vector<Share> accelerators(const Entry &E,
                                         const std::vector<Share> &S);

  /// A settled entry of an earlier run: who could take chunks, the shares.
  struct Persisted {
    std::vector<size_t> Candidates;
    std::vector<Share> Settled;
    std::string Why;
  };

  bool Enabled;
  std::map<std::string, Entry> Entries;
  std::map<std::string, Persisted> Earlier;
};

} // namespace hetero

#endif // HETERO_SHAREMODEL_H

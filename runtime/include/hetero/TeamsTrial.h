//===- TeamsTrial.h - A GPU chunk's team count, measured -------*- C++ -*-===//
//
// How many teams a GPU runs a chunk with decides its speed as much as its
// share does: a stencil over k columns with a serial inner loop runs
// several times faster on a fraction of the GPU's resident threads than on
// the cuda plugin's default grid for its trip count
// (docs/measurements.md#teams-trial); other kernels want the default.
// Where the program leaves the
// team count to the implementation (no num_teams clause, no OMP_NUM_TEAMS),
// the engine measures, per kernel, trip-count class and GPU member, the
// default and a few smaller grids, and keeps the fastest.
//
// Contract:
//   - A shape is a fraction of the GPU's resident threads (its SM count times
//     the threads an SM holds) that the chunk's teams fill, or 0 for the
//     back end's default grid. Candidates: 1/2, 1/4, 1/8, 1/16, tried in
//     that order, as teams of the kernel's thread limit (else 128); one is
//     tried only where the chunk has an iteration for each of its threads.
//     One that takes more than StopAbove times the default's time per
//     iteration ends the trial: the kernel wants the whole GPU, and the
//     smaller grids would only lose more (docs/measurements.md#teams-trial).
//   - Per (kernel key, member): launch 1 runs the default and is not timed
//     (first-touch copies, module load); launches 2 and 3 time the default;
//     then each candidate runs once, but only once the member has spent
//     TrialAfter (HETERO_PROBE_AFTER, the threshold of the share model's
//     CPU probe) running the kernel in this run, or has run it
//     TrialAfterLaunches times: a candidate may take several times the
//     default's time (a streaming kernel on a sixteenth of the GPU), which a
//     short run never wins back (docs/measurements.md#teams-trial); a
//     kernel of microseconds launched hundreds of times (CG's dot) pays
//     little for its trial and gains from it. After the last candidate the
//     fastest time per iteration wins; a candidate must beat the default by
//     3% to be kept. The choice is then fixed for the process.
//   - A launch that runs a candidate is a trial: its times must not teach
//     the share model (ShareModel.h), whose GPU speed would otherwise swing.
//   - A launch that ran ahead (Engine.h) has no time: it may run only the
//     default grid after launches 2 and 3 timed it, or the grid kept, and
//     counts towards TrialAfterLaunches; candidates are always waited for.
//   - Disabled where the shares are fixed (HETERO_SHARES=fixed or weights in
//     HETERO_MEMBERS, so that reductions repeat bit for bit), under
//     HETERO_TEAMS=plugin, and with OMP_NUM_TEAMS set: always the default.
//
//===----------------------------------------------------------------------===//
#ifndef HETERO_TEAMSTRIAL_H
#define HETERO_TEAMSTRIAL_H

#include <array>
#include <cstddef>
#include <cstdint>
#include <map>
#include <string>
#include <string_view>
#include <utility>

namespace hetero {

class TeamsTrial {
public:
  static constexpr std::array<double, 4> Candidates = {1.0 / 2, 1.0 / 4,
                                                       1.0 / 8, 1.0 / 16};
  /// Launches before the first candidate (the first is not timed).
  static constexpr unsigned DefaultLaunches = 3;
  /// Launches after which candidates run whatever time they took: the four
  /// trial launches are then at most a tenth of the kernel's launches.
  static constexpr unsigned TrialAfterLaunches = 40;
  /// How much faster than the default a candidate must be to be kept.
  static constexpr double KeepBelow = 0.97;
  /// A candidate this much slower than the default ends the trial.
  static constexpr double StopAbove = 1.25;

  /// TrialAfter: seconds member M runs a kernel with the default grid, in
  /// this run, before it tries a candidate (unless it has run it
  /// TrialAfterLaunches times).
  explicit TeamsTrial(bool Enabled, double TrialAfter = 0)
      : Enabled(Enabled), TrialAfter(TrialAfter) {}

  struct Pick {
    double Fraction = 0; // 0: the back end's default grid
    bool Trial = false;  // a candidate under trial
  };
  /// The shape of member M's chunk of kernel Key, about Iterations
  /// iterations on a GPU that holds ResidentThreads threads at once (0:
  /// unknown, then the default).
  Pick pick(const std::string &Key, size_t M, uint64_t Iterations,
            uint64_t ResidentThreads);
  /// Whether member M's next launch of Key runs the default grid or the
  /// one kept, and its time is not needed: the grid is chosen for good, or
  /// the default has been timed and no candidate is due yet (then the launch
  /// counts towards TrialAfterLaunches through recordUntimed()).
  bool untimed(const std::string &Key, size_t M) const;
  void recordUntimed(const std::string &Key, size_t M);
  /// Member M ran its chunks of kernel Key with shape P: Iterations in
  /// Seconds.
  void record(const std::string &Key, size_t M, const Pick &P,
              uint64_t Iterations, double Seconds);
  /// "1/8:0.51x" (the shape kept, its time per iteration against the
  /// default's), "default", "trial" or "" (never picked) for the
  /// statistics.
  std::string note(const std::string &Key, size_t M) const;

private:
  struct State {
    unsigned Launches = 0; // recorded
    double Spent = 0;      // seconds of the default grid's launches
    double Default = 0;    // best time per iteration, 0: none yet
    /// Each candidate's time per iteration, 0: not run.
    std::array<double, Candidates.size()> Tried{};
    size_t Next = 0; // next candidate to consider
    bool Decided = false;
    double Kept = 0;  // the shape kept
    double Ratio = 1; // its time against the default's
  };
  void decide(State &S);
  /// Whether S's candidates may run (the rules above).
  bool trialDue(const State &S) const;

  bool Enabled;
  double TrialAfter;
  /// Per (kernel, member); looked up by a view of the kernel's name, since
  /// a launch looks several times per chunk and a name copied to build each
  /// key was a good part of a short launch's host time.
  using StateRef = std::pair<std::string_view, size_t>;
  struct StateLess {
    using is_transparent = void;
    static StateRef ref(const std::pair<std::string, size_t> &K) {
      return {K.first, K.second};
    }
    static StateRef ref(const StateRef &K) { return K; }
    template <class A, class B> bool operator()(const A &X, const B &Y) const {
      return ref(X) < ref(Y);
    }
  };
  std::map<std::pair<std::string, size_t>, State, StateLess> States;
};

} // namespace hetero

#endif // HETERO_TEAMSTRIAL_H

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
//             too), until the kernel has spent ProbeAfter on them in this
//             run (HETERO_PROBE_AFTER): trying the CPU pool costs its
//             thread start-up, first touches of host pages and moving its
//             part of the data there and back, from a few milliseconds
//             (CG's vectors) to a few hundred (Himeno L's arrays), which a
//             short run or a kernel of microseconds never wins back, nor an
//             initialisation launched once. Then the policy's static shares
//             with the CPU pool's cut to ProbeSliver of it, twice: the
//             first of those warms up (first touches of host pages, thread
//             start-up, first copies) and is not measured; at the second,
//             every member's busy time per iteration is measured. The
//             sliver bounds what a slow CPU pool costs: on its static share
//             a kernel where it has a few percent of a GPU's speed kept the
//             GPU waiting longer than the whole run
//             (docs/measurements.md#share-model). When the CPU pool's speed
//             is less than MinGain of everyone's, it cannot pay for the
//             copies and the waiting it brings: settled on the accelerators
//             at once. So is
//             a kernel whose accelerators' launch (the third or later)
//             spent AloneOverhead of its wall time or more outside its
//             busiest member's chunk, before ProbeAfter: bound by overheads
//             (starting chunks, copies, combining), which the CPU pool only
//             adds to ("settled-accel[overhead=..]");
//   mixed     shares proportional to the measured speeds, every member: one
//             launch moves the data to the new chunk boundaries, the next
//             is timed (wall time of the whole launch, copies included);
//             when the speeds it measured give shares more than 10% away
//             from its own, those are tried the same way (at most
//             MaxRefinements times): the probe saw the CPU pool on a sliver
//             of the iterations;
//   accel     the same over the accelerators alone (GPUs, simulated ones),
//             when the CPU pool takes part as well;
//   settled   the faster of the two timed launches, shares frozen from then
//             on, so chunk boundaries (and so halos) stay put between
//             launches; mixed only when what it saves per launch beyond
//             MinGain of the accelerators' launch (the noise of one timed
//             launch), over as many launches as the kernel has had (or had
//             in the run that persisted it), exceeds the one-time cost of
//             moving the data to its boundaries (the moving launch's extra
//             time): a short run never repays sending the CPU pool its part;
//   one       when the shares settled on are of several accelerators and
//             none else, and their timed launch spent AloneOverhead of its
//             wall time or more outside its busiest member's chunk (a
//             launch of microseconds, where starting chunks, copies between
//             the accelerators and combining partials cost about as much as
//             the work they spread): the fastest of them alone, timed the
//             same way (one launch moves the data, the next is timed); it
//             is kept where it beats the spread shares by more than
//             MinGain and its timed launch copies no more between members
//             than the spread one did (MovedMargin, MovedSlack: one that
//             gathers what the other kernels spread again since the
//             launch before flips the layout at every launch, as
//             CloverLeaf's advection kernels did; "[one-gathers]").
//             Both are timed over a cycle: the timed launch and
//             every launch of any kernel until its next launch (an
//             iteration of the program's loop), since where this kernel's
//             data lies decides what the others copy (CG's SpMV, dots and
//             axpys ran faster all on one GPU than spread over two:
//             docs/measurements.md#share-model). So
//             the other kernels over the same candidates (of any problem
//             size) that settled on spread accelerators and whose last
//             launch was mostly overhead too take part: they run on the
//             same member during the trial and settle with it
//             ("one-trial[with=..]", "settled-one[with=..]"); tried kernel
//             by kernel, each lost alone to the copies the others' spread
//             layout caused. One trial at a time, and one only: its verdict
//             is the program's, and a kernel of overheads that settles
//             later goes where it went ("settled-one[as-decided]") or stays
//             spread. Decided kernel by kernel or size by size, the
//             layout flipped at every launch (an application's heavy
//             kernels on one GPU, its halo kernels beside them spread:
//             docs/measurements.md#share-model). A launch whose
//             GPUs are busy for most of it (Jacobi, Himeno, STREAM) never
//             pays for that trial, nor joins one;
//   verify    when mixed won: its launches are timed again once the other
//             kernels have settled too (the second after settling; the
//             first moves data). Each kernel chose on its own, and a
//             neighbour that settled on the accelerators can make the CPU's
//             part cost copies every launch: slower than the accelerators'
//             timed launch, the kernel settles there for good.
//
// Kernels of one problem size follow the heaviest: a kernel whose launches
// take less than half the time of another's with the same trip count and
// the same candidates (Himeno's copy after its stencil, Jacobi's swap) uses
// that kernel's shares at every launch from its second on, and settles when
// it does ("follow[<leader>]", "settled-follow[<leader>]"). Its chunks then
// cover the iterations (and so the rows) that the leader's chunks cover on
// the same members: the data each member wrote is where the next kernel
// reads it, and the leader's timed launches are not charged for copies that
// the follower's own choice would cause between them. A leader that stops
// launching before it settles (an initialisation launched once or twice)
// is left after FollowPatience of the follower's launches: the follower
// then measures its own shares, and follows that one never again (another,
// heavier and launching, it may). A kernel launched once leads none: the
// wall time of a first launch is first touches and loading, not its weight
// (CG's x = 0 would lead its axpy-type kernels off, and they would decide
// alone). A follower is weighed by its fastest launch so far.
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
// names), program (its binary), plan-changing settings, kernel and problem
// size, and a later run of the same binary on the same pool under the same
// settings starts settled ("persisted-..." in HETERO_STATS; HETERO_INFO=1
// says so at the start); mixed shares
// still to be verified when the run ends are kept too. Where mixed
// shares were timed, the line also keeps them with the run's launches, the
// gain per launch and the cost of the move: a later run takes them when
// that many launches repay the move. Persisted mixed shares are verified
// again in the later run (against the accelerators' timed launch of the run
// that chose them, kept in their Why): the other kernels' choices may make
// their CPU part cost copies every launch. A line of the file that cannot be
// read is ignored; the file keeps the newest MaxLines.
//
// The phases are ShareModel::Phase; where each may go, and the step that
// takes it there, is the transition table in ShareModel.cpp (mayGo), which
// every change of phase is checked against.
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
#include <optional>
#include <set>
#include <string>
#include <vector>

namespace hetero {

class ShareModel {
public:
  /// ProbeAfter: seconds a kernel runs on the accelerators alone before
  /// the CPU pool is tried on it (see "probe" above).
  explicit ShareModel(bool Enabled, double ProbeAfter = 0)
      : Enabled(Enabled), ProbeAfter(ProbeAfter) {}

  /// The model's name for a kernel's launches of one problem size.
  static std::string key(const std::string &Kernel, uint64_t TripCount);

  /// The shares of the next launch of Key (a launch of TripCount
  /// iterations; 0: never follows another kernel), given the policy's
  /// static shares; Note says which phase chose them (for HETERO_STATS).
  std::vector<Share> shares(const std::string &Key, const Pool &P,
                            const std::vector<Share> &Static, std::string &Note,
                            uint64_t TripCount = 0);
  /// What the launch that shares() planned measured: per pool member, its
  /// iterations and busy time; the launch's wall time.
  void record(const std::string &Key, const std::vector<MemberUsage> &Usage,
              double WallSeconds);
  /// Whether a launch of Key would measure nothing the model still needs:
  /// the model is off, or no kernel's cycle is being timed and Key's shares
  /// are settled, were never the model's to choose (one member offered),
  /// follow another kernel's, or are the accelerators' until ProbeAfter,
  /// past the first ProbeTimed launches. Such a launch may end after it
  /// returns (Engine.h): in a short run, most launches of most kernels come
  /// before ProbeAfter, and waiting for each of them was the pool's loss
  /// against the GPUs alone (docs/measurements.md, "Exploration").
  bool untimed(const std::string &Key) const;
  /// Whether the shares() handed last for Key are a trial: shares chosen to
  /// measure something (the probe's CPU sliver, mixed, accel, one
  /// accelerator alone, or a leader's trial that Key follows), not the
  /// ones it runs by (HETERO_STATS' trial_launches).
  bool trying(const std::string &Key) const;
  /// Counts a launch of Key that was not timed (untimed() held) as its
  /// last timed launch.
  void recordUntimed(const std::string &Key);
  /// Launches of a kernel timed before the probe's may run ahead.
  static constexpr uint64_t ProbeTimed = 3;
  /// The bytes a launch of Key copied between members (after record()):
  /// kept for the launches that open a cycle under timing (see "one").
  void noteMoved(const std::string &Key, uint64_t Bytes);
  /// One member alone is kept only where the launch that opens its cycle
  /// copies at most this many bytes more between members than the one that
  /// opened the spread cycle (and at most MovedSlack times as many).
  static constexpr uint64_t MovedMargin = 1 << 20;
  static constexpr double MovedSlack = 1.25;
  /// What a launch of Key's chunks held off its largest share's member
  /// (their sections' bytes): what one member alone would gather, and the
  /// spread layout take back after. Before record().
  void noteGather(const std::string &Key, uint64_t Bytes);
  /// The one-accelerator trial is exploration: it starts only once its
  /// cost, the gathers of its kernels there and back at GatherRate, is at
  /// most ExploreBudget of the launches' time so far (the time of the
  /// timed ones, the last timed wall for those that ran ahead). Until then
  /// the kernel stays spread ("[one-later]"); a short run never pays for
  /// moving whole arrays to one GPU to time them there (CloverLeaf over
  /// four H100s gathered 1.7 GB for a trial that kept the spread shares).
  static constexpr double ExploreBudget = 0.03;
  static constexpr double GatherRate = 50e9; // bytes/s, a PCIe link's
  /// A verdict for one member alone is watched: when, of FlipWindow
  /// launches of a kernel it put there, FlipLaunches or more copied over
  /// MovedMargin between members, that kernel's data is spread again at
  /// every launch by kernels left spread (those whose GPUs were busy, which
  /// no trial takes), and the layout flips launch by launch (TeaLeaf's
  /// cg_calc_ur and cg_calc_p on one H200 beside a spread cg_calc_w moved
  /// 62 MB a launch, 1.2 TB a run): every kernel of the verdict goes back
  /// to its spread shares ("[one-flips]"), and the verdict becomes spread.
  static constexpr int FlipWindow = 8;
  static constexpr int FlipLaunches = 4;

  /// Below this part of the pool's speed, the CPU pool is left out.
  static constexpr double MinGain = 0.05;
  /// One accelerator alone must save this part of the spread cycle. Each
  /// cycle is timed once, in the first steps, and varies by several percent
  /// from run to run; the verdict settles every kernel of the group that
  /// tries later (Verdicts), so a verdict made on noise decides a whole
  /// run's layout (the user guide's `settled-one` row has a case).
  static constexpr double OneGain = 0.15;
  static constexpr size_t MaxLines = 4096;
  /// A kernel follows another whose launches take this many times longer.
  static constexpr double FollowRatio = 2.0;
  /// ... and stops following, to measure its own, when the leader has not
  /// launched during this many of its launches (an initialisation kernel
  /// launched once or twice never gets past its probe).
  static constexpr int FollowPatience = 4;
  /// Mixed shares measured again at most this many times.
  static constexpr int MaxRefinements = 2;
  /// The probe gives the CPU pool this part of its static share.
  static constexpr double ProbeSliver = 1.0 / 8;
  /// A timed launch of several accelerators that spent this part of its
  /// wall time outside its busiest member's chunk tries one alone.
  static constexpr double AloneOverhead = 0.2;

  /// Lines of the file apply only where their scope is this run's: the
  /// program (its binary) and the settings that change plans
  /// (planSettingsSignature), so that neither another program's kernels of
  /// the same name nor a run under other settings stand in for this one.
  /// No tab. Empty (unit tests): the pool alone.
  void setScope(std::string S) { Scope = std::move(S); }
  /// Reads the settled shares of earlier runs on pool P, in this scope,
  /// from Path; returns how many kernels' it took.
  size_t load(const std::string &Path, const Pool &P);
  /// Writes this run's settled shares to Path, keeping the other pools' and
  /// kernels' lines (newest first, at most MaxLines). False when the file
  /// could not be written.
  bool save(const std::string &Path, const Pool &P) const;
  /// What a later run acts on besides the settled shares: the file's
  /// last field (ShareFile.cpp), never parsed out of Why.
  struct PersistedFields {
    // Mixed shares that were timed, and what they cost and saved.
    std::vector<Share> Mixed;
    uint64_t Launches = 0;
    double Gain = 0, MoveCost = 0;
    // The accelerators' launch that mixed shares were chosen against (s),
    // and the kernel a follower settled with.
    double AccelWall = 0;
    std::string Leader;
  };
  /// The last field's <name>=<value> words (ShareFile.cpp); false for a
  /// malformed or unknown one.
  static bool readFields(const std::string &Text, const Pool &P,
                         PersistedFields &F);
  static std::string writeFields(const Pool &P, const PersistedFields &F);

  /// Where a kernel's launches of one problem size stand (see above). A
  /// phase "X" hands out the shares under trial and moves the data to them;
  /// "XTimed" times the next launch of the same shares.
  enum class Phase {
    Probe,
    Mixed,
    MixedTimed,
    Accel,
    AccelTimed,
    Verify,
    VerifyTimed,
    Spread,      // settled shares, this launch moves the data to them
    SpreadTimed, // ... timed: a cycle starts
    SpreadCycle, // its followers' launches count until its next launch
    One,         // the fastest accelerator alone, this launch moves
    OneTimed,
    OneCycle,
    Follow,
    Settled
  };
  static constexpr int NumPhases = static_cast<int>(Phase::Settled) + 1;
  static const char *phaseName(Phase P);
  /// Whether a kernel in phase From may go to To: the model's transition
  /// table (ShareModel.cpp), which every change of phase is checked
  /// against. A kernel whose members change starts over in Probe.
  static bool mayGo(Phase From, Phase To);
  /// Where Key stands now; Probe for a key no launch has entered.
  Phase phase(const std::string &Key) const;

private:
  struct Entry {
    std::vector<size_t> Candidates; // pool indices, in pool order
    std::vector<bool> Accelerator;  // per candidate
    std::vector<MemberKind> Kind;   // per candidate
    std::vector<double> Rate;       // per candidate: iterations/s; 0 unknown
    Phase Now = Phase::Probe;
    int ProbeLaunch = 0;   // measured at the last (see ProbeLaunches)
    double AccelAlone = 0; // wall time of the probe's launches without the CPU
    int Refinements = 0;   // of the mixed shares
    double MixedWall = 0, AccelWall = 0;
    uint64_t TripCount = 0;
    uint64_t Launches = 0;      // recorded in this run
    double MoveWall = 0;        // the costliest launch that moved to Mixed
    double Gain = 0;            // per launch, mixed over the accelerators
    double MoveCost = 0;        // once, of moving to the mixed boundaries
    double LastWall = 0;        // of the last launch: 0 unknown
    std::string Leader;         // key of the kernel followed (Phase::Follow)
    bool Followed = false;      // settled with the leader's shares
    uint64_t LeaderSeen = 0;    // the leader's Launches at the last look
    int LeaderIdle = 0;         // own launches since the leader last launched
    double MinWall = 0;         // of its launches: 0 unknown
    std::set<std::string> Left; // stalled leaders it left: never again
    double Cycle = 0;           // a timed launch's wall and its followers'
    double SpreadWall = 0;      // the cycle of the settled (spread) shares
    bool Opening = false;       // the next noteMoved is the cycle's opener's
    uint64_t OpenMoved = 0;     // what the launch opening the cycle copied
    uint64_t SpreadMoved = 0;   // ... the spread cycle's
    double Overhead = 0;        // of its last launch (see overhead())
    uint64_t Gather = 0;        // noteGather() of its last launch
    double OneCost = 0;         // a trial put off until it fits the budget
    std::vector<Share> Spread;  // settled before a verdict put it on one
    int Watched = 0;            // its launches since then
    int Moving = 0;             // ... that copied over MovedMargin
    std::string Trial; // key of the kernel in whose one-trial it takes part
    std::vector<Share> Static, Handed, Mixed, Accel, Settled, One;
    std::string Why;     // of the settled shares
    bool Trying = false; // the shares handed last are a trial (trying())
    /// describe() of the shares handed last: the same shares, launch after
    /// launch, are not printed into a string again.
    std::vector<Share> Described;
    std::string Description;
  };
  /// "member=pct%,..." of E.Handed, kept in E.
  static const std::string &describeHanded(const Pool &P, Entry &E);
  std::vector<Share> measured(const Entry &E, const std::vector<Share> &Static,
                              bool AcceleratorsOnly) const;
  /// Whether saving Gain per launch over Launches launches repays a
  /// one-time MoveCost.
  static bool pays(double Gain, double MoveCost, uint64_t Launches);
  /// Whether some member's fraction differs by more than Relative (of the
  /// larger) between A and B, or their members differ.
  static bool apart(const std::vector<Share> &A, const std::vector<Share> &B,
                    double Relative);
  /// E.Rate with each member's speed the average of its kind's.
  static std::vector<double> sameKindAverage(const Entry &E);
  /// Whether S spreads over several of E's accelerators and nothing else.
  static bool spreadOverAccelerators(const Entry &E,
                                     const std::vector<Share> &S);
  /// The part of a launch's Wall spent outside its busiest member's chunk
  /// (Usage), when it ran S spread over accelerators only; else 0.
  static double overhead(const Entry &E, const std::vector<Share> &S,
                         const std::vector<MemberUsage> &Usage, double Wall);
  /// Whether X is another kernel over E's candidates.
  static bool inGroup(const Entry &E, const Entry &X);
  /// Whether P runs the one-accelerator trial's shares.
  static bool inOneTrial(Phase P);
  /// E goes to phase To, which the transition table must allow (asserted).
  static void go(Entry &E, Phase To);
  /// Settles E (of Key) on S (Why), then tryOne().
  void settleOrTryOne(const std::string &Key, Entry &E,
                      const std::vector<Share> &S, const std::string &Why,
                      bool Timed);
  /// When E's settled shares spread over several accelerators only, and no
  /// other kernel of its size is in the trial, the one-accelerator trial
  /// starts: at once where the launch just recorded was a timed launch of
  /// them (Timed) that spent AloneOverhead of its time or more outside its
  /// busiest member's chunk, else after a launch that moves the data there.
  void tryOne(const std::string &Key, Entry &E, bool Timed);
  /// The seconds E's trial would spend gathering its kernels' data on one
  /// member and spreading it back (see ExploreBudget).
  double oneTrialCost(const Entry &E) const;
  /// A trial put off (OneCost) starts once the budget holds it, or a
  /// verdict reached meanwhile applies.
  void retryOne(const std::string &Key, Entry &E);
  /// Settles E on the verdict's member One (Why), watched (FlipWindow).
  static void settleOnOne(Entry &E, const std::vector<Share> &One,
                          std::string Why);
  /// The verdict for Candidates flips layouts: all go back (FlipWindow).
  void revertOne(const std::vector<size_t> &Candidates);
  /// Closes a cycle of E (of Key) at its next launch (see "one" above).
  void closeCycle(const std::string &Key, Entry &E);
  /// Whether E's candidates hold accelerators and the CPU pool.
  static bool bothKinds(const Entry &E);
  /// The key of the kernel E (of Key) should follow, or "".
  std::string leaderFor(const std::string &Key, const Entry &E) const;
  /// The accelerators' shares of S (per candidate of E).
  static std::vector<Share> accelerators(const Entry &E,
                                         const std::vector<Share> &S);
  /// S with the CPU pool's weight cut to ProbeSliver of it.
  static std::vector<Share> probeShares(const Entry &E,
                                        const std::vector<Share> &S);
  struct Persisted;
  /// E anew for Static's candidates when they changed, from an earlier
  /// run's entry where the file has one.
  void enter(const std::string &Key, Entry &E, const Pool &P,
             const std::vector<Share> &Static);
  /// E settled as an earlier run's O (mixed shares to verify, a follower
  /// to follow its leader again).
  static void restore(Entry &E, const Persisted &O,
                      const std::vector<Share> &Static);
  /// A follower's launch: true with its leader's shares handed (and Note);
  /// false when it settled with the leader, or left it to probe.
  bool follow(Entry &E, const Pool &P, const std::vector<Share> &Static,
              std::string &Note);
  /// record()'s step of E's phases on a launch of WallSeconds: a probe's,
  /// mixed shares' and the accelerators' timed launch each by its own.
  void advance(const std::string &Key, Entry &E, double WallSeconds);
  void recordProbe(const std::string &Key, Entry &E, double WallSeconds);
  void recordMixed(const std::string &Key, Entry &E, double WallSeconds);
  void recordAccel(const std::string &Key, Entry &E, double WallSeconds);
  /// E.Handed and Note for E's phase.
  void handOut(Entry &E, const std::vector<Share> &Static, std::string &Note);

  /// A settled entry of an earlier run: who could take chunks, the shares.
  struct Persisted : PersistedFields {
    std::vector<size_t> Candidates;
    std::vector<Share> Settled;
    std::string Why;
    /// Whether that run settled on its mixed shares (their verdict is
    /// checked again: restore()).
    bool settledMixed() const;
  };

  /// Per candidate set, what its first one-accelerator trial decided: the
  /// member all kernels of overheads go to, or none (they stay spread).
  std::map<std::vector<size_t>, std::optional<size_t>> Verdicts;

  bool Enabled;
  std::string Scope;
  /// The first field of the file's lines: the pool's members, and Scope.
  std::string poolSignature(const Pool &P) const;
  double ProbeAfter;
  std::map<std::string, Entry> Entries;
  std::set<std::string> Cycling; // keys whose cycle is being timed
  double Elapsed = 0; // the launches' time so far (see ExploreBudget)
  std::map<std::string, Persisted> Earlier;
};

} // namespace hetero

#endif // HETERO_SHAREMODEL_H

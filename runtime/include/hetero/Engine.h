//===- Engine.h - One OpenMP device over the pool ---------------*- C++ -*-===//
//
// The engine owns every decision of a launch: which members run it
// (Policy.h), how its iterations are cut (ChunkPlan.h), where its data must
// be valid (DataLayer.h), what happens when a member has no room or fails,
// and what the statistics say. There is one launch path: a whole launch is a
// launch of one chunk, so a member without room, a failed member and the
// rerun elsewhere are handled once.
//
// A launch of a splittable kernel evaluates its descriptor with the launch's
// arguments, cuts the iteration space into contiguous chunks by member
// share, makes each chunk's read and write sections valid on its member's
// node (only missing bytes move), runs the chunks concurrently (one task per
// chunk on its member's worker), and leaves each chunk's write sections
// valid on its node only. Reduction variables get a private copy per chunk,
// set to the identity; the partials are combined on the host in chunk order,
// then with the variable's value (Reduction.h). Anything that makes a split
// unsafe or impossible (KernelDescriptor.h, ChunkPlan.h) runs the launch
// whole, with the reason in the statistics. The shares of a split come from
// the members' measured speed (ShareModel.h); where the model chooses one
// member alone, the launch is a single chunk there (its sections, its
// reductions' partial slots), with the members it was chosen from as
// fallbacks.
//
// A member without room for its chunks' data keeps the share of the
// iterations its memory holds, from then on (RoomCaps.h): the others take
// the rest, or the CPU pool, in place in host memory, where all of the
// split's members are capped. Where nobody can take the rest (the GPUs
// alone, together holding less than the kernel's data), the launch runs in
// rounds, each a split of the next iterations: the first of all that the
// members hold but two windows, whose data stays there from launch to
// launch, then the rest a window at a time, each round's data given back
// while the next one's comes in (DataLayer::giveBackLater), so that only
// what does not fit streams through the members' memory. A member that cannot
// hold even one iteration's data leaves the launch (its iterations go to the
// others; a whole launch tries the next member). A
// member on which a kernel fails leaves the pool: what it alone held goes to
// the host, and its chunks run again elsewhere; a chunk that updated in
// place data that lived only there cannot, and the launch fails.
//
// Run-ahead (HETERO_RUN_AHEAD=<us>): a split launch whose chunks are all on
// members that queue them (GPUs), without reductions, with its shares and
// its chunks' grids settled (nothing to time; a member the owner rule left
// without a chunk has no grid to time), and whose chunks took at most that
// long the last time they were waited for, returns once they are queued.
// Each such member is then unsettled: before anything touches its memory
// from outside its queue (the data layer's copies, read-backs, scans,
// frees: DataLayer::setSettler) the engine waits for its queue, and chunks
// of later launches queue behind them. Such a launch's copies between GPUs
// go in the destinations' queues too, each after the kernels of its source
// on the device (DataLayer::queueCopiesInLanes, Backend::orderAfter): no
// wait on the host. So the GPUs go from one
// kernel to the next while the host plans the next launch, where each
// launch would pay its round trip with the GPUs idle. A program's
// timer around one such launch sees part of its time in the next; the bound
// keeps that part short, and it bounds the backlog too: a launch runs ahead
// only while what ran ahead before it is estimated to end within the bound
// (each launch's last waited time, back to back, from when it was queued),
// so that a loop of such launches is never more than about twice the bound
// ahead of its GPUs: a program's timer around the loop misses at most that
// (a 2-D Jacobi's sweeps of 1 ms ran ahead of two GPUs by half the loop's
// time). A chunk that ran ahead and failed cannot run again
// (its launch is gone): the wait that finds it fails, with a message, and
// so does everything after it on that member.
//
// Posted starts (HETERO_STARTS=parallel, a back end that keeps a copy of
// the launch: Backend::keepLaunch): such a launch does not even wait for
// its chunks to start. Each member's chunks go to a start thread of its own
// (StartThreads.h) and count as queued there at once; whatever then waits
// for the member (a settle), orders its lane (a copy's event) or queues a
// copy in it, starts a chunk there or hands chunks to workers first waits
// for that thread to have issued them. The launching thread plans the next
// launch, and prepares its first chunks' data, meanwhile (the starts were a
// large part of the launching thread's time:
// docs/measurements.md#chunk-starts). A chunk that
// then does not start is lost like one that ran ahead and failed.
//
//===----------------------------------------------------------------------===//
#ifndef HETERO_ENGINE_H
#define HETERO_ENGINE_H

#include "hetero/KernelStats.h"
#include "hetero/LaunchContext.h"
#include "hetero/ShareModel.h"

#include <atomic>
#include <chrono>
#include <cstdio>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <set>
#include <utility>
#include <vector>

namespace hetero {

/// How a launch, or a step of it, ended: its iterations all ran; nothing
/// ran (it was not split, and runs whole); or it failed.
enum class LaunchOutcome { Done, NotSplit, Failed };

struct LaunchRequest {
  const KernelTraits *Kernel = nullptr;
  /// The kernel arguments as libomptarget passes them (hetero addresses or
  /// literal values) and the offsets the kernel adds to them.
  std::vector<uintptr_t> Args;
  std::vector<ptrdiff_t> Offsets;
  /// libomptarget's trip count of the loop, 0 when unknown.
  uint64_t TripCount = 0;
  /// Handed back to Backend::run.
  const void *BackendLaunch = nullptr;
};

/// The engine is privately a LaunchContext: the part of it each LaunchRun
/// works with (LaunchContext.h); the rest below is its own.
class Engine : private LaunchContext {
public:
  Engine(const Settings &S, DataLayer &Layer, Pool Members, Backend &B,
         TaskRunner Run);

  /// One launch, split or whole, with recovery. False when it failed: the
  /// error is printed.
  bool launch(const LaunchRequest &R);

  const Pool &pool() const { return Members; }
  IndirectFunctions &indirect() { return Indirect; }
  /// HETERO_STATS' lines.
  void printStats(FILE *Out);
  /// What the last launch did (tests, diagnostics).
  const KernelStats::Launch &lastLaunch() const { return Last; }
  /// Returns once the chunks posted to the start threads have started
  /// (tests, diagnostics).
  void startsIssued() {
    std::lock_guard<std::mutex> Idle(LaunchMutex);
    issuePosted();
  }
  /// Keeps the settled shares for later runs (ShareModel.h).
  void saveShares();
  /// The scope of this process's persisted shares under S
  /// (ShareModel::setScope): this program's binary and S's plan settings.
  static std::string sharesScope(const Settings &S);
  /// Waits until no launch runs on any member, and for the chunks that
  /// ran ahead; an error, saying which, when one of those failed.
  Status waitIdle() {
    std::lock_guard<std::mutex> Idle(LaunchMutex);
    return settleAll();
  }
  ~Engine();
  Engine(const Engine &) = delete;
  Engine &operator=(const Engine &) = delete;

private:
  /// HETERO_INFO=2's line for a split launch: wall, member usage, shares.
  void printLaunchTimes(const std::string &Kernel, double Wall,
                        const KernelStats::Launch &Rec,
                        const std::string &SharesNote);
  /// Keys capOneMember() has looked at.
  std::set<std::string> RoomChecked;
  /// A launch in rounds streams what does not stay on the members through
  /// two windows of this fraction of what they hold (launchInRounds):
  /// smaller, more of it stays; each round pays the host's time for a
  /// launch.
  static constexpr uint64_t RoundWindowParts = 32;
  friend class LaunchRun;
  /// The grids of a split's GPU members (ChunkGrids), and what they measured
  /// (Timed: false for a launch that ran ahead, which only counts);
  /// recordGrids says whether one was under trial.
  void pickGrids(const std::string &Key, const std::vector<Share> &S,
                 uint64_t TripCount);
  bool recordGrids(const std::string &Key,
                   const std::vector<MemberUsage> &Usage,
                   KernelStats::Launch &Rec, bool Timed);
  /// The members that take what capped members cannot hold, of those the
  /// split was offered: the CPU pool first (in place, no copies).
  std::vector<size_t> roomTakers(const std::vector<Share> &Offered) const;
  /// A split offered one member, whose memory holds less than the buffers
  /// the kernel reaches: its cap, from that, before its first launch.
  void capOneMember(const std::string &Key, const LaunchRequest &R,
                    const std::vector<Share> &Shares);
  /// Launch R over the members' memory in rounds, each a split of the next
  /// iterations the capped Shares hold (RoomCaps.h); NotSplit only when
  /// nothing ran (Reason says why).
  LaunchOutcome launchInRounds(const LaunchRequest &R, KernelStats::Launch &Rec,
                               const std::string &Key,
                               const std::vector<Share> &Shares,
                               const std::vector<size_t> &Takers,
                               std::string &Reason);
  /// Launch R's chunks (Cut: pool members, iteration ranges) one after
  /// another, in iteration order, each as a round on its member: for a
  /// kernel whose chunks' writes overlap (neighbouring iterations write the
  /// same bytes: CloverLeaf's generate_chunk). Each chunk finds the bytes
  /// the ones before it wrote where they wrote them, so only the overlap
  /// moves, where a whole launch would gather every array it writes onto
  /// one member. Running the iterations in order is one of the orders the
  /// parallel loop allows. NotSplit only when nothing ran.
  LaunchOutcome launchInOrder(const LaunchRequest &R, KernelStats::Launch &Rec,
                              const std::vector<ChunkSpec> &Cut,
                              const std::string &Reason);
  /// The steps of launch(): its shares (empty: it runs whole), a split (or
  /// rounds) over them, a whole launch, and what the share model and the
  /// teams trial learn from a split that ran.
  struct LaunchPlan;
  LaunchPlan planLaunch(const LaunchRequest &R,
                        const std::function<bool(size_t)> &MayRun);
  LaunchOutcome launchSplit(const LaunchRequest &R, LaunchPlan &P,
                            KernelStats::Launch &Rec);
  LaunchOutcome launchWhole(const LaunchRequest &R, const LaunchPlan &P,
                            const std::function<bool(size_t)> &MayRun,
                            KernelStats::Launch &Rec);
  void saySplit(const KernelTraits &K, const KernelStats::Launch &Rec);
  /// A launch that ran as one chunk on the only accelerator offered: not a
  /// split in Rec (Reason), said as such.
  void saySole(const KernelTraits &K, KernelStats::Launch &Rec,
               const std::string &Reason);
  void learnFromSplit(const KernelTraits &K, const LaunchPlan &P,
                      KernelStats::Launch &Rec, double Wall);
  /// Whether launch Key over Shares may run ahead (see above); Untimed:
  /// ShareModel::untimed(Key).
  bool mayRunAhead(const std::string &Key, const KernelTraits &K,
                   const std::vector<Share> &Shares, bool Untimed) const;
  /// Waits for what ran ahead on member M / node N / every member. The
  /// error says what failed; the caller that decides prints it (Status.h).
  Status settleMember(size_t M, const char *Why = nullptr);
  Status settleNode(NodeId N, const char *Why);
  /// Node W's members' queues wait on the device for what node S's members
  /// have queued (Backend::orderAfter).
  LaneOrder orderNodes(NodeId W, NodeId S);
  Status settleAll();

  ShareModel MeasuredShares;
  KernelStats Stats;
  KernelStats::Launch Last;
  // One launch at a time, so that the bytes copied during a launch are its.
  std::mutex LaunchMutex;
  /// Per share-model key: the busiest member's time in the last launch
  /// whose chunks were waited for (the run-ahead bound's measure).
  std::map<std::string, double> Busiest;
  /// When what ran ahead is estimated to end on its members (the backlog
  /// bound, above); in the past once no member has queued work.
  std::chrono::steady_clock::time_point AheadUntil{};
  /// Adds a launch of Key that ran ahead to the backlog, or clears the
  /// backlog once nothing is queued on any member.
  void noteBacklog(const std::string &Key, bool RanAhead);
};

} // namespace hetero

#endif // HETERO_ENGINE_H

//===- LaunchRun.h - One launch, from plan to finished ----------*- C++ -*-===//
//
// Private to the engine (Engine.h says what a launch does). A LaunchRun is
// one launch: a plan of chunks (a split's, or the one chunk of a whole
// launch), their data made valid on their members' nodes, the chunks run,
// failed members' chunks run again elsewhere, and the results recorded.
//
//===----------------------------------------------------------------------===//
#ifndef HETERO_LAUNCHRUN_H
#define HETERO_LAUNCHRUN_H

#include "hetero/ChunkPlan.h"
#include "hetero/Engine.h"

#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

namespace hetero {

class LaunchRun {
public:
  using Outcome = LaunchOutcome;

  LaunchRun(LaunchContext &Ctx, const LaunchRequest &R,
            KernelStats::Launch &Rec);
  ~LaunchRun();
  LaunchRun(const LaunchRun &) = delete;
  LaunchRun &operator=(const LaunchRun &) = delete;

  /// Splits the launch over Shares. NotSplit, with Reason, when it cannot
  /// be split: then nothing has run and no data has changed. The chunks of
  /// a member that fails go to the healthy members of Shares, then to those
  /// of Spare: the members that a single share was chosen from (one chunk
  /// runs as a chunk then, not whole; Spare may be that share alone).
  Outcome split(std::vector<Share> Shares, std::string &Reason,
                const std::vector<Share> &Spare = {});
  /// Runs the launch whole on the first member of Choice that has room for
  /// its data, the others as fallbacks. NotSplit says why it is whole.
  Outcome whole(const WholeChoice &Choice, const std::string &NotSplit);
  /// The split's chunks, when all are on members that start chunks and
  /// their grids under Key are settled, are left running when it returns
  /// (Engine.h's run-ahead; the engine checked the rest). Rec.RanAhead says
  /// whether they were.
  void allowRunAhead(std::string Key) {
    RunAhead = InLanes = true;
    GridKey = std::move(Key);
  }
  /// A launch that waits for its chunks, timed by nothing (the share model
  /// settled under Key, the chunks' grids too), whose chunks all start in
  /// GPU lanes, queues its copies between GPUs in the lanes as one that
  /// runs ahead does: the copies' waits on the host for the kernels on
  /// both ends (TeaLeaf's cg_calc_w after halo kernels that ran ahead, over
  /// two H200s: 44 us of its 55 us plan) go to the GPUs. Not where a chunk
  /// is timed: its time would hold what its lane ran before it.
  void allowLaneCopies(std::string Key) {
    InLanes = true;
    GridKey = std::move(Key);
  }
  /// Whether its chunks were posted to the start threads (postStarts).
  bool posted() const { return Posted; }
  /// A member without room for its chunks' data gets a cap under Key
  /// (RoomCaps.h) and the split goes on with the caps applied, Takers
  /// taking what capped members cannot, instead of leaving that member out.
  void allowRoomCaps(std::string Key, std::vector<size_t> Takers) {
    RoomKey = std::move(Key);
    RoomTakers = std::move(Takers);
  }
  /// Cuts only iterations [Lo, Hi) of the launch (a round: Engine.h), one
  /// chunk being enough. A member without room then leaves nothing run:
  /// split() says NotSplit and roomLearned() that its cap was lowered.
  /// Whole: the window is one chunk whatever HETERO_CHUNKS says (a chunk of
  /// a launch run in order, whose chunks' writes overlap: cut further, its
  /// pieces would overlap too).
  void setWindow(uint64_t Lo, uint64_t Hi, bool Whole = false) {
    Windowed = true;
    WinLo = Lo;
    WinHi = Hi;
    WindowWhole = Whole;
  }
  bool roomLearned() const { return RoomLearned; }
  /// split() said NotSplit because its chunks' writes overlap, a little
  /// (neighbouring iterations write the same bytes: writesOverlapLittle()),
  /// while each chunk alone resolves.
  bool writesOverlap() const { return Overlap; }
  /// The chunks it cut (pool members, iteration ranges), in order.
  std::vector<ChunkSpec> cut() const;
  /// What its chunks on member M need there (their sections' spans), per
  /// buffer.
  std::vector<std::pair<BufferId, RangeSet>> spans(size_t M) const;

private:
  struct Chunk {
    size_t Member = 0; // pool index
    uint64_t Lo = 0, Hi = 0;
    bool Whole = false;
    /// A split's chunk's (shared with the section cache); null for a
    /// whole one.
    std::shared_ptr<const ChunkSections> Sections;
    uint64_t SpanBytes = 0;        // of its sections (prepareSections)
    std::vector<BufferId> Touched; // a whole chunk
    std::vector<uintptr_t> NodeArgs;
  };

  /// The engine's parts a launch works with (LaunchContext.h).
  LaunchContext &Ctx;
  DataLayer &Layer;
  const LaunchRequest &R;
  const KernelTraits &K;
  KernelStats::Launch &Rec;
  DescEnv Env;
  std::vector<uint64_t> Trips;
  std::vector<Chunk> Chunks;
  std::vector<BufferInfo> Reachable, Externals;
  /// Per chunk, per reduction line: the final bytes of the chunk's private
  /// copy (ChunkPartial::Result).
  std::vector<std::vector<uint64_t>> Partials;
  std::vector<MemberUsage> Usage; // per pool member
  /// The buffers the descriptor read (Env's loads) since these were last
  /// cleared, with their generations before the read; Unrepeatable where a
  /// read failed or the inspector gave no answer.
  std::vector<SectionCache::MemoryRead> MemoryReads;
  std::vector<DataLayer::ChunkNeed> Needs; // prepareSections', kept for reuse
  bool Unrepeatable = false;
  /// Notes whether a read of buffer B (found before the read) succeeded;
  /// returns Ok.
  bool noteRead(const std::optional<BufferInfo> &B, bool Ok);
  /// split() was given one share chosen from several: its one chunk runs
  /// as a chunk, not whole.
  bool OneChosen = false;
  bool RunAhead = false;
  bool InLanes = false; // copies between GPUs go in their lanes
  bool Posted = false;
  std::string GridKey;
  std::string RoomKey;
  std::vector<size_t> RoomTakers;
  bool Windowed = false, WindowWhole = false, RoomLearned = false,
       Overlap = false;
  uint64_t WinLo = 0, WinHi = 0;
  /// Why a member's chunk failed (the back end's word), the first failure
  /// of each member; written by the threads the chunks run from.
  std::mutex FailuresMutex;
  std::map<size_t, std::string> Failures;
  /// Notes S of a chunk on member M; returns S.ok().
  bool noteChunk(size_t M, const Status &S);
  /// "" or ": why" for member M's failed chunk, for a message.
  std::string whyFailed(size_t M);
  /// Member M's chunks found no room: lowers its cap from its capacity
  /// against the bytes its chunks' sections span. False when it cannot
  /// (no capacity known, or less than an iteration would fit).
  bool learnRoom(size_t M);

  const Member &member(size_t M) const { return Ctx.Members[M]; }
  const std::string &name(size_t M) const { return Ctx.MemberNames[M]; }
  bool plan(const std::vector<Share> &Shares, std::string &Reason);
  /// The descriptor's view of the launch (Env): its arguments, and reads of
  /// mapped memory through the data layer, noted for the section cache.
  void bindEnvironment();
  /// Each chunk's sections: the section cache's where nothing they came
  /// from has changed, else resolved (and cached where repeatable).
  bool sectionsOfChunks(std::string &Reason);
  /// Warns of an access beyond its mapped buffer (resolveSections'
  /// OutsideBuffer), if any.
  void warnOutside(const std::string &Outside) const;
  bool writesOverlapLittle() const;
  /// A launch of one chunk (one member) is not planned, but its sections
  /// still say whether it reaches beyond its mapped buffers: checked once
  /// per kernel, at the first such launch, and said as a split says it.
  void checkBoundsOnce(uint64_t Total);
  bool planChunks(const std::vector<Share> &Shares, std::string &Reason);
  /// split()'s plan: the chunks of Shares cut and their data made valid on
  /// their members, a member without room for its chunks' data capped
  /// (RoomCaps.h) or leaving (Shares then changes). Done when every chunk
  /// is ready to run; NotSplit, with Reason, when nothing can be cut.
  Outcome planAndPrepare(std::vector<Share> &Shares, std::string &Reason);
  /// The planned chunks' copies between GPUs go in the destinations' lanes
  /// (DataLayer::queueCopiesInLanes), except for bytes a chunk may write.
  void queueCopiesInLanes();
  /// Member M could not take its chunks' data (Prepared says why): it
  /// leaves Shares, with a warning; NoRoomFirst keeps the first reason.
  void leaveLaunch(size_t M, const Status &Prepared, std::vector<Share> &Shares,
                   std::string &NoRoomFirst);
  /// split()'s run of the prepared chunks: a failed member's chunks go to
  /// the others of Shares, then to Spare; then reductions are combined.
  Outcome runPrepared(const std::vector<Share> &Shares,
                      const std::vector<Share> &Spare);
  /// Makes chunk C's data valid on its member's node and translates its
  /// arguments there.
  Status prepare(Chunk &C);
  Status prepareSections(Chunk &C);
  /// What the back end is told of chunk C (its partials included).
  ChunkRun chunkRun(const Chunk &C);
  std::vector<bool> runChunks(const std::vector<size_t> &Which);
  /// Which, all on members that start chunks (Backend::startsChunks): they
  /// start from this thread and are waited for here (unless Wait is false:
  /// then they are left queued, and their members unsettled); their times
  /// in Seconds (0 for those left queued).
  std::vector<bool> startAndFinish(const std::vector<size_t> &Which,
                                   std::vector<double> &Seconds, bool Wait);
  /// startAndFinish()'s order: Start(I) then Finish(I) for each chunk
  /// Which[I], a member's chunks in order, its next started once its last
  /// finished. With parallel starts each member's chunks run on its start
  /// thread (the first member's on this one), behind what was posted there;
  /// else all from this thread. Templates, not std::function: two of those
  /// would be allocated at every launch (defined and used in LaunchRun.cpp).
  template <typename StartFn, typename FinishFn>
  void startInTurn(const std::vector<size_t> &Which, StartFn &Start,
                   FinishFn &Finish);
  /// Which, left to run ahead: posted to the members' start threads, with
  /// Kept, the back end's copy of the launch.
  std::vector<bool> postStarts(const std::vector<size_t> &Which,
                               std::shared_ptr<const void> Kept);
  /// Adds the chunks' busy times and iterations to their members' usage.
  void account(const std::vector<size_t> &Which,
               const std::vector<double> &Seconds, const std::vector<bool> &Ok);
  /// Records chunk C, run from BeginUs until now (Queued: queued, left to
  /// run ahead), in the HETERO_TRACE file.
  void traceChunk(const Chunk &C, double BeginUs, bool Ok,
                  bool Queued = false) const;
  /// Runs every chunk; the chunks of a member that fails run again on the
  /// first of Candidates() (members that may run them, best first) that has
  /// room, members of the other kind (another image) before the failed
  /// member's own: a kernel that faults on one GPU most likely faults on
  /// the next.
  bool runAndRecover(const std::function<std::vector<size_t>()> &Candidates);
  /// Places chunk C on the first of Order that has room for its data.
  bool replace(size_t C, const std::vector<size_t> &Order);
  /// Moves what only failed member M holds to the host and forgets M's
  /// copies, so that the chunks Again can run elsewhere.
  Status evacuate(size_t M, const std::vector<size_t> &Again);
  Status checkRerunnable(size_t M, const Chunk &C);
  void finish();
  Status combineReductions();
  /// Whether all its chunks will start in their GPUs' lanes (runChunks).
  bool startsInLanes() const;
  /// Adds the members' usage and what one member would gather to Rec.
  void recordUsage();
};

} // namespace hetero

#endif // HETERO_LAUNCHRUN_H

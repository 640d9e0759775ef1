//===- Engine.cpp - One OpenMP device over the pool -----------------------===//
#include "hetero/Engine.h"

#include "LaunchRun.h"
#include "hetero/Log.h"
#include "hetero/Trace.h"

#include <algorithm>
#include <chrono>
#include <cinttypes>
#include <filesystem>
#include <optional>
#include <sys/stat.h>
#include <utility>

namespace hetero {

Backend::~Backend() = default;

/// Shares follow measured speed unless fixed by HETERO_SHARES or by weights
/// the user gave in HETERO_MEMBERS.
static bool measuredShares(const Settings &S) {
  if (S.FixedShares)
    return false;
  for (const MemberShare &M : S.Members)
    if (M.Weight >= 0)
      return false;
  return true;
}

/// This program, for persisted shares: its binary's path, size and time of
/// last change (a rebuilt binary measures again).
static std::string programIdentity() {
  std::error_code Err;
  std::filesystem::path Exe = std::filesystem::canonical("/proc/self/exe", Err);
  struct stat St;
  if (Err || ::stat(Exe.c_str(), &St) != 0)
    return "unknown program";
  std::string Id = Exe.string() + "@" + std::to_string(St.st_size) + "@" +
                   std::to_string(St.st_mtim.tv_sec) + "." +
                   std::to_string(St.st_mtim.tv_nsec);
  std::replace(Id.begin(), Id.end(), '\t', ' ');
  return Id;
}

std::string Engine::sharesScope(const Settings &S) {
  return programIdentity() + ";" + planSettingsSignature(S);
}

/// HETERO_INSPECT's mode for the data layer's inspector.
static DataLayer::ScanMode scanModeOf(Settings::Inspect I) {
  switch (I) {
  case Settings::Inspect::InPlace:
    return DataLayer::ScanMode::InPlace;
  case Settings::Inspect::Background:
    return DataLayer::ScanMode::Background;
  case Settings::Inspect::Sync:
    return DataLayer::ScanMode::Sync;
  case Settings::Inspect::Off:
    break;
  }
  return DataLayer::ScanMode::Off;
}

Engine::Engine(const Settings &S, DataLayer &Layer, Pool Members, Backend &B,
               TaskRunner Run)
    : LaunchContext(S, Layer, std::move(Members), B, std::move(Run),
                    measuredShares(S)),
      MeasuredShares(measuredShares(S),
                     static_cast<double>(S.ProbeAfterMs) / 1e3) {
  updateHome();
  Layer.setScanMode(scanModeOf(S.Inspector));
  MeasuredShares.setScope(sharesScope(S));
  if (size_t Kept = MeasuredShares.load(Config.SharesFile, this->Members))
    info(1,
         "shares of %zu kernels come from an earlier run of this program on "
         "this pool with these settings (%s; delete it to measure again)",
         Kept, Config.SharesFile.c_str());
  Layer.setSettler(
      [this](NodeId Node, const char *Why) { return settleNode(Node, Why); });
  Layer.setOrderer([this](NodeId W, NodeId S) { return orderNodes(W, S); });
  Layer.setLaneNotice([this](NodeId Node) {
    for (size_t M = 0; M < this->Members.size(); ++M)
      if (this->Members[M].Node == Node)
        Queues.noteQueued(M);
  });
  Layer.setReporter(
      [](const std::string &What) { warning("%s", What.c_str()); });
  Layer.setLaneFence([this](NodeId Node) {
    for (size_t M = 0; M < this->Members.size(); ++M)
      if (this->Members[M].Node == Node)
        Starters.drain(M);
  });
}

Engine::~Engine() {
  {
    std::lock_guard<std::mutex> Lock(LaunchMutex);
    Starters.drainAll();
    // Nothing waits for these any more: a failure found now is said here
    // (one found before was said where it was found).
    for (size_t M = 0; M < Members.size(); ++M) {
      bool Known = Queues.failed(M);
      if (Status S = settleMember(M); !S && !Known)
        error("%s", S.message().c_str());
    }
  }
  Layer.setSettler(nullptr);
  Layer.setOrderer(nullptr);
  Layer.setLaneNotice(nullptr);
  Layer.setLaneFence(nullptr);
  Layer.setReporter(nullptr);
}

Status Engine::settleMember(size_t M, const char *Why) {
  auto Lost = [&](const std::string &Reason) {
    return Status::error(
        StatusCode::KernelFailed,
        "a kernel that ran ahead on " + Members[M].name() + " failed" + Reason +
            ", and its results with it (HETERO_RUN_AHEAD=0 waits for "
            "every launch, so that another member can run a failed member's "
            "chunks again)");
  };
  // Settled only once the wait has returned: another host thread that asks
  // meanwhile waits too (MemberQueues.h). Chunks posted to M's start thread
  // count as queued once posted: they are started before the wait.
  uint64_t Target = Queues.waitTarget(M);
  Starters.drain(M);
  if (Queues.failed(M))
    return Lost("");
  if (Queues.drainedUpTo(M, Target))
    return Status();
  TraceSpan Waiting("host", "wait", "");
  if (Waiting.active())
    Waiting.setName("settle " + Members[M].name() +
                    (Why ? std::string(": ") + Why : std::string()));
  Status Settled = Back.settle(M);
  if (Settled) {
    Queues.drained(M, Target);
    return Status();
  }
  (void)Queues.markFailed(M);
  return Lost(" (" + Settled.message() + ")");
}

Status Engine::settleNode(NodeId N, const char *Why) {
  Status First;
  for (size_t M = 0; M < Members.size(); ++M)
    if (Members[M].Node == N)
      if (Status S = settleMember(M, Why); !S && First)
        First = S;
  return First;
}

LaneOrder Engine::orderNodes(NodeId W, NodeId S) {
  LaneOrder Out = LaneOrder::Ordered;
  for (size_t From = 0; From < Members.size(); ++From) {
    if (Members[From].Node != S)
      continue;
    // A failure is found and said by a settle.
    if (Queues.failed(From))
      return LaneOrder::No;
    if (Queues.drainedUpTo(From, Queues.waitTarget(From)))
      continue; // nothing of it in flight, nothing held
    // Both lanes get what was posted to them first (Engine.h's posted
    // starts): the source's event must follow its kernels.
    Starters.drain(From);
    for (size_t To = 0; To < Members.size(); ++To) {
      if (Members[To].Node != W)
        continue;
      Starters.drain(To);
      LaneOrder O = Back.orderAfter(To, From);
      if (O == LaneOrder::No)
        return O;
      if (O == LaneOrder::Held)
        Out = O;
    }
  }
  return Out;
}

Status Engine::settleAll() {
  Status First;
  for (size_t M = 0; M < Members.size(); ++M)
    if (Status S = settleMember(M); !S && First)
      First = S;
  return First;
}

bool Engine::mayRunAhead(const std::string &Key, const KernelTraits &K,
                         const std::vector<Share> &Shares, bool Untimed) const {
  if (!Config.RunAheadUs || Config.HostCopy || Shares.empty() ||
      !K.Desc->reductions().empty() || !Untimed)
    return false;
  // The chunks' grids are checked once the chunks are cut (LaunchRun).
  for (const Share &S : Shares)
    if (!Back.startsChunks(S.Member))
      return false;
  auto It = Busiest.find(Key);
  if (It == Busiest.end() ||
      It->second * 1e6 > static_cast<double>(Config.RunAheadUs))
    return false;
  // Past the backlog bound: this one waits, and with it the backlog.
  auto Backlog = AheadUntil - std::chrono::steady_clock::now();
  return std::chrono::duration<double, std::micro>(Backlog).count() <=
         static_cast<double>(Config.RunAheadUs);
}

void Engine::noteBacklog(const std::string &Key, bool RanAhead) {
  auto Now = std::chrono::steady_clock::now();
  if (RanAhead) {
    auto It = Busiest.find(Key);
    double Seconds = It == Busiest.end() ? 0 : It->second;
    AheadUntil =
        std::max(AheadUntil, Now) +
        std::chrono::duration_cast<std::chrono::steady_clock::duration>(
            std::chrono::duration<double>(Seconds));
    return;
  }
  for (size_t M = 0; M < Members.size(); ++M)
    if (Queues.ahead(M))
      return; // something still queued: the estimate stands
  AheadUntil = Now;
}

void Engine::saveShares() {
  std::lock_guard<std::mutex> Lock(LaunchMutex);
  if (!MeasuredShares.save(Config.SharesFile, Members))
    info(1, "the measured shares could not be written to %s",
         Config.SharesFile.c_str());
}

std::vector<size_t>
Engine::roomTakers(const std::vector<Share> &Offered) const {
  std::vector<size_t> Out;
  for (bool Cpu : {true, false})
    for (const Share &S : Offered)
      if ((Members[S.Member].Kind == MemberKind::CpuPool) == Cpu &&
          !Members[S.Member].Failed)
        Out.push_back(S.Member);
  return Out;
}

void Engine::capOneMember(const std::string &Key, const LaunchRequest &R,
                          const std::vector<Share> &Shares) {
  if (Shares.size() != 1 || Room.any(Key) || !R.TripCount ||
      !RoomChecked.insert(Key).second)
    return;
  const Member &M = Members[Shares[0].Member];
  uint64_t Capacity = Layer.capacity(M.Node);
  if (!Capacity)
    return;
  uint64_t Reach = 0;
  for (const BufferInfo &B : Layer.kernelBuffers(R.Args))
    Reach += B.Size;
  if (Reach > Capacity)
    Room.learn(Key, Shares[0].Member,
               RoomCaps::Headroom * static_cast<double>(Capacity) /
                   static_cast<double>(Reach));
}

LaunchOutcome
Engine::launchInRounds(const LaunchRequest &R, KernelStats::Launch &Rec,
                       const std::string &Key, const std::vector<Share> &Shares,
                       const std::vector<size_t> &Takers, std::string &Reason) {
  uint64_t Total = R.TripCount;
  if (!Total) {
    Reason = "no member's memory holds its data, and its trip count is "
             "not known for rounds";
    return LaunchOutcome::NotSplit;
  }
  // The first round runs the iterations whose data stays on the members
  // from launch to launch; the later ones stream the rest through two
  // windows of their memory: each gives back what it used but the first
  // round's (DataLayer::giveBackLater), its bytes going home while the next
  // one's come in, so that no round's room comes from the part that stays.
  // A sweep then moves what does not fit, once each way, where rounds of
  // all the room in turn moved about twice that (measurements.md, "Out of
  // core"). Iteration order is kept: a kernel's reduction partials are
  // combined as they come.
  std::vector<DataLayer::BufferRanges> Stays(Members.size()); // per member
  uint64_t Lo = 0, Rounds = 0; // [Lo, Total): not run yet
  auto GivenBack = [&] {
    Status S = Layer.giveBackNow();
    if (!S)
      error("kernel %s: %s", R.Kernel->shown().c_str(), S.message().c_str());
    return S.ok();
  };
  for (int Lowered = 0; Lo < Total;) {
    RoomCaps::Applied Fit = Room.apply(Key, Shares, Takers, MemberNames);
    double Held = 1 - Fit.Overflow;
    auto Step = std::max<uint64_t>(
        1, static_cast<uint64_t>(Held * static_cast<double>(Total)));
    uint64_t Window = std::max<uint64_t>(1, Step / RoundWindowParts);
    uint64_t To = Lo + Window;
    if (Lo == 0)
      To = Step >= Total ? Total : Step - std::min(2 * Window, Step - 1);
    To = std::min(To, Total);
    Layer.newEpoch(); // what the last round used may be evicted now
    LaunchRun Part(*this, R, Rec);
    Part.allowRoomCaps(Key, Takers);
    Part.setWindow(Lo, To);
    LaunchOutcome O = Part.split(Fit.Shares, Reason);
    if (O == LaunchOutcome::Failed) {
      (void)GivenBack();
      return LaunchOutcome::Failed;
    }
    if (O == LaunchOutcome::Done) {
      std::vector<size_t> Ran;
      for (const ChunkSpec &C : Part.cut())
        if (std::find(Ran.begin(), Ran.end(), C.Member) == Ran.end())
          Ran.push_back(C.Member);
      for (size_t M : Ran) {
        if (Lo == 0) {
          Stays[M] = Part.spans(M);
          continue;
        }
        if (Status S =
                Layer.giveBackLater(Members[M].Node, Part.spans(M), Stays[M]);
            !S) {
          error("kernel %s: %s", R.Kernel->shown().c_str(),
                S.message().c_str());
          (void)GivenBack();
          return LaunchOutcome::Failed;
        }
      }
      Lo = To;
      ++Rounds;
      continue;
    }
    if (Part.roomLearned() && ++Lowered < 32)
      continue; // a smaller round
    if (!GivenBack())
      return LaunchOutcome::Failed;
    if (Lo == 0)
      return LaunchOutcome::NotSplit;
    // Part of it ran: the rest runs on the CPU pool, in place (it must not
    // run again whole).
    auto Cpu =
        std::find_if(Members.begin(), Members.end(), [](const Member &M) {
          return M.Kind == MemberKind::CpuPool && !M.Failed;
        });
    std::string Why = Reason;
    if (Cpu != Members.end()) {
      Layer.newEpoch();
      LaunchRun Rest(*this, R, Rec);
      Rest.setWindow(Lo, Total);
      O = Rest.split({{static_cast<size_t>(Cpu - Members.begin()), 1}}, Why);
      if (O == LaunchOutcome::Done) {
        warning("kernel %s: the members' memory held no further round; the "
                "CPU pool ran its last %llu iterations",
                R.Kernel->shown().c_str(),
                static_cast<unsigned long long>(Total - Lo));
        ++Rounds;
        break;
      }
    }
    error("kernel %s: %llu of its %llu iterations ran in rounds, then: %s",
          R.Kernel->shown().c_str(), static_cast<unsigned long long>(Lo),
          static_cast<unsigned long long>(Total), Why.c_str());
    return LaunchOutcome::Failed;
  }
  Rec.Rounds = Rounds;
  return GivenBack() ? LaunchOutcome::Done : LaunchOutcome::Failed;
}

LaunchOutcome Engine::launchInOrder(const LaunchRequest &R,
                                    KernelStats::Launch &Rec,
                                    const std::vector<ChunkSpec> &Cut,
                                    const std::string &Reason) {
  std::string Why = Reason;
  for (size_t I = 0; I < Cut.size(); ++I) {
    Layer.newEpoch();
    LaunchRun Part(*this, R, Rec);
    Part.setWindow(Cut[I].Lo, Cut[I].Hi, /*Whole=*/true);
    LaunchOutcome O = Part.split({{Cut[I].Member, 1}}, Why);
    if (O == LaunchOutcome::Done)
      continue;
    if (O == LaunchOutcome::Failed || I > 0) {
      // Part of it ran: it must not run again whole.
      if (O != LaunchOutcome::Failed)
        error("kernel %s: %zu of its %zu chunks in order ran, then: %s",
              R.Kernel->shown().c_str(), I, Cut.size(), Why.c_str());
      return LaunchOutcome::Failed;
    }
    return LaunchOutcome::NotSplit; // nothing ran: it runs whole
  }
  Rec.InOrder = true;
  return LaunchOutcome::Done;
}

/// What a launch decided before it ran: its shares and why.
struct Engine::LaunchPlan {
  std::string Key;            // the share model's, empty when nothing splits it
  std::string SharesNote;     // the statistics' shares=
  std::string Reason;         // why it runs whole
  std::vector<Share> Offered; // the policy's shares
  std::vector<Share> Shares;  // the model's, capped by room
  std::vector<size_t> Takers; // who takes what capped members cannot hold
  double Overflow = 0;        // the fraction nobody holds (RoomCaps.h)
  size_t Alone;               // the member the model runs it on alone
  bool Sole = false;          // ... because it is the only accelerator offered
  /// When the policy had offered its shares: a split's wall time counts
  /// from there.
  std::chrono::steady_clock::time_point Start;
};

Engine::LaunchPlan
Engine::planLaunch(const LaunchRequest &R,
                   const std::function<bool(size_t)> &MayRun) {
  const KernelTraits &K = *R.Kernel;
  LaunchPlan P;
  P.Alone = Members.size();
  TraceSpan Sharing("host", "plan", "shares");
  P.Shares = StaticShares.splitShares(Members, K, MayRun, P.Reason);
  P.Start = std::chrono::steady_clock::now();
  if (P.Shares.empty())
    return P;
  P.Key = ShareModel::key(K.Name, R.TripCount);
  P.Offered = P.Shares;
  P.Shares = MeasuredShares.shares(P.Key, Members, P.Shares, P.SharesNote,
                                   R.TripCount);
  // Members whose memory holds less than their share keep what it holds
  // (RoomCaps.h).
  P.Takers = roomTakers(P.Offered);
  capOneMember(P.Key, R, P.Shares);
  RoomCaps::Applied Fit = Room.apply(P.Key, P.Shares, P.Takers, MemberNames);
  if (!Fit.Note.empty()) {
    P.Shares = Fit.Shares;
    P.SharesNote += (P.SharesNote.empty() ? "" : " ") + Fit.Note;
  }
  P.Overflow = Fit.Overflow;
  pickGrids(P.Key, P.Shares, R.TripCount);
  // An accelerator offered alone (a pool of one GPU) runs it the same way:
  // the split's run-ahead and grids are its too (docs/measurements.md, "One
  // accelerator alone"). With HETERO_CHUNKS over 1 its chunks split it.
  P.Sole = P.Shares.size() == 1 && P.Offered.size() == 1 &&
           Config.Chunks == 1 &&
           Members[P.Shares.front().Member].Kind != MemberKind::CpuPool;
  if (P.Shares.size() == 1 && (P.Offered.size() > 1 || P.Sole)) {
    // The model found one member faster alone (or the others' memory holds
    // none of it): one chunk there, not a whole launch, so that its
    // reductions go through the member's partial slots in the kernel's
    // stream where a whole launch copies the variable up and back
    // synchronously (CG's dots on an H200: 8 to 17 us up, 12 down, of a 50
    // us launch). The members it was offered take over when it fails; a
    // whole launch there when it has no room.
    P.Reason =
        P.Sole ? "one member, one chunk" : "measured shares: " + P.SharesNote;
    P.Alone = P.Shares.front().Member;
  }
  return P;
}

LaunchOutcome Engine::launchSplit(const LaunchRequest &R, LaunchPlan &P,
                                  KernelStats::Launch &Rec) {
  // A timed launch starts where nothing runs ahead: its chunks' times would
  // hold what their members had queued before them (ShareModel::untimed).
  const bool Untimed = MeasuredShares.untimed(P.Key);
  if (!Untimed)
    if (Status S = settleAll(); !S)
      error("%s", S.message().c_str());
  if (P.Overflow > 0 && !P.Shares.empty()) {
    issuePosted();
    LaunchOutcome Outcome =
        launchInRounds(R, Rec, P.Key, P.Shares, P.Takers, P.Reason);
    Back.issueHeld();
    return Outcome;
  }
  LaunchRun Split(*this, R, Rec);
  if (mayRunAhead(P.Key, *R.Kernel, P.Shares, Untimed))
    Split.allowRunAhead(P.Key);
  else if (Config.RunAheadUs && !Config.HostCopy && Untimed)
    Split.allowLaneCopies(P.Key);
  Split.allowRoomCaps(P.Key, P.Takers);
  LaunchOutcome Outcome =
      Split.split(P.Shares, P.Reason,
                  P.Alone < Members.size() ? P.Offered : std::vector<Share>());
  // Copies queued for chunks that then did not start go now, before a
  // later launch can write what they read (Backend::issueHeld); after
  // posted starts, once those were issued (issuePosted).
  if (Split.posted())
    LastPosted = true;
  else if (LastPosted)
    issuePosted(); // drains what was posted, then issues what is held
  else
    Back.issueHeld();
  if (Outcome == LaunchOutcome::NotSplit && Split.writesOverlap() &&
      R.Kernel->Desc->reductions().empty() && Config.OwnerCuts) {
    issuePosted();
    LaunchOutcome Ordered = launchInOrder(R, Rec, Split.cut(), P.Reason);
    Back.issueHeld();
    if (Ordered != LaunchOutcome::NotSplit)
      return Ordered;
  }
  if (Outcome != LaunchOutcome::NotSplit || !Split.roomLearned())
    return Outcome;
  // Its caps were lowered and nobody takes the rest: the launch goes round
  // (nothing of it ran).
  RoomCaps::Applied Fit = Room.apply(P.Key, P.Shares, P.Takers, MemberNames);
  if (Fit.Overflow == 0 || Fit.Shares.empty())
    return Outcome;
  Rec = KernelStats::Launch();
  Rec.Shares = P.SharesNote + " " + Fit.Note;
  LaunchOutcome Rounds =
      launchInRounds(R, Rec, P.Key, Fit.Shares, P.Takers, P.Reason);
  Back.issueHeld();
  return Rounds == LaunchOutcome::NotSplit ? Outcome : Rounds;
}

LaunchOutcome Engine::launchWhole(const LaunchRequest &R, const LaunchPlan &P,
                                  const std::function<bool(size_t)> &MayRun,
                                  KernelStats::Launch &Rec) {
  const KernelTraits &K = *R.Kernel;
  Rec = KernelStats::Launch();
  Rec.Reason = P.Reason;
  if (P.Alone < Members.size())
    Rec.Shares = P.SharesNote;
  info(2, "launch %s not split: %s", K.shown().c_str(), P.Reason.c_str());
  if (StaticShares.offGpu(Members, K) && infoLevel() >= 1)
    sayLaunch(K.Name, "cpu-only",
              "launch " + K.shown() + ": CPU members only (" +
                  K.Desc->hostOnly() + ")");
  issuePosted();
  LaunchRun Whole(*this, R, Rec);
  WholeChoice Order = StaticShares.wholeOrder(Members, MayRun);
  auto At = std::find(Order.Order.begin(), Order.Order.end(), P.Alone);
  if (At != Order.Order.end())
    std::rotate(Order.Order.begin(), At, At + 1);
  return Whole.whole(Order, P.Reason);
}

void Engine::saySplit(const KernelTraits &K, const KernelStats::Launch &Rec) {
  if (infoLevel() < 1)
    return;
  std::string Who, Shape; // built only when printed, off the launch path
  for (const auto &[Name, U] : Rec.Members) {
    Who +=
        (Who.empty() ? "" : ", ") + Name + ":" + std::to_string(U.Iterations);
    Shape += Name + ",";
  }
  sayLaunch(K.Name, "split:" + Shape, "launch " + K.shown() + " split: " + Who);
}

void Engine::saySole(const KernelTraits &K, KernelStats::Launch &Rec,
                     const std::string &Reason) {
  // Not a split for the statistics: the pool had one member to give it.
  Rec.Split = false;
  Rec.Reason = Reason;
  if (infoLevel() < 1 || Rec.Members.empty())
    return;
  const std::string &Where = Rec.Members.front().first;
  sayLaunch(K.Name, "sole:" + Where,
            "launch " + K.shown() + " on " + Where +
                " (one chunk, in place), not split: " + Reason);
}

void Engine::learnFromSplit(const KernelTraits &K, const LaunchPlan &P,
                            KernelStats::Launch &Rec, double Wall) {
  std::vector<MemberUsage> Usage(Members.size());
  for (const auto &[Name, U] : Rec.Members)
    for (size_t M = 0; M < Members.size(); ++M)
      if (MemberNames[M] == Name)
        Usage[M] = U;
  if (infoLevel() >= 2) // the line is built only when it is printed
    printLaunchTimes(K.shown(), Wall, Rec, P.SharesNote);
  MeasuredShares.noteGather(P.Key, Rec.Gather);
  if (Rec.RanAhead) {
    // Its chunks' times are not known: it only counts.
    (void)recordGrids(P.Key, Usage, Rec, /*Timed=*/false);
    MeasuredShares.recordUntimed(P.Key);
    return;
  }
  double Most = 0;
  for (const MemberUsage &U : Usage)
    Most = std::max(Most, U.BusySeconds);
  Busiest[P.Key] = Most;
  // A grid under trial would swing the GPU's measured speed.
  if (!recordGrids(P.Key, Usage, Rec, /*Timed=*/true))
    MeasuredShares.record(P.Key, Usage, Wall);
}

bool Engine::launch(const LaunchRequest &R) {
  std::lock_guard<std::mutex> Lock(LaunchMutex);
  const KernelTraits &K = *R.Kernel;
  TraceSpan Traced("host", "launch", "");
  if (Traced.active())
    Traced.setName("launch " + K.shown());
  Layer.newEpoch();
  TransferStats &T = Layer.stats();
  uint64_t H2D = T.BytesH2D, D2D = T.BytesD2D, D2H = T.BytesD2H;
  auto Covers = [&](size_t M) { return Indirect.covers(M, R.Args); };
  std::function<bool(size_t)> MayRun = [&](size_t M) {
    return StaticShares.mayRun(Members, M, K, Covers);
  };

  KernelStats::Launch Rec;
  LaunchPlan P = planLaunch(R, MayRun);
  LaunchOutcome Outcome = LaunchOutcome::NotSplit;
  if (!P.Key.empty()) {
    Rec.Shares = P.SharesNote;
    Outcome = launchSplit(R, P, Rec);
  }
  if (Outcome == LaunchOutcome::NotSplit)
    Outcome = launchWhole(R, P, MayRun, Rec);
  else if (Outcome == LaunchOutcome::Done && P.Sole && !Rec.Rounds)
    saySole(K, Rec, P.Reason);
  else if (Outcome == LaunchOutcome::Done)
    saySplit(K, Rec);
  // Chunks in order are no split to measure the members' speed by.
  if (!P.Key.empty() && Outcome == LaunchOutcome::Done && !Rec.InOrder)
    learnFromSplit(K, P, Rec,
                   std::chrono::duration<double>(
                       std::chrono::steady_clock::now() - P.Start)
                       .count());
  noteBacklog(P.Key, Rec.RanAhead);
  ChunkGrids.assign(Members.size(), TeamsTrial::Pick());
  // A split whose shares were a trial's (KernelStats.h).
  Rec.Trial = Rec.Split && MeasuredShares.trying(P.Key);
  if (P.Alone < Members.size() && Rec.Split && !P.Sole)
    Rec.Alone = MemberNames[P.Alone];
  Rec.H2D = T.BytesH2D - H2D;
  Rec.D2D = T.BytesD2D - D2D;
  Rec.D2H = T.BytesD2H - D2H;
  MeasuredShares.noteMoved(P.Key, Rec.D2D);
  if (Config.Stats)
    Stats.record(K.Name, Rec, K.Display);
  Last = std::move(Rec);
  return Outcome == LaunchOutcome::Done;
}

void Engine::pickGrids(const std::string &Key, const std::vector<Share> &S,
                       uint64_t TripCount) {
  ChunkGrids.assign(Members.size(), TeamsTrial::Pick());
  double Total = 0;
  for (const Share &Sh : S)
    Total += Sh.Weight;
  for (const Share &Sh : S) {
    const Member &M = Members[Sh.Member];
    if (M.Kind != MemberKind::Gpu || Total <= 0)
      continue;
    auto Iterations = static_cast<uint64_t>(static_cast<double>(TripCount) *
                                            Sh.Weight / Total);
    ChunkGrids[Sh.Member] =
        TeamsTrials.pick(Key, Sh.Member, Iterations, M.ResidentThreads);
  }
}

bool Engine::recordGrids(const std::string &Key,
                         const std::vector<MemberUsage> &Usage,
                         KernelStats::Launch &Rec, bool Timed) {
  bool Trial = false;
  for (size_t M = 0; M < Members.size() && M < ChunkGrids.size(); ++M) {
    if (Members[M].Kind != MemberKind::Gpu || !Usage[M].Iterations)
      continue;
    if (Timed)
      TeamsTrials.record(Key, M, ChunkGrids[M], Usage[M].Iterations,
                         Usage[M].BusySeconds);
    else
      TeamsTrials.recordUntimed(Key, M);
    Trial |= ChunkGrids[M].Trial;
    if (!Config.Stats)
      continue; // the note is for the statistics only
    std::string Note = TeamsTrials.note(Key, M);
    if (!Note.empty())
      Rec.Teams += (Rec.Teams.empty() ? "" : ",") + MemberNames[M] + "=" + Note;
  }
  return Trial;
}

void Engine::printLaunchTimes(const std::string &Kernel, double Wall,
                              const KernelStats::Launch &Rec,
                              const std::string &SharesNote) {
  std::string Busy;
  for (const auto &[Name, U] : Rec.Members) {
    char Part[96];
    snprintf(Part, sizeof(Part), " %s:%llu:%.3fms", Name.c_str(),
             static_cast<unsigned long long>(U.Iterations),
             1e3 * U.BusySeconds);
    Busy += Part;
  }
  info(2, "launch %s: %.3f ms,%s (%s)", Kernel.c_str(), 1e3 * Wall,
       Busy.c_str(), SharesNote.c_str());
}

void Engine::printStats(FILE *Out) {
  if (!Config.Stats)
    return;
  TransferStats &T = Layer.stats();
  Stats.print(Out, T.BytesH2D, T.BytesD2D, T.BytesD2H);
  // What each memory held at most: the granules its chunks and map-time
  // writes touched (NodeOps::back), or whole buffers where it has none.
  std::vector<NodeBytes> Held = Layer.heldBytes();
  for (size_t N = 0; N < Held.size(); ++N)
    fprintf(Out,
            "hetero-stats memory node=%s peak_bytes=%" PRIu64
            " held_bytes=%" PRIu64 " evicted_bytes=%" PRIu64 "\n",
            Layer.nodeName(static_cast<NodeId>(N)).c_str(), Held[N].Peak,
            Held[N].Held, Held[N].Evicted);
  fflush(Out);
}

} // namespace hetero

//===- LaunchRun.cpp - One launch, from plan to finished ------------------===//
#include "LaunchRun.h"

#include "hetero/Log.h"
#include "hetero/Reduction.h"
#include "hetero/Trace.h"

#include <algorithm>
#include <chrono>
#include <cstring>
#include <map>
#include <optional>
#include <set>
#include <tuple>

namespace hetero {

LaunchRun::LaunchRun(LaunchContext &Ctx, const LaunchRequest &R,
                     KernelStats::Launch &Rec)
    : Ctx(Ctx), Layer(Ctx.Layer), R(R), K(*R.Kernel), Rec(Rec),
      Usage(Ctx.Members.size()) {}

LaunchRun::~LaunchRun() = default;

//===--- Planning a split -------------------------------------------------===//

namespace {
/// Reads, one per buffer; nothing when a buffer was written between two of
/// them (its generation differs).
std::optional<std::vector<SectionCache::MemoryRead>>
distinctReads(std::vector<SectionCache::MemoryRead> Reads) {
  std::sort(Reads.begin(), Reads.end(), [](const auto &A, const auto &B) {
    return std::tie(A.Id, A.Generation) < std::tie(B.Id, B.Generation);
  });
  std::vector<SectionCache::MemoryRead> Out;
  for (const SectionCache::MemoryRead &R : Reads) {
    if (!Out.empty() && Out.back().Id == R.Id) {
      if (Out.back().Generation != R.Generation)
        return std::nullopt;
      continue;
    }
    Out.push_back(R);
  }
  return Out;
}
} // namespace

bool LaunchRun::noteRead(const std::optional<BufferInfo> &B, bool Ok) {
  if (Ok)
    MemoryReads.push_back({B->Id, B->Generation});
  Unrepeatable |= !Ok;
  return Ok;
}

void LaunchRun::bindEnvironment() {
  Env = DescEnv();
  Env.Args.reserve(R.Args.size());
  for (size_t A = 0; A < R.Args.size(); ++A)
    Env.Args.push_back(R.Args[A] + R.Offsets[A]);
  Env.Load = [this](uint64_t Addr, void *Dst, unsigned Bytes) {
    std::optional<BufferInfo> B = Layer.find(Addr);
    return noteRead(
        B,
        B && Addr + Bytes <= B->base() + B->Size &&
            Layer.read(Dst, reinterpret_cast<const void *>(Addr), Bytes).ok());
  };
  Env.LoadRange = [this](uint64_t Addr, unsigned Bytes, uint64_t Stride,
                         uint64_t Count, bool Signed, int64_t &Min,
                         int64_t &Max) {
    std::optional<BufferInfo> B = Layer.find(Addr);
    return noteRead(
        B, B && Layer.loadRange(Addr, Bytes, Stride, Count, Signed, Min, Max));
  };
}

bool LaunchRun::sectionsOfChunks(std::string &Reason) {
  const KernelDescriptor &D = *K.Desc;
  SectionCache::Key Key;
  Key.Desc = &D;
  Key.Chunks.reserve(Chunks.size());
  Key.Args.reserve(D.argsUsed().size());
  Key.Offsets.reserve(D.argsUsed().size());
  for (const Chunk &C : Chunks)
    Key.Chunks.push_back({C.Member, C.Lo, C.Hi});
  // Only arguments the descriptor reads: CG's axpy gets a new alpha each
  // launch, which its sections never see.
  for (unsigned A : D.argsUsed()) {
    Key.Args.push_back(R.Args[A]);
    Key.Offsets.push_back(R.Offsets[A]);
  }
  Key.Trips = Trips;
  SectionCache::Shared Sections;
  if (!Ctx.Sections.find(Key, Layer, Sections)) {
    std::vector<ChunkSections> Resolved;
    std::vector<SectionLookup> Lookups;
    MemoryReads.clear();
    Unrepeatable = false;
    std::string Outside;
    if (!resolveSections(D, Env, R.Args, Trips, Layer, Key.Chunks, Resolved,
                         Reason, &Lookups, &Outside)) {
      warnOutside(Outside);
      Overlap = Key.Chunks.size() > 1 && writesOverlapLittle();
      return false;
    }
    for (ChunkSections &S : Resolved)
      Sections.push_back(std::make_shared<const ChunkSections>(std::move(S)));
    // Bounds read from memory hold while that memory is unwritten.
    if (std::optional<std::vector<SectionCache::MemoryRead>> Reads =
            distinctReads(MemoryReads);
        Reads && !Unrepeatable)
      Ctx.Sections.store(std::move(Key), std::move(Lookups), std::move(*Reads),
                         Sections);
  }
  for (size_t C = 0; C < Chunks.size(); ++C)
    Chunks[C].Sections = std::move(Sections[C]);
  return true;
}

bool LaunchRun::plan(const std::vector<Share> &Shares, std::string &Reason) {
  const KernelDescriptor &D = *K.Desc;
  if (D.maxArgIndex() >= static_cast<int>(R.Args.size())) {
    Reason = "descriptor names argument " + std::to_string(D.maxArgIndex()) +
             " of " + std::to_string(R.Args.size());
    return false;
  }
  bindEnvironment();
  std::string Err;
  if (!tripCounts(D, Env, Trips, Err)) {
    Reason = "trip count not computable: " + Err;
    return false;
  }
  if (!planChunks(Shares, Reason))
    return false;
  if (Chunks.empty())
    return true; // a loop without iterations
  Reachable = Layer.kernelBuffers(R.Args);
  for (const BufferInfo &B : Reachable)
    if (B.HostResident) {
      Reason = "uses host-resident memory";
      return false;
    }
  Externals = Layer.externalBuffers();
  if (!sectionsOfChunks(Reason))
    return false;
  for (const DescReduction &Red : D.reductions())
    if (!Layer.find(Env.Args[Red.Arg])) {
      Reason = "reduction variable outside mapped memory";
      return false;
    }
  Partials.assign(Chunks.size(),
                  std::vector<uint64_t>(D.reductions().size(), 0));
  return true;
}

/// Whether each chunk resolves alone (so what refused them was only that
/// their writes overlap: resolveSections' one check across chunks) and the
/// bytes more than one of them writes are at most an eighth of what they
/// write: a row at each boundary, as where each iteration writes the nodes
/// around its cell. A transpose's chunks, or chunks that all set one flag,
/// each write across the whole array, which each would then have to hold in
/// turn: those run whole.
bool LaunchRun::writesOverlapLittle() const {
  uint64_t Written = 0, Shared = 0;
  std::map<BufferId, RangeSet> Before;
  for (const Chunk &C : Chunks) {
    std::vector<ChunkSections> One;
    std::string Why;
    if (!resolveSections(*K.Desc, Env, R.Args, Trips, Layer,
                         {{C.Member, C.Lo, C.Hi}}, One, Why))
      return false;
    for (const BufferAccess &A : One[0].Buffers) {
      RangeSet &Seen = Before[A.B.Id];
      for (const Range &W : A.Write.ranges()) {
        Written += W.Hi - W.Lo;
        for (const Range &X : Seen.intersect(W.Lo, W.Hi))
          Shared += X.Hi - X.Lo;
      }
      for (const Range &W : A.Write.ranges())
        Seen.insert(W.Lo, W.Hi);
    }
  }
  return Shared * 8 <= Written;
}

std::vector<ChunkSpec> LaunchRun::cut() const {
  std::vector<ChunkSpec> Out;
  for (const Chunk &C : Chunks)
    Out.push_back({C.Member, C.Lo, C.Hi});
  return Out;
}

std::vector<std::pair<BufferId, RangeSet>> LaunchRun::spans(size_t M) const {
  std::vector<std::pair<BufferId, RangeSet>> Out;
  for (const Chunk &C : Chunks) {
    if (C.Member != M || !C.Sections)
      continue;
    for (const BufferAccess &A : C.Sections->Buffers) {
      auto It = std::find_if(Out.begin(), Out.end(),
                             [&](const auto &P) { return P.first == A.B.Id; });
      if (It == Out.end())
        It = Out.insert(Out.end(), {A.B.Id, RangeSet()});
      for (const Range &S : A.Span.ranges())
        It->second.insert(S.Lo, S.Hi);
    }
  }
  return Out;
}

void LaunchRun::warnOutside(const std::string &Outside) const {
  // Most likely the program's error, which the unsplit kernel commits too:
  // said at the launch that finds it (once a kernel: Log.h).
  if (!Outside.empty())
    warning("kernel %s: %s; the kernel runs unsplit, and that access "
            "reaches memory that is not its array's",
            K.shown().c_str(), Outside.c_str());
}

void LaunchRun::checkBoundsOnce(uint64_t Total) {
  if (!Ctx.BoundsChecked.insert(K.Name).second)
    return;
  std::vector<ChunkSections> Resolved;
  std::string Why, Outside;
  if (!resolveSections(*K.Desc, Env, R.Args, Trips, Layer, {{0, 0, Total}},
                       Resolved, Why, nullptr, &Outside))
    warnOutside(Outside);
}

/// Cuts the iteration space by the shares; no chunks for an empty loop.
bool LaunchRun::planChunks(const std::vector<Share> &Shares,
                           std::string &Reason) {
  uint64_t Total = 1;
  for (uint64_t N : Trips)
    Total *= N; // tripCounts checked the product
  // The compiler computes an empty loop's count in unsigned arithmetic: a
  // negative number cast to unsigned, or, with a step above 1, a wrapped
  // quotient (DescriptorEval.h); anything else that differs means the
  // descriptor is wrong. An empty launch runs nothing and moves nothing.
  auto RuntimeEmpty = [&] {
    return static_cast<int64_t>(R.TripCount) <= 0 ||
           (R.TripCount <= UINT32_MAX &&
            static_cast<int32_t>(R.TripCount) <= 0) ||
           isWrappedCountOfEmptyNest(*K.Desc, Env, R.TripCount);
  };
  Chunks.clear();
  if (Total == 0 && (R.TripCount == 0 || RuntimeEmpty()))
    return true;
  if (R.TripCount && R.TripCount != Total) {
    Reason = "trip count " + std::to_string(R.TripCount) +
             " differs from the descriptor's " + std::to_string(Total);
    return false;
  }
  std::vector<double> Weights;
  Weights.reserve(Shares.size());
  for (const Share &S : Shares)
    Weights.push_back(S.Weight);
  uint64_t From = Windowed ? std::min(WinLo, Total) : 0;
  uint64_t To = Windowed ? std::min(WinHi, Total) : Total;
  // Cut at whole rows, so kernels over different columns of a grid cut it
  // alike and halos are whole rows (ChunkPlan.h, rowGrain).
  uint64_t Grain =
      Windowed ? 1 : rowGrain(Trips, Shares.size() * Ctx.Config.Chunks);
  std::vector<ChunkSpec> Cut =
      splitIterations(To - From, Weights, WindowWhole ? 1 : Ctx.Config.Chunks,
                      Ctx.Config.MinChunk, Grain);
  for (ChunkSpec &S : Cut) {
    S.Lo += From;
    S.Hi += From;
  }
  // Boundaries where the data lives: one member may be left with all of it
  // (a halo row), and its one chunk then runs there, windowed.
  bool AllOnOne = false;
  if (Ctx.Config.OwnerCuts && Cut.size() > 1 && !Windowed) {
    std::vector<NodeId> Nodes;
    Nodes.reserve(Cut.size());
    for (const ChunkSpec &S : Cut)
      Nodes.push_back(member(Shares[S.Member].Member).Node);
    Rec.Aligned = Ctx.Cuts.align(K.Name + "#" + std::to_string(Total), *K.Desc,
                                 Env, R.Args, Trips, Nodes, Layer, Cut) > 0;
    snapBoundaries(Cut, Grain);
    AllOnOne = Cut.size() == 1;
    Rec.Owner = AllOnOne;
  }
  Chunks.reserve(Cut.size());
  for (const ChunkSpec &S : Cut) {
    Chunk C;
    C.Member = Shares[S.Member].Member;
    C.Lo = S.Lo;
    C.Hi = S.Hi;
    // A grid under trial is timed (TeamsTrial::untimed).
    bool GridUntimed = InLanes && Ctx.TeamsTrials.untimed(GridKey, C.Member);
    RunAhead = RunAhead && GridUntimed;
    InLanes = GridUntimed;
    Chunks.push_back(std::move(C));
  }
  // One chunk runs whole, unless the share model chose that one member
  // (Shares of one, offered several: see split()). None: every member left
  // (no room), and the launch runs whole.
  if (Chunks.empty() || (Chunks.size() < 2 && !Windowed &&
                         (Total < 2 || !(OneChosen || AllOnOne)))) {
    Reason = Total < 2        ? "fewer than two iterations"
             : Chunks.empty() ? "no member left"
                              : "one member, one chunk";
    if (Chunks.size() == 1 && Total >= 2)
      checkBoundsOnce(Total);
    return false;
  }
  return true;
}

//===--- Data -------------------------------------------------------------===//

Status LaunchRun::prepare(Chunk &C) {
  NodeId Node = member(C.Member).Node;
  if (C.Whole) {
    C.NodeArgs = R.Args;
    if (Status S = Layer.beforeKernelWrites(Node); !S)
      return S;
    if (Status S = Layer.acquireWhole(Node, C.NodeArgs, C.Touched); !S)
      return S;
    for (size_t A = 0; A < C.NodeArgs.size(); ++A)
      C.NodeArgs[A] += R.Offsets[A];
    Ctx.Indirect.translate(C.Member, C.NodeArgs);
    return Status();
  }
  if (Status S = prepareSections(C); !S)
    return S;
  if (Status S = Layer.translateAll(Node, R.Args, C.NodeArgs); !S)
    return S;
  for (size_t A = 0; A < R.Args.size(); ++A)
    C.NodeArgs[A] += R.Offsets[A];
  Ctx.Indirect.translate(C.Member, C.NodeArgs);
  return Status();
}

Status LaunchRun::prepareSections(Chunk &C) {
  NodeId Node = member(C.Member).Node;
  // Globals are read without being passed; split kernels never write them.
  for (const BufferInfo &B : C.Sections->ReadAny ? Reachable : Externals)
    if (Status S = Layer.makeValid(Node, B.Id, 0, B.Size); !S)
      return S;
  // Write sections too: they over-approximate what the chunk writes, and
  // afterwards they are valid on this node only. Copies queued in other
  // members' lanes that read the bytes the chunk writes here land first.
  Needs.clear();
  C.SpanBytes = 0;
  for (const BufferAccess &A : C.Sections->Buffers) {
    Needs.push_back({A.B.Id, &A.Read, &A.Write, &A.Span,
                     A.Covered.empty() ? nullptr : &A.Covered});
    C.SpanBytes += A.Span.bytes();
  }
  return Layer.prepareChunk(Node, Needs,
                            Ctx.Config.Stats ? &Rec.Needed : nullptr);
}

//===--- Running ----------------------------------------------------------===//

ChunkRun LaunchRun::chunkRun(const Chunk &C) {
  ChunkRun Run;
  Run.Member = C.Member;
  Run.Windowed = !C.Whole;
  Run.Lo = C.Lo;
  Run.Hi = C.Hi;
  if (C.Member < Ctx.ChunkGrids.size())
    Run.GridFraction = Ctx.ChunkGrids[C.Member].Fraction;
  Run.Args = C.NodeArgs;
  if (!C.Whole) {
    std::vector<uint64_t> &Out =
        Partials[static_cast<size_t>(&C - Chunks.data())];
    for (size_t Red = 0; Red < K.Desc->reductions().size(); ++Red) {
      const DescReduction &D = K.Desc->reductions()[Red];
      ChunkPartial P;
      P.Arg = D.Arg;
      P.Size = static_cast<unsigned>(reductionSize(D.Type));
      reductionIdentity(D.Op, D.Type, P.Identity);
      P.Result = reinterpret_cast<unsigned char *>(&Out[Red]);
      Run.Partials.push_back(P);
    }
  }
  return Run;
}

/// Chunks on members that queue kernels (GPUs): a member's next chunk
/// starts only once its previous one has finished, since the loop window a
/// GPU's kernel reads is one global per member, which the next chunk's
/// start overwrites (HETERO_CHUNKS=3 over two GPU parts each on two H200s:
/// one chunk now and then ran with another's window, so its own iterations
/// never ran). With parallel starts, each member's chunks start and are
/// waited for on a thread of their own (StartThreads.h), the first
/// member's on this one; else all start from this thread, one after the
/// other, and are waited for in the same order. A chunk's time is from its
/// start to its end as its thread sees it. A chunk that runs ahead (!Wait)
/// is released instead of waited for: it stays queued on its member, whose
/// loop window a later chunk's start sets behind it in the same queue.
std::vector<bool> LaunchRun::startAndFinish(const std::vector<size_t> &Which,
                                            std::vector<double> &Seconds,
                                            bool Wait) {
  if (!Wait && Ctx.Config.ParallelStarts)
    if (std::shared_ptr<const void> Kept = Ctx.Back.keepLaunch(R.BackendLaunch))
      return postStarts(Which, Kept);
  std::vector<char> Ok(Which.size(), 0); // written by several threads
  std::vector<StartedChunk> Started(Which.size());
  std::vector<std::chrono::steady_clock::time_point> Starts(Which.size());
  std::vector<double> TraceBegins(Which.size(), 0);
  // Per chunk: what its member had queued before it (its wait covers that).
  std::vector<uint64_t> Targets(Which.size(), 0);
  auto Start = [&](size_t I) {
    TraceBegins[I] = trace::on() ? trace::now() : 0;
    Starts[I] = std::chrono::steady_clock::now();
    size_t M = Chunks[Which[I]].Member;
    Targets[I] = Ctx.Queues.waitTarget(M);
    Ok[I] =
        noteChunk(M, Ctx.Back.start(R.BackendLaunch, chunkRun(Chunks[Which[I]]),
                                    Started[I]));
  };
  auto Finish = [&](size_t I) {
    size_t M = Chunks[Which[I]].Member;
    if (!Wait) {
      // Counted once queued, not before: a wait on another thread that
      // began before the count never takes it for drained (MemberQueues.h).
      if (Ok[I]) {
        Ctx.Back.release(Started[I]);
        Ctx.Queues.noteQueued(M);
      }
      if (trace::on())
        traceChunk(Chunks[Which[I]], TraceBegins[I], Ok[I], true);
      return;
    }
    // The wait covers what ran ahead there before: a failure may be theirs.
    // A chunk that did not start waits for nothing: what ran ahead there is
    // left to the next settle. The member counts as settled only once the
    // wait has returned (MemberQueues.h).
    bool Waits = Ok[I];
    bool WasAhead = Waits && !Ctx.Queues.drainedUpTo(M, Targets[I]);
    if (Waits)
      Ok[I] = noteChunk(M, Ctx.Back.finish(Started[I]));
    if (Waits && Ok[I])
      Ctx.Queues.drained(M, Targets[I]);
    if (Waits && !Ok[I] && WasAhead && Ctx.Queues.markFailed(M))
      error("kernel %s failed on %s%s, where kernels ran ahead before it: "
            "their results are lost too (HETERO_RUN_AHEAD=0 waits for every "
            "launch)",
            K.shown().c_str(), name(M).c_str(), whyFailed(M).c_str());
    Seconds[I] = std::chrono::duration<double>(
                     std::chrono::steady_clock::now() - Starts[I])
                     .count();
    if (trace::on())
      traceChunk(Chunks[Which[I]], TraceBegins[I], Ok[I]);
  };
  TraceSpan Waiting("host", Wait ? "wait" : "queue", "");
  if (Waiting.active())
    Waiting.setName((Wait ? "wait for " : "queue ") +
                    std::to_string(Which.size()) + " chunks");
  startInTurn(Which, Start, Finish);
  return std::vector<bool>(Ok.begin(), Ok.end());
}

template <typename StartFn, typename FinishFn>
void LaunchRun::startInTurn(const std::vector<size_t> &Which, StartFn &Start,
                            FinishFn &Finish) {
  // Each member's chunks, in order.
  std::vector<std::vector<size_t>> ByMember;
  std::map<size_t, size_t> GroupOf;
  for (size_t I = 0; I < Which.size(); ++I) {
    auto [It, New] = GroupOf.emplace(Chunks[Which[I]].Member, ByMember.size());
    if (New)
      ByMember.emplace_back();
    ByMember[It->second].push_back(I);
  }
  if (Ctx.Config.ParallelStarts && ByMember.size() > 1) {
    // Each member's on its start thread, behind what was posted there
    // (postStarts); the first here, once its thread has drained.
    auto Job = [&](const std::vector<size_t> &Group) {
      for (size_t I : Group) {
        Start(I);
        Finish(I);
      }
    };
    for (size_t G = 1; G < ByMember.size(); ++G)
      Ctx.Starters.post(Chunks[Which[ByMember[G][0]]].Member,
                        [&Job, &Group = ByMember[G]] { Job(Group); });
    Ctx.Starters.drain(Chunks[Which[ByMember[0][0]]].Member);
    Job(ByMember[0]);
    for (size_t G = 1; G < ByMember.size(); ++G)
      Ctx.Starters.drain(Chunks[Which[ByMember[G][0]]].Member);
  } else {
    std::vector<char> Waited(Which.size(), 0);
    std::map<size_t, size_t> Running; // member -> its started chunk
    for (size_t I = 0; I < Which.size(); ++I) {
      size_t M = Chunks[Which[I]].Member;
      Ctx.Starters.drain(M); // what was posted there starts first
      if (auto It = Running.find(M); It != Running.end()) {
        Finish(It->second);
        Waited[It->second] = 1;
      }
      Start(I);
      Running[M] = I;
    }
    for (size_t I = 0; I < Which.size(); ++I)
      if (!Waited[I])
        Finish(I);
  }
}

bool LaunchRun::startsInLanes() const {
  if (Chunks.size() < 2)
    return false; // one chunk that waits goes to its member's worker
  for (const Chunk &C : Chunks)
    if (!Ctx.Back.startsChunks(C.Member))
      return false;
  return true;
}

std::vector<bool> LaunchRun::runChunks(const std::vector<size_t> &Which) {
  std::vector<double> Seconds(Which.size(), 0);
  // Chunks on members that queue kernels start from this thread, one alone
  // too (a chunk the share model placed alone, one GPU's): handed to the
  // member's worker, it waited 20-60 us more (docs/measurements.md, "One
  // accelerator alone").
  bool Ahead = RunAhead && Which.size() == Chunks.size();
  bool AllStart = !Which.empty();
  for (size_t C : Which)
    AllStart = AllStart && Ctx.Back.startsChunks(Chunks[C].Member);
  if (AllStart) {
    std::vector<bool> Ok = startAndFinish(Which, Seconds, !Ahead);
    Rec.RanAhead = Rec.RanAhead || Ahead; // a rerun after a failure waits
    account(Which, Seconds, Ok);
    return Ok;
  }
  // Chunks on workers: whatever was posted to their members' start
  // threads goes first.
  Ctx.issuePosted();
  std::vector<std::pair<int, std::function<bool()>>> Tasks;
  for (size_t I = 0; I < Which.size(); ++I) {
    Tasks.push_back(
        {member(Chunks[Which[I]].Member).WorkerId, [this, I, &Which, &Seconds] {
           const Chunk &C = Chunks[Which[I]];
           double TraceBegin = trace::on() ? trace::now() : 0;
           auto Start = std::chrono::steady_clock::now();
           bool Ok =
               noteChunk(C.Member, Ctx.Back.run(R.BackendLaunch, chunkRun(C)));
           Seconds[I] = std::chrono::duration<double>(
                            std::chrono::steady_clock::now() - Start)
                            .count();
           if (trace::on())
             traceChunk(C, TraceBegin, Ok);
           return Ok;
         }});
  }
  TraceSpan Wait("host", "wait", "");
  if (Wait.active())
    Wait.setName("wait for " + std::to_string(Tasks.size()) +
                 (Tasks.size() == 1 ? " chunk" : " chunks"));
  std::vector<bool> Ok = Ctx.RunTasks(Tasks);
  account(Which, Seconds, Ok);
  return Ok;
}

/// Each member's chunks go to its start thread (StartThreads::post) as one
/// job that owns what it needs; they count as queued on the member at once
/// (MemberQueues.h), and whatever waits for the member drains its start
/// thread first (Engine::settleMember). A chunk that then does not start
/// fails its member's next wait, as a chunk that ran ahead and failed does.
std::vector<bool> LaunchRun::postStarts(const std::vector<size_t> &Which,
                                        std::shared_ptr<const void> Kept) {
  // Each member's chunks in order (a launch has a few chunks: no map).
  std::vector<std::pair<size_t, std::vector<ChunkRun>>> ByMember;
  for (size_t C : Which) {
    size_t M = Chunks[C].Member;
    auto It = std::find_if(ByMember.begin(), ByMember.end(),
                           [M](const auto &G) { return G.first == M; });
    if (It == ByMember.end())
      It = ByMember.insert(ByMember.end(), {M, {}});
    It->second.push_back(chunkRun(Chunks[C]));
  }
  TraceSpan Posting("host", "queue", "");
  if (Posting.active())
    Posting.setName("post " + std::to_string(Which.size()) + " chunks");
  for (auto &[M, Runs] : ByMember) {
    Ctx.Starters.post(
        M, [&Ctx = Ctx, Kernel = &K, Kept, M = M, Runs = std::move(Runs)] {
          for (const ChunkRun &C : Runs) {
            StartedChunk S;
            if (Ctx.Queues.failed(M))
              return;
            if (Status Started = Ctx.Back.start(Kept.get(), C, S); !Started) {
              if (Ctx.Queues.markFailed(M))
                error("kernel %s did not start on %s after its launch returned "
                      "(%s): its results are lost (HETERO_RUN_AHEAD=0 starts "
                      "every chunk before its launch returns)",
                      Kernel->shown().c_str(), Ctx.MemberNames[M].c_str(),
                      Started.message().c_str());
              return;
            }
            Ctx.Back.release(S);
          }
        });
  }
  for (size_t C : Which) {
    Ctx.Queues.noteQueued(Chunks[C].Member);
    if (trace::on())
      traceChunk(Chunks[C], trace::now(), true, true);
  }
  Posted = true;
  return std::vector<bool>(Which.size(), true);
}

void LaunchRun::account(const std::vector<size_t> &Which,
                        const std::vector<double> &Seconds,
                        const std::vector<bool> &Ok) {
  for (size_t I = 0; I < Which.size(); ++I) {
    const Chunk &C = Chunks[Which[I]];
    Usage[C.Member].BusySeconds += Seconds[I];
    if (Ok[I])
      Usage[C.Member].Iterations += C.Whole ? R.TripCount : C.Hi - C.Lo;
  }
}

void LaunchRun::traceChunk(const Chunk &C, double BeginUs, bool Ok,
                           bool Queued) const {
  std::string Kernel = K.shown();
  std::string Name = C.Whole ? Kernel + " (whole)"
                             : Kernel + " [" + std::to_string(C.Lo) + "," +
                                   std::to_string(C.Hi) + ")";
  std::string Args = "\"kernel\":" + trace::quoted(K.Name);
  if (!C.Whole)
    Args += ",\"lo\":" + std::to_string(C.Lo) +
            ",\"hi\":" + std::to_string(C.Hi) +
            ",\"iterations\":" + std::to_string(C.Hi - C.Lo);
  if (!Ok)
    Args += ",\"failed\":true";
  if (Queued) // the event ends when it was queued, not when it ran
    Args += ",\"ran_ahead\":true";
  trace::event(member(C.Member).name(), "chunk", Name, BeginUs, trace::now(),
               Args);
}

/// A chunk that updates in place (reads what it writes) cannot run again if
/// the only copy of those bytes was on the failed member; a whole kernel
/// may update anything it reaches.
Status LaunchRun::checkRerunnable(size_t M, const Chunk &C) {
  NodeId Node = member(M).Node;
  auto LivedThere = [&] {
    return Status::error(StatusCode::KernelFailed,
                         "kernel " + K.shown() + " failed on " + name(M) +
                             " and its data lived only there");
  };
  if (C.Whole) {
    for (BufferId B : C.Touched)
      if (!Layer.validOnlyOn(Node, B).empty())
        return LivedThere();
    return Status();
  }
  for (const BufferAccess &A : C.Sections->Buffers) {
    RangeSet Only = Layer.validOnlyOn(Node, A.B.Id);
    for (const Range &W : A.Write.ranges())
      for (const Range &Rd : A.Read.intersect(W.Lo, W.Hi))
        if (!Only.intersect(Rd.Lo, Rd.Hi).empty())
          return LivedThere();
  }
  return Status();
}

Status LaunchRun::evacuate(size_t M, const std::vector<size_t> &Again) {
  NodeId Node = member(M).Node;
  std::vector<BufferId> Touched;
  for (const BufferInfo &B : Reachable)
    Touched.push_back(B.Id);
  for (size_t C : Again) {
    if (Chunks[C].Sections)
      for (const BufferAccess &A : Chunks[C].Sections->Buffers)
        Touched.push_back(A.B.Id);
    Touched.insert(Touched.end(), Chunks[C].Touched.begin(),
                   Chunks[C].Touched.end());
    if (Chunks[C].Member == M)
      if (Status S = checkRerunnable(M, Chunks[C]); !S)
        return S;
  }
  std::sort(Touched.begin(), Touched.end());
  Touched.erase(std::unique(Touched.begin(), Touched.end()), Touched.end());
  // Everything else that lived only there goes to the host, then the node's
  // copies are forgotten. The chunks' own write sections come along too:
  // they are written again, with the same values, when the chunks rerun.
  for (BufferId B : Touched) {
    RangeSet Only = Layer.validOnlyOn(Node, B);
    for (const Range &Rg : Only.ranges())
      if (Status S = Layer.makeValid(HostNode, B, Rg.Lo, Rg.Hi); !S)
        return S;
  }
  if (!Layer.discardNode(Node, Touched))
    return Status::error(StatusCode::CopyFailed,
                         "the data of " + name(M) + " could not be moved");
  return Status();
}

bool LaunchRun::noteChunk(size_t M, const Status &S) {
  if (S)
    return true;
  std::lock_guard<std::mutex> Lock(FailuresMutex);
  Failures.emplace(M, S.message());
  return false;
}

std::string LaunchRun::whyFailed(size_t M) {
  std::lock_guard<std::mutex> Lock(FailuresMutex);
  auto It = Failures.find(M);
  return It == Failures.end() ? std::string() : " (" + It->second + ")";
}

bool LaunchRun::replace(size_t C, const std::vector<size_t> &Order) {
  for (size_t To : Order) {
    Chunks[C].Member = To;
    Status S = prepare(Chunks[C]);
    if (S)
      return true;
    warning("kernel %s: %s (%s); trying the next member", K.shown().c_str(),
            name(To).c_str(), S.message().c_str());
  }
  error("kernel %s: no other member can run its chunks", K.shown().c_str());
  return false;
}

bool LaunchRun::runAndRecover(
    const std::function<std::vector<size_t>()> &Candidates) {
  std::vector<size_t> Pending(Chunks.size());
  for (size_t C = 0; C < Chunks.size(); ++C)
    Pending[C] = C;
  while (!Pending.empty()) {
    std::vector<bool> Ok = runChunks(Pending);
    std::set<size_t> Failed;
    for (size_t I = 0; I < Pending.size(); ++I)
      if (!Ok[I])
        Failed.insert(Chunks[Pending[I]].Member);
    if (Failed.empty())
      return true;
    for (size_t M : Failed)
      if (Ctx.Queues.failed(M))
        return false; // said where it was found
    // A faulted kernel leaves its CUDA context unusable: every part of that
    // GPU (HETERO_GPU_SPLIT) leaves with the part it ran on.
    std::map<size_t, size_t> With; // part -> the failed part of its GPU
    for (size_t M : Failed)
      for (size_t O = 0; O < Ctx.Members.size(); ++O)
        if (!Failed.count(O) && !Ctx.Members[O].Failed &&
            member(M).sameGpu(member(O)))
          With.emplace(O, M);
    for (const auto &[O, M] : With)
      Failed.insert(O);
    std::vector<size_t> Again;
    for (size_t C = 0; C < Chunks.size(); ++C)
      if (Failed.count(Chunks[C].Member))
        Again.push_back(C);
    for (size_t M : Failed) {
      Ctx.Members[M].Failed = true;
      Ctx.updateHome();
      if (auto It = With.find(M); It != With.end())
        error("%s leaves the pool with %s (parts of one GPU)", name(M).c_str(),
              name(It->second).c_str());
      else
        error("kernel %s failed on %s%s; %s leaves the pool", K.shown().c_str(),
              name(M).c_str(), whyFailed(M).c_str(), name(M).c_str());
      if (Status S = evacuate(M, Again); !S) {
        error("%s", S.message().c_str());
        return false;
      }
    }
    for (size_t C : Again) {
      bool FailedCpuSide = member(Chunks[C].Member).cpuSide();
      std::vector<size_t> Order;
      for (bool OtherKind : {true, false})
        for (size_t M : Candidates())
          if ((member(M).cpuSide() != FailedCpuSide) == OtherKind)
            Order.push_back(M);
      if (!replace(C, Order))
        return false;
    }
    Pending = Again;
  }
  return true;
}

//===--- Finishing --------------------------------------------------------===//

void LaunchRun::finish() {
  for (size_t C = 0; C < Chunks.size(); ++C) {
    NodeId Node = member(Chunks[C].Member).Node;
    if (Chunks[C].Whole) {
      Layer.releaseWhole(Node, Chunks[C].Touched);
      continue;
    }
    for (const BufferAccess &A : Chunks[C].Sections->Buffers)
      for (const Range &W : A.Write.ranges())
        Layer.markWritten(Node, A.B.Id, W.Lo, W.Hi);
  }
}

Status LaunchRun::combineReductions() {
  for (size_t Red = 0; Red < K.Desc->reductions().size(); ++Red) {
    const DescReduction &D = K.Desc->reductions()[Red];
    size_t Size = reductionSize(D.Type);
    std::vector<unsigned char> InOrder(Size * Chunks.size());
    for (size_t C = 0; C < Chunks.size(); ++C)
      std::memcpy(&InOrder[C * Size], &Partials[C][Red], Size);
    unsigned char Value[8];
    void *Var = reinterpret_cast<void *>(Env.Args[D.Arg]);
    if (Status S = Layer.read(Value, Var, Size); !S)
      return S;
    reductionCombineChunks(D.Op, D.Type, Value, InOrder.data(), Chunks.size());
    if (Status S = Layer.write(Var, Value, Size); !S)
      return S;
  }
  return Status();
}

void LaunchRun::recordUsage() {
  std::vector<uint64_t> Iterations(Ctx.Members.size(), 0);
  for (const Chunk &C : Chunks)
    Iterations[C.Member] += C.Hi - C.Lo;
  size_t Most = static_cast<size_t>(
      std::max_element(Iterations.begin(), Iterations.end()) -
      Iterations.begin());
  for (const Chunk &C : Chunks)
    if (C.Member != Most)
      Rec.Gather += C.SpanBytes;
  for (size_t M = 0; M < Usage.size(); ++M) {
    if (!Usage[M].Iterations && Usage[M].BusySeconds <= 0)
      continue;
    auto Had = std::find_if(Rec.Members.begin(), Rec.Members.end(),
                            [&](const auto &U) { return U.first == name(M); });
    if (Had == Rec.Members.end()) {
      Rec.Members.push_back({name(M), Usage[M]});
    } else { // an earlier round's
      Had->second.Iterations += Usage[M].Iterations;
      Had->second.BusySeconds += Usage[M].BusySeconds;
    }
  }
}

bool LaunchRun::learnRoom(size_t M) {
  NodeId Node = member(M).Node;
  uint64_t Room = Layer.capacity(Node);
  if (!Room) // the host's memory: the CPU pool computes in place
    return false;
  uint64_t Total = 0, Mine = 0, Need = 0;
  for (const Chunk &C : Chunks) {
    Total += C.Hi - C.Lo;
    if (C.Member != M || !C.Sections)
      continue;
    Mine += C.Hi - C.Lo;
    for (const BufferAccess &A : C.Sections->Buffers)
      Need += A.Span.bytes();
  }
  // Fractions of the whole launch (a round cuts part of it).
  uint64_t Launch = Windowed ? R.TripCount : Total;
  if (!Launch || !Mine)
    return false;
  double Share = static_cast<double>(Mine) / static_cast<double>(Launch);
  double Fits = Share * RoomCaps::Headroom * static_cast<double>(Room) /
                static_cast<double>(std::max<uint64_t>(Need, 1));
  double Had = std::min(Share, Ctx.Room.cap(RoomKey, M));
  if (Fits >= Had)
    Fits = Had / 2; // it needed more than its sections
  Ctx.Room.learn(RoomKey, M, Fits);
  if (Ctx.Room.cap(RoomKey, M) <= 0 || Fits * static_cast<double>(Launch) < 1)
    return false; // it leaves: its share goes elsewhere
  RoomLearned = true;
  return true;
}

//===--- The two shapes of a launch --------------------------------------===//

LaunchRun::Outcome LaunchRun::split(std::vector<Share> Shares,
                                    std::string &Reason,
                                    const std::vector<Share> &Spare) {
  OneChosen = Shares.size() == 1 && !Spare.empty();
  {
    TraceSpan Planning("host", "plan", "plan");
    if (Outcome Planned = planAndPrepare(Shares, Reason);
        Planned != Outcome::Done)
      return Planned;
  }
  if (Chunks.empty()) {
    Rec.Split = true; // nothing to run: the kernel has no effect
    return Outcome::Done;
  }
  return runPrepared(Shares, Spare);
}

LaunchRun::Outcome LaunchRun::planAndPrepare(std::vector<Share> &Shares,
                                             std::string &Reason) {
  std::string NoRoomFirst; // why the first member left, if one did
  // The chunks' copies between accelerators overlap (DataLayer.h).
  Layer.beginCopyBatch();
  auto CopiesLanded = [&] {
    Status S = Layer.endCopyBatch();
    if (!S)
      error("kernel %s: %s", K.shown().c_str(), S.message().c_str());
    return S.ok();
  };
  const uint64_t NeededBefore = Rec.Needed; // earlier rounds' (Engine.h)
  for (;;) {
    Rec.Needed = NeededBefore; // and the chunks prepared for this plan
    {
      TraceSpan Sectioning("host", "plan", "sections");
      if (!plan(Shares, Reason)) {
        if (!CopiesLanded())
          return Outcome::Failed;
        if (!NoRoomFirst.empty())
          Reason = NoRoomFirst + ", then " + Reason;
        return Outcome::NotSplit;
      }
      // A launch that runs ahead, or that may use lanes (allowLaneCopies())
      // and whose chunks all start in them, queues its copies between GPUs
      // in the destinations' lanes.
      if (RunAhead || (InLanes && startsInLanes()))
        queueCopiesInLanes();
    }
    // Nothing has run yet: a member without room leaves this launch. A
    // kernel that ran ahead and failed (found by a copy) stops it.
    TraceSpan Preparing("host", "plan", "prepare");
    Status Prepared;
    auto NoRoom = std::find_if(Chunks.begin(), Chunks.end(), [&](Chunk &C) {
      return !(Prepared = prepare(C)).ok();
    });
    if (NoRoom == Chunks.end())
      break;
    if (Prepared.code() == StatusCode::KernelFailed) {
      (void)CopiesLanded();
      error("kernel %s: %s", K.shown().c_str(), Prepared.message().c_str());
      return Outcome::Failed;
    }
    size_t M = NoRoom->Member;
    // A member that can hold part of its share keeps that part (RoomCaps.h).
    if (Prepared.code() == StatusCode::NoRoom && !RoomKey.empty() &&
        learnRoom(M)) {
      RoomCaps::Applied Fit =
          Ctx.Room.apply(RoomKey, Shares, RoomTakers, Ctx.MemberNames);
      if (Windowed || Fit.Overflow > 0 || Fit.Shares.empty()) {
        // Nothing has run: the engine goes round with the caps as they are.
        Reason = "no room on " + name(M) + " for its share";
        return CopiesLanded() ? Outcome::NotSplit : Outcome::Failed;
      }
      Shares = std::move(Fit.Shares);
      // The caps left one member: its one chunk runs as a chunk, in place.
      OneChosen = OneChosen || Shares.size() == 1;
      // What this attempt noted as used there (DataLayer::willUse) may go.
      Layer.newEpoch();
      continue;
    }
    // Any other failure to make its data valid there (a copy that failed)
    // also leaves the member out of this launch, with what happened.
    leaveLaunch(M, Prepared, Shares, NoRoomFirst);
  }
  return CopiesLanded() ? Outcome::Done : Outcome::Failed;
}

void LaunchRun::queueCopiesInLanes() {
  // Not for bytes one of its chunks may write.
  std::map<BufferId, RangeSet> Writes;
  for (const Chunk &C : Chunks)
    if (C.Sections)
      for (const BufferAccess &A : C.Sections->Buffers)
        for (const Range &W : A.Write.ranges())
          Writes[A.B.Id].insert(W.Lo, W.Hi);
  Layer.queueCopiesInLanes(std::move(Writes));
}

void LaunchRun::leaveLaunch(size_t M, const Status &Prepared,
                            std::vector<Share> &Shares,
                            std::string &NoRoomFirst) {
  if (Prepared.code() == StatusCode::NoRoom)
    warning("kernel %s: %s has no room for its chunks' data; the other "
            "members take its iterations",
            K.shown().c_str(), name(M).c_str());
  else
    warning("kernel %s: %s could not take its chunks' data (%s); the other "
            "members take its iterations",
            K.shown().c_str(), name(M).c_str(), Prepared.message().c_str());
  if (NoRoomFirst.empty())
    NoRoomFirst =
        Prepared.code() == StatusCode::NoRoom
            ? "no room on " + name(M)
            : name(M) + " could not take its data (" + Prepared.message() + ")";
  Shares.erase(std::remove_if(Shares.begin(), Shares.end(),
                              [M](const Share &S) { return S.Member == M; }),
               Shares.end());
  // One member left of several: its one chunk runs as a chunk there.
  OneChosen = OneChosen || Shares.size() == 1;
  Layer.newEpoch();
}

LaunchRun::Outcome LaunchRun::runPrepared(const std::vector<Share> &Shares,
                                          const std::vector<Share> &Spare) {
  // A failed member's chunks go to the healthy members of the split, the
  // last first (the CPU pool when it takes part).
  auto Candidates = [&] {
    std::vector<size_t> Order;
    for (size_t I = Shares.size(); I-- > 0;)
      if (!member(Shares[I].Member).Failed)
        Order.push_back(Shares[I].Member);
    for (const Share &S : Spare)
      if (!member(S.Member).Failed &&
          std::find(Order.begin(), Order.end(), S.Member) == Order.end())
        Order.push_back(S.Member);
    return Order;
  };
  bool Ok = runAndRecover(Candidates);
  recordUsage();
  if (!Ok)
    return Outcome::Failed;
  TraceSpan Finishing("host", "finish", "finish");
  finish();
  if (Status S = combineReductions(); !S) {
    error("kernel %s: %s", K.shown().c_str(), S.message().c_str());
    return Outcome::Failed;
  }
  Rec.Split = true;
  return Outcome::Done;
}

LaunchRun::Outcome LaunchRun::whole(const WholeChoice &Choice,
                                    const std::string &NotSplit) {
  if (Choice.Order.empty()) {
    error("no pool member can run kernel %s", K.shown().c_str());
    return Outcome::Failed;
  }
  Chunks.assign(1, Chunk());
  Chunks[0].Whole = true;
  size_t First = 0;
  for (; First < Choice.Order.size(); ++First) {
    Chunks[0].Member = Choice.Order[First];
    Status S = prepare(Chunks[0]);
    if (S)
      break;
    if (S.code() != StatusCode::NoRoom) {
      error("kernel %s: %s", K.shown().c_str(), S.message().c_str());
      return Outcome::Failed;
    }
    warning("kernel %s does not fit on %s (%s); trying the next member",
            K.shown().c_str(), name(Choice.Order[First]).c_str(),
            S.message().c_str());
  }
  if (First == Choice.Order.size()) {
    error("kernel %s fits on no member of the pool", K.shown().c_str());
    return Outcome::Failed;
  }
  auto Candidates = [&] {
    std::vector<size_t> Order;
    for (size_t M : Choice.Order)
      if (!member(M).Failed)
        Order.push_back(M);
    return Order;
  };
  bool Ok = runAndRecover(Candidates);
  recordUsage();
  if (!Ok)
    return Outcome::Failed;
  finish();
  if (infoLevel() >= 1) {
    std::string Where =
        name(Chunks[0].Member) + " (whole kernel: " +
        (Chunks[0].Member == Choice.Order[0] ? Choice.Reason : "fallback") +
        ")";
    Ctx.sayLaunch(K.Name, "whole:" + Where + NotSplit,
                  "launch " + K.shown() + " on " + Where +
                      ", not split: " + NotSplit);
  }
  return Outcome::Done;
}

} // namespace hetero

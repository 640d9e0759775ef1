//===- SplitLaunch.cpp - One kernel launch as chunks over the pool --------===//
#include "hetero/SplitLaunch.h"

#include "hetero/ChunkPlan.h"
#include "hetero/DataLayer.h"
#include "hetero/Log.h"
#include "hetero/Reduction.h"

#include <algorithm>
#include <chrono>
#include <set>

namespace hetero {
namespace {

/// A reduction variable's private copy for one chunk: a hetero buffer, so
/// that the data layer moves it like any other.
struct PrivateCopy {
  void *Ptr = nullptr;
};

class Splitter {
public:
  Splitter(DataLayer &Layer, const SplitLaunchInput &In,
           const std::vector<SplitMember> &Members, const ChunkLauncher &Launch,
           const TaskRunner &Run)
      : Layer(Layer), In(In), D(*In.Desc), Members(Members), Launch(Launch),
        Run(Run) {}
  ~Splitter() {
    for (auto &Copies : Privates)
      for (PrivateCopy &P : Copies)
        if (P.Ptr)
          Layer.release(P.Ptr);
  }

  SplitResult run();

private:
  SplitResult notSplit(std::string Reason) {
    SplitResult R;
    R.Outcome = SplitOutcome::NotSplit;
    R.Reason = std::move(Reason);
    return R;
  }
  bool plan(std::string &Reason);
  bool makePrivates();
  bool resetPrivates(size_t Chunk);
  /// Makes chunk C's sections valid on Node and translates its arguments.
  bool prepare(size_t C, NodeId Node, std::vector<uintptr_t> &NodeArgs);
  /// Runs the chunks on their members (Assign: chunk -> member), all at once.
  std::vector<bool> runChunks(const std::vector<size_t> &Chunks,
                              const std::vector<size_t> &Assign,
                              std::vector<std::vector<uintptr_t>> &NodeArgs);
  /// Moves what only failed member M holds to the host and forgets M's
  /// copies, so that the chunks Again can run elsewhere. False when that is
  /// impossible.
  bool evacuate(size_t M, const std::vector<size_t> &Again);
  bool combineReductions();

  DataLayer &Layer;
  const SplitLaunchInput &In;
  const KernelDescriptor &D;
  const std::vector<SplitMember> &Members;
  const ChunkLauncher &Launch;
  const TaskRunner &Run;

  DescEnv Env;
  std::vector<uint64_t> Trips;
  std::vector<ChunkSpec> Chunks;
  std::vector<ChunkSections> Sections;
  std::vector<Buffer *> Reachable;
  std::vector<Buffer *> Externals;
  /// Per reduction line, per chunk.
  std::vector<std::vector<PrivateCopy>> Privates;
  std::vector<MemberUsage> Usage;
};

bool Splitter::plan(std::string &Reason) {
  if (!D.splittable()) {
    Reason = D.reason();
    return false;
  }
  if (D.maxArgIndex() >= static_cast<int>(In.Args.size())) {
    Reason = "descriptor names argument " + std::to_string(D.maxArgIndex()) +
             " of " + std::to_string(In.Args.size());
    return false;
  }
  for (size_t A = 0; A < In.Args.size(); ++A)
    Env.Args.push_back(In.Args[A] + In.Offsets[A]);
  Env.Load = [this](uint64_t Addr, void *Dst, unsigned Bytes) {
    Buffer *B = Layer.find(Addr);
    if (!B || Addr + Bytes > B->Base + B->Size)
      return false;
    return Layer.read(Dst, reinterpret_cast<const void *>(Addr), Bytes);
  };
  std::string Err;
  if (!tripCounts(D, Env, Trips, Err)) {
    Reason = "trip count not computable: " + Err;
    return false;
  }
  uint64_t Total = 1;
  for (uint64_t N : Trips)
    Total *= N; // tripCounts checked the product
  // libomptarget computes an empty loop's count as a negative number cast
  // to unsigned; anything else that differs means the descriptor is wrong.
  bool RuntimeEmpty =
      static_cast<int64_t>(In.TripCount) <= 0 ||
      (In.TripCount <= UINT32_MAX && static_cast<int32_t>(In.TripCount) <= 0);
  if (Total == 0 && (In.TripCount == 0 || RuntimeEmpty))
    return true; // nothing to run: no chunks
  if (In.TripCount && In.TripCount != Total) {
    Reason = "trip count " + std::to_string(In.TripCount) +
             " differs from the descriptor's " + std::to_string(Total);
    return false;
  }
  std::vector<double> Weights;
  for (const SplitMember &M : Members)
    Weights.push_back(M.Weight);
  Chunks = splitIterations(Total, Weights, In.ChunksPerMember, In.MinChunk);
  if (Chunks.size() < 2) {
    Reason = Total < 2 ? "fewer than two iterations" : "one member, one chunk";
    return false;
  }
  Reachable = Layer.kernelBuffers(In.Args);
  for (Buffer *B : Reachable)
    if (B->HostResident) {
      Reason = "uses host-resident memory";
      return false;
    }
  Externals = Layer.externalBuffers();
  if (!resolveSections(D, Env, In.Args, Trips, Layer, Chunks, Sections, Reason))
    return false;
  for (const DescReduction &R : D.reductions())
    if (!Layer.find(Env.Args[R.Arg])) {
      Reason = "reduction variable outside mapped memory";
      return false;
    }
  if (!makePrivates()) {
    Reason = "no room for reduction copies";
    return false;
  }
  return true;
}

bool Splitter::makePrivates() {
  Privates.assign(D.reductions().size(),
                  std::vector<PrivateCopy>(Chunks.size()));
  for (size_t R = 0; R < Privates.size(); ++R)
    for (PrivateCopy &P : Privates[R])
      if (!(P.Ptr = Layer.allocate(reductionSize(D.reductions()[R].Type))))
        return false;
  for (size_t C = 0; C < Chunks.size(); ++C)
    if (!resetPrivates(C))
      return false;
  return true;
}

bool Splitter::resetPrivates(size_t C) {
  for (size_t R = 0; R < Privates.size(); ++R) {
    const DescReduction &Red = D.reductions()[R];
    unsigned char Identity[8] = {};
    reductionIdentity(Red.Op, Red.Type, Identity);
    if (!Layer.write(Privates[R][C].Ptr, Identity, reductionSize(Red.Type)))
      return false;
  }
  return true;
}

bool Splitter::prepare(size_t C, NodeId Node,
                       std::vector<uintptr_t> &NodeArgs) {
  const ChunkSections &S = Sections[C];
  // Globals are read without being passed; split kernels never write them.
  std::vector<Buffer *> Whole = S.ReadAny ? Reachable : Externals;
  for (Buffer *B : Whole)
    if (!Layer.makeValid(Node, *B, 0, B->Size))
      return false;
  for (const BufferAccess &A : S.Buffers) {
    // Write sections too: they over-approximate what the chunk writes, and
    // afterwards they are valid on this node only.
    RangeSet Need = A.Read;
    for (const Range &R : A.Write.ranges())
      Need.insert(R.Lo, R.Hi);
    for (const Range &R : Need.ranges())
      if (!Layer.makeValid(Node, *A.B, R.Lo, R.Hi))
        return false;
  }
  NodeArgs.assign(In.Args.size(), 0);
  for (size_t A = 0; A < In.Args.size(); ++A) {
    bool Ok = true;
    NodeArgs[A] = Layer.translate(Node, In.Args[A], Ok) + In.Offsets[A];
    if (!Ok)
      return false;
  }
  for (size_t R = 0; R < Privates.size(); ++R) {
    void *P = Privates[R][C].Ptr;
    Buffer *B = Layer.find(reinterpret_cast<uintptr_t>(P));
    bool Ok = B && Layer.makeValid(Node, *B, 0, B->Size);
    NodeArgs[D.reductions()[R].Arg] =
        Layer.translate(Node, reinterpret_cast<uintptr_t>(P), Ok);
    if (!Ok)
      return false;
  }
  return true;
}

std::vector<bool>
Splitter::runChunks(const std::vector<size_t> &Which,
                    const std::vector<size_t> &Assign,
                    std::vector<std::vector<uintptr_t>> &NodeArgs) {
  std::vector<double> Seconds(Which.size(), 0);
  std::vector<std::pair<int, std::function<bool()>>> Tasks;
  for (size_t I = 0; I < Which.size(); ++I) {
    size_t C = Which[I], M = Assign[C];
    Tasks.push_back(
        {Members[M].WorkerId, [this, C, M, I, &NodeArgs, &Seconds]() {
           auto Start = std::chrono::steady_clock::now();
           bool Ok = Launch(M, Chunks[C].Lo, Chunks[C].Hi, NodeArgs[C]);
           Seconds[I] = std::chrono::duration<double>(
                            std::chrono::steady_clock::now() - Start)
                            .count();
           return Ok;
         }});
  }
  std::vector<bool> Ok = Run(Tasks);
  for (size_t I = 0; I < Which.size(); ++I) {
    size_t C = Which[I];
    MemberUsage &U = Usage[Assign[C]];
    U.BusySeconds += Seconds[I];
    if (Ok[I])
      U.Iterations += Chunks[C].Hi - Chunks[C].Lo;
  }
  return Ok;
}

bool Splitter::evacuate(size_t M, const std::vector<size_t> &Again) {
  NodeId Node = Members[M].Node;
  std::vector<Buffer *> Touched = Reachable;
  for (size_t C : Again)
    for (const BufferAccess &A : Sections[C].Buffers)
      if (std::find(Touched.begin(), Touched.end(), A.B) == Touched.end())
        Touched.push_back(A.B);
  for (size_t C : Again) {
    if (Chunks[C].Member != M)
      continue;
    // A chunk that updates in place (reads what it writes) cannot run again
    // if the only copy of those bytes was on the failed node.
    for (const BufferAccess &A : Sections[C].Buffers) {
      RangeSet Only = Layer.validOnlyOn(Node, *A.B);
      for (const Range &W : A.Write.ranges())
        for (const Range &R : A.Read.intersect(W.Lo, W.Hi))
          if (!Only.intersect(R.Lo, R.Hi).empty())
            return false;
    }
  }
  // Everything else that lived only there goes to the host, then the node's
  // copies are forgotten. The chunks' own write sections come along too:
  // they are written again, with the same values, when the chunks rerun.
  for (Buffer *B : Touched)
    for (const Range &R : Layer.validOnlyOn(Node, *B).ranges())
      if (!Layer.makeValid(HostNode, *B, R.Lo, R.Hi))
        return false;
  return Layer.discardNode(Node, Touched);
}

bool Splitter::combineReductions() {
  for (size_t R = 0; R < Privates.size(); ++R) {
    const DescReduction &Red = D.reductions()[R];
    size_t Size = reductionSize(Red.Type);
    std::vector<unsigned char> Partials(Size * Chunks.size());
    for (size_t C = 0; C < Chunks.size(); ++C)
      if (!Layer.read(&Partials[C * Size], Privates[R][C].Ptr, Size))
        return false;
    unsigned char Value[8];
    void *Var = reinterpret_cast<void *>(Env.Args[Red.Arg]);
    if (!Layer.read(Value, Var, Size))
      return false;
    reductionCombineChunks(Red.Op, Red.Type, Value, Partials.data(),
                           Chunks.size());
    if (!Layer.write(Var, Value, Size))
      return false;
  }
  return true;
}

SplitResult Splitter::run() {
  std::string Reason;
  if (!plan(Reason))
    return notSplit(Reason);
  Usage.assign(Members.size(), {});
  if (Chunks.empty()) { // a loop without iterations: the kernel has no effect
    SplitResult R;
    R.Outcome = SplitOutcome::Done;
    R.Usage = Usage;
    return R;
  }
  std::vector<size_t> Assign(Chunks.size());
  std::vector<std::vector<uintptr_t>> NodeArgs(Chunks.size());
  std::vector<size_t> All;
  for (size_t C = 0; C < Chunks.size(); ++C) {
    Assign[C] = Chunks[C].Member;
    All.push_back(C);
    // Nothing has run yet: a member without room means an unsplit launch.
    if (!prepare(C, Members[Assign[C]].Node, NodeArgs[C])) {
      SplitResult R = notSplit("no room on " + Members[Assign[C]].Name);
      R.NoRoomMembers.push_back(Assign[C]);
      return R;
    }
  }
  std::vector<bool> Ok = runChunks(All, Assign, NodeArgs);

  SplitResult Result;
  auto Finish = [&](SplitOutcome Outcome, std::string Reason) {
    Result.Outcome = Outcome;
    Result.Reason = std::move(Reason);
    Result.Usage = Usage;
    return Result;
  };
  std::set<size_t> Failed;
  for (size_t C = 0; C < Chunks.size(); ++C)
    if (!Ok[C])
      Failed.insert(Assign[C]);
  if (!Failed.empty()) {
    // Every chunk of a failed member runs again on a healthy one (the last:
    // the CPU pool when there is one). The failed node's copies are dropped.
    size_t Healthy = Members.size();
    for (size_t M = Members.size(); M-- > 0;)
      if (!Failed.count(M)) {
        Healthy = M;
        break;
      }
    std::vector<size_t> Again;
    for (size_t C = 0; C < Chunks.size(); ++C)
      if (Failed.count(Assign[C]))
        Again.push_back(C);
    for (size_t M : Failed) {
      Result.FailedMembers.push_back(M);
      if (Healthy == Members.size() || !evacuate(M, Again)) {
        return Finish(SplitOutcome::Failed,
                      "chunks failed on " + Members[M].Name +
                          " and no other member can take them");
      }
    }
    for (size_t C : Again) {
      Assign[C] = Healthy;
      if (!resetPrivates(C) ||
          !prepare(C, Members[Healthy].Node, NodeArgs[C])) {
        return Finish(SplitOutcome::Failed,
                      "no room on " + Members[Healthy].Name);
      }
    }
    std::vector<bool> Again2 = runChunks(Again, Assign, NodeArgs);
    if (std::find(Again2.begin(), Again2.end(), false) != Again2.end()) {
      return Finish(SplitOutcome::Failed,
                    "chunks failed again on " + Members[Healthy].Name);
    }
  }
  for (size_t C = 0; C < Chunks.size(); ++C) {
    NodeId Node = Members[Assign[C]].Node;
    for (const BufferAccess &A : Sections[C].Buffers)
      for (const Range &R : A.Write.ranges())
        Layer.markWritten(Node, *A.B, R.Lo, R.Hi);
    for (auto &Copies : Privates)
      if (Buffer *B = Layer.find(reinterpret_cast<uintptr_t>(Copies[C].Ptr)))
        Layer.markWritten(Node, *B, 0, B->Size);
  }
  if (!combineReductions())
    return Finish(SplitOutcome::Failed,
                  "reduction partials could not be read back");
  return Finish(SplitOutcome::Done, "");
}

} // namespace

SplitResult launchSplit(DataLayer &Layer, const SplitLaunchInput &In,
                        const std::vector<SplitMember> &Members,
                        const ChunkLauncher &Launch, const TaskRunner &Run) {
  if (!In.Desc) {
    SplitResult R;
    R.Reason = "no descriptor";
    return R;
  }
  std::vector<SplitMember> Left = Members;
  std::vector<size_t> NoRoom;
  for (;;) {
    SplitResult R = Splitter(Layer, In, Left, Launch, Run).run();
    if (R.NoRoomMembers.empty()) {
      if (R.Outcome == SplitOutcome::NotSplit && !NoRoom.empty())
        R.Reason =
            "no room on " + Members[NoRoom.front()].Name + ", then " + R.Reason;
      R.NoRoomMembers = NoRoom;
      return R;
    }
    // Nothing ran: plan again without that member (weight 0: no chunks).
    size_t M = R.NoRoomMembers.front();
    NoRoom.push_back(M);
    Left[M].Weight = 0;
  }
}

} // namespace hetero

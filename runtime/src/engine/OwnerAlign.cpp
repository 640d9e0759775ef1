//===- OwnerAlign.cpp - Chunk boundaries where the data already lives -----===//
#include "hetero/OwnerAlign.h"

#include "hetero/WindowSections.h"

#include <algorithm>
#include <optional>
#include <utility>

namespace hetero {

namespace {

/// Kept answers at most (per map): a program with more kernels and sizes
/// than this starts over rather than growing.
constexpr size_t MaxKept = 1 << 14;

/// Env without its memory: a (load ...) fails and sets Loaded (such a
/// kernel is left as cut, and reading its index arrays here would cost what
/// the inspector saves).
DescEnv withoutLoads(const DescEnv &Env, bool &Loaded) {
  DescEnv W;
  W.Args = Env.Args;
  W.Load = [&Loaded](uint64_t, void *, unsigned) {
    Loaded = true;
    return false;
  };
  W.LoadRange = [&Loaded](uint64_t, unsigned, uint64_t, uint64_t, bool,
                          int64_t &, int64_t &) {
    Loaded = true;
    return false;
  };
  return W;
}

/// Where access Access of iteration T starts and ends: [first, last).
std::optional<std::pair<uint64_t, uint64_t>>
spanAt(const KernelDescriptor &D, const DescEnv &Env,
       const std::vector<uint64_t> &Trips, uint64_t T, size_t Access) {
  WindowSection S;
  std::string Err;
  if (!windowSection(D, Env, Trips, T, T + 1, Access, S, Err) ||
      S.Ranges.empty())
    return std::nullopt;
  return std::make_pair(S.Ranges.front().first, S.Ranges.back().second);
}

/// The lowest address access Access touches at iteration T.
std::optional<uint64_t> startAt(const KernelDescriptor &D, const DescEnv &Env,
                                const std::vector<uint64_t> &Trips, uint64_t T,
                                size_t Access) {
  if (auto Span = spanAt(D, Env, Trips, T, Access))
    return Span->first;
  return std::nullopt;
}

} // namespace

bool ownershipBoundary(const RangeSet &LeftOnly, const RangeSet &RightOnly,
                       uint64_t Lo, uint64_t Hi, uint64_t Near, uint64_t &X) {
  std::vector<Range> L = LeftOnly.intersect(Lo, Hi);
  std::vector<Range> R = RightOnly.intersect(Lo, Hi);
  if (L.empty() || R.empty())
    return false; // no evidence of where one's data ends and the other's starts
  // Agreement(X): the left's bytes below X and the right's above it. It is
  // linear between the ranges' endpoints, so its maximum is at endpoints.
  std::vector<uint64_t> Ends{Lo, Hi};
  for (const std::vector<Range> *Set : {&L, &R})
    for (const Range &G : *Set) {
      Ends.push_back(G.Lo);
      Ends.push_back(G.Hi);
    }
  std::sort(Ends.begin(), Ends.end());
  Ends.erase(std::unique(Ends.begin(), Ends.end()), Ends.end());
  // The bytes of Set below each of Ends (both sorted), in one pass.
  auto Below = [&Ends](const std::vector<Range> &Set) {
    std::vector<uint64_t> Out;
    uint64_t Done = 0; // bytes of the ranges wholly below
    size_t G = 0;
    for (uint64_t At : Ends) {
      while (G < Set.size() && Set[G].Hi <= At)
        Done += Set[G].Hi - Set[G].Lo, ++G;
      Out.push_back(Done +
                    (G < Set.size() && Set[G].Lo < At ? At - Set[G].Lo : 0));
    }
    return Out;
  };
  std::vector<uint64_t> LeftBelow = Below(L), RightBelow = Below(R);
  std::vector<uint64_t> Score;
  for (size_t I = 0; I < Ends.size(); ++I)
    Score.push_back(LeftBelow[I] + RightBelow.back() - RightBelow[I]);
  uint64_t Best = *std::max_element(Score.begin(), Score.end());
  // Every stretch where it is greatest (bytes valid on both or on neither
  // leave it flat, as a halo exchange does): the point nearest Near.
  bool Found = false;
  uint64_t Dist = 0;
  for (size_t I = 0; I < Ends.size(); ++I) {
    if (Score[I] != Best)
      continue;
    size_t J = I;
    while (J + 1 < Ends.size() && Score[J + 1] == Best)
      ++J;
    uint64_t P = std::clamp(Near, Ends[I], Ends[J]);
    uint64_t D = P > Near ? P - Near : Near - P;
    if (!Found || D < Dist) {
      Found = true;
      Dist = D;
      X = P;
    }
    I = J;
  }
  return Found;
}

void OwnerAlign::clear() {
  Kernels.clear();
  Launches.clear();
  Reaches.clear();
  Boundaries.clear();
  Answers.clear();
}

bool OwnerAlign::reach(const Window &W, const KernelDescriptor &D,
                       const DescEnv &Env, const std::vector<uint64_t> &Trips,
                       const std::vector<uintptr_t> &ArgBegins,
                       const DataLayer &Layer, Reach &Out) const {
  std::vector<WindowSection> S;
  std::string Err;
  if (!windowSections(D, Env, Trips, W.Lo, W.Hi, S, Err))
    return false;
  // The main buffer: the access that writes the most bytes, else the one
  // that reads the most.
  uint64_t Best = 0, First = 0, End = 0; // the main buffer's addresses
  bool BestWrites = false;
  for (size_t A = 0; A < S.size(); ++A) {
    bool Writes = S[A].Kind == AccessKind::Write;
    if ((!Writes && S[A].Kind != AccessKind::Read) || S[A].Ranges.empty())
      continue;
    uint64_t Lo = S[A].Ranges.front().first, Hi = S[A].Ranges.back().second;
    if (BestWrites && !Writes)
      continue;
    if ((Writes && !BestWrites) || Hi - Lo > Best) {
      const DescExpr &Base = D.expr(D.accesses()[A].Base);
      std::optional<BufferInfo> B =
          Base.Kind == ExprKind::Arg && Base.Index < ArgBegins.size()
              ? Layer.find(ArgBegins[Base.Index])
              : Layer.findForPointer(S[A].Base);
      if (!B || Lo < B->base() || Hi > B->base() + B->Size)
        continue;
      Best = Hi - Lo;
      BestWrites = Writes;
      Out = {true, A, B->Id, Lo - B->base(), Hi - B->base(), 0, {}};
      First = B->base();
      End = First + B->Size;
    }
  }
  if (!Out.Known)
    return false;
  // Its inputs there: the reads that lie in it, less what the writes cover.
  auto Inside = [&](const WindowSection &X) {
    return !X.Ranges.empty() && X.Ranges.front().first >= First &&
           X.Ranges.back().second <= End;
  };
  for (const WindowSection &X : S)
    if (X.Kind == AccessKind::Read && Inside(X))
      for (auto [Lo, Hi] : X.Ranges)
        Out.Inputs.insert(Lo - First, Hi - First);
  for (const WindowSection &X : S)
    if (X.Kind == AccessKind::Write && Inside(X))
      for (auto [Lo, Hi] : X.Ranges)
        Out.Inputs.erase(Lo - First, Hi - First);
  return true;
}

bool OwnerAlign::boundary(const Window &W, const Reach &R, uint64_t X,
                          const KernelDescriptor &D, const DescEnv &Env,
                          const std::vector<uint64_t> &Trips,
                          uint64_t &P) const {
  uint64_t Addr = R.Buffer + X;
  std::optional<uint64_t> First = startAt(D, Env, Trips, W.Lo, R.Access);
  std::optional<uint64_t> Last = startAt(D, Env, Trips, W.Hi - 1, R.Access);
  if (!First || !Last || *First > *Last)
    return false; // the access does not move forward with the iterations
  // The first iteration in [Lo, Hi] whose access starts at or beyond Addr.
  uint64_t Lo = W.Lo, Hi = W.Hi;
  if (*First >= Addr)
    Hi = Lo;
  else if (*Last < Addr)
    Lo = Hi;
  while (Lo < Hi) {
    uint64_t Mid = Lo + (Hi - Lo) / 2;
    std::optional<uint64_t> At = startAt(D, Env, Trips, Mid, R.Access);
    if (!At)
      return false;
    if (*At >= Addr)
      Hi = Mid;
    else
      Lo = Mid + 1;
  }
  // Monotone where it was bisected: the iteration before starts below.
  if (Lo > W.Lo && Lo < W.Hi) {
    auto Before = spanAt(D, Env, Trips, Lo - 1, R.Access);
    std::optional<uint64_t> At = startAt(D, Env, Trips, Lo, R.Access);
    if (!Before || !At || Before->first >= Addr || *At < Addr)
      return false;
    // X inside what the iteration before touches (a row whose first element
    // another kernel wrote): the boundary of the two starts nearer to X.
    // X past all of it (a halo column at the end of the row before X) leaves
    // that iteration wholly on the left.
    if (Addr < Before->second && Addr - Before->first < *At - Addr)
      --Lo;
  }
  P = Lo;
  return true;
}

OwnerAlign::Reach
OwnerAlign::keptReach(Kernel &Kn, const Window &W, const KernelDescriptor &D,
                      const DescEnv &Env, const std::vector<uint64_t> &Trips,
                      const std::vector<uintptr_t> &ArgBegins,
                      const DataLayer &Layer, std::optional<uint64_t> NearAt) {
  if (auto Found = Reaches.find(W); Found != Reaches.end())
    return Found->second;
  bool Loaded = false;
  DescEnv Watched = withoutLoads(Env, Loaded);
  Reach Re;
  bool Ok = reach(W, D, Watched, Trips, ArgBegins, Layer, Re);
  std::optional<uint64_t> Near;
  if (Ok && NearAt)
    Near = startAt(D, Watched, Trips, *NearAt, Re.Access);
  Kn.Reading |= Loaded;
  Re.Known = Ok && !Loaded && (!NearAt || (Near && *Near >= Re.Buffer));
  Re.Near = Re.Known && Near ? *Near - Re.Buffer : 0;
  Reaches.emplace(W, Re);
  return Re;
}

bool OwnerAlign::toOwner(Kernel &Kn, Window W, const KernelDescriptor &D,
                         const DescEnv &Env, const std::vector<uint64_t> &Trips,
                         const std::vector<uintptr_t> &ArgBegins,
                         const std::vector<NodeId> &Nodes,
                         const DataLayer &Layer,
                         std::vector<ChunkSpec> &Chunks) {
  W.Lo = 0;
  W.Hi = Chunks.back().Hi;
  Reach Re = keptReach(Kn, W, D, Env, Trips, ArgBegins, Layer, std::nullopt);
  if (!Re.Known || Re.Hi <= Re.Lo)
    return false;
  // A launch over a small part of its buffer only: one over all of it that
  // ran on one member would gather it there, and make the arrays it reads
  // valid there too, which decides the next kernel's owner (TeaLeaf's CG
  // kernels flipped between one GPU and all of them, launch by launch).
  std::optional<BufferInfo> B = Layer.find(Re.Buffer);
  if (!B || (Re.Hi - Re.Lo) * MinOwnerRatio > B->Size)
    return false;
  // The bytes each chunk's node holds alone of the launch's inputs there,
  // else of all it reaches: a halo row's writes were split, and each
  // member then held a piece of the row alone, while its neighbour row, all
  // the launch needs, lies on one member.
  std::vector<Range> Looked = Re.Inputs.list();
  if (Looked.empty())
    Looked = {{Re.Lo, Re.Hi}};
  uint64_t Span = 0;
  for (const Range &R : Looked)
    Span += R.size();
  size_t Owner = 0;
  uint64_t Most = 0, Others = 0;
  for (size_t I = 0; I < Chunks.size(); ++I) {
    if (std::find(Nodes.begin(), Nodes.begin() + I, Nodes[I]) !=
        Nodes.begin() + I)
      continue; // counted
    uint64_t Only = 0;
    for (const Range &R : Looked)
      Only += Layer.validOnlyOn(Nodes[I], Re.Buffer, R.Lo, R.Hi).bytes();
    if (Only > Most) {
      Others += Most;
      Most = Only;
      Owner = I;
    } else {
      Others += Only;
    }
  }
  if (2 * Most < Span || Others * MinOwnerRatio > Most)
    return false;
  // And the buffer is spread: another of them holds a part of it alone
  // (data that is all where it was mapped has no owner yet).
  bool Spread = false;
  for (size_t I = 0; I < Chunks.size() && !Spread; ++I)
    Spread = Nodes[I] != Nodes[Owner] && Layer.holdsAlone(Nodes[I], Re.Buffer);
  if (!Spread)
    return false;
  Chunks = {{Chunks[Owner].Member, 0, W.Hi}};
  return true;
}

unsigned OwnerAlign::align(const std::string &Key, const KernelDescriptor &D,
                           const DescEnv &Env,
                           const std::vector<uintptr_t> &ArgBegins,
                           const std::vector<uint64_t> &Trips,
                           const std::vector<NodeId> &Nodes,
                           const DataLayer &Layer,
                           std::vector<ChunkSpec> &Chunks) {
  if (Chunks.size() < 2 || Nodes.size() != Chunks.size())
    return 0;
  if (Kernels.size() > MaxKept || Launches.size() > MaxKept ||
      Reaches.size() > MaxKept || Boundaries.size() > MaxKept ||
      Answers.size() > MaxKept)
    clear();
  Kernel &Kn = Kernels[Key];
  if (Kn.Reading)
    return 0;
  // The shares' cuts, and whether each is where this kernel's last launch
  // had it (or the kernel is new: then its boundaries are the owners').
  std::vector<Cut> Before; // this launch's, then (swapped) the last one's
  Before.reserve(Chunks.size() - 1);
  for (size_t I = 0; I + 1 < Chunks.size(); ++I)
    Before.push_back({Chunks[I].Member, Chunks[I + 1].Member, Chunks[I].Hi});
  bool Known = !Kn.LastCuts.empty();
  std::swap(Before, Kn.LastCuts);
  const std::vector<Cut> &Cuts = Kn.LastCuts;

  std::vector<uint64_t> Args;
  Args.reserve(D.argsUsed().size());
  for (unsigned A : D.argsUsed())
    Args.push_back(A < Env.Args.size() ? Env.Args[A] : 0);
  Window W;
  auto Numbered = Launches.find(LaunchRef{Key, Trips, Args});
  if (Numbered == Launches.end())
    Numbered = Launches
                   .emplace(LaunchKey(Key, Trips, std::move(Args)),
                            static_cast<uint32_t>(Launches.size()))
                   .first;
  W.Launch = Numbered->second;
  Answer &Kept = Answers[W.Launch];
  bool SameCut = Kept.In == Chunks;
  if (SameCut && Kept.Agreed >= AgreedToKeep && Kept.Given + 1 < LookEvery) {
    ++Kept.Given;
    Chunks = Kept.Out;
    return Kept.Moved;
  }
  std::vector<char> SharesMoved;
  for (const Cut &C : Cuts)
    SharesMoved.push_back(Known && std::find(Before.begin(), Before.end(), C) ==
                                       Before.end());
  std::vector<ChunkSpec> In = Chunks;
  unsigned Moved =
      look(Kn, W, SharesMoved, D, Env, ArgBegins, Trips, Nodes, Layer, Chunks);
  bool Agrees = SameCut && Kept.Out == Chunks && Kept.Moved == Moved;
  Kept = {std::move(In), Chunks, Moved, Agrees ? Kept.Agreed + 1 : 1, 0};
  return Moved;
}

unsigned OwnerAlign::look(Kernel &Kn, Window W,
                          const std::vector<char> &SharesMoved,
                          const KernelDescriptor &D, const DescEnv &Env,
                          const std::vector<uintptr_t> &ArgBegins,
                          const std::vector<uint64_t> &Trips,
                          const std::vector<NodeId> &Nodes,
                          const DataLayer &Layer,
                          std::vector<ChunkSpec> &Chunks) {
  if (std::find(SharesMoved.begin(), SharesMoved.end(), 1) ==
          SharesMoved.end() &&
      toOwner(Kn, W, D, Env, Trips, ArgBegins, Nodes, Layer, Chunks))
    return 1;
  unsigned Moved = 0;
  for (size_t I = 0; I + 1 < Chunks.size(); ++I) {
    ChunkSpec &L = Chunks[I], &R = Chunks[I + 1];
    if (L.Member == R.Member || Nodes[I] == Nodes[I + 1] || SharesMoved[I] ||
        L.Hi <= L.Lo || R.Hi <= R.Lo)
      continue;
    // The band the boundary may move in: half the smaller chunk either side
    // of where the shares cut (so no chunk loses more than half of its
    // iterations, nor is emptied).
    uint64_t Band =
        std::max<uint64_t>(1, std::min(L.Hi - L.Lo, R.Hi - R.Lo) / 2);
    W.Lo = L.Hi - std::min(Band, L.Hi - L.Lo);
    W.Hi = R.Lo + std::min(Band, R.Hi - R.Lo);
    Reach Re = keptReach(Kn, W, D, Env, Trips, ArgBegins, Layer, R.Lo);
    uint64_t X, P = R.Lo;
    if (!Re.Known ||
        !ownershipBoundary(
            Layer.validOnlyOn(Nodes[I], Re.Buffer, Re.Lo, Re.Hi),
            Layer.validOnlyOn(Nodes[I + 1], Re.Buffer, Re.Lo, Re.Hi), Re.Lo,
            Re.Hi, Re.Near, X))
      continue;
    bool Loaded = false;
    if (auto Kept = Boundaries.find({W, X}); Kept != Boundaries.end())
      P = Kept->second;
    else if (boundary(W, Re, X, D, withoutLoads(Env, Loaded), Trips, P) &&
             !Loaded)
      Boundaries.emplace(std::make_pair(W, X), P);
    else
      continue;
    if (P != R.Lo)
      ++Moved;
    L.Hi = R.Lo = P;
  }
  Chunks.erase(std::remove_if(Chunks.begin(), Chunks.end(),
                              [](const ChunkSpec &C) { return C.Hi <= C.Lo; }),
               Chunks.end());
  return Moved;
}

} // namespace hetero

//===- OwnerAlign.h - Chunk boundaries where the data already lives -*- C++
//-*-===//
//
// Shares cut each kernel's own iteration space: a kernel over the interior
// (rows 2 .. n-2) and one over interior and halo (rows 0 .. n) put their
// boundaries rows apart, and kernels whose measured shares differ by a
// percent put them hundreds of rows apart; each launch then moves those rows
// to its own boundaries and the next kernel moves them back
// (docs/measurements.md#owner-cuts). Owner computes. The main buffer of a
// launch is the one it writes most of (reads, when it writes none).
//
// A launch over a small part of its main buffer (at most 1/MinOwnerRatio
// of it) whose inputs there (what it reads of the buffer and does not
// write; its whole reach when it reads nothing else) lie where one member's
// node holds them alone (half of them at least, and MinOwnerRatio times what
// the others hold alone: a halo row's neighbour row, which the rows' owner
// wrote), where the buffer is spread (another of them holds a part of it
// alone: data still all where it was mapped has no owner yet), runs on that
// member, as one windowed chunk. Split over its
// columns, each member fetched a piece of the owner's rows and the owner
// fetched them back for the next kernel: small copies, each with its wait,
// at every launch.
//
// Otherwise a boundary between two members on different nodes is moved to
// where the main buffer changes hands between their nodes, as the data
// layer's valid ranges say:
//
//   - the band: the boundary moves at most half the smaller of the two
//     chunks from where the shares cut, so no chunk is emptied and the
//     shares still say roughly who does what;
//   - the ownership boundary X, within what the band's iterations reach of
//     that buffer: where most of the bytes valid only on the left member's
//     node lie below X and most of those valid only on the right's lie
//     above it (ownershipBoundary); bytes valid on both (a halo exchange's
//     rows) or on neither are no evidence, and where several X do as well,
//     the one nearest the shares' cut. Both must hold bytes alone there:
//     data one member made and the other never wrote says nothing of
//     where the boundary is, and the shares' cut stands;
//   - the new boundary: the first iteration whose access starts at or
//     beyond X, or the one before where X lies inside what that one touches
//     and nearer its start (found by bisection, so the access must move
//     forward with the iterations: checked at the band's ends and at the
//     answer);
//   - (this, and the owner's whole launch) only where the kernel's shares
//     did not move the boundary since its last launch: a boundary the share
//     model moves (a new trial, the CPU pool's first share, a refinement) goes
//     where the shares say for that launch; the data follows, and the next
//     launches align to it. So shares move boundaries, and nothing else does.
//
// A launch's answer, once it came out the same at AgreedToKeep launches in
// a row over the same cut, is given again without looking (sections, valid
// ranges) until every LookEvery-th launch, which looks again: data that
// moved moves the answer within that many launches (looking at every
// launch was a good part of an application's host time).
//
// Never a question of correctness: any boundaries give the same answers
// (chunks stay contiguous and cover the space; ChunkPlan.h still refuses
// overlapping writes). Kernels whose sections read memory (a (load ...):
// bounds taken from an array) are left as the shares cut them, since their
// answers here could not be kept. Per kernel and problem size the answers
// are kept (a bisection is some twenty section evaluations: a launch of
// CG's tens of microseconds would pay for it every time).
//
//===----------------------------------------------------------------------===//
#ifndef HETERO_OWNERALIGN_H
#define HETERO_OWNERALIGN_H

#include "hetero/ChunkPlan.h"
#include "hetero/DataLayer.h"
#include "hetero/DescriptorEval.h"
#include "hetero/KernelDescriptor.h"

#include <cstdint>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <tuple>
#include <vector>

namespace hetero {

class OwnerAlign {
public:
  /// The owner takes a whole launch that reaches at most 1/MinOwnerRatio of
  /// its main buffer, where it holds alone at least half of what the launch
  /// reads there without writing it (its inputs: a halo row's neighbour
  /// row), or of all it reaches there when it reads nothing else, and
  /// MinOwnerRatio times what the others do.
  static constexpr uint64_t MinOwnerRatio = 16;

  /// Moves the boundaries of Chunks (contiguous, in iteration order,
  /// covering [0, product of Trips), as splitIterations cut them from the
  /// kernel's shares) as above; Nodes[I] is chunk I's member's node. Key
  /// names the kernel. ArgBegins as resolveSections takes them. Returns the
  /// number of boundaries moved; chunks left empty are removed.
  unsigned align(const std::string &Key, const KernelDescriptor &D,
                 const DescEnv &Env, const std::vector<uintptr_t> &ArgBegins,
                 const std::vector<uint64_t> &Trips,
                 const std::vector<NodeId> &Nodes, const DataLayer &Layer,
                 std::vector<ChunkSpec> &Chunks);

  /// Forgets every kernel (buffers were freed, or the pool changed).
  void clear();

private:
  /// A boundary as the shares cut it: between the chunks of these members.
  struct Cut {
    size_t Left = 0, Right = 0;
    uint64_t At = 0;
    bool operator==(const Cut &O) const {
      return Left == O.Left && Right == O.Right && At == O.At;
    }
  };
  /// A launch's shape: the kernel's key, its trip counts and the
  /// arguments its descriptor reads; numbered once per launch, so that the
  /// windows' lookups compare numbers, not strings and vectors.
  using LaunchKey =
      std::tuple<std::string, std::vector<uint64_t>, std::vector<uint64_t>>;
  /// The same, looked up without copying (a launch looks once).
  using LaunchRef = std::tuple<std::string_view, const std::vector<uint64_t> &,
                               const std::vector<uint64_t> &>;
  struct LaunchLess {
    using is_transparent = void;
    static LaunchRef ref(const LaunchKey &K) {
      return {std::get<0>(K), std::get<1>(K), std::get<2>(K)};
    }
    static LaunchRef ref(const LaunchRef &K) { return K; }
    template <class A, class B> bool operator()(const A &X, const B &Y) const {
      return ref(X) < ref(Y);
    }
  };
  /// The iterations [Lo, Hi) of two neighbouring chunks of one launch.
  struct Window {
    uint32_t Launch = 0;
    uint64_t Lo = 0, Hi = 0;
    bool operator<(const Window &O) const {
      return std::tie(Launch, Lo, Hi) < std::tie(O.Launch, O.Lo, O.Hi);
    }
  };
  /// What a window's iterations reach of the main buffer.
  struct Reach {
    bool Known = false; // else the window is left as cut
    size_t Access = 0;
    BufferId Buffer = 0;
    uint64_t Lo = 0, Hi = 0; // offsets in the buffer
    uint64_t Near = 0;       // where the access starts at the shares' cut
    /// What the launch reads of the buffer and does not write (offsets).
    RangeSet Inputs;
  };
  /// Per kernel key: its last launch's cuts, and whether its sections read
  /// memory (then it is left as cut).
  struct Kernel {
    std::vector<Cut> LastCuts;
    bool Reading = false;
  };

  std::map<std::string, Kernel> Kernels;
  std::map<LaunchKey, uint32_t, LaunchLess> Launches;
  std::map<Window, Reach> Reaches;
  std::map<std::pair<Window, uint64_t>, uint64_t> Boundaries; // by X
  /// Per launch number: its last cut and answer, how many launches in a
  /// row gave that answer, and how often it was given since the last look.
  struct Answer {
    std::vector<ChunkSpec> In, Out;
    unsigned Moved = 0;
    unsigned Agreed = 0;
    unsigned Given = 0;
  };
  std::map<uint32_t, Answer> Answers;
  static constexpr unsigned AgreedToKeep = 2;
  static constexpr unsigned LookEvery = 8;

  /// The answer for window W's launch, from its sections and the data
  /// layer's valid ranges (above): the owner's launch, or each boundary
  /// whose shares did not move where the data changes hands.
  unsigned look(Kernel &Kn, Window W, const std::vector<char> &SharesMoved,
                const KernelDescriptor &D, const DescEnv &Env,
                const std::vector<uintptr_t> &ArgBegins,
                const std::vector<uint64_t> &Trips,
                const std::vector<NodeId> &Nodes, const DataLayer &Layer,
                std::vector<ChunkSpec> &Chunks);

  /// reach(), kept per window (a kernel whose sections load memory is
  /// noted in Reading and its reach is not Known); with NearAt, Near is
  /// where the access starts at that iteration (and Known needs it).
  Reach keptReach(Kernel &Kn, const Window &W, const KernelDescriptor &D,
                  const DescEnv &Env, const std::vector<uint64_t> &Trips,
                  const std::vector<uintptr_t> &ArgBegins,
                  const DataLayer &Layer, std::optional<uint64_t> NearAt);
  bool reach(const Window &W, const KernelDescriptor &D, const DescEnv &Env,
             const std::vector<uint64_t> &Trips,
             const std::vector<uintptr_t> &ArgBegins, const DataLayer &Layer,
             Reach &Out) const;
  /// The whole launch on the member whose node holds alone most of what it
  /// reaches, where one does (see above): Chunks becomes that one chunk.
  bool toOwner(Kernel &Kn, Window W, const KernelDescriptor &D,
               const DescEnv &Env, const std::vector<uint64_t> &Trips,
               const std::vector<uintptr_t> &ArgBegins,
               const std::vector<NodeId> &Nodes, const DataLayer &Layer,
               std::vector<ChunkSpec> &Chunks);
  bool boundary(const Window &W, const Reach &R, uint64_t X,
                const KernelDescriptor &D, const DescEnv &Env,
                const std::vector<uint64_t> &Trips, uint64_t &P) const;
};

/// Where ownership of [Lo, Hi) changes hands from the left node to the
/// right one, given the bytes valid only on each (the rule above; of equal
/// candidates the one nearest Near); false when one of them holds no bytes
/// alone there.
bool ownershipBoundary(const RangeSet &LeftOnly, const RangeSet &RightOnly,
                       uint64_t Lo, uint64_t Hi, uint64_t Near, uint64_t &X);

} // namespace hetero

#endif // HETERO_OWNERALIGN_H

//===- KernelStats.h - Per-kernel statistics (HETERO_STATS) -----*- C++ -*-===//
//
// One record per kernel: launches, whether they were split (or why not), the
// iterations and busy time of each pool member, and the bytes copied while
// its launches ran. Printed at exit as
//   hetero-stats kernel=<name> launches=<n>
//       split=yes|settled-one(<member>)|no(<reason>)
//       members=<member>:<iterations>:<busy ms>,... bytes_h2d= bytes_d2d=
//       bytes_d2h= [shares=<phase>:<member>=<pct>,...]
//       [teams=<member>=<grid>,...] [ran_ahead=<n>] [aligned=<n>]
//       [one_launches=<n>] [owner_launches=<n>] [in_order_launches=<n>]
//       [trial_launches=<n> trial_members=<member>:<iterations>,...]
//       [round_launches=<n> rounds=<n>] [bytes_needed=<n>]
//       [name="<function>(...) at <file>:<line>"]
// (settled-one: every launch was planned as a split, and the share model
// ran the last one on that member alone; shares: the last split launch's,
// and the phase of ShareModel.h that
// chose them; teams: the GPU members' grids, TeamsTrial::note) and a last
// line with the process's totals. ran_ahead: the launches that returned
// before their chunks ended (Engine.h's run-ahead); their chunks' busy times
// are not known and count as 0. aligned: the launches whose chunk
// boundaries moved from where the shares cut them to where the data they
// write already lives (OwnerAlign.h). one_launches: the split launches
// the share model ran on one member alone (its trials and settled-one);
// owner_launches: those that ran on the member holding their data, as one
// chunk (OwnerAlign.h); the rest of split_launches ran over several.
// trial_launches: the launches whose shares the share model chose to measure
// something (ShareModel::trying: the CPU probe, mixed, accel, one
// accelerator alone), not to run by, and trial_members each member's
// iterations in them: members= less these are the iterations of the shares
// it ran by (whole launches apart).
// round_launches: the split launches whose data no members' memory could
// hold at once, run in rounds (RoomCaps.h); rounds: how many in all.
// bytes_needed: what the split launches' chunks read that their nodes did
// not hold (the exact halo, with the first distribution of the data);
// bytes_d2d beyond it are copies of write sections (which over-approximate
// what chunks write) and of whole buffers.
//
//===----------------------------------------------------------------------===//
#ifndef HETERO_KERNELSTATS_H
#define HETERO_KERNELSTATS_H

#include <cstdint>
#include <cstdio>
#include <map>
#include <mutex>
#include <string>
#include <vector>

namespace hetero {

struct TransferStats;

struct MemberUsage {
  uint64_t Iterations = 0;
  double BusySeconds = 0;
};

class KernelStats {
public:
  struct Launch {
    bool Split = false;
    std::string Reason; // why not split
    std::vector<std::pair<std::string, MemberUsage>> Members;
    uint64_t H2D = 0, D2D = 0, D2H = 0;
    std::string Shares; // a split's shares and who chose them
    std::string Teams;  // the GPU members' grids (TeamsTrial::note)
    bool RanAhead = false;
    /// Its chunk boundaries moved to the data's owners (OwnerAlign.h).
    bool Aligned = false;
    /// It ran on the member holding its data, as one chunk.
    bool Owner = false;
    /// The rounds it ran in (RoomCaps.h), 0 when it ran at once.
    uint64_t Rounds = 0;
    /// Its chunks' writes overlap: they ran one after another, in
    /// iteration order (Engine::launchInOrder).
    bool InOrder = false;
    /// What its chunks read that their nodes did not hold.
    uint64_t Needed = 0;
    /// Its sections' bytes off the member with the most iterations: what
    /// that member alone would gather (ShareModel::noteGather).
    uint64_t Gather = 0;
    /// The member the share model ran this launch on alone (one chunk
    /// there), or empty.
    std::string Alone;
    /// Its shares were the share model's trial (ShareModel::trying).
    bool Trial = false;
  };
  /// Display: the kernel as the source names it (KernelNames.h), shown at
  /// the end of its line as name="..." when known.
  void record(const std::string &Kernel, const Launch &L,
              const std::string &Display = "");
  /// The lines described above, kernels in order of first launch.
  void print(FILE *Out, uint64_t TotalH2D, uint64_t TotalD2D,
             uint64_t TotalD2H) const;

private:
  struct Record {
    uint64_t Launches = 0, Split = 0, RanAhead = 0, Aligned = 0;
    uint64_t OneLaunches = 0, OwnerLaunches = 0, Needed = 0;
    uint64_t RoundLaunches = 0, Rounds = 0, InOrderLaunches = 0;
    uint64_t TrialLaunches = 0;
    /// Each member's iterations in trial launches (a part of Members).
    std::vector<std::pair<std::string, uint64_t>> TrialMembers;
    std::string Reason; // of the first unsplit launch
    std::vector<std::pair<std::string, MemberUsage>> Members;
    uint64_t H2D = 0, D2D = 0, D2H = 0;
    std::string Shares; // the share model's, at the last launch it chose
    std::string Teams;  // the last measured one
    std::string Alone;  // of the last launch
    std::string Display;
  };
  mutable std::mutex Mutex;
  std::vector<std::string> Order;
  std::map<std::string, Record> Records;
};

} // namespace hetero

#endif // HETERO_KERNELSTATS_H

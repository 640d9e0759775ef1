//===- Settings.h - The HETERO_* environment, read once and checked -*- C++
//-*-===//
//
// Every run-time setting of hetero is an environment variable, read once when
// the plugin starts and checked there. The contract:
//
//   - an unset or empty variable takes its documented default;
//   - a value that is not accepted stops the program before any kernel runs,
//     with one line per variable: "hetero: error: <NAME>=<value>: <what is
//     accepted>" (a wrong setting must never turn into a different run);
//   - checks that need the pool (a member name, more simulated accelerators
//     or CPU threads than there are) are made once the pool is known, with
//     the same kind of message;
//   - an unknown HETERO_ variable is a warning, naming the nearest setting
//     where one is near (SettingNames.def lists every name);
//   - HETERO_ settings in a run that did not select hetero
//     (LIBOMPTARGET_PLUGIN) are a warning before main
//     (clang-patches/driver/hetero-startup.c).
//
// clang-format off
// | variable               | accepted                                | default |
// |------------------------|-----------------------------------------|---------|
// | HETERO_INFO            | 0, 1, 2, 3                              | 0       |
// | HETERO_STATS           | 0 or 1                                  | 0       |
// | HETERO_BACKTRACE       | 0 or 1                                  | 0       |
// | HETERO_DISABLE_CUDA    | 0 or 1                                  | 0       |
// | HETERO_SIMULATE        | 0 .. 64 (and what the host back end has)| 0       |
// | HETERO_SIMULATE_MEMORY | bytes >= 1, suffix K, M, G or T (2^10..)| none    |
// | HETERO_GPU_SPLIT       | 1 .. 8 members per physical GPU         | 1       |
// | HETERO_MEMBER          | a pool member: cpu, cuda:<n>[.<p>], sim:<n>| none |
// | HETERO_MEMBERS         | <member>[=<weight>],... weights 0..1e6  | all     |
// | HETERO_CHUNKS          | 1 .. 256                                | 1       |
// | HETERO_MIN_CHUNK       | 1 .. 2^40 iterations                    | 16      |
// | HETERO_CPU_THREADS     | 1 .. the cores available to the process | note    |
// | HETERO_HOST_COPY       | 0 or 1                                  | 0       |
// | HETERO_SHARES          | measured or fixed                       | measured|
// | HETERO_SHARES_FILE     | a file path, or none                    | note    |
// | HETERO_PROBE_AFTER     | 0 .. 86400000 milliseconds              | 50      |
// | HETERO_TRACE           | a file path (Chrome trace JSON)         | none    |
// | HETERO_NODE_SPLIT      | auto or off                             | auto    |
// | HETERO_TEAMS           | measured or plugin                      | measured|
// | HETERO_INSPECT         | in-place, background, sync or off       | in-place|
// | HETERO_STARTS          | parallel or serial                      | parallel|
// | HETERO_RUN_AHEAD       | 0 .. 1000000 microseconds               | 1000    |
// | HETERO_CUTS            | owners or shares                        | owners  |
// clang-format on
//
// (HETERO_SHARES_FILE's default: $XDG_CACHE_HOME/hetero/shares.txt, else
// $HOME/.cache/hetero/shares.txt, else none.)
//
// HETERO_HOST_COPY=1 keeps mapped data in a host copy until a kernel needs
// it (costs a second host copy of every mapped array, and the copies happen
// at the first kernel; a kernel that faults on a GPU can then always run
// again elsewhere). HETERO_SHARES=fixed keeps every split's shares at the
// members' weights, so reductions repeat bit for bit from run to run.
// HETERO_PROBE_AFTER is how long a kernel runs on the accelerators alone
// (measured shares, in this run) before the CPU pool is tried on it: the
// trial costs thread start-up, first touches and moving the CPU's part of
// the data there and back (a few to a few hundred milliseconds), which a
// short run or a light kernel never wins back (ShareModel.h).
// (HETERO_CPU_THREADS' default: the cores less one per GPU member.)
// HETERO_TRACE=<file> writes a timeline of every chunk, copy and wait per
// member (Trace.h). HETERO_NODE_SPLIT=auto: when an MPI launcher says
// several ranks share this node, each rank's pool takes its own part of the
// cores it may run on and of the GPUs it sees (NodeShare.h); off: the whole
// of both, as without a launcher.
// HETERO_TEAMS=measured: where the program leaves a kernel's team count to
// the implementation (no num_teams clause, OMP_NUM_TEAMS unset), a GPU
// member's chunks try a few smaller grids than the cuda plugin's default and
// keep the fastest (TeamsTrial.h; off where the shares are fixed); plugin:
// always the cuda plugin's grid.
// HETERO_INSPECT: how the run-time inspector bounds an indirect read
// (x[col[k]]) by the values of the index array a chunk reaches
// (DataLayer::loadRange). in-place (the default): where a GPU holds those
// values, a kernel of its own reads them there (CudaIndexRange.h), once
// until they are written; elsewhere the read takes its whole buffer, and no
// index crosses to the host. background: values no GPU holds are also
// copied to the host and read on a thread of its own, launches reading the
// whole buffer meanwhile; sync: the launch reads them itself; off: every
// indirect read takes its whole buffer (what in-place saves a sparse solver:
// docs/measurements.md#inspector).
// HETERO_STARTS=parallel: the chunks of a launch over several GPUs start
// and are waited for on one thread per GPU, the launching thread's and
// helpers that spin for 200 us after each launch (a core each, which the
// CPU pool leaves free); serial: one after the other from the launching
// thread (StartThreads.h).
// HETERO_RUN_AHEAD=<us>: a split launch over GPUs only, without reductions,
// whose shares and grids are settled and whose chunks took at most this
// long when last waited for, returns once its chunks are queued, as a
// `nowait` would; the next operation that touches their data (a copy, a
// read-back, a reduction's launch on the same GPU) waits for them (Engine.h).
// 0: every launch waits for its chunks. Off under HETERO_HOST_COPY=1, whose
// point is that a failed GPU's chunks can run again elsewhere.
// HETERO_CUTS=owners: a boundary between two members' chunks goes where
// the kernel's main buffer changes hands between their nodes, unless its
// shares moved it since the kernel's last launch (OwnerAlign.h); shares:
// where the kernel's shares cut its own iterations, every launch.
// HETERO_GPU_SPLIT=k presents each GPU as k members cuda:<n>.0 ..
// cuda:<n>.<k-1>, each with its own memory node (a k-th of the GPU's
// memory), image copy, loop windows and worker, copying between each other
// device to device: on one GPU, the paths several GPUs take.
//
//===----------------------------------------------------------------------===//
#ifndef HETERO_SETTINGS_H
#define HETERO_SETTINGS_H

#include <cstdint>
#include <functional>
#include <string>
#include <string_view>
#include <vector>

namespace hetero {

/// One entry of HETERO_MEMBERS.
struct MemberShare {
  std::string Name;
  double Weight = -1; // -1: the member's default weight
};

struct Settings {
  static constexpr unsigned MaxSimulate = 64;
  static constexpr unsigned MaxGpuSplit = 8;
  static constexpr unsigned MaxChunks = 256;
  static constexpr uint64_t MaxMinChunk = uint64_t(1) << 40;
  static constexpr double MaxWeight = 1e6;
  static constexpr uint64_t MaxProbeAfterMs = 86400000;

  int Info = 0;
  bool Stats = false;
  bool Backtrace = false;
  bool DisableCuda = false;
  unsigned Simulate = 0;
  uint64_t SimulateMemory = 0; // 0: unlimited (unset)
  unsigned GpuSplit = 1;       // members per physical GPU
  std::string Member;          // empty: unset
  std::vector<MemberShare> Members;
  bool MembersListed = false;
  unsigned Chunks = 1;
  uint64_t MinChunk = 16;
  unsigned CpuThreads = 0; // 0: unset
  bool HostCopy = false;
  bool FixedShares = false;
  uint64_t ProbeAfterMs = 50;
  std::string SharesFile; // empty: none
  std::string TraceFile;  // empty: no trace
  bool NodeSplit = true;
  bool MeasuredTeams = true;
  enum class Inspect {
    InPlace,
    Background,
    Sync,
    Off
  } Inspector = Inspect::InPlace;
  /// HETERO_STARTS=parallel: a launch's chunks on several GPUs are started
  /// and waited for one thread per GPU (StartThreads.h); serial: all from
  /// the launching thread.
  bool ParallelStarts = true;
  /// HETERO_RUN_AHEAD: microseconds; 0 off. 1 ms: CloverLeaf's heavy
  /// kernels over two GPUs (300-600 us) run ahead, while a timer around one
  /// launch misses at most 1 ms (and around a loop, Engine.h's backlog
  /// bound, about twice that).
  uint64_t RunAheadUs = 1000;
  static constexpr uint64_t MaxRunAheadUs = 1000000;
  /// HETERO_CUTS=owners: chunk boundaries where the data lives.
  bool OwnerCuts = true;
  /// OMP_NUM_TEAMS is set: the user chose the team count.
  bool UserTeams = false;
  /// STARPU_NCPU (or STARPU_NCPUS) / STARPU_NCUDA are set: StarPU's own
  /// settings, which then override hetero's worker counts.
  bool StarPUCpusSet = false;
  bool StarPUCudaSet = false;

  /// The share HETERO_MEMBERS gives the member: its weight there, Default
  /// when listed without one or when the variable is unset, 0 when the
  /// variable lists other members only.
  double weightOf(const std::string &Name, double Default) const;
  /// Whether a setting must be checked against the pool (a member name, a
  /// number of simulated accelerators or CPU threads): then the plugin
  /// waits for the pool's start before main, so that a value the pool
  /// cannot honour stops the program there, as a malformed one does.
  bool dependsOnPool() const {
    return !Member.empty() || MembersListed || CpuThreads || Simulate;
  }
};

/// The settings that change how launches are planned, or how fast members
/// run them, as one line (HETERO_CHUNKS=4,...): persisted shares
/// (ShareModel.h) are kept apart per line, so that an earlier run's choice
/// never stands in for what a setting asks of this one.
std::string planSettingsSignature(const Settings &S);

/// Reads a variable's value; null when unset.
using GetEnvFn = std::function<const char *(const char *Name)>;

/// Reads every setting through GetEnv. Each rejected value adds one message
/// "<NAME>=<value>: <what is accepted>" to Errors and leaves the default.
Settings readSettings(const GetEnvFn &GetEnv, std::vector<std::string> &Errors);

/// What the pool must satisfy: every member HETERO_MEMBER and HETERO_MEMBERS
/// name exists (else the message lists the pool's members), CpuThreads is
/// at most Cores. Messages are added to Errors.
void checkSettingsAgainstPool(const Settings &S,
                              const std::vector<std::string> &PoolMembers,
                              unsigned Cores, std::vector<std::string> &Errors);

/// Every setting's value in force, as NAME=value, with " (default)" where
/// the environment left it unset (hetero-info).
std::vector<std::string> settingsInForce(const Settings &S,
                                         const GetEnvFn &GetEnv);

/// For each HETERO_ variable among Environment (NAME=value strings, as in
/// environ) that is neither a setting nor a variable of hetero's tools
/// (SettingNames.def): "<NAME> is not a hetero setting, and has no effect",
/// with "; did you mean <SETTING>?" where one is near (a few edits, or one
/// holds the other's words: HETERO_NUM_CHUNKS, HETERO_CHUNKS).
std::vector<std::string>
unknownSettings(const std::vector<std::string> &Environment);

// The parsers, one per kind of value (unit-tested on their own).

/// A decimal integer in [Min, Max]; no sign, no blanks, no suffix.
bool parseInteger(std::string_view Text, uint64_t Min, uint64_t Max,
                  uint64_t &Out);
/// A byte count >= 1: decimal, optionally followed by K, M, G or T (powers
/// of 1024, either case); at most 2^62.
bool parseByteCount(std::string_view Text, uint64_t &Out);
/// 0 or 1.
bool parseFlag(std::string_view Text, bool &Out);
/// cpu, cuda:<n> or sim:<n>.
bool isMemberName(std::string_view Text);
/// HETERO_MEMBERS' grammar; false with the reason in Err.
bool parseMemberShares(std::string_view Text, std::vector<MemberShare> &Out,
                       std::string &Err);

} // namespace hetero

#endif // HETERO_SETTINGS_H

//===- LaunchContext.h - What one launch may read and change ----*- C++ -*-===//
//
// The part of the engine a launch (LaunchRun) works with: the settings, the
// data layer, the pool and its back end, the members' queues and start
// threads, the grids and room caps a launch reads and updates, the section
// cache and the owner cuts. The engine keeps the rest to itself: the share
// model, the statistics, the run-ahead bound and the launch lock, which a
// launch only reports to (through its KernelStats::Launch record) and never
// touches. The engine is a LaunchContext (privately) and hands itself to
// each LaunchRun as one; nothing else sees these members.
//
//===----------------------------------------------------------------------===//
#ifndef HETERO_LAUNCHCONTEXT_H
#define HETERO_LAUNCHCONTEXT_H

#include "hetero/Backend.h"
#include "hetero/DataLayer.h"
#include "hetero/IndirectCalls.h"
#include "hetero/MemberQueues.h"
#include "hetero/OwnerAlign.h"
#include "hetero/Policy.h"
#include "hetero/Pool.h"
#include "hetero/RoomCaps.h"
#include "hetero/SectionCache.h"
#include "hetero/Settings.h"
#include "hetero/StartThreads.h"
#include "hetero/TeamsTrial.h"

#include <functional>
#include <map>
#include <set>
#include <string>
#include <utility>
#include <vector>

namespace hetero {

/// Runs the tasks concurrently, each on its worker (-1: the calling thread),
/// one worker's tasks in order, and returns whether each succeeded.
using TaskRunner = std::function<std::vector<bool>(
    const std::vector<std::pair<int, std::function<bool()>>> &Tasks)>;

struct LaunchContext {
  /// Measured: the share model measures (the teams trial does too, unless
  /// the user set the teams).
  LaunchContext(const Settings &S, DataLayer &Layer, Pool Members, Backend &B,
                TaskRunner Run, bool Measured);

  /// Points the data layer's map-time writes at the member a whole launch
  /// would run on first (the host for the CPU pool), and its spread at the
  /// accelerators splits use; again after a member failed.
  void updateHome();
  /// HETERO_INFO's line of a launch: at 1, once per kernel and again when
  /// its Shape (who runs it, and how) changes; at 2, every launch.
  void sayLaunch(const std::string &Kernel, const std::string &Shape,
                 const std::string &Line);
  /// Where the last launch posted its starts: waits until they were issued,
  /// then issues the copies still held for a chunk that did not start
  /// (Backend::issueHeld). Called before a launch touches a lane or a
  /// member's memory (LaunchRun::split, a whole launch), not before: the
  /// next launch plans while the starts are issued.
  void issuePosted();

  const Settings &Config;
  DataLayer &Layer;
  Pool Members;
  /// Members[M].name(), made once: launches name members in their records.
  std::vector<std::string> MemberNames;
  Backend &Back;
  TaskRunner RunTasks;
  Policy StaticShares;
  /// Per kernel, the shares members' memory holds (RoomCaps.h).
  RoomCaps Room;
  TeamsTrial TeamsTrials;
  /// The current launch's grid per member (LaunchRun::chunkRun): a split's,
  /// a one-member chunk's the share model chose, or a whole launch's where
  /// that member had no room.
  std::vector<TeamsTrial::Pick> ChunkGrids;
  IndirectFunctions Indirect;
  /// Recent splits' sections, answered again where nothing they came from
  /// changed (LaunchRun::plan).
  SectionCache Sections;
  /// Chunk boundaries where the data lives (HETERO_CUTS=owners;
  /// LaunchRun::planChunks).
  OwnerAlign Cuts;
  /// Start and wait for the chunks of a launch over several GPUs, one
  /// thread per GPU (HETERO_STARTS=parallel; LaunchRun::startAndFinish);
  /// a launch that runs ahead posts its chunks there, helper M for member
  /// M (LaunchRun::postStarts), and LastPosted says the last one did.
  StartThreads Starters;
  bool LastPosted = false;
  /// Per member: what was queued there (chunks that ran ahead, copies in
  /// its lane) and what is known to have drained; whether one failed.
  MemberQueues Queues;
  /// Kernels whose one-chunk launches had their bounds checked
  /// (LaunchRun::checkBoundsOnce).
  std::set<std::string> BoundsChecked;
  std::map<std::string, std::string> SaidShape; // per kernel, the last said
};

} // namespace hetero

#endif // HETERO_LAUNCHCONTEXT_H

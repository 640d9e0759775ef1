//===- LaunchContext.cpp - What one launch may read and change ------------===//
#include "hetero/LaunchContext.h"

#include "hetero/Log.h"

#include <utility>

namespace hetero {

static std::vector<std::string> memberNames(const Pool &P) {
  std::vector<std::string> Names;
  for (const Member &M : P)
    Names.push_back(M.name());
  return Names;
}

LaunchContext::LaunchContext(const Settings &S, DataLayer &Layer, Pool Members,
                             Backend &B, TaskRunner Run, bool Measured)
    : Config(S), Layer(Layer), Members(std::move(Members)),
      MemberNames(memberNames(this->Members)), Back(B),
      RunTasks(std::move(Run)), StaticShares(S),
      TeamsTrials(S.MeasuredTeams && Measured && !S.UserTeams,
                  static_cast<double>(S.ProbeAfterMs) / 1e3),
      Starters(StartThreads::DefaultSpinMicros, this->Members.size()),
      Queues(this->Members.size()) {}

void LaunchContext::issuePosted() {
  if (!LastPosted)
    return;
  Starters.drainAll();
  Back.issueHeld();
  LastPosted = false;
}

void LaunchContext::updateHome() {
  if (Config.HostCopy)
    return; // map-time writes stay on the host
  WholeChoice C = StaticShares.wholeOrder(
      Members, [&](size_t M) { return !Members[M].Failed; });
  Layer.setHomeNode(C.Order.empty() ? HostNode : Members[C.Order[0]].Node);
  // The accelerators split launches use (HETERO_MEMBERS' listed ones; none
  // when HETERO_MEMBER pins launches), in the order chunks are cut.
  std::vector<NodeId> Accelerators;
  for (const Member &M : Members)
    if (M.Kind != MemberKind::CpuPool && !M.Failed && Config.Member.empty() &&
        Config.weightOf(M.name(), 1) > 0)
      Accelerators.push_back(M.Node);
  Layer.setSpreadNodes(std::move(Accelerators));
}

void LaunchContext::sayLaunch(const std::string &Kernel,
                              const std::string &Shape,
                              const std::string &Line) {
  if (infoLevel() < 2) {
    std::string &Said = SaidShape[Kernel];
    if (Said == Shape)
      return;
    Said = Shape;
  }
  info(1, "%s", Line.c_str());
}

} // namespace hetero

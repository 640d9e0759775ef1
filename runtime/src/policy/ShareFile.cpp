//===- ShareFile.cpp - Settled shares kept across runs --------------------===//
//
// ShareModel's persistence (HETERO_SHARES_FILE), apart from its decisions:
// one line per settled kernel and candidate set,
//   <pool>\t<key>\t<candidates>\t<member>=<weight>,...\t<why>[\t<fields>]
// (<why> for people; what a later run acts on is in <fields>: readFields)
// read at start (lines of another pool or a bad field are skipped), written
// at exit whole and renamed, so that a reader sees the old file or the new.
//
//===----------------------------------------------------------------------===//
#include "hetero/ShareModel.h"

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>
#include <unistd.h>

namespace hetero {

std::string ShareModel::poolSignature(const Pool &P) const {
  std::string Sig;
  for (const Member &M : P)
    Sig += (Sig.empty() ? "" : ",") + M.name();
  return Scope.empty() ? Sig : Sig + "|" + Scope;
}

static std::vector<std::string> splitOn(const std::string &S, char Sep) {
  std::vector<std::string> Out;
  std::stringstream In(S);
  for (std::string Part; std::getline(In, Part, Sep);)
    Out.push_back(Part);
  return Out;
}

/// "<member>=<weight>,...": false for a member P lacks or a bad weight.
static bool readShares(const std::string &Text, const Pool &P,
                       std::vector<Share> &Out) {
  for (const std::string &S : splitOn(Text, ',')) {
    size_t Eq = S.rfind('=');
    char *End = nullptr;
    double W =
        Eq == std::string::npos ? 0 : std::strtod(S.c_str() + Eq + 1, &End);
    if (Eq == std::string::npos || !End || *End != 0 || !(W > 0) ||
        !(W < 1e300))
      return false;
    size_t M = 0;
    while (M < P.size() && P[M].name() != S.substr(0, Eq))
      ++M;
    if (M == P.size())
      return false;
    Out.push_back({M, W});
  }
  return !Out.empty();
}

static std::string writeShares(const Pool &P, const std::vector<Share> &S) {
  std::string Out;
  for (const Share &X : S) {
    char W[32];
    std::snprintf(W, sizeof(W), "%.17g", X.Weight);
    Out += (Out.empty() ? "" : ",") + P[X.Member].name() + "=" + W;
  }
  return Out;
}

bool ShareModel::Persisted::settledMixed() const {
  return !Mixed.empty() && Mixed == Settled;
}

/// The sixth field: what a later run acts on, as <name>=<value> words in
/// any order (Why is for people only). accel=<s>: the accelerators' launch
/// that mixed shares were chosen against; leader=<key>: the kernel a
/// follower settled with; launches=<n> gain=<s> move=<s> mixed=<shares>,
/// all four or none: mixed shares that were timed, and what they would
/// save per launch and cost once. False for a malformed or unknown word.
bool ShareModel::readFields(const std::string &Text, const Pool &P,
                            PersistedFields &F) {
  std::set<std::string> Seen;
  for (const std::string &W : splitOn(Text, ' ')) {
    if (W.empty())
      continue;
    size_t Eq = W.find('=');
    if (Eq == std::string::npos || !Seen.insert(W.substr(0, Eq)).second)
      return false; // no value, or a name twice
    std::string Name = W.substr(0, Eq), Value = W.substr(Eq + 1);
    // The whole value is one number.
    auto Number = [&](double &Out) {
      char *End = nullptr;
      Out = std::strtod(Value.c_str(), &End);
      return !Value.empty() && *End == 0;
    };
    auto Count = [&](uint64_t &Out) {
      char *End = nullptr;
      Out = std::strtoull(Value.c_str(), &End, 10);
      return !Value.empty() && Value[0] != '-' && *End == 0;
    };
    bool Ok = false;
    if (Name == "accel")
      Ok = Number(F.AccelWall) && F.AccelWall >= 0;
    else if (Name == "gain")
      Ok = Number(F.Gain);
    else if (Name == "move")
      Ok = Number(F.MoveCost) && F.MoveCost >= 0;
    else if (Name == "launches")
      Ok = Count(F.Launches);
    else if (Name == "leader")
      Ok = !(F.Leader = Value).empty();
    else if (Name == "mixed")
      Ok = readShares(Value, P, F.Mixed);
    if (!Ok)
      return false;
  }
  // Mixed shares come with what they cost and saved, or not at all.
  size_t Costs = Seen.count("launches") + Seen.count("gain") +
                 Seen.count("move") + Seen.count("mixed");
  return Costs == 0 || Costs == 4;
}

std::string ShareModel::writeFields(const Pool &P, const PersistedFields &F) {
  std::string Out;
  auto Word = [&](const std::string &W) {
    Out += (Out.empty() ? "" : " ") + W;
  };
  char Num[64];
  if (F.AccelWall > 0) {
    std::snprintf(Num, sizeof(Num), "accel=%.9g", F.AccelWall);
    Word(Num);
  }
  if (!F.Leader.empty())
    Word("leader=" + F.Leader);
  if (F.Gain > 0 && !F.Mixed.empty()) {
    std::snprintf(Num, sizeof(Num), "launches=%llu",
                  static_cast<unsigned long long>(F.Launches));
    Word(Num);
    std::snprintf(Num, sizeof(Num), "gain=%.9g", F.Gain);
    Word(Num);
    std::snprintf(Num, sizeof(Num), "move=%.9g", F.MoveCost);
    Word(Num);
    Word("mixed=" + writeShares(P, F.Mixed));
  }
  return Out;
}

size_t ShareModel::load(const std::string &Path, const Pool &P) {
  if (!Enabled || Path.empty())
    return 0;
  std::ifstream In(Path);
  std::string Sig = poolSignature(P);
  auto Index = [&](const std::string &Name) {
    for (size_t M = 0; M < P.size(); ++M)
      if (P[M].name() == Name)
        return M;
    return P.size();
  };
  // <pool>\t<key>\t<candidates>\t<member>=<weight>,...\t<why>
  for (std::string Line; std::getline(In, Line);) {
    std::vector<std::string> F = splitOn(Line, '\t');
    // Keyed by kernel and candidates: HETERO_MEMBERS=cuda:0,cuda:1 and the
    // whole pool settle on their own.
    if ((F.size() != 5 && F.size() != 6) || F[0] != Sig ||
        Earlier.count(F[1] + "\t" + F[2]))
      continue;
    Persisted E;
    bool Ok = !F[4].empty();
    for (const std::string &Name : splitOn(F[2], ','))
      Ok &= (E.Candidates.emplace_back(Index(Name)) < P.size());
    Ok &= readShares(F[3], P, E.Settled);
    E.Why = F[4];
    if (Ok && F.size() == 6)
      Ok &= readFields(F[5], P, E);
    if (Ok && !E.Settled.empty())
      Earlier[F[1] + "\t" + F[2]] = std::move(E);
  }
  return Earlier.size();
}

bool ShareModel::save(const std::string &Path, const Pool &P) const {
  if (!Enabled || Path.empty())
    return true;
  std::string Sig = poolSignature(P);
  std::vector<std::string> Lines;
  std::set<std::string> Mine;
  for (const auto &[Key, E] : Entries) {
    // Settled, or settled on mixed and still to be verified (a run can end
    // first: the shares are frozen all the same).
    // (Settled, the one-accelerator trial aside: Settled holds the spread
    // shares until it ends.)
    bool Frozen = E.Now != Phase::Probe && E.Now != Phase::Mixed &&
                  E.Now != Phase::MixedTimed && E.Now != Phase::Accel &&
                  E.Now != Phase::AccelTimed && E.Now != Phase::Follow;
    if (!Frozen || E.Why.rfind("persisted-", 0) == 0)
      continue;
    std::string Cands;
    for (size_t M : E.Candidates)
      Cands += (Cands.empty() ? "" : ",") + P[M].name();
    std::string Line = Sig + "\t" + Key + "\t" + Cands + "\t" +
                       writeShares(P, E.Settled) + "\t" + E.Why;
    PersistedFields Kept;
    Kept.AccelWall = E.AccelWall;
    if (E.Followed)
      Kept.Leader = E.Leader;
    Kept.Mixed = E.Mixed;
    Kept.Launches = E.Launches;
    Kept.Gain = E.Gain;
    Kept.MoveCost = E.MoveCost;
    if (std::string Fields = writeFields(P, Kept); !Fields.empty())
      Line += "\t" + Fields;
    Lines.push_back(Line);
    Mine.insert(Key + "\t" + Cands);
  }
  if (Lines.empty())
    return true;
  {
    std::ifstream In(Path);
    for (std::string Line; std::getline(In, Line) && Lines.size() < MaxLines;) {
      std::vector<std::string> F = splitOn(Line, '\t');
      if ((F.size() == 5 || F.size() == 6) &&
          !(F[0] == Sig && Mine.count(F[1] + "\t" + F[2])))
        Lines.push_back(Line);
    }
  }
  std::error_code Ignored;
  std::filesystem::create_directories(std::filesystem::path(Path).parent_path(),
                                      Ignored);
  // Written whole, then renamed: a reader sees the old file or the new one.
  std::string Tmp = Path + ".tmp" + std::to_string(::getpid());
  {
    std::ofstream Out(Tmp, std::ios::trunc);
    for (const std::string &L : Lines)
      Out << L << "\n";
    if (!Out.flush())
      return std::remove(Tmp.c_str()), false;
  }
  return std::rename(Tmp.c_str(), Path.c_str()) == 0 ||
         (std::remove(Tmp.c_str()), false);
}

} // namespace hetero

//===- ShareFile.cpp - Settled shares kept across runs --------------------===//
//
// ShareModel's persistence (HETERO_SHARES_FILE), apart from its decisions:
// one line per settled kernel and candidate set,
//   <pool>\t<key>\t<candidates>\t<member>=<weight>,...\t<why>[\t<mixed>]
// read at start (lines of another pool or a bad field are skipped), written
// at exit whole and renamed, so that a reader sees the old file or the new.
//
//===----------------------------------------------------------------------===//
#include "hetero/ShareModel.h"

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

/// What the persisted Why says that a later run acts on: the
/// accelerators' time beside mixed shares ("...accel=<ms>ms..."), the
/// leader of a follower ("settled-follow[<key>]").
void ShareModel::Persisted::readWhy() {
  size_t At = Why.find("accel=");
  double AccelMs = 0;
  if (At != std::string::npos &&
      std::sscanf(Why.c_str() + At, "accel=%lfms", &AccelMs) == 1 &&
      AccelMs > 0)
    AccelWall = AccelMs / 1e3;
  static const std::string Follow = "settled-follow[";
  if (Why.rfind(Follow, 0) == 0 && Why.back() == ']')
    Leader = Why.substr(Follow.size(), Why.size() - Follow.size() - 1);
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
    E.readWhy();
    // Mixed shares that did not repay their move in that run's launches,
    // with what they would save: a run as long may choose them now.
    if (Ok && F.size() == 6) {
      std::vector<std::string> M = splitOn(F[5], ' ');
      unsigned long long N = 0;
      Ok &= M.size() == 4 &&
            std::sscanf(M[0].c_str(), "launches=%llu", &N) == 1 &&
            std::sscanf(M[1].c_str(), "gain=%lf", &E.Gain) == 1 &&
            std::sscanf(M[2].c_str(), "move=%lf", &E.MoveCost) == 1 &&
            M[3].rfind("mixed=", 0) == 0 &&
            readShares(M[3].substr(6), P, E.Mixed);
      E.Launches = N;
    }
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
    if (E.Gain > 0 && !E.Mixed.empty()) {
      char Cost[96];
      std::snprintf(Cost, sizeof(Cost), "\tlaunches=%llu gain=%.9g move=%.9g ",
                    static_cast<unsigned long long>(E.Launches), E.Gain,
                    E.MoveCost);
      Line += Cost + ("mixed=" + writeShares(P, E.Mixed));
    }
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

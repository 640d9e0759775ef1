//===- Settings.cpp - The HETERO_* environment, read once and checked -----===//
#include "hetero/Settings.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdlib>
#include <type_traits>

namespace hetero {

namespace {

bool allDigits(std::string_view T) {
  return !T.empty() && std::all_of(T.begin(), T.end(),
                                   [](char C) { return C >= '0' && C <= '9'; });
}

std::string rangeText(uint64_t Min, uint64_t Max) {
  return "expected an integer from " + std::to_string(Min) + " to " +
         std::to_string(Max);
}

/// The settings the runtime reads, and the variables of hetero's compiler and
/// tools (never typos): SettingNames.def.
const char *const KnownSettings[] = {
#define HETERO_SETTING(Name) #Name,
#include "hetero/SettingNames.def"
};
const char *const OtherHeteroNames[] = {
#define HETERO_TOOL_VAR(Name) #Name,
#include "hetero/SettingNames.def"
};

/// Levenshtein distance, capped: at most Cap + 1.
size_t editDistance(std::string_view A, std::string_view B, size_t Cap) {
  if (A.size() > B.size() + Cap || B.size() > A.size() + Cap)
    return Cap + 1;
  std::vector<size_t> Prev(B.size() + 1), Cur(B.size() + 1);
  for (size_t J = 0; J <= B.size(); ++J)
    Prev[J] = J;
  for (size_t I = 1; I <= A.size(); ++I) {
    Cur[0] = I;
    for (size_t J = 1; J <= B.size(); ++J)
      Cur[J] = std::min({Prev[J] + 1, Cur[J - 1] + 1,
                         Prev[J - 1] + (A[I - 1] == B[J - 1] ? 0 : 1)});
    std::swap(Prev, Cur);
  }
  return std::min(Prev[B.size()], Cap + 1);
}

} // namespace

bool parseInteger(std::string_view Text, uint64_t Min, uint64_t Max,
                  uint64_t &Out) {
  if (!allDigits(Text))
    return false;
  uint64_t V;
  auto [Ptr, Ec] = std::from_chars(Text.data(), Text.data() + Text.size(), V);
  if (Ec != std::errc() || Ptr != Text.data() + Text.size() || V < Min ||
      V > Max)
    return false;
  Out = V;
  return true;
}

bool parseByteCount(std::string_view Text, uint64_t &Out) {
  unsigned Shift = 0;
  if (!Text.empty()) {
    switch (Text.back()) {
    case 'k':
    case 'K':
      Shift = 10;
      break;
    case 'm':
    case 'M':
      Shift = 20;
      break;
    case 'g':
    case 'G':
      Shift = 30;
      break;
    case 't':
    case 'T':
      Shift = 40;
      break;
    default:
      break;
    }
  }
  if (Shift)
    Text.remove_suffix(1);
  constexpr uint64_t Max = uint64_t(1) << 62;
  uint64_t V;
  if (!parseInteger(Text, 1, Max >> Shift, V))
    return false;
  Out = V << Shift;
  return true;
}

bool parseFlag(std::string_view Text, bool &Out) {
  if (Text != "0" && Text != "1")
    return false;
  Out = Text == "1";
  return true;
}

bool isMemberName(std::string_view Text) {
  if (Text == "cpu")
    return true;
  auto Ordinal = [](std::string_view T) {
    uint64_t N;
    return parseInteger(T, 0, 1023, N) && (T.size() == 1 || T[0] != '0');
  };
  if (Text.substr(0, 4) == "sim:")
    return Ordinal(Text.substr(4));
  if (Text.substr(0, 5) != "cuda:")
    return false;
  // cuda:<n>, or cuda:<n>.<part> for a part of a split GPU
  std::string_view Rest = Text.substr(5);
  size_t Dot = Rest.find('.');
  if (Dot == std::string_view::npos)
    return Ordinal(Rest);
  return Ordinal(Rest.substr(0, Dot)) && Ordinal(Rest.substr(Dot + 1));
}

bool parseMemberShares(std::string_view Text, std::vector<MemberShare> &Out,
                       std::string &Err) {
  Out.clear();
  const std::string Accepted =
      "expected <member>[=<weight>],... with members cpu, cuda:<n>[.<p>], "
      "sim:<n> and weights from 0 to 1e6";
  if (Text.empty()) {
    Err = Accepted;
    return false;
  }
  bool AnyShare = false;
  size_t Pos = 0;
  while (Pos <= Text.size()) {
    size_t Comma = Text.find(',', Pos);
    std::string_view Item = Text.substr(Pos, Comma == std::string_view::npos
                                                 ? std::string_view::npos
                                                 : Comma - Pos);
    Pos = Comma == std::string_view::npos ? Text.size() + 1 : Comma + 1;
    MemberShare S;
    size_t Eq = Item.find('=');
    std::string_view Name = Item.substr(0, Eq);
    if (!isMemberName(Name)) {
      Err = "'" + std::string(Item) + "' is not a member; " + Accepted;
      return false;
    }
    S.Name = std::string(Name);
    if (Eq != std::string_view::npos) {
      std::string W(Item.substr(Eq + 1));
      char *End = nullptr;
      double V = W.empty() ? -1 : std::strtod(W.c_str(), &End);
      if (W.empty() || *End || !std::isfinite(V) || V < 0 ||
          V > Settings::MaxWeight || W.find_first_of("xXpPnN") != W.npos) {
        Err = "'" + std::string(Item) + "' has no valid weight; " + Accepted;
        return false;
      }
      S.Weight = V;
    }
    for (const MemberShare &Prev : Out)
      if (Prev.Name == S.Name) {
        Err = S.Name + " is listed twice";
        return false;
      }
    AnyShare |= S.Weight != 0;
    Out.push_back(S);
  }
  if (!AnyShare) {
    Err = "every listed member has weight 0";
    return false;
  }
  return true;
}

double Settings::weightOf(const std::string &Name, double Default) const {
  if (!MembersListed)
    return Default;
  for (const MemberShare &S : Members)
    if (S.Name == Name)
      return S.Weight < 0 ? Default : S.Weight;
  return 0;
}

namespace {
/// Reads settings from the environment, noting each malformed value
/// ("NAME=value: what is accepted") in Errors; a malformed setting keeps
/// its default.
struct EnvReader {
  const GetEnvFn &GetEnv;
  std::vector<std::string> &Errors;

  std::string_view value(const char *Name) const {
    const char *V = GetEnv(Name);
    return V ? std::string_view(V) : std::string_view();
  }
  void reject(const char *Name, std::string_view V,
              const std::string &Accepted) {
    Errors.push_back(std::string(Name) + "=" + std::string(V) + ": " +
                     Accepted);
  }
  template <typename T>
  void integer(const char *Name, uint64_t Min, uint64_t Max, T &Field) {
    std::string_view V = value(Name);
    uint64_t N;
    if (V.empty())
      return;
    if (!parseInteger(V, Min, Max, N))
      return reject(Name, V, rangeText(Min, Max));
    Field = static_cast<T>(N);
  }
  void flag(const char *Name, bool &Field) {
    std::string_view V = value(Name);
    if (!V.empty() && !parseFlag(V, Field))
      reject(Name, V, "expected 0 or 1");
  }
  /// One of two words; Field becomes whether it is First (FirstSets) or
  /// Second (!FirstSets).
  void choice(const char *Name, std::string_view First, std::string_view Second,
              bool &Field, bool FirstSets = true) {
    std::string_view V = value(Name);
    if (V.empty())
      return;
    if (V == First || V == Second)
      Field = (V == First) == FirstSets;
    else
      reject(Name, V,
             "expected " + std::string(First) + " or " + std::string(Second));
  }
};

/// The pool's composition: simulated members, their memory, the members
/// named.
void readPool(EnvReader &R, Settings &S) {
  R.integer("HETERO_SIMULATE", 0, Settings::MaxSimulate, S.Simulate);
  R.integer("HETERO_GPU_SPLIT", 1, Settings::MaxGpuSplit, S.GpuSplit);
  if (std::string_view V = R.value("HETERO_SIMULATE_MEMORY"); !V.empty())
    if (!parseByteCount(V, S.SimulateMemory))
      R.reject("HETERO_SIMULATE_MEMORY", V,
               "expected a byte count of at least 1, optionally with K, M, G "
               "or T (unset: unlimited)");
  if (std::string_view V = R.value("HETERO_MEMBER"); !V.empty()) {
    if (isMemberName(V))
      S.Member = std::string(V);
    else
      R.reject("HETERO_MEMBER", V,
               "expected a member: cpu, cuda:<n>[.<p>] or sim:<n>");
  }
  if (std::string_view V = R.value("HETERO_MEMBERS"); !V.empty()) {
    std::string Err;
    if (parseMemberShares(V, S.Members, Err))
      S.MembersListed = true;
    else
      R.reject("HETERO_MEMBERS", V, Err);
  }
}

/// Where measured shares are kept between runs: HETERO_SHARES_FILE, else
/// the user's cache folder; "none" keeps them nowhere.
void readSharesFile(EnvReader &R, Settings &S) {
  if (std::string_view V = R.value("HETERO_SHARES_FILE"); !V.empty()) {
    if (V != "none")
      S.SharesFile = std::string(V);
  } else if (const char *Cache = R.GetEnv("XDG_CACHE_HOME"); Cache && *Cache) {
    S.SharesFile = std::string(Cache) + "/hetero/shares.txt";
  } else if (const char *Home = R.GetEnv("HOME"); Home && *Home) {
    S.SharesFile = std::string(Home) + "/.cache/hetero/shares.txt";
  }
}

void readInspect(EnvReader &R, Settings &S) {
  std::string_view V = R.value("HETERO_INSPECT");
  if (V.empty())
    return;
  if (V == "background")
    S.Inspector = Settings::Inspect::Background;
  else if (V == "sync")
    S.Inspector = Settings::Inspect::Sync;
  else if (V == "in-place")
    S.Inspector = Settings::Inspect::InPlace;
  else if (V == "off")
    S.Inspector = Settings::Inspect::Off;
  else
    R.reject("HETERO_INSPECT", V, "expected in-place, background, sync or off");
}
} // namespace

Settings readSettings(const GetEnvFn &GetEnv,
                      std::vector<std::string> &Errors) {
  Settings S;
  EnvReader R{GetEnv, Errors};
  R.integer("HETERO_INFO", 0, 3, S.Info);
  R.flag("HETERO_STATS", S.Stats);
  R.flag("HETERO_BACKTRACE", S.Backtrace);
  R.flag("HETERO_DISABLE_CUDA", S.DisableCuda);
  readPool(R, S);
  R.integer("HETERO_CHUNKS", 1, Settings::MaxChunks, S.Chunks);
  R.integer("HETERO_MIN_CHUNK", 1, Settings::MaxMinChunk, S.MinChunk);
  R.integer("HETERO_CPU_THREADS", 1, 1 << 20, S.CpuThreads);
  R.flag("HETERO_HOST_COPY", S.HostCopy);
  R.integer("HETERO_PROBE_AFTER", 0, Settings::MaxProbeAfterMs, S.ProbeAfterMs);
  R.choice("HETERO_SHARES", "measured", "fixed", S.FixedShares,
           /*FirstSets=*/false);
  readSharesFile(R, S);
  if (std::string_view V = R.value("HETERO_TRACE"); !V.empty())
    S.TraceFile = std::string(V);
  R.choice("HETERO_NODE_SPLIT", "auto", "off", S.NodeSplit);
  R.choice("HETERO_TEAMS", "measured", "plugin", S.MeasuredTeams);
  readInspect(R, S);
  R.choice("HETERO_STARTS", "parallel", "serial", S.ParallelStarts);
  R.integer("HETERO_RUN_AHEAD", 0, Settings::MaxRunAheadUs, S.RunAheadUs);
  R.choice("HETERO_CUTS", "owners", "shares", S.OwnerCuts);
  if (const char *Teams = GetEnv("OMP_NUM_TEAMS"); Teams && *Teams)
    S.UserTeams = true;
  S.StarPUCpusSet = GetEnv("STARPU_NCPU") || GetEnv("STARPU_NCPUS");
  S.StarPUCudaSet = GetEnv("STARPU_NCUDA") != nullptr;
  return S;
}

static const char *inspectName(Settings::Inspect I) {
  switch (I) {
  case Settings::Inspect::InPlace:
    return "in-place";
  case Settings::Inspect::Background:
    return "background";
  case Settings::Inspect::Sync:
    return "sync";
  case Settings::Inspect::Off:
    break;
  }
  return "off";
}

std::vector<std::string> settingsInForce(const Settings &S,
                                         const GetEnvFn &GetEnv) {
  auto Flag = [](bool B) { return std::string(B ? "1" : "0"); };
  auto Num = [](uint64_t N) { return std::to_string(N); };
  std::string Members;
  for (const MemberShare &M : S.Members)
    Members += (Members.empty() ? "" : ",") + M.Name +
               (M.Weight >= 0 ? "=" + std::to_string(M.Weight) : "");
  const std::pair<const char *, std::string> Values[] = {
      {"HETERO_INFO", Num(S.Info)},
      {"HETERO_STATS", Flag(S.Stats)},
      {"HETERO_BACKTRACE", Flag(S.Backtrace)},
      {"HETERO_DISABLE_CUDA", Flag(S.DisableCuda)},
      {"HETERO_SIMULATE", Num(S.Simulate)},
      {"HETERO_SIMULATE_MEMORY",
       S.SimulateMemory ? Num(S.SimulateMemory) : "unlimited"},
      {"HETERO_GPU_SPLIT", Num(S.GpuSplit)},
      {"HETERO_MEMBER", S.Member.empty() ? "none" : S.Member},
      {"HETERO_MEMBERS", S.MembersListed ? Members : "all"},
      {"HETERO_CHUNKS", Num(S.Chunks)},
      {"HETERO_MIN_CHUNK", Num(S.MinChunk)},
      {"HETERO_CPU_THREADS",
       S.CpuThreads ? Num(S.CpuThreads) : "the cores less one per GPU member"},
      {"HETERO_HOST_COPY", Flag(S.HostCopy)},
      {"HETERO_SHARES", S.FixedShares ? "fixed" : "measured"},
      {"HETERO_SHARES_FILE", S.SharesFile.empty() ? "none" : S.SharesFile},
      {"HETERO_PROBE_AFTER", Num(S.ProbeAfterMs)},
      {"HETERO_TRACE", S.TraceFile.empty() ? "none" : S.TraceFile},
      {"HETERO_NODE_SPLIT", S.NodeSplit ? "auto" : "off"},
      {"HETERO_TEAMS", S.MeasuredTeams ? "measured" : "plugin"},
      {"HETERO_INSPECT", inspectName(S.Inspector)},
      {"HETERO_STARTS", S.ParallelStarts ? "parallel" : "serial"},
      {"HETERO_RUN_AHEAD", Num(S.RunAheadUs)},
      {"HETERO_CUTS", S.OwnerCuts ? "owners" : "shares"},
  };
  std::vector<std::string> Out;
  for (const auto &[Name, Value] : Values) {
    const char *Set = GetEnv(Name);
    Out.push_back(std::string(Name) + "=" + Value +
                  (Set && *Set ? "" : " (default)"));
  }
  return Out;
}

std::string planSettingsSignature(const Settings &S) {
  std::string Members;
  for (const MemberShare &M : S.Members)
    Members += (Members.empty() ? "" : "+") + M.Name +
               (M.Weight >= 0 ? "=" + std::to_string(M.Weight) : "");
  return "chunks=" + std::to_string(S.Chunks) +
         ",min_chunk=" + std::to_string(S.MinChunk) +
         ",members=" + (S.MembersListed ? Members : "all") +
         ",cpu_threads=" + std::to_string(S.CpuThreads) +
         ",host_copy=" + (S.HostCopy ? "1" : "0") +
         ",teams=" + (S.MeasuredTeams ? "measured" : "plugin") +
         ",inspect=" + inspectName(S.Inspector) +
         ",starts=" + (S.ParallelStarts ? "parallel" : "serial") +
         ",run_ahead=" + std::to_string(S.RunAheadUs) +
         ",cuts=" + (S.OwnerCuts ? "owners" : "shares");
}

void checkSettingsAgainstPool(const Settings &S,
                              const std::vector<std::string> &PoolMembers,
                              unsigned Cores,
                              std::vector<std::string> &Errors) {
  std::string List;
  for (const std::string &M : PoolMembers)
    List += (List.empty() ? "" : ", ") + M;
  auto InPool = [&](const std::string &Name) {
    return std::find(PoolMembers.begin(), PoolMembers.end(), Name) !=
           PoolMembers.end();
  };
  if (!S.Member.empty() && !InPool(S.Member))
    Errors.push_back("HETERO_MEMBER=" + S.Member +
                     ": the pool has no such member; its members: " + List);
  for (const MemberShare &M : S.Members)
    if (!InPool(M.Name)) {
      std::string Value;
      for (const MemberShare &N : S.Members)
        Value += (Value.empty() ? "" : ",") + N.Name;
      Errors.push_back("HETERO_MEMBERS=" + Value + ": the pool has no member " +
                       M.Name + "; its members: " + List);
      break;
    }
  if (S.CpuThreads > Cores)
    Errors.push_back("HETERO_CPU_THREADS=" + std::to_string(S.CpuThreads) +
                     ": " + rangeText(1, Cores) +
                     " (the cores available to this process)");
}

std::vector<std::string>
unknownSettings(const std::vector<std::string> &Environment) {
  std::vector<std::string> Out;
  for (const std::string &Entry : Environment) {
    std::string Name = Entry.substr(0, Entry.find('='));
    if (Name.rfind("HETERO_", 0) != 0)
      continue;
    auto Is = [&](const char *Known) { return Name == Known; };
    if (std::any_of(std::begin(KnownSettings), std::end(KnownSettings), Is) ||
        std::any_of(std::begin(OtherHeteroNames), std::end(OtherHeteroNames),
                    Is))
      continue;
    // The nearest setting, by the words after HETERO_: one that holds the
    // other's words (HETERO_NUM_CHUNKS, HETERO_CHUNKS), else the fewest
    // edits, up to a third of the word's length.
    std::string_view Word = std::string_view(Name).substr(7);
    const char *Best = nullptr;
    size_t BestDistance = std::max<size_t>(2, Word.size() / 3) + 1;
    for (const char *Known : KnownSettings) {
      std::string_view KnownWord = std::string_view(Known).substr(7);
      size_t D = editDistance(Word, KnownWord, BestDistance);
      bool Holds = Word.size() >= 4 && KnownWord.size() >= 4 &&
                   (Word.find(KnownWord) != std::string_view::npos ||
                    KnownWord.find(Word) != std::string_view::npos);
      if (Holds)
        D = std::min<size_t>(D, 1);
      if (D < BestDistance) {
        BestDistance = D;
        Best = Known;
      }
    }
    Out.push_back(Name + " is not a hetero setting, and has no effect" +
                  (Best ? std::string("; did you mean ") + Best + "?" : ""));
  }
  return Out;
}

} // namespace hetero

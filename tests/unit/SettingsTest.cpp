//===- SettingsTest.cpp - The HETERO_* parsers and their messages ---------===//
#include "hetero/Settings.h"

#include <gtest/gtest.h>

#include <fstream>
#include <set>

#include <algorithm>
#include <map>

using namespace hetero;

namespace {

/// An environment made of Env (which must outlive it).
GetEnvFn envOf(const std::map<std::string, std::string> &Env) {
  return [&Env](const char *Name) -> const char * {
    auto It = Env.find(Name);
    return It == Env.end() ? nullptr : It->second.c_str();
  };
}

/// Reads the settings from Env; returns the error messages.
std::vector<std::string> read(const std::map<std::string, std::string> &Env,
                              Settings &S) {
  std::vector<std::string> Errors;
  S = readSettings(envOf(Env), Errors);
  return Errors;
}

std::string onlyError(const std::map<std::string, std::string> &Env) {
  Settings S;
  std::vector<std::string> E = read(Env, S);
  EXPECT_EQ(E.size(), 1u);
  return E.empty() ? "" : E[0];
}

} // namespace

TEST(Settings, Integers) {
  uint64_t V = 7;
  EXPECT_TRUE(parseInteger("0", 0, 5, V));
  EXPECT_EQ(V, 0u);
  EXPECT_TRUE(parseInteger("5", 0, 5, V));
  EXPECT_EQ(V, 5u);
  for (const char *Bad : {"", "-1", "+1", " 1", "1 ", "3x", "abc", "1e9", "6",
                          "0x10", "99999999999999999999999"})
    EXPECT_FALSE(parseInteger(Bad, 0, 5, V)) << Bad;
  EXPECT_FALSE(parseInteger("0", 1, 5, V));
}

TEST(Settings, ByteCounts) {
  uint64_t V = 0;
  EXPECT_TRUE(parseByteCount("65536", V));
  EXPECT_EQ(V, 65536u);
  EXPECT_TRUE(parseByteCount("64K", V));
  EXPECT_EQ(V, 64u << 10);
  EXPECT_TRUE(parseByteCount("512m", V));
  EXPECT_EQ(V, 512u << 20);
  EXPECT_TRUE(parseByteCount("2G", V));
  EXPECT_EQ(V, uint64_t(2) << 30);
  EXPECT_TRUE(parseByteCount("3T", V));
  EXPECT_EQ(V, uint64_t(3) << 40);
  for (const char *Bad : {"", "0", "0K", "-5", "junk", "K", "1.5G", "2GB",
                          "5000000000T", "18446744073709551615"})
    EXPECT_FALSE(parseByteCount(Bad, V)) << Bad;
}

TEST(Settings, FlagsAndMembers) {
  bool F = false;
  EXPECT_TRUE(parseFlag("1", F));
  EXPECT_TRUE(F);
  EXPECT_TRUE(parseFlag("0", F));
  EXPECT_FALSE(F);
  for (const char *Bad : {"", "2", "yes", "true", "01"})
    EXPECT_FALSE(parseFlag(Bad, F)) << Bad;
  for (const char *Good :
       {"cpu", "cuda:0", "cuda:12", "sim:3", "cuda:0.1", "cuda:3.0"})
    EXPECT_TRUE(isMemberName(Good)) << Good;
  for (const char *Bad : {"", "gpu", "cuda", "cuda:", "cuda:01", "cuda:-1",
                          "sim:x", "cpu:0", "CPU", "cuda:0 ", "cuda:0.",
                          "cuda:.1", "cuda:0.01", "cuda:0.1.2", "sim:0.1"})
    EXPECT_FALSE(isMemberName(Bad)) << Bad;
}

TEST(Settings, MemberShares) {
  std::vector<MemberShare> M;
  std::string Err;
  ASSERT_TRUE(parseMemberShares("cpu", M, Err)) << Err;
  ASSERT_EQ(M.size(), 1u);
  EXPECT_EQ(M[0].Name, "cpu");
  EXPECT_EQ(M[0].Weight, -1);
  ASSERT_TRUE(parseMemberShares("sim:0=1,sim:1=7.5,cpu=0", M, Err)) << Err;
  ASSERT_EQ(M.size(), 3u);
  EXPECT_EQ(M[1].Weight, 7.5);
  EXPECT_EQ(M[2].Weight, 0);
  struct {
    const char *Text, *Err;
  } Bad[] = {{"", "expected"},
             {"cpu,", "'' is not a member"},
             {"cpu=abc", "no valid weight"},
             {"cpu=-1", "no valid weight"},
             {"cpu=inf", "no valid weight"},
             {"cpu=nan", "no valid weight"},
             {"cpu=1e7", "no valid weight"},
             {"cpu=0x10", "no valid weight"},
             {"cpu=", "no valid weight"},
             {"cpu,cpu=2", "listed twice"},
             {"cpu=0,sim:0=0", "weight 0"},
             {"gpu:0", "not a member"}};
  for (const auto &B : Bad) {
    EXPECT_FALSE(parseMemberShares(B.Text, M, Err)) << B.Text;
    EXPECT_NE(Err.find(B.Err), std::string::npos) << B.Text << ": " << Err;
  }
}

TEST(Settings, DefaultsWhenUnsetOrEmpty) {
  Settings S;
  EXPECT_TRUE(read({}, S).empty());
  EXPECT_EQ(S.Chunks, 1u);
  EXPECT_EQ(S.MinChunk, 16u);
  EXPECT_EQ(S.ProbeAfterMs, 50u);
  EXPECT_TRUE(S.TraceFile.empty());
  EXPECT_TRUE(S.NodeSplit);
  EXPECT_TRUE(S.MeasuredTeams);
  EXPECT_FALSE(S.UserTeams);
  EXPECT_EQ(S.Inspector, Settings::Inspect::InPlace);
  EXPECT_TRUE(S.ParallelStarts);
  EXPECT_EQ(S.Simulate, 0u);
  EXPECT_EQ(S.SimulateMemory, 0u);
  EXPECT_FALSE(S.MembersListed);
  EXPECT_EQ(S.weightOf("cpu", 1), 1);
  EXPECT_TRUE(read({{"HETERO_CHUNKS", ""}, {"HETERO_MEMBERS", ""}}, S).empty());
  EXPECT_EQ(S.Chunks, 1u);
  EXPECT_FALSE(S.MembersListed);
}

TEST(Settings, ValuesRead) {
  Settings S;
  ASSERT_TRUE(read({{"HETERO_INFO", "2"},
                    {"HETERO_STATS", "1"},
                    {"HETERO_DISABLE_CUDA", "0"},
                    {"HETERO_SIMULATE", "3"},
                    {"HETERO_SIMULATE_MEMORY", "64M"},
                    {"HETERO_MEMBER", "sim:1"},
                    {"HETERO_MEMBERS", "sim:0=2,cpu"},
                    {"HETERO_CHUNKS", "256"},
                    {"HETERO_MIN_CHUNK", "1"},
                    {"HETERO_CPU_THREADS", "4"},
                    {"HETERO_HOST_COPY", "1"},
                    {"HETERO_SHARES", "fixed"},
                    {"HETERO_GPU_SPLIT", "2"},
                    {"HETERO_PROBE_AFTER", "0"},
                    {"HETERO_TRACE", "/tmp/t.json"},
                    {"HETERO_NODE_SPLIT", "off"},
                    {"HETERO_TEAMS", "plugin"},
                    {"HETERO_INSPECT", "sync"},
                    {"HETERO_STARTS", "serial"},
                    {"HETERO_RUN_AHEAD", "0"},
                    {"HETERO_CUTS", "shares"},
                    {"OMP_NUM_TEAMS", "264"}},
                   S)
                  .empty());
  EXPECT_FALSE(S.MeasuredTeams);
  EXPECT_EQ(S.Inspector, Settings::Inspect::Sync);
  EXPECT_FALSE(S.ParallelStarts);
  EXPECT_EQ(S.RunAheadUs, 0u);
  EXPECT_FALSE(S.OwnerCuts);
  EXPECT_TRUE(S.UserTeams);
  EXPECT_EQ(S.Info, 2);
  EXPECT_EQ(S.TraceFile, "/tmp/t.json");
  EXPECT_FALSE(S.NodeSplit);
  EXPECT_EQ(S.ProbeAfterMs, 0u);
  EXPECT_EQ(S.GpuSplit, 2u);
  EXPECT_TRUE(S.Stats);
  EXPECT_FALSE(S.DisableCuda);
  EXPECT_EQ(S.Simulate, 3u);
  EXPECT_EQ(S.SimulateMemory, 64u << 20);
  EXPECT_EQ(S.Member, "sim:1");
  EXPECT_EQ(S.weightOf("sim:0", 1), 2);
  EXPECT_EQ(S.weightOf("cpu", 1), 1);
  EXPECT_EQ(S.weightOf("sim:1", 1), 0);
  EXPECT_EQ(S.Chunks, 256u);
  EXPECT_EQ(S.MinChunk, 1u);
  EXPECT_EQ(S.CpuThreads, 4u);
  EXPECT_TRUE(S.HostCopy);
  EXPECT_TRUE(S.FixedShares);
  for (auto [Value, Mode] :
       {std::pair{"in-place", Settings::Inspect::InPlace},
        std::pair{"background", Settings::Inspect::Background},
        std::pair{"off", Settings::Inspect::Off}}) {
    ASSERT_TRUE(read({{"HETERO_INSPECT", Value}}, S).empty());
    EXPECT_EQ(S.Inspector, Mode);
  }
}

// The bad values users tried, each with its one-line message.
TEST(Settings, BadValuesNameTheVariableTheValueAndWhatIsAccepted) {
  struct {
    const char *Name, *Value, *Message;
  } Cases[] = {
      {"HETERO_SIMULATE", "abc",
       "HETERO_SIMULATE=abc: expected an integer from 0 to 64"},
      {"HETERO_SIMULATE", "-1",
       "HETERO_SIMULATE=-1: expected an integer from 0 to 64"},
      {"HETERO_SIMULATE", "3x",
       "HETERO_SIMULATE=3x: expected an integer from 0 to 64"},
      {"HETERO_CHUNKS", "0",
       "HETERO_CHUNKS=0: expected an integer from 1 to 256"},
      {"HETERO_CHUNKS", "-5",
       "HETERO_CHUNKS=-5: expected an integer from 1 to 256"},
      {"HETERO_CHUNKS", "abc",
       "HETERO_CHUNKS=abc: expected an integer from 1 to 256"},
      {"HETERO_CHUNKS", "1e9",
       "HETERO_CHUNKS=1e9: expected an integer from 1 to 256"},
      {"HETERO_CHUNKS", "100000",
       "HETERO_CHUNKS=100000: expected an integer from 1 to 256"},
      {"HETERO_SIMULATE_MEMORY", "0",
       "HETERO_SIMULATE_MEMORY=0: expected a byte count of at least 1"},
      {"HETERO_SIMULATE_MEMORY", "-5",
       "HETERO_SIMULATE_MEMORY=-5: expected a byte count of at least 1"},
      {"HETERO_SIMULATE_MEMORY", "junk",
       "HETERO_SIMULATE_MEMORY=junk: expected a byte count of at least 1"},
      {"HETERO_CPU_THREADS", "0",
       "HETERO_CPU_THREADS=0: expected an integer from 1 to"},
      {"HETERO_GPU_SPLIT", "0",
       "HETERO_GPU_SPLIT=0: expected an integer from 1 to 8"},
      {"HETERO_GPU_SPLIT", "9",
       "HETERO_GPU_SPLIT=9: expected an integer from 1 to 8"},
      {"HETERO_PROBE_AFTER", "50ms",
       "HETERO_PROBE_AFTER=50ms: expected an integer from 0 to 86400000"},
      {"HETERO_NODE_SPLIT", "1", "HETERO_NODE_SPLIT=1: expected auto or off"},
      {"HETERO_TEAMS", "264", "HETERO_TEAMS=264: expected measured or plugin"},
      {"HETERO_INSPECT", "on",
       "HETERO_INSPECT=on: expected in-place, background, sync or off"},
      {"HETERO_STARTS", "2", "HETERO_STARTS=2: expected parallel or serial"},
      {"HETERO_RUN_AHEAD", "on",
       "HETERO_RUN_AHEAD=on: expected an integer from 0 to 1000000"},
      {"HETERO_CUTS", "owner", "HETERO_CUTS=owner: expected owners or shares"},
      {"HETERO_RUN_AHEAD", "1000001",
       "HETERO_RUN_AHEAD=1000001: expected an integer from 0 to 1000000"},
      {"HETERO_CPU_THREADS", "-1",
       "HETERO_CPU_THREADS=-1: expected an integer from 1 to"},
      {"HETERO_CPU_THREADS", "abc",
       "HETERO_CPU_THREADS=abc: expected an integer from 1 to"},
      {"HETERO_INFO", "verbose",
       "HETERO_INFO=verbose: expected an integer from "
       "0 to 3"},
      {"HETERO_STATS", "yes", "HETERO_STATS=yes: expected 0 or 1"},
      {"HETERO_DISABLE_CUDA", "true",
       "HETERO_DISABLE_CUDA=true: expected 0 or 1"},
      {"HETERO_MEMBER", "gpu", "HETERO_MEMBER=gpu: expected a member"},
      {"HETERO_MEMBERS", "cpu=x",
       "HETERO_MEMBERS=cpu=x: 'cpu=x' has no valid "
       "weight"},
      {"HETERO_MIN_CHUNK", "0",
       "HETERO_MIN_CHUNK=0: expected an integer from 1"},
      {"HETERO_HOST_COPY", "2", "HETERO_HOST_COPY=2: expected 0 or 1"},
      {"HETERO_SHARES", "static",
       "HETERO_SHARES=static: expected measured or fixed"},
  };
  for (const auto &C : Cases) {
    std::string E = onlyError({{C.Name, C.Value}});
    EXPECT_EQ(E.rfind(C.Message, 0), 0u) << E;
    EXPECT_EQ(E.find('\n'), std::string::npos) << E;
  }
  // Several bad values: one message each.
  Settings S;
  EXPECT_EQ(read({{"HETERO_CHUNKS", "0"}, {"HETERO_SIMULATE", "x"}}, S).size(),
            2u);
}

TEST(Settings, PoolChecks) {
  Settings S;
  std::vector<std::string> Pool = {"sim:0", "sim:1", "cpu"};
  ASSERT_TRUE(
      read({{"HETERO_MEMBERS", "cpu"}, {"HETERO_MEMBER", "sim:1"}}, S).empty());
  std::vector<std::string> E;
  checkSettingsAgainstPool(S, Pool, 16, E);
  EXPECT_TRUE(E.empty());

  ASSERT_TRUE(read({{"HETERO_MEMBERS", "cuda:7,cpu"}}, S).empty());
  checkSettingsAgainstPool(S, Pool, 16, E);
  ASSERT_EQ(E.size(), 1u);
  EXPECT_EQ(E[0], "HETERO_MEMBERS=cuda:7,cpu: the pool has no member cuda:7; "
                  "its members: sim:0, sim:1, cpu");

  E.clear();
  ASSERT_TRUE(read({{"HETERO_MEMBER", "cuda:0"}}, S).empty());
  checkSettingsAgainstPool(S, Pool, 16, E);
  ASSERT_EQ(E.size(), 1u);
  EXPECT_EQ(E[0], "HETERO_MEMBER=cuda:0: the pool has no such member; its "
                  "members: sim:0, sim:1, cpu");

  E.clear();
  ASSERT_TRUE(read({{"HETERO_CPU_THREADS", "999"}}, S).empty());
  checkSettingsAgainstPool(S, Pool, 16, E);
  ASSERT_EQ(E.size(), 1u);
  EXPECT_EQ(E[0], "HETERO_CPU_THREADS=999: expected an integer from 1 to 16 "
                  "(the cores available to this process)");
}

// Every unknown HETERO_ name is said; the nearest setting where one is near
// (a few edits, or one holds the other's words), none where none is.
TEST(Settings, UnknownNamesAreNamed) {
  std::vector<std::string> W = unknownSettings(
      {"HETERO_CHUNK=4", "HETERO_SIMULATE=3", "HETERO_MEMEBRS=cpu",
       "HETERO_OFFLOAD_ARCH=sm_90", "HETERO_SOMETHING_ELSE=1", "PATH=/bin",
       "HETERO_INF0=1", "HETERO_SIMULATION=3", "HETERO_NUM_CHUNKS=4",
       "HETERO_DESC_STRICT=1", "XHETERO_CHUNK=1"});
  ASSERT_EQ(W.size(), 6u);
  EXPECT_EQ(W[0], "HETERO_CHUNK is not a hetero setting, and has no effect; "
                  "did you mean HETERO_CHUNKS?");
  EXPECT_EQ(W[1], "HETERO_MEMEBRS is not a hetero setting, and has no "
                  "effect; did you mean HETERO_MEMBERS?");
  EXPECT_EQ(W[2], "HETERO_SOMETHING_ELSE is not a hetero setting, and has no "
                  "effect");
  EXPECT_EQ(W[3], "HETERO_INF0 is not a hetero setting, and has no effect; "
                  "did you mean HETERO_INFO?");
  EXPECT_EQ(W[4], "HETERO_SIMULATION is not a hetero setting, and has no "
                  "effect; did you mean HETERO_SIMULATE?");
  EXPECT_EQ(W[5], "HETERO_NUM_CHUNKS is not a hetero setting, and has no "
                  "effect; did you mean HETERO_CHUNKS?");
}

TEST(Settings, SharesFileDefaultsToTheUsersCache) {
  Settings S;
  ASSERT_TRUE(read({{"HOME", "/home/u"}}, S).empty());
  EXPECT_EQ(S.SharesFile, "/home/u/.cache/hetero/shares.txt");
  ASSERT_TRUE(read({{"HOME", "/home/u"}, {"XDG_CACHE_HOME", "/c"}}, S).empty());
  EXPECT_EQ(S.SharesFile, "/c/hetero/shares.txt");
  ASSERT_TRUE(
      read({{"HOME", "/home/u"}, {"HETERO_SHARES_FILE", "none"}}, S).empty());
  EXPECT_EQ(S.SharesFile, "");
  ASSERT_TRUE(read({{"HETERO_SHARES_FILE", "/tmp/s"}}, S).empty());
  EXPECT_EQ(S.SharesFile, "/tmp/s");
  ASSERT_TRUE(read({}, S).empty());
  EXPECT_EQ(S.SharesFile, "");
}

TEST(Settings, InForceListsEverySettingAndItsDefaults) {
  Settings S;
  std::map<std::string, std::string> Env = {{"HETERO_CHUNKS", "4"}};
  ASSERT_TRUE(read(Env, S).empty());
  std::vector<std::string> Lines = settingsInForce(S, envOf(Env));
  EXPECT_EQ(Lines.size(), 23u);
  EXPECT_NE(
      std::find(Lines.begin(), Lines.end(), "HETERO_RUN_AHEAD=1000 (default)"),
      Lines.end());
  EXPECT_NE(
      std::find(Lines.begin(), Lines.end(), "HETERO_CUTS=owners (default)"),
      Lines.end());
  EXPECT_NE(std::find(Lines.begin(), Lines.end(),
                      "HETERO_INSPECT=in-place (default)"),
            Lines.end());
  EXPECT_NE(
      std::find(Lines.begin(), Lines.end(), "HETERO_STARTS=parallel (default)"),
      Lines.end());
  EXPECT_NE(
      std::find(Lines.begin(), Lines.end(), "HETERO_TEAMS=measured (default)"),
      Lines.end());
  EXPECT_NE(std::find(Lines.begin(), Lines.end(), "HETERO_CHUNKS=4"),
            Lines.end());
  EXPECT_NE(
      std::find(Lines.begin(), Lines.end(), "HETERO_PROBE_AFTER=50 (default)"),
      Lines.end());
}

// One list of settings (SettingNames.def): hetero-info's settings in force
// name every one of them, and the README's and the user guide's tables give
// each a row; a row names nothing else (a tool's variable is fine).
TEST(Settings, EverySettingIsListedAndDocumented) {
  std::set<std::string> Names = {
#define HETERO_SETTING(Name) #Name,
#include "hetero/SettingNames.def"
  };
  std::set<std::string> ToolVars = {
#define HETERO_TOOL_VAR(Name) #Name,
#include "hetero/SettingNames.def"
  };
  Settings S;
  ASSERT_TRUE(read({}, S).empty());
  std::set<std::string> InForce;
  for (const std::string &Line : settingsInForce(S, envOf({})))
    InForce.insert(Line.substr(0, Line.find('=')));
  EXPECT_EQ(InForce, Names);
  for (const char *Doc : {"README.md", "docs/user-guide.md"}) {
    std::ifstream In(std::string(HETERO_UNIT_INPUTS) + "/../../../" + Doc);
    ASSERT_TRUE(In.good()) << Doc;
    std::set<std::string> Rows;
    for (std::string Line; std::getline(In, Line);) {
      if (Line.rfind("| `HETERO_", 0) != 0)
        continue;
      std::string Name = Line.substr(3, Line.find('`', 3) - 3);
      if (Name.find_first_not_of("ABCDEFGHIJKLMNOPQRSTUVWXYZ_") ==
          std::string::npos)
        Rows.insert(Name); // not a row about a setting's effect
    }
    for (const std::string &N : Names)
      EXPECT_TRUE(Rows.count(N)) << N << " has no row in " << Doc;
    for (const std::string &R : Rows)
      EXPECT_TRUE(Names.count(R) || ToolVars.count(R))
          << Doc << " has a row for " << R
          << ", which is no variable of hetero";
  }
}

//===- PolicyTest.cpp - Which members run a launch, and their shares ------===//
#include "hetero/Policy.h"

#include <gtest/gtest.h>

using namespace hetero;

namespace {

/// cuda:0, cuda:1, sim:0, cpu.
Pool pool() {
  Pool P(4);
  P[0].Kind = MemberKind::Gpu, P[0].Index = 0, P[0].Share = 32;
  P[1].Kind = MemberKind::Gpu, P[1].Index = 1, P[1].Share = 32;
  P[2].Kind = MemberKind::Simulated, P[2].Index = 0;
  P[3].Kind = MemberKind::CpuPool;
  return P;
}

KernelDescriptor descriptor(const std::string &Extra) {
  KernelDescriptor D;
  std::string Err;
  EXPECT_TRUE(KernelDescriptor::parse(
      "hetero-kernel 1\nsplit yes\nnest 1\nloop 0 0 lt 100 1\n" + Extra, D,
      Err))
      << Err;
  return D;
}

KernelTraits traits(const KernelDescriptor *D) {
  KernelTraits K;
  K.Name = "k";
  K.Desc = D;
  K.Loaded.assign(4, true);
  K.Windowed.assign(4, true);
  return K;
}

Settings settings(const std::map<std::string, std::string> &Env) {
  std::vector<std::string> Errors;
  Settings S = readSettings(
      [&](const char *Name) -> const char * {
        auto It = Env.find(Name);
        return It == Env.end() ? nullptr : It->second.c_str();
      },
      Errors);
  EXPECT_TRUE(Errors.empty());
  return S;
}

std::vector<std::pair<size_t, double>> shares(const std::vector<Share> &S) {
  std::vector<std::pair<size_t, double>> Out;
  for (const Share &X : S)
    Out.push_back({X.Member, X.Weight});
  return Out;
}

using Shares = std::vector<std::pair<size_t, double>>;

} // namespace

TEST(Policy, SplitsOverEveryMemberWithItsDefaultShare) {
  Settings S;
  Policy P(S);
  Pool Ms = pool();
  KernelDescriptor D = descriptor("");
  KernelTraits K = traits(&D);
  auto MayRun = [&](size_t M) { return P.mayRun(Ms, M, K, nullptr); };
  std::string Why;
  EXPECT_EQ(shares(P.splitShares(Ms, K, MayRun, Why)),
            (Shares{{0, 32}, {1, 32}, {2, 1}, {3, 1}}));
  // A failed member, one without the kernel, one without the window.
  Ms[1].Failed = true;
  K.Loaded[2] = false;
  K.Windowed[3] = false;
  EXPECT_EQ(shares(P.splitShares(Ms, K, MayRun, Why)), (Shares{{0, 32}}));
  K.Windowed[0] = false;
  EXPECT_TRUE(P.splitShares(Ms, K, MayRun, Why).empty());
  EXPECT_EQ(Why, "no member that takes chunks has the kernel's loop window");
}

TEST(Policy, MembersListedAndTheirWeights) {
  Settings S = settings({{"HETERO_MEMBERS", "cuda:1=3,cpu"}});
  Policy P(S);
  Pool Ms = pool();
  KernelDescriptor D = descriptor("");
  KernelTraits K = traits(&D);
  auto MayRun = [&](size_t M) { return P.mayRun(Ms, M, K, nullptr); };
  std::string Why;
  EXPECT_EQ(shares(P.splitShares(Ms, K, MayRun, Why)),
            (Shares{{1, 3}, {3, 1}}));
  // Whole launches: the listed members first, the others only after.
  WholeChoice W = P.wholeOrder(Ms, MayRun);
  EXPECT_EQ(W.Order, (std::vector<size_t>{1, 3, 0, 2}));
  EXPECT_EQ(W.Reason, "first GPU of the pool");
}

TEST(Policy, PinnedMemberRunsEverythingWhole) {
  Settings S = settings({{"HETERO_MEMBER", "sim:0"}});
  Policy P(S);
  Pool Ms = pool();
  KernelDescriptor D = descriptor("");
  KernelTraits K = traits(&D);
  auto MayRun = [&](size_t M) { return P.mayRun(Ms, M, K, nullptr); };
  std::string Why;
  EXPECT_TRUE(P.splitShares(Ms, K, MayRun, Why).empty());
  EXPECT_EQ(Why, "HETERO_MEMBER runs every kernel whole on one member");
  WholeChoice W = P.wholeOrder(Ms, MayRun);
  EXPECT_EQ(W.Order, (std::vector<size_t>{2, 0, 1, 3}));
  EXPECT_EQ(W.Reason, "pinned by HETERO_MEMBER");
  // A pinned member that cannot run the kernel is said so.
  K.Loaded[2] = false;
  W = P.wholeOrder(Ms, MayRun);
  EXPECT_EQ(W.Order.front(), 0u);
  EXPECT_NE(W.Reason.find("HETERO_MEMBER=sim:0 cannot run it"),
            std::string::npos);
}

TEST(Policy, OneKindKernelsStayOnOneKind) {
  Settings S;
  Policy P(S);
  Pool Ms = pool();
  KernelDescriptor D = descriptor(
      "one-kind calls expf, which GPUs and CPUs round differently\n");
  KernelTraits K = traits(&D);
  auto MayRun = [&](size_t M) { return P.mayRun(Ms, M, K, nullptr); };
  std::string Why;
  EXPECT_EQ(shares(P.splitShares(Ms, K, MayRun, Why)),
            (Shares{{0, 32}, {1, 32}}));
  // Without a GPU taking part: the CPU-side members.
  K.Loaded[0] = K.Loaded[1] = false;
  EXPECT_EQ(shares(P.splitShares(Ms, K, MayRun, Why)),
            (Shares{{2, 1}, {3, 1}}));
}

TEST(Policy, HostOnlyKernelsStayOffGpusWhileACpuMemberHasThem) {
  Settings S;
  Policy P(S);
  Pool Ms = pool();
  KernelDescriptor D =
      descriptor("host-only schedule(dynamic) faults in LLVM 19's NVPTX\n");
  KernelTraits K = traits(&D);
  auto MayRun = [&](size_t M) { return P.mayRun(Ms, M, K, nullptr); };
  EXPECT_TRUE(P.offGpu(Ms, K));
  WholeChoice W = P.wholeOrder(Ms, MayRun);
  EXPECT_EQ(W.Order, (std::vector<size_t>{2, 3}));
  // No CPU-side member has it: a GPU is the only way.
  K.Loaded[2] = K.Loaded[3] = false;
  EXPECT_FALSE(P.offGpu(Ms, K));
  EXPECT_EQ(P.wholeOrder(Ms, MayRun).Order, (std::vector<size_t>{0, 1}));
}

TEST(Policy, IndirectFunctionsAMemberLacksKeepItOut) {
  Settings S;
  Policy P(S);
  Pool Ms = pool();
  KernelTraits K = traits(nullptr);
  K.NoDesc = "no descriptor (not compiled with -fopenmp-targets=hetero)";
  auto Covers = [](size_t M) { return M != 0; };
  auto MayRun = [&](size_t M) { return P.mayRun(Ms, M, K, Covers); };
  std::string Why;
  EXPECT_TRUE(P.splitShares(Ms, K, MayRun, Why).empty());
  EXPECT_EQ(Why, K.NoDesc);
  WholeChoice W = P.wholeOrder(Ms, MayRun);
  EXPECT_EQ(W.Order, (std::vector<size_t>{1, 2, 3}));
}

TEST(Policy, NoMemberCanRunIt) {
  Settings S;
  Policy P(S);
  Pool Ms = pool();
  KernelTraits K = traits(nullptr);
  K.Loaded.assign(4, false);
  auto MayRun = [&](size_t M) { return P.mayRun(Ms, M, K, nullptr); };
  EXPECT_TRUE(P.wholeOrder(Ms, MayRun).Order.empty());
}

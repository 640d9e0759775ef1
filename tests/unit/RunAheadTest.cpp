//===- RunAheadTest.cpp - Launches that return before their chunks end ----===//
//
// Engine.h's run-ahead over two simulated accelerators whose back end queues
// chunks the way a GPU's stream does, but runs them only when waited for
// (finish() or settle()): as late as a GPU may. Copies between the two go in
// the destination's lane too (DataLayer::queueCopiesInLanes) and run there
// in turn. Whatever the engine or the data layer read before waiting would
// be stale, and whatever they wrote early would be read by a queued copy, so
// the results must still equal a serial run bit for bit; reductions, the
// bound on a launch's time and a failing queued chunk are checked too.
//
//===----------------------------------------------------------------------===//
#include "TestKernels.h"
#include "hetero/DataLayer.h"
#include "hetero/Engine.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdio>
#include <cstring>
#include <mutex>
#include <set>
#include <string>
#include <thread>
#include <utility>
#include <vector>

using namespace hetero;

namespace {

using TestKernel = std::function<bool(size_t Member, uint64_t Lo, uint64_t Hi,
                                      const std::vector<uintptr_t> &Args)>;

/// Members that queue their chunks and the copies into their memory in a
/// lane, in order, and run them when the lane is waited for.
struct LaneBackend : Backend {
  TestKernel Kernel;
  uint64_t Total = 0;         // a whole launch's iterations
  std::set<size_t> FailOn;    // members whose kernels fail when they run
  std::set<size_t> NoStartOn; // members whose chunks do not start
  std::mutex Mutex;
  /// A chunk, with the kernel it was started as, a copy (Size > 0), or a
  /// wait for lane After to have run its first Upto ops (orderAfter()).
  struct Op {
    ChunkRun C;
    TestKernel K;
    void *Dst = nullptr;
    const void *Src = nullptr;
    size_t Size = 0;
    size_t After = SIZE_MAX, Upto = 0;
  };
  std::vector<std::vector<Op>> Lanes; // per member, not yet run
  std::vector<size_t> Issued, Ran;    // per member: ops ever queued, run
  std::vector<bool> Failed;
  size_t LaneCopies = 0; // copies ever queued
  /// Whether orderAfter() orders lanes (else the engine waits on the host),
  /// how often it did, and how often a member was settled. Ordering lanes
  /// hold the copies queued into them until their next chunk starts or they
  /// are waited for (issue()), as a GPU's lane does.
  bool Orders = false;
  std::vector<std::vector<Op>> Held; // per member, when Orders
  size_t Orderings = 0, Settles = 0;
  /// Each runs once, on the first finish() / settle() after it is set,
  /// before that wait begins (outside Mutex): a test holds a wait there.
  std::function<void()> BeforeFinish, BeforeSettle;
  std::mutex HookMutex;
  explicit LaneBackend(size_t Members)
      : Lanes(Members), Issued(Members), Ran(Members), Failed(Members),
        Held(Members) {}

  void runHook(std::function<void()> &Slot) {
    std::function<void()> Hook;
    {
      std::lock_guard<std::mutex> Lock(HookMutex);
      Hook = std::exchange(Slot, nullptr);
    }
    if (Hook)
      Hook();
  }

  bool runHere(const ChunkRun &C, const TestKernel &K) {
    if (FailOn.count(C.Member))
      return false;
    std::vector<uintptr_t> Args = C.Args;
    HostPartials Partials(C);
    Partials.bind(Args);
    if (!K(C.Member, C.Windowed ? C.Lo : 0, C.Windowed ? C.Hi : Total, Args))
      return false;
    Partials.done();
    return true;
  }
  /// Runs member M's lane up to its op Upto (under Mutex); false once a
  /// kernel there failed.
  bool drain(size_t M, size_t Upto = SIZE_MAX) {
    while (!Lanes[M].empty() && Ran[M] < Upto) {
      Op O = Lanes[M].front();
      Lanes[M].erase(Lanes[M].begin());
      ++Ran[M];
      if (Failed[M])
        continue;
      if (O.After != SIZE_MAX)
        (void)drain(O.After, O.Upto); // a GPU's wait does not fail
      else if (O.Size)
        std::memcpy(O.Dst, O.Src, O.Size);
      else
        Failed[M] = !runHere(O.C, O.K);
    }
    return !Failed[M];
  }
  void push(size_t M, Op O) {
    Lanes[M].push_back(std::move(O));
    ++Issued[M];
  }
  /// Puts the copies M holds in its lane (under Mutex).
  void issue(size_t M) {
    for (Op &O : Held[M])
      push(M, std::move(O));
    Held[M].clear();
  }
  bool queueCopy(size_t M, void *Dst, const void *Src, size_t Size) {
    std::lock_guard<std::mutex> Lock(Mutex);
    if (Failed[M])
      return false;
    Op O;
    O.Dst = Dst, O.Src = Src, O.Size = Size;
    if (Orders)
      Held[M].push_back(O);
    else
      push(M, O);
    ++LaneCopies;
    return true;
  }
  void issueHeld() override {
    std::lock_guard<std::mutex> Lock(Mutex);
    for (size_t M = 0; M < Held.size(); ++M)
      issue(M);
  }
  LaneOrder orderAfter(size_t W, size_t S) override {
    std::lock_guard<std::mutex> Lock(Mutex);
    if (!Orders || Failed[W] || Failed[S])
      return LaneOrder::No;
    Op O;
    O.After = S, O.Upto = Issued[S];
    push(W, O);
    ++Orderings;
    return Held[S].empty() ? LaneOrder::Ordered : LaneOrder::Held;
  }
  Status run(const void *L, const ChunkRun &C) override {
    StartedChunk S;
    if (Status Started = start(L, C, S); !Started)
      return Started;
    return finish(S);
  }
  bool startsChunks(size_t) const override { return true; }
  /// A launch kept for posted starts: the kernel it was launched as.
  std::shared_ptr<const void> keepLaunch(const void *) override {
    std::lock_guard<std::mutex> Lock(Mutex);
    return std::make_shared<TestKernel>(Kernel);
  }
  Status start(const void *L, const ChunkRun &C, StartedChunk &S) override {
    std::lock_guard<std::mutex> Lock(Mutex);
    if (Failed[C.Member] || NoStartOn.count(C.Member))
      return chunkStatus(false);
    issue(C.Member);
    Op O;
    O.C = C, O.K = L ? *static_cast<const TestKernel *>(L) : Kernel;
    push(C.Member, O);
    S.Member = C.Member;
    S.Handle = this;
    return Status();
  }
  Status finish(StartedChunk &S) override {
    runHook(BeforeFinish);
    std::lock_guard<std::mutex> Lock(Mutex);
    S.Handle = nullptr;
    issue(S.Member);
    return chunkStatus(drain(S.Member));
  }
  void release(StartedChunk &S) override { S.Handle = nullptr; }
  Status settle(size_t M) override {
    runHook(BeforeSettle);
    std::lock_guard<std::mutex> Lock(Mutex);
    ++Settles;
    issue(M);
    return chunkStatus(drain(M));
  }
  /// Chunks queued (Copies: copies queued).
  size_t queued(bool Copies = false) {
    std::lock_guard<std::mutex> Lock(Mutex);
    size_t N = 0;
    for (const auto &L : Lanes)
      for (const Op &O : L)
        N += O.After == SIZE_MAX && (O.Size > 0) == Copies;
    return N;
  }
};

/// A simulated accelerator whose copies from the other one go in its
/// member's lane.
struct LaneNodeOps : SimulatedNodeOps {
  LaneBackend &Back;
  size_t Member;
  LaneNodeOps(int Index, LaneBackend &Back, size_t Member, size_t Capacity = 0)
      : SimulatedNodeOps(Index, Capacity), Back(Back), Member(Member) {}
  bool queueCopyInLane(void *Dst, NodeOps &Src, const void *SrcPtr,
                       size_t Size) override {
    return Src.kind() == NodeKind::Simulated &&
           Back.queueCopy(Member, Dst, SrcPtr, Size);
  }
};

std::vector<bool>
runInTurn(const std::vector<std::pair<int, std::function<bool()>>> &T) {
  std::vector<bool> Ok;
  for (const auto &[Worker, Task] : T)
    Ok.push_back(Task());
  return Ok;
}

Pool twoAccelerators(NodeId S0, NodeId S1) {
  Pool P(2);
  P[0].Kind = MemberKind::Simulated, P[0].Index = 0, P[0].Node = S0;
  P[1].Kind = MemberKind::Simulated, P[1].Index = 1, P[1].Node = S1;
  P[0].WorkerId = 0, P[1].WorkerId = 1;
  return P;
}

TestKernel stencil(std::chrono::microseconds Pause = {}) {
  return [Pause](size_t, uint64_t Lo, uint64_t Hi,
                 const std::vector<uintptr_t> &Args) {
    auto *A = reinterpret_cast<const double *>(Args[0]);
    auto *B = reinterpret_cast<double *>(Args[1]);
    for (uint64_t T = Lo; T < Hi; ++T)
      B[1 + T] = (A[T] + A[1 + T] + A[2 + T]) / 3.0;
    std::this_thread::sleep_for(Pause);
    return true;
  };
}

struct RunAheadFixture : ::testing::Test {
  Settings Config = [] {
    Settings S;
    S.Stats = true;
    S.FixedShares = true; // nothing to time: every launch may run ahead
    S.RunAheadUs = Settings::MaxRunAheadUs;
    return S;
  }();
  LaneBackend Back{2};
  DataLayer L;
  NodeId S0 = L.addNode(std::make_unique<LaneNodeOps>(0, Back, 0));
  NodeId S1 = L.addNode(std::make_unique<LaneNodeOps>(1, Back, 1));
  Engine E{Config, L, twoAccelerators(S0, S1), Back, runInTurn};
  const int N = 3001;
  KernelDescriptor Stencil = parseDescriptor(StencilDesc);
  KernelTraits StencilK = testKernel(Stencil, 2);
  // b[i] = 2 * a[i] for i in [0, n); args: a, b, n.
  KernelDescriptor Scale = parseDescriptor("hetero-kernel 1\n"
                                           "split yes\n"
                                           "nest 1\n"
                                           "loop 0 0 lt (sarg 2 4 1) 1\n"
                                           "read 8 (arg 0) (* (c 0) 8)\n"
                                           "write 8 (arg 1) (* (c 0) 8)\n");
  KernelTraits ScaleK = testKernel(Scale, 2);
  std::vector<double> Ref, RefB;
  void *A = nullptr, *B = nullptr;

  void SetUp() override {
    Ref.resize(N);
    for (int I = 0; I < N; ++I)
      Ref[I] = (I * 37 % 101) / 7.0;
    RefB = Ref;
    A = upload(Ref);
    B = upload(Ref);
    Back.Kernel = stencil();
    Back.Total = N - 2;
  }
  /// The back end runs the scale from now on, over all N values.
  void useScale() {
    Back.Kernel = [](size_t, uint64_t Lo, uint64_t Hi,
                     const std::vector<uintptr_t> &Args) {
      auto *X = reinterpret_cast<const double *>(Args[0]);
      auto *Y = reinterpret_cast<double *>(Args[1]);
      for (uint64_t I = Lo; I < Hi; ++I)
        Y[I] = 2 * X[I];
      return true;
    };
    Back.Total = N;
  }
  void *upload(const std::vector<double> &V) {
    void *P = L.allocate(V.size() * sizeof(double));
    EXPECT_TRUE(L.write(P, V.data(), V.size() * sizeof(double)).ok());
    return P;
  }
  LaunchRequest request(const KernelTraits &K, void *X, void *Y) {
    return testRequest(K, X, Y, N);
  }
  /// One sweep, A to B, here and serially; then the two swap.
  bool sweep() {
    bool Ok = E.launch(request(StencilK, A, B));
    for (int I = 1; I + 1 < N; ++I)
      RefB[I] = (Ref[I - 1] + Ref[I] + Ref[I + 1]) / 3.0;
    std::swap(Ref, RefB);
    std::swap(A, B);
    return Ok;
  }
  /// b[i] = 7 for i in [1, n - 1) (args: a, unused, b, n), which the back
  /// end runs from now on.
  KernelDescriptor Fill = parseDescriptor("hetero-kernel 1\n"
                                          "split yes\n"
                                          "nest 1\n"
                                          "loop 0 1 lt (- (sarg 2 4 1) 1) 1\n"
                                          "write 8 (arg 1) (* (c 0) 8)\n");
  KernelTraits useFill() {
    KernelTraits K = testKernel(Fill, 2);
    K.Name = "fill";
    Back.Kernel = [](size_t, uint64_t Lo, uint64_t Hi,
                     const std::vector<uintptr_t> &Args) {
      auto *Y = reinterpret_cast<double *>(Args[1]);
      for (uint64_t T = Lo; T < Hi; ++T)
        Y[1 + T] = 7;
      return true;
    };
    return K;
  }
  /// B holds what the serial run left there, filled.
  void expectFilled() {
    std::vector<double> Got(N), Want = RefB;
    for (int I = 1; I + 1 < N; ++I)
      Want[I] = 7;
    ASSERT_TRUE(L.read(Got.data(), B, N * sizeof(double)).ok());
    EXPECT_EQ(Got, Want);
  }
  /// What the back end has queued, once the posted starts were issued.
  size_t queued(bool Copies = false) {
    E.startsIssued();
    return Back.queued(Copies);
  }
  void expectMatchesSerial() {
    std::vector<double> Got(N);
    ASSERT_TRUE(L.read(Got.data(), A, N * sizeof(double)).ok());
    EXPECT_EQ(std::memcmp(Got.data(), Ref.data(), N * sizeof(double)), 0);
  }
};

} // namespace

// The first launch is waited for (its time is the bound's measure); the
// others leave both chunks queued, and the next launch's halo copies, then
// the read-back, wait for them.
TEST_F(RunAheadFixture, LaunchesLeaveChunksQueuedUntilTheirDataIsTouched) {
  for (int It = 0; It < 8; ++It) {
    ASSERT_TRUE(sweep());
    ASSERT_TRUE(E.lastLaunch().Split) << E.lastLaunch().Reason;
    EXPECT_EQ(E.lastLaunch().RanAhead, It > 0) << "launch " << It;
    EXPECT_EQ(queued(), It > 0 ? 2u : 0u) << "launch " << It;
  }
  expectMatchesSerial();
  EXPECT_EQ(queued(), 0u);
  EXPECT_GT(Back.LaneCopies, 0u); // the halos went in the lanes
  char *Text = nullptr;
  size_t Size = 0;
  FILE *Out = open_memstream(&Text, &Size);
  E.printStats(Out);
  fclose(Out);
  EXPECT_NE(std::string(Text).find(" ran_ahead=7 "), std::string::npos) << Text;
  free(Text);
}

// Where the back end orders lanes on the device (a GPU's event), no launch
// waits on the host: a halo copy's lane waits for its source's lane, and a
// kernel that overwrites bytes another lane's copy reads waits for that
// lane. Everything stays queued until the read-back, which still gets a
// serial run's bits.
TEST_F(RunAheadFixture, LanesWaitForEachOtherOnTheDevice) {
  Back.Orders = true;
  ASSERT_TRUE(sweep()); // waited for: the bound's measure
  size_t Settles = Back.Settles;
  for (int It = 1; It < 8; ++It) {
    ASSERT_TRUE(sweep());
    ASSERT_TRUE(E.lastLaunch().RanAhead) << "launch " << It;
    EXPECT_EQ(queued(), 2u * It) << "launch " << It;
  }
  EXPECT_EQ(Back.Settles, Settles);
  EXPECT_GT(Back.LaneCopies, 0u);
  // Both ways: a copy after its source, a kernel after a copy that reads
  // what it writes (each sweep writes the array the one before read). Both
  // are one order per pair of lanes and launch, and the reads it covers
  // are dropped: what is left is no more than the last two launches'.
  EXPECT_GE(Back.Orderings, 2u * 6);
  EXPECT_LE(Back.Orderings, 2u * 7);
  EXPECT_LE(L.laneReads(), 4u);
  expectMatchesSerial();
  EXPECT_EQ(queued(), 0u);
}

// A reduction's launch is always waited for: its chunks queue behind the
// ones that ran ahead, which so run first, and its partials are combined.
TEST_F(RunAheadFixture, ReductionsWaitAndRunAfterWhatRanAhead) {
  for (int It = 0; It < 3; ++It)
    ASSERT_TRUE(sweep());
  ASSERT_EQ(queued(), 2u);
  KernelDescriptor Sum = parseDescriptor(SumDesc);
  KernelTraits SumK = testKernel(Sum, 2);
  SumK.Name = "sum";
  double Zero = 0;
  void *S = L.allocate(sizeof(double));
  ASSERT_TRUE(L.write(S, &Zero, sizeof(double)).ok());
  Back.Kernel = [](size_t, uint64_t Lo, uint64_t Hi,
                   const std::vector<uintptr_t> &Args) {
    auto *X = reinterpret_cast<const double *>(Args[0]);
    auto *Acc = reinterpret_cast<double *>(Args[1]);
    for (uint64_t I = Lo; I < Hi; ++I)
      *Acc += X[I];
    return true;
  };
  ASSERT_TRUE(E.launch(request(SumK, A, S)));
  ASSERT_TRUE(E.lastLaunch().Split) << E.lastLaunch().Reason;
  EXPECT_FALSE(E.lastLaunch().RanAhead);
  EXPECT_EQ(queued(), 0u);
  double Got = 0, Want = 0;
  for (double V : Ref)
    Want += V;
  ASSERT_TRUE(L.read(&Got, S, sizeof(double)).ok());
  EXPECT_NEAR(Got, Want, 1e-9 * Want);
  Back.Kernel = stencil();
  expectMatchesSerial();
}

TEST_F(RunAheadFixture, ZeroWaitsForEveryLaunch) {
  Config.RunAheadUs = 0;
  for (int It = 0; It < 4; ++It) {
    ASSERT_TRUE(sweep());
    EXPECT_FALSE(E.lastLaunch().RanAhead);
    EXPECT_EQ(queued(), 0u);
  }
  expectMatchesSerial();
  EXPECT_EQ(Back.LaneCopies, 0u);
}

// A launch that waits for its chunks (here: longer than the run-ahead
// bound) still queues its halo copies in the members' lanes, before their
// chunks, where a copy waited on the host for the kernels on both ends.
// HETERO_RUN_AHEAD=0 keeps every copy on the host (above).
TEST_F(RunAheadFixture, ALaunchThatWaitsQueuesItsCopiesInLanes) {
  Config.RunAheadUs = 100;
  Back.Kernel = stencil(std::chrono::microseconds(1000));
  for (int It = 0; It < 4; ++It) {
    ASSERT_TRUE(sweep());
    EXPECT_FALSE(E.lastLaunch().RanAhead);
    EXPECT_EQ(queued(), 0u);
  }
  expectMatchesSerial();
  EXPECT_GT(Back.LaneCopies, 0u);
}

// A later launch's kernel that writes bytes which a copy queued in another
// member's lane still reads waits for that lane first: each sweep leaves
// each member's halo copy from the other queued before its chunk; then a
// fill over the stencil's rows (no reads, each chunk's rows already there:
// no copy that would settle a lane) overwrites the old array, and member 0's
// lane runs first (starts in turn).
TEST_F(RunAheadFixture, AKernelWaitsForQueuedCopiesThatReadWhatItWrites) {
  Config.ParallelStarts = false;
  for (int It = 0; It < 3; ++It)
    ASSERT_TRUE(sweep());
  ASSERT_TRUE(E.lastLaunch().RanAhead);
  ASSERT_EQ(queued(true), 2u);
  KernelTraits FillK = useFill();
  uint64_t Copied = L.stats().BytesD2D + L.stats().BytesH2D;
  ASSERT_TRUE(E.launch(request(FillK, A, B)));
  ASSERT_TRUE(E.lastLaunch().Split) << E.lastLaunch().Reason;
  ASSERT_FALSE(E.lastLaunch().RanAhead);
  ASSERT_EQ(L.stats().BytesD2D + L.stats().BytesH2D, Copied);
  expectMatchesSerial();
  expectFilled();
}

// With lanes ordered on the device, the fill's lane waits for the copies
// there instead, and nothing is settled.
TEST_F(RunAheadFixture, AKernelWaitsOnTheDeviceForCopiesThatReadWhatItWrites) {
  Config.ParallelStarts = false;
  Back.Orders = true;
  for (int It = 0; It < 3; ++It)
    ASSERT_TRUE(sweep());
  KernelTraits FillK = useFill();
  size_t Settles = Back.Settles, Orderings = Back.Orderings;
  ASSERT_TRUE(E.launch(request(FillK, A, B)));
  ASSERT_TRUE(E.lastLaunch().Split) << E.lastLaunch().Reason;
  EXPECT_EQ(Back.Settles, Settles);
  EXPECT_GT(Back.Orderings, Orderings);
  expectMatchesSerial();
  expectFilled();
}

// So does a write from the host to the home member (0) of those bytes.
TEST_F(RunAheadFixture, AHostWriteWaitsForQueuedCopiesThatReadWhatItWrites) {
  Config.ParallelStarts = false;
  for (int It = 0; It < 3; ++It)
    ASSERT_TRUE(sweep());
  ASSERT_EQ(queued(true), 2u);
  std::vector<double> Ones(N, 1.0), Got(N);
  ASSERT_TRUE(L.write(B, Ones.data(), N * sizeof(double)).ok());
  expectMatchesSerial();
  ASSERT_TRUE(L.read(Got.data(), B, N * sizeof(double)).ok());
  EXPECT_EQ(Got, Ones);
}

// Chunks that took longer than the bound when last waited for are waited
// for again: a timer around one launch sees at most about that much of it
// in the next.
TEST_F(RunAheadFixture, LaunchesLongerThanTheBoundWait) {
  Config.RunAheadUs = 1000;
  Back.Kernel = stencil(std::chrono::microseconds(3000));
  for (int It = 0; It < 3; ++It) {
    ASSERT_TRUE(sweep());
    EXPECT_FALSE(E.lastLaunch().RanAhead) << "launch " << It;
  }
  Back.Kernel = stencil();
  ASSERT_TRUE(sweep()); // measured at the bound's end: still waited for
  EXPECT_FALSE(E.lastLaunch().RanAhead);
  ASSERT_TRUE(sweep()); // now short
  EXPECT_TRUE(E.lastLaunch().RanAhead);
  expectMatchesSerial();
}

// Launches within the bound run ahead only while what ran ahead before them
// is estimated to end within the bound: a loop of them stays about that
// far ahead of its members (a timer around the loop misses at most that),
// and the waits in between still give a serial run's bits.
TEST_F(RunAheadFixture, TheBacklogOfLaunchesThatRanAheadIsBounded) {
  Back.Orders = true; // halos wait on the device: nothing drains the lanes
  Config.RunAheadUs = 5000;
  Back.Kernel = stencil(std::chrono::microseconds(2000));
  int Waited = 0, Ahead = 0, Longest = 0;
  for (int It = 0; It < 12; ++It) {
    ASSERT_TRUE(sweep());
    if (E.lastLaunch().RanAhead) {
      Longest = std::max(Longest, ++Ahead);
    } else {
      Ahead = 0;
      ++Waited;
    }
  }
  EXPECT_GE(Longest, 2); // the host went on while chunks were queued
  EXPECT_GE(Waited, 3);  // the first (timed), then at the backlog's bound
  EXPECT_LE(Longest, 6); // 2 ms each: 5 ms of backlog, and some slack
  expectMatchesSerial();
}

// A queued chunk that fails cannot run again: its launch has returned. The
// next operation that needs its member's data fails, with a message, and so
// does the launch that needed it; nothing reads stale bytes.
TEST_F(RunAheadFixture, AQueuedChunkThatFailsStopsWhatNeedsItsData) {
  ASSERT_TRUE(sweep());
  ASSERT_TRUE(sweep());
  ASSERT_TRUE(E.lastLaunch().RanAhead);
  // Member 1's queued chunk fails when the next launch's copies wait for it.
  // The launch says so once (the engine's settle says nothing itself); the
  // read-back's error is the same failure, for the plugin to print.
  Back.FailOn = {1};
  ::testing::internal::CaptureStderr();
  EXPECT_FALSE(sweep());
  std::string Said = ::testing::internal::GetCapturedStderr();
  const char *Failure = "a kernel that ran ahead on sim:1 failed";
  size_t First = Said.find(Failure);
  EXPECT_NE(First, std::string::npos) << Said;
  EXPECT_EQ(Said.find(Failure, First + 1), std::string::npos) << Said;
  // With the back end's reason.
  EXPECT_NE(Said.find("sim:1 failed (the test kernel failed)"),
            std::string::npos)
      << Said;
  std::vector<double> Got(N);
  Status Read = L.read(Got.data(), B, N * sizeof(double));
  EXPECT_FALSE(Read.ok());
  EXPECT_NE(Read.message().find("a kernel that ran ahead on sim:1 failed"),
            std::string::npos)
      << Read.message();
  EXPECT_FALSE(E.waitIdle());
  // Said once: the engine's end (here, ended and made anew in its place for
  // the fixture's own end) does not say it again.
  ::testing::internal::CaptureStderr();
  E.~Engine();
  new (&E) Engine(Config, L, twoAccelerators(S0, S1), Back, runInTurn);
  EXPECT_EQ(::testing::internal::GetCapturedStderr(), "");
}

// A host write to the home member (0), where a queued chunk failed, fails
// with that failure: it does not go to the host instead, as if nothing had.
TEST_F(RunAheadFixture, AHostWriteToAMemberWhoseQueuedChunkFailedFails) {
  useScale();
  ASSERT_TRUE(E.launch(request(ScaleK, A, B)));
  ASSERT_TRUE(E.launch(request(ScaleK, B, A)));
  ASSERT_TRUE(E.lastLaunch().RanAhead);
  Back.FailOn = {0};
  std::vector<double> Ones(N, 1.0);
  Status S = L.write(B, Ones.data(), N * sizeof(double));
  EXPECT_EQ(S.code(), StatusCode::KernelFailed) << S.message();
  EXPECT_NE(S.message().find("ran ahead on sim:0"), std::string::npos)
      << S.message();
  EXPECT_FALSE(E.waitIdle());
}

// A chunk that does not start has not run: its member leaves, the chunk
// runs on the other member, waited for there, while the other member's own
// chunk stays queued; the launch still counts as run ahead. Later launches
// run whole on the member left.
TEST_F(RunAheadFixture, AChunkThatDoesNotStartRunsElsewhere) {
  Config.ParallelStarts = false; // its chunks start before it returns
  ASSERT_TRUE(sweep());
  ASSERT_TRUE(sweep());
  ASSERT_TRUE(E.lastLaunch().RanAhead);
  Back.NoStartOn = {1};
  ASSERT_TRUE(sweep());
  EXPECT_TRUE(E.lastLaunch().RanAhead);
  EXPECT_TRUE(E.pool()[1].Failed);
  expectMatchesSerial();
  Back.NoStartOn.clear();
  ASSERT_TRUE(sweep());
  expectMatchesSerial();
}

// Posted to its member's start thread, a chunk that does not start is
// found after its launch returned: like a queued chunk that failed, it
// fails whatever then needs that member's data, with a message, never a
// wrong answer.
TEST_F(RunAheadFixture, APostedChunkThatDoesNotStartFailsWhatNeedsItsData) {
  ASSERT_TRUE(sweep());
  ASSERT_TRUE(sweep());
  ASSERT_TRUE(E.lastLaunch().RanAhead);
  E.startsIssued(); // before the back end changes
  Back.NoStartOn = {1};
  // It returns before its chunks start, or finds the failure itself (its
  // own halo copies wait for the member).
  bool Returned = sweep();
  std::vector<double> Got(N);
  bool Read = L.read(Got.data(), A, N * sizeof(double)).ok();
  EXPECT_FALSE(Returned && Read) << "a chunk that did not start went unseen";
  EXPECT_FALSE(E.waitIdle().ok());
  Back.NoStartOn.clear();
}

// A chunk that did not start waits for nothing, so what ran ahead on its
// member is not taken for its failure: a launch that waits, after launches
// of a kernel without halos (nothing settled its members since), recovers,
// and what ran ahead is waited for before that member's data moves.
TEST_F(RunAheadFixture, AChunkThatDoesNotStartAfterRunAheadRunsElsewhere) {
  useScale();
  for (int It = 0; It < 4; ++It) {
    if (It == 3) {
      Config.RunAheadUs = 0;
      E.startsIssued(); // before the back end changes
      Back.NoStartOn = {1};
    }
    ASSERT_TRUE(E.launch(request(ScaleK, A, B))) << "launch " << It;
    EXPECT_EQ(E.lastLaunch().RanAhead, It == 1 || It == 2) << "launch " << It;
    for (double &V : Ref)
      V *= 2;
    std::swap(A, B);
  }
  EXPECT_TRUE(E.pool()[1].Failed);
  expectMatchesSerial();
}

/// Holds the back end's next wait at its start until let go, and says when
/// a thread has reached it.
struct HeldWait {
  std::mutex Mutex;
  std::condition_variable Changed;
  bool Reached = false, Go = false;
  void hold(std::function<void()> &Hook) {
    Hook = [this] {
      std::unique_lock<std::mutex> Lock(Mutex);
      Reached = true;
      Changed.notify_all();
      Changed.wait(Lock, [this] { return Go; });
    };
  }
  void waitReached() {
    std::unique_lock<std::mutex> Lock(Mutex);
    Changed.wait(Lock, [this] { return Reached; });
  }
  void letGo() {
    std::lock_guard<std::mutex> Lock(Mutex);
    Go = true;
    Changed.notify_all();
  }
};

// A free on one host thread while another waits for a launch on the members
// where chunks ran ahead: the launching thread's wait has not returned, so
// the free must wait for those chunks itself before the memory goes (else
// they run over freed storage: ASan reports it, and the lanes are not empty
// when the free returns).
TEST_F(RunAheadFixture, AFreeWhileALaunchWaitsWaitsForWhatRanAhead) {
  useScale();
  Config.ParallelStarts = false;
  std::vector<double> Other(N, 1.0), Got(N);
  void *C = upload(Other), *D = upload(Other);
  // Timed; leaves C's and D's sections on their members, so that the
  // third launch copies nothing (a copy would settle the lanes first).
  ASSERT_TRUE(E.launch(request(ScaleK, C, D)));
  ASSERT_TRUE(E.launch(request(ScaleK, A, B))); // runs ahead: writes B
  ASSERT_TRUE(E.lastLaunch().RanAhead);
  ASSERT_EQ(queued(), 2u);
  Config.RunAheadUs = 0; // the next launch waits for its chunks
  HeldWait Held;
  Held.hold(Back.BeforeFinish);
  std::thread Launcher([&] { EXPECT_TRUE(E.launch(request(ScaleK, C, D))); });
  Held.waitReached();
  ASSERT_TRUE(L.release(B).ok());
  // Both lanes drained: the chunks that write B, and the launch's own.
  EXPECT_EQ(Back.queued(), 0u) << "B was freed under chunks that write it";
  Held.letGo();
  Launcher.join();
  EXPECT_EQ(queued(), 0u);
  B = nullptr;
  ASSERT_TRUE(L.read(Got.data(), D, N * sizeof(double)).ok());
  EXPECT_EQ(Got, std::vector<double>(N, 2.0));
  expectMatchesSerial(); // A, read by what ran ahead, is as it was
}

// The same while another thread is in waitIdle(): two waits for one lane
// overlap, and the member is settled only once one of them has returned.
TEST_F(RunAheadFixture, AFreeDuringWaitIdleWaitsForWhatRanAhead) {
  useScale();
  ASSERT_TRUE(E.launch(request(ScaleK, A, B)));
  ASSERT_TRUE(E.launch(request(ScaleK, B, A)));
  ASSERT_TRUE(E.lastLaunch().RanAhead);
  ASSERT_EQ(queued(), 2u);
  HeldWait Held;
  Held.hold(Back.BeforeSettle);
  std::thread Waiter([&] { EXPECT_TRUE(E.waitIdle()); });
  Held.waitReached();
  ASSERT_TRUE(L.release(B).ok());
  EXPECT_EQ(Back.queued(), 0u) << "B was freed under chunks that read it";
  Held.letGo();
  Waiter.join();
  B = nullptr;
  std::vector<double> Got(N);
  ASSERT_TRUE(L.read(Got.data(), A, N * sizeof(double)).ok());
  for (double &V : Ref)
    V *= 4;
  EXPECT_EQ(Got, Ref);
}

// Host threads unmapping and freeing buffers of their own while another
// launches that run ahead: every launch's result is right, and nothing runs
// over freed memory (TSan and ASan builds).
TEST_F(RunAheadFixture, FreesOnOtherThreadsRaceLaunchesThatRunAhead) {
  useScale();
  std::atomic<bool> Stop{false};
  std::thread Freer([&] {
    std::vector<double> V(512, 3.0);
    while (!Stop) {
      void *P = L.allocate(V.size() * sizeof(double));
      EXPECT_TRUE(L.write(P, V.data(), V.size() * sizeof(double)).ok());
      EXPECT_TRUE(L.release(P).ok());
    }
  });
  for (int It = 0; It < 200; ++It) {
    ASSERT_TRUE(E.launch(request(ScaleK, A, B)));
    for (double &V : Ref)
      V *= 2;
    std::swap(A, B);
    if (It % 7 == 6) {
      // The one that ran ahead is read back, then its input freed.
      expectMatchesSerial();
      void *Fresh = upload(Ref);
      ASSERT_TRUE(L.release(B).ok());
      B = Fresh;
    }
  }
  Stop = true;
  Freer.join();
  expectMatchesSerial();
}

// A lane holds the copies queued into it until its next chunk starts. A
// member that leaves a launch that runs ahead (no room for its chunk's
// data) after a halo copy was queued for it must not keep that copy: issued
// at its next start, in a later launch, it would go out with that launch's
// copies, and with the source's later writes (an order past a lane that
// holds copies takes them for the current launch's). So the launch issues
// it before it returns (Backend::issueHeld), and the answers stay a serial
// run's.
TEST(RunAheadHeldCopies, AMemberThatLeavesALaunchKeepsNoCopies) {
  Settings Config;
  Config.FixedShares = true;
  Config.RunAheadUs = Settings::MaxRunAheadUs;
  Config.ParallelStarts = false;
  const int N = 3001;
  LaneBackend Back(3);
  Back.Orders = true;
  DataLayer L;
  // Member 0 holds the stencil's two arrays, not the third; the others,
  // which go on without it, hold all.
  Pool P(3);
  for (size_t M = 0; M < 3; ++M) {
    P[M].Kind = MemberKind::Simulated, P[M].Index = static_cast<int>(M);
    P[M].WorkerId = static_cast<int>(M);
    P[M].Node = L.addNode(std::make_unique<LaneNodeOps>(
        static_cast<int>(M), Back, M, M ? 0 : 4 * N * sizeof(double)));
  }
  Engine E{Config, L, P, Back, runInTurn};
  KernelDescriptor Stencil = parseDescriptor(StencilDesc);
  KernelTraits StencilK = testKernel(Stencil, 3);
  // b[i] = a[i - 1] + a[i] + a[i + 1] + c[8 i] for i in [1, n - 1); args:
  // a, b, n, c.
  std::string WideText = StencilDesc;
  WideText.insert(WideText.find("write"), "read 8 (arg 3) (* (c 0) 64)\n");
  KernelDescriptor Wide = parseDescriptor(WideText.c_str());
  KernelTraits WideK = testKernel(Wide, 3);
  WideK.Name = "wide";
  std::vector<double> Ref(N), RefB(N), RefC(8 * N);
  for (int I = 0; I < N; ++I)
    Ref[I] = RefB[I] = (I * 37 % 101) / 7.0;
  for (int I = 0; I < 8 * N; ++I)
    RefC[I] = (I % 13) * 0.25;
  auto Upload = [&](const std::vector<double> &V) {
    void *P = L.allocate(V.size() * sizeof(double));
    EXPECT_TRUE(L.write(P, V.data(), V.size() * sizeof(double)).ok());
    return P;
  };
  void *A = Upload(Ref), *B = Upload(RefB), *C = Upload(RefC);
  auto Sweep = [&] { // A to B, then the two swap
    Back.Kernel = stencil();
    Back.Total = N - 2;
    ASSERT_TRUE(E.launch(testRequest(StencilK, A, B, N)));
    for (int I = 1; I + 1 < N; ++I)
      RefB[I] = (Ref[I - 1] + Ref[I] + Ref[I + 1]) / 3.0;
    std::swap(Ref, RefB);
    std::swap(A, B);
  };
  auto WideLaunch = [&] { // A and C to B
    Back.Kernel = [](size_t, uint64_t Lo, uint64_t Hi,
                     const std::vector<uintptr_t> &Args) {
      auto *X = reinterpret_cast<const double *>(Args[0]);
      auto *Y = reinterpret_cast<double *>(Args[1]);
      auto *Z = reinterpret_cast<const double *>(Args[3]);
      for (uint64_t T = Lo; T < Hi; ++T)
        Y[1 + T] = X[T] + X[1 + T] + X[2 + T] + Z[8 * (1 + T)];
      return true;
    };
    LaunchRequest R = testRequest(WideK, A, B, N);
    R.Args.push_back(reinterpret_cast<uintptr_t>(C));
    R.Offsets.push_back(0);
    ASSERT_TRUE(E.launch(R));
    for (int I = 1; I + 1 < N; ++I)
      RefB[I] = Ref[I - 1] + Ref[I] + Ref[I + 1] + RefC[8 * I];
  };
  ::testing::internal::CaptureStderr(); // member 0's lack of room, said
  for (int It = 0; It < 3; ++It)
    Sweep();
  WideLaunch(); // waited for: the run-ahead bound's measure
  Sweep();      // A's rows change on both members
  size_t Copies = Back.LaneCopies;
  WideLaunch(); // runs ahead: member 0 gets A's halo, then finds no room
  (void)::testing::internal::GetCapturedStderr();
  EXPECT_GT(Back.LaneCopies, Copies);
  {
    std::lock_guard<std::mutex> Lock(Back.Mutex);
    for (const auto &H : Back.Held)
      EXPECT_TRUE(H.empty());
  }
  std::swap(Ref, RefB); // B, the wide launch's output, into Ref
  std::swap(A, B);
  for (int It = 0; It < 2; ++It)
    Sweep();
  std::vector<double> Got(N);
  ASSERT_TRUE(L.read(Got.data(), A, N * sizeof(double)).ok());
  EXPECT_EQ(std::memcmp(Got.data(), Ref.data(), N * sizeof(double)), 0);
  for (void *P : {A, B, C})
    EXPECT_TRUE(L.release(P).ok());
}

// The data layer's side: the settler runs for the node whose memory it is
// about to touch, and its failure fails that operation.
TEST(DataLayerSettler, RunsBeforeNodeMemoryIsTouched) {
  DataLayer L;
  NodeId S0 = L.addNode(std::make_unique<SimulatedNodeOps>(0));
  NodeId S1 = L.addNode(std::make_unique<SimulatedNodeOps>(1));
  std::vector<NodeId> Settled;
  std::vector<std::string> Why; // what the trace says needed the node
  bool Fail = false;
  L.setSettler([&](NodeId N, const char *Cause) {
    Settled.push_back(N);
    Why.push_back(Cause ? Cause : "");
    return Fail ? Status::error(StatusCode::KernelFailed,
                                "what ran ahead on sim:1 failed")
                : Status();
  });
  std::vector<double> V(64, 1.5), Got(64);
  void *P = L.allocate(V.size() * sizeof(double));
  ASSERT_TRUE(L.write(P, V.data(), V.size() * sizeof(double)).ok());
  auto Id = reinterpret_cast<BufferId>(P);
  ASSERT_TRUE(L.makeValid(S0, Id, 0, 256).ok());
  EXPECT_EQ(Settled, std::vector<NodeId>({S0}));
  L.markWritten(S0, Id, 0, 256);
  Settled.clear();
  ASSERT_TRUE(L.makeValid(S1, Id, 0, 512).ok()); // from S0 and the host
  EXPECT_TRUE(std::count(Settled.begin(), Settled.end(), S0));
  EXPECT_TRUE(std::count(Settled.begin(), Settled.end(), S1));
  L.markWritten(S1, Id, 0, 128);
  Fail = true;
  Why.clear();
  Status S = L.read(Got.data(), P, 64);
  EXPECT_EQ(Why, std::vector<std::string>({"host reads"}));
  EXPECT_FALSE(S.ok());
  EXPECT_EQ(S.code(), StatusCode::KernelFailed);
  EXPECT_NE(S.message().find("sim:1"), std::string::npos) << S.message();
  EXPECT_FALSE(L.release(P).ok());
  Fail = false;
  Settled.clear();
  Why.clear();
  ASSERT_TRUE(L.release(P).ok());
  // Each node holding it, first without the layer's lock (the long wait),
  // then under it (what was queued meanwhile: nothing here).
  EXPECT_EQ(Settled, std::vector<NodeId>({S0, S1, S0, S1}));
  EXPECT_EQ(Why, std::vector<std::string>(4, "buffer freed"));
  L.setSettler(nullptr);
}

// The data layer's side of lane copies: bytes the launch itself may write
// are copied the usual way, and the batch's first lane copy settles every
// node once.
TEST(DataLayerLanes, BytesTheLaunchWritesAreNotCopiedInLanes) {
  LaneBackend Back(2);
  DataLayer L;
  NodeId S0 = L.addNode(std::make_unique<LaneNodeOps>(0, Back, 0));
  NodeId S1 = L.addNode(std::make_unique<LaneNodeOps>(1, Back, 1));
  std::vector<NodeId> Settled;
  L.setSettler([&](NodeId N, const char *) {
    Settled.push_back(N);
    std::lock_guard<std::mutex> Lock(Back.Mutex);
    return Back.drain(N == S0 ? 0 : 1)
               ? Status()
               : Status::error(StatusCode::KernelFailed, "a lane failed");
  });
  std::vector<double> V(64, 2.5), Got(64);
  void *P = L.allocate(V.size() * sizeof(double));
  ASSERT_TRUE(L.write(P, V.data(), V.size() * sizeof(double)).ok());
  auto Id = reinterpret_cast<BufferId>(P);
  ASSERT_TRUE(L.makeValid(S0, Id, 0, 512).ok());
  L.markWritten(S0, Id, 0, 512);
  L.beginCopyBatch();
  std::map<BufferId, RangeSet> Writes;
  Writes[Id].insert(0, 256);
  L.queueCopiesInLanes(Writes);
  Settled.clear();
  ASSERT_TRUE(L.makeValid(S1, Id, 0, 256).ok()); // written by the launch
  EXPECT_EQ(Back.LaneCopies, 0u);
  ASSERT_TRUE(L.makeValid(S1, Id, 256, 384).ok());
  ASSERT_TRUE(L.makeValid(S1, Id, 384, 512).ok());
  EXPECT_EQ(Back.LaneCopies, 2u);
  EXPECT_EQ(Back.queued(true), 2u);
  // Both ends of the first, then every node once at the first lane copy.
  EXPECT_EQ(Settled, std::vector<NodeId>({S0, S1, S0, S1}));
  ASSERT_TRUE(L.endCopyBatch().ok());
  L.markWritten(S1, Id, 256, 512); // as if S1's kernel wrote them
  ASSERT_TRUE(L.read(Got.data(), P, 512).ok());
  EXPECT_EQ(Got, V); // the queued copies landed first
  EXPECT_EQ(Back.queued(true), 0u);
  EXPECT_TRUE(std::count(Settled.begin(), Settled.end(), S1));
  L.setSettler(nullptr);
  ASSERT_TRUE(L.release(P).ok());
}

//===- EngineTest.cpp - Launches over simulated memories ------------------===//
//
// The engine with real data-layer coherence: two simulated accelerators
// (private memories) and the CPU pool take chunks of a "kernel" that the
// test's back end runs itself on each node's copies, through the arguments
// the engine translated for that node. Results must equal a serial run bit
// for bit, and the bytes moved must be exactly the halos. Launches that
// cannot be split run whole, on one member, through the same path.
//
//===----------------------------------------------------------------------===//
#include "hetero/Engine.h"
#include "TestKernels.h"
#include "hetero/ChunkPlan.h"
#include "hetero/DataLayer.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <map>
#include <memory>
#include <mutex>
#include <set>
#include <thread>
#include <vector>

using namespace hetero;

namespace {

/// The iterations Member ran in launch L (0: none).
uint64_t iterationsIn(const KernelStats::Launch &L, const std::string &Member) {
  for (const auto &[Name, U] : L.Members)
    if (Name == Member)
      return U.Iterations;
  return 0;
}

/// Runs the tasks of different workers on their own threads, concurrently;
/// one worker's tasks in order.
std::vector<bool>
runConcurrently(const std::vector<std::pair<int, std::function<bool()>>> &T) {
  std::vector<bool> Ok(T.size());
  std::map<int, std::vector<size_t>> ByWorker;
  for (size_t I = 0; I < T.size(); ++I)
    ByWorker[T[I].first].push_back(I);
  std::vector<std::thread> Threads;
  std::vector<char> Result(T.size());
  for (auto &[W, Tasks] : ByWorker)
    Threads.emplace_back([&T, &Result, Tasks = Tasks] {
      for (size_t I : Tasks)
        Result[I] = T[I].second();
    });
  for (std::thread &Th : Threads)
    Th.join();
  for (size_t I = 0; I < T.size(); ++I)
    Ok[I] = Result[I];
  return Ok;
}

/// A chunk of the kernel on one member: [Lo, Hi) of the iteration space
/// (the whole of it when not windowed), NodeArgs in that member's memory.
using TestKernel = std::function<bool(size_t Member, uint64_t Lo, uint64_t Hi,
                                      const std::vector<uintptr_t> &Args)>;

/// The back end: runs the test's kernel, the whole space [0, Total) for a
/// whole launch.
struct TestBackend : Backend {
  TestKernel Kernel;
  uint64_t Total = 0;
  /// Members whose chunks start() runs on a thread of their own (as a GPU
  /// queues them) and finish() joins; the others have no start().
  std::vector<bool> Queues;
  std::atomic<int> Started{0}, Ran{0};
  Status run(const void *, const ChunkRun &C) override {
    ++Ran;
    return chunkStatus(runHere(C));
  }
  /// Every member's memory is the host's: reduction partials live in
  /// HostPartials' slots.
  bool runHere(const ChunkRun &C) {
    std::vector<uintptr_t> Args = C.Args;
    HostPartials Partials(C);
    Partials.bind(Args);
    bool Ok = C.Windowed ? Kernel(C.Member, C.Lo, C.Hi, Args)
                         : Kernel(C.Member, 0, Total, Args);
    if (Ok)
      Partials.done();
    return Ok;
  }
  bool startsChunks(size_t M) const override {
    return M < Queues.size() && Queues[M];
  }
  struct Queued {
    std::thread Thread;
    bool Ok = false;
  };
  /// start() and finish() are called from several threads at once (one
  /// per member with parallel starts).
  std::mutex Mutex;
  /// Per member: chunks started and not yet finished (a GPU's loop window
  /// is one per member: two at once would share it).
  std::map<size_t, int> InFlight;
  bool Overlapped = false;
  /// Per member, the threads its chunks were started from.
  std::map<size_t, std::set<std::thread::id>> StartedFrom;
  Status start(const void *, const ChunkRun &C, StartedChunk &S) override {
    if (!startsChunks(C.Member))
      return chunkStatus(false);
    ++Started;
    {
      std::lock_guard<std::mutex> Lock(Mutex);
      Overlapped |= InFlight[C.Member]++ > 0;
      StartedFrom[C.Member].insert(std::this_thread::get_id());
    }
    auto *Q = new Queued;
    Q->Thread = std::thread([this, Q, C] { Q->Ok = runHere(C); });
    S.Member = C.Member;
    S.Handle = Q;
    return Status();
  }
  Status finish(StartedChunk &S) override {
    std::unique_ptr<Queued> Q(static_cast<Queued *>(S.Handle));
    Q->Thread.join();
    std::lock_guard<std::mutex> Lock(Mutex);
    --InFlight[S.Member];
    return chunkStatus(Q->Ok);
  }
};

/// A simulated accelerator whose copies from the host fail while Fail is
/// set.
struct CopyFailingNodeOps : SimulatedNodeOps {
  using SimulatedNodeOps::SimulatedNodeOps;
  bool Fail = false;
  Status copyFromHost(void *Dst, const void *Src, size_t Size) override {
    if (Fail)
      return Status::error(StatusCode::CopyFailed, "the test's link is down");
    return SimulatedNodeOps::copyFromHost(Dst, Src, Size);
  }
};

Pool makePool(NodeId S0, NodeId S1) {
  Pool P(3);
  P[0].Kind = MemberKind::Simulated, P[0].Index = 0, P[0].Node = S0;
  P[0].WorkerId = 0;
  P[1].Kind = MemberKind::Simulated, P[1].Index = 1, P[1].Node = S1;
  P[1].WorkerId = 1;
  P[2].Kind = MemberKind::CpuPool, P[2].Node = HostNode, P[2].WorkerId = 2;
  return P;
}

// The tests below count the bytes each launch moves: with the static
// shares (no measuring phases moving chunk boundaries) and map-time writes
// kept on the host (as HETERO_HOST_COPY=1), so that the first kernel's
// copies are the halos' and a failed member's data has a host copy.
struct EngineFixture : ::testing::Test {
  Settings Config = [] {
    Settings S;
    S.Stats = true;
    S.FixedShares = true;
    S.HostCopy = true;
    return S;
  }();
  DataLayer L;
  NodeId S0 = L.addNode(std::make_unique<SimulatedNodeOps>(0));
  CopyFailingNodeOps *Node1 = new CopyFailingNodeOps(1);
  NodeId S1 = L.addNode(std::unique_ptr<NodeOps>(Node1));
  TestBackend Back;
  Engine E{Config, L, makePool(S0, S1), Back, runConcurrently};
  const int N = 3001;

  void *upload(const std::vector<double> &V) {
    void *P = L.allocate(V.size() * sizeof(double));
    EXPECT_TRUE(L.write(P, V.data(), V.size() * sizeof(double)).ok());
    return P;
  }
  std::vector<double> download(void *P) {
    std::vector<double> V(N);
    EXPECT_TRUE(L.read(V.data(), P, N * sizeof(double)).ok());
    return V;
  }
  KernelTraits traits(const KernelDescriptor &D) { return testKernel(D, 3); }
  LaunchRequest request(const KernelTraits &K, void *A, void *B) {
    return testRequest(K, A, B, N);
  }
  uint64_t iterationsOf(const std::string &Member) {
    return iterationsIn(E.lastLaunch(), Member);
  }
};

std::vector<double> initial(int N) {
  std::vector<double> V(N);
  for (int I = 0; I < N; ++I)
    V[I] = (I * 37 % 101) / 7.0;
  return V;
}

/// One serial sweep of the stencil: Out's interior from In.
void stencilStep(const std::vector<double> &In, std::vector<double> &Out) {
  for (size_t I = 1; I + 1 < In.size(); ++I)
    Out[I] = (In[I - 1] + In[I] + In[I + 1]) / 3.0;
}

/// The stencil on one node: Args point into that node's copies.
TestKernel stencil(std::vector<size_t> *Fail = nullptr) {
  return [Fail](size_t M, uint64_t Lo, uint64_t Hi,
                const std::vector<uintptr_t> &Args) {
    if (Fail && std::find(Fail->begin(), Fail->end(), M) != Fail->end())
      return false;
    auto *A = reinterpret_cast<const double *>(Args[0]);
    auto *B = reinterpret_cast<double *>(Args[1]);
    for (uint64_t T = Lo; T < Hi; ++T) {
      uint64_t I = 1 + T;
      B[I] = (A[I - 1] + A[I] + A[I + 1]) / 3.0;
    }
    return true;
  };
}

} // namespace

TEST_F(EngineFixture, StencilChainMatchesSerialAndMovesOnlyHalos) {
  KernelDescriptor D = parseDescriptor(StencilDesc);
  KernelTraits K = traits(D);
  Back.Kernel = stencil();
  std::vector<double> Ref = initial(N), RefB = Ref;
  void *A = upload(Ref), *B = upload(Ref);
  const int Iters = 6;
  uint64_t H2DAfterFirst = 0, D2DAfterFirst = 0, D2HAfterFirst = 0;
  for (int It = 0; It < Iters; ++It) {
    ASSERT_TRUE(E.launch(request(K, A, B)));
    ASSERT_TRUE(E.lastLaunch().Split) << E.lastLaunch().Reason;
    uint64_t Iterations = 0;
    for (const char *M : {"sim:0", "sim:1", "cpu"}) {
      EXPECT_GT(iterationsOf(M), 0u) << M; // every member took a chunk
      Iterations += iterationsOf(M);
    }
    EXPECT_EQ(Iterations, uint64_t(N - 2));
    stencilStep(Ref, RefB);
    std::swap(Ref, RefB);
    std::swap(A, B);
    if (It == 1) { // both grids have been read and written once
      H2DAfterFirst = L.stats().BytesH2D;
      D2DAfterFirst = L.stats().BytesD2D;
      D2HAfterFirst = L.stats().BytesD2H;
    }
  }
  // From then on, each launch moves one element across each of the two
  // boundaries between members, each way: sim0|sim1 peer to peer, sim1|cpu
  // between the host and sim1.
  uint64_t Later = Iters - 2;
  EXPECT_EQ(L.stats().BytesD2D - D2DAfterFirst, Later * 2 * sizeof(double));
  EXPECT_EQ(L.stats().BytesH2D - H2DAfterFirst, Later * sizeof(double));
  EXPECT_EQ(L.stats().BytesD2H - D2HAfterFirst, Later * sizeof(double));
  std::vector<double> Got = download(A);
  EXPECT_EQ(std::memcmp(Got.data(), Ref.data(), N * sizeof(double)), 0);
  EXPECT_TRUE(L.release(A).ok());
  EXPECT_TRUE(L.release(B).ok());
}

TEST_F(EngineFixture, ReductionCombinesChunkPartialsInOrder) {
  KernelDescriptor D = parseDescriptor(SumDesc);
  KernelTraits K = traits(D);
  Config.Chunks = 3;
  std::vector<double> V = initial(N);
  void *A = upload(V);
  double Start = 0.125;
  void *S = upload({Start});
  // Each chunk adds its iterations, in order, into its private copy.
  std::vector<std::pair<uint64_t, uint64_t>> Windows;
  std::mutex WindowsMutex;
  Back.Kernel = [&](size_t, uint64_t Lo, uint64_t Hi,
                    const std::vector<uintptr_t> &Args) {
    auto *X = reinterpret_cast<const double *>(Args[0]);
    auto *Acc = reinterpret_cast<double *>(Args[1]);
    EXPECT_EQ(*Acc, 0.0); // the identity of +
    for (uint64_t I = Lo; I < Hi; ++I)
      *Acc += X[I];
    std::lock_guard<std::mutex> Lock(WindowsMutex);
    Windows.push_back({Lo, Hi});
    return true;
  };
  ASSERT_TRUE(E.launch(request(K, A, S)));
  ASSERT_TRUE(E.lastLaunch().Split) << E.lastLaunch().Reason;
  ASSERT_EQ(Windows.size(), 9u);
  std::sort(Windows.begin(), Windows.end());
  // The same combination on the host: partials in chunk order, then the
  // variable's value.
  std::vector<double> Partials;
  for (auto [Lo, Hi] : Windows) {
    double P = 0;
    for (uint64_t I = Lo; I < Hi; ++I)
      P += V[I];
    Partials.push_back(P);
  }
  double Want = Start;
  reductionCombineChunks(ReductionOp::Add, ReductionType::F64, &Want,
                         Partials.data(), Partials.size());
  double Got;
  ASSERT_TRUE(L.read(&Got, S, sizeof(Got)).ok());
  EXPECT_EQ(std::memcmp(&Got, &Want, sizeof(Got)), 0);
}

TEST_F(EngineFixture, FailedMemberChunksRunElsewhere) {
  KernelDescriptor D = parseDescriptor(StencilDesc);
  KernelTraits K = traits(D);
  std::vector<double> Ref = initial(N), RefB = Ref;
  void *A = upload(Ref), *B = upload(Ref);
  // One good launch: sim:1 holds valid data of its own.
  Back.Kernel = stencil();
  ASSERT_TRUE(E.launch(request(K, A, B)));
  stencilStep(Ref, RefB);
  // The next launch (b -> a) fails on sim:1; its chunks go to the cpu, and
  // sim:1 leaves the pool, with the back end's reason said once.
  std::vector<size_t> Fail{1};
  Back.Kernel = stencil(&Fail);
  ::testing::internal::CaptureStderr();
  ASSERT_TRUE(E.launch(request(K, B, A)));
  std::string Said = ::testing::internal::GetCapturedStderr();
  const char *Why = "failed on sim:1 (the test kernel failed); sim:1 leaves";
  EXPECT_NE(Said.find(Why), std::string::npos) << Said;
  EXPECT_EQ(
      Said.find("the test kernel failed", Said.find(Why) + std::strlen(Why)),
      std::string::npos)
      << Said;
  EXPECT_TRUE(E.pool()[1].Failed);
  EXPECT_EQ(iterationsOf("sim:1"), 0u);
  stencilStep(RefB, Ref);
  std::vector<double> Got = download(A);
  EXPECT_EQ(std::memcmp(Got.data(), Ref.data(), N * sizeof(double)), 0);
  // From now on sim:1 takes no chunks.
  Back.Kernel = stencil();
  ASSERT_TRUE(E.launch(request(K, A, B)));
  EXPECT_EQ(iterationsOf("sim:1"), 0u);
  EXPECT_GT(iterationsOf("sim:0"), 0u);
}

// Members that queue kernels (GPUs) get their chunks started and waited
// for by the engine, not handed to a worker: with parallel starts each
// member's on a thread of its own, the first member's on the launching
// thread; serial, all on the launching thread. The same answers either way.
// A launch with a member that cannot start chunks (the CPU pool) runs every
// chunk as before.
TEST_F(EngineFixture, ChunksOnQueuingMembersStartFromTheEngine) {
  KernelDescriptor D = parseDescriptor(StencilDesc);
  KernelTraits K = traits(D);
  Back.Kernel = stencil();
  std::vector<double> Ref = initial(N), RefB = Ref;
  void *A = upload(Ref), *B = upload(Ref);
  for (bool Parallel : {false, true}) {
    Config.ParallelStarts = Parallel;
    Back.Queues = {true, true, true};
    Back.StartedFrom.clear();
    for (int It = 0; It < 4; ++It) {
      if (It == 2)
        Back.Queues = {true, true, false};
      int Started = Back.Started, Ran = Back.Ran;
      ASSERT_TRUE(E.launch(request(K, A, B)));
      ASSERT_TRUE(E.lastLaunch().Split) << E.lastLaunch().Reason;
      EXPECT_EQ(Back.Started - Started, It < 2 ? 3 : 0);
      EXPECT_EQ(Back.Ran - Ran, It < 2 ? 0 : 3);
      stencilStep(Ref, RefB);
      std::swap(Ref, RefB);
      std::swap(A, B);
    }
    std::set<std::thread::id> Threads;
    for (const auto &[M, From] : Back.StartedFrom) {
      EXPECT_EQ(From.size(), 1u) << "member " << M;
      Threads.insert(From.begin(), From.end());
    }
    EXPECT_EQ(Threads.size(), Parallel ? 3u : 1u);
    EXPECT_TRUE(Threads.count(std::this_thread::get_id()));
  }
  std::vector<double> Got = download(A);
  EXPECT_EQ(std::memcmp(Got.data(), Ref.data(), N * sizeof(double)), 0);
}

// The only accelerator HETERO_MEMBERS lists runs a splittable kernel as one
// chunk, in place: started from the launching thread where it queues
// kernels (a hand-over to its worker cost 20-60 us a launch), handed to its
// worker where it does not; not a split for the statistics, and the same
// answers.
TEST_F(EngineFixture, TheOnlyAcceleratorOfferedRunsOneChunkInPlace) {
  KernelDescriptor D = parseDescriptor(StencilDesc);
  KernelTraits K = traits(D);
  Back.Kernel = stencil();
  Config.MembersListed = true;
  Config.Members = {{"sim:0", -1}};
  std::vector<double> Ref = initial(N), RefB = Ref;
  void *A = upload(Ref), *B = upload(Ref);
  for (bool Queues : {true, false}) {
    Back.Queues = {Queues, Queues, false};
    int Started = Back.Started, Ran = Back.Ran;
    ASSERT_TRUE(E.launch(request(K, A, B)));
    EXPECT_FALSE(E.lastLaunch().Split);
    EXPECT_EQ(E.lastLaunch().Reason, "one member, one chunk");
    EXPECT_EQ(Back.Started - Started, Queues ? 1 : 0);
    EXPECT_EQ(Back.Ran - Ran, Queues ? 0 : 1);
    ASSERT_EQ(E.lastLaunch().Members.size(), 1u);
    EXPECT_EQ(E.lastLaunch().Members[0].first, "sim:0");
    stencilStep(Ref, RefB);
    std::swap(Ref, RefB);
    std::swap(A, B);
  }
  std::vector<double> Got = download(A);
  EXPECT_EQ(std::memcmp(Got.data(), Ref.data(), N * sizeof(double)), 0);
}

TEST_F(EngineFixture, AMembersChunksNeverRunAtOnce) {
  KernelDescriptor D = parseDescriptor(StencilDesc);
  KernelTraits K = traits(D);
  Back.Kernel = stencil();
  Config.Chunks = 3;
  std::vector<double> Ref = initial(N), RefB = Ref;
  void *A = upload(Ref), *B = upload(Ref);
  Back.Queues = {true, true, true};
  for (int It = 0; It < 3; ++It) {
    ASSERT_TRUE(E.launch(request(K, A, B)));
    ASSERT_TRUE(E.lastLaunch().Split) << E.lastLaunch().Reason;
    stencilStep(Ref, RefB);
    std::swap(Ref, RefB);
    std::swap(A, B);
  }
  EXPECT_EQ(Back.Started, 27); // 3 members x 3 chunks x 3 launches
  EXPECT_FALSE(Back.Overlapped);
  std::vector<double> Got = download(A);
  EXPECT_EQ(std::memcmp(Got.data(), Ref.data(), N * sizeof(double)), 0);
}

// A started chunk whose kernel fails (seen when it is waited for) makes its
// member leave, and its chunks run elsewhere, as a failed run() does.
TEST_F(EngineFixture, FailedStartedChunksRunElsewhere) {
  KernelDescriptor D = parseDescriptor(StencilDesc);
  KernelTraits K = traits(D);
  Back.Queues = {true, true, true};
  std::vector<double> Ref = initial(N), RefB = Ref;
  void *A = upload(Ref), *B = upload(Ref);
  Back.Kernel = stencil();
  ASSERT_TRUE(E.launch(request(K, A, B)));
  stencilStep(Ref, RefB);
  std::vector<size_t> Fail{0};
  Back.Kernel = stencil(&Fail);
  ASSERT_TRUE(E.launch(request(K, B, A)));
  EXPECT_TRUE(E.pool()[0].Failed);
  stencilStep(RefB, Ref);
  std::vector<double> Got = download(A);
  EXPECT_EQ(std::memcmp(Got.data(), Ref.data(), N * sizeof(double)), 0);
}

// A launch that cannot be split runs whole, on one member, through the same
// path: here the first simulated accelerator.
TEST_F(EngineFixture, UnsafePlansRunWholeAndChangeNothingFirst) {
  std::vector<double> V = initial(N);
  void *A = upload(V), *B = upload(V);
  struct Case {
    const char *Desc;
    uint64_t TripCount;
    const char *Reason;
  } Cases[] = {
      // libomptarget's trip count disagrees with the descriptor.
      {"hetero-kernel 1\nsplit yes\nnest 1\nloop 0 0 lt 3000 1\n"
       "write 8 (arg 1) (* (c 0) 8)\n",
       2999, "trip count"},
      // Writes past the end of the mapped buffer.
      {"hetero-kernel 1\nsplit yes\nnest 1\nloop 0 0 lt 3002 1\n"
       "write 8 (arg 1) (* (c 0) 8)\n",
       0,
       "access 0 writes bytes [16008, 24016) of a 24008-byte buffer: "
       "outside what is mapped"},
      // Reads before the start of the mapped buffer (a[i - 1] from i = 0).
      {"hetero-kernel 1\nsplit yes\nnest 1\nloop 0 0 lt 3000 1\n"
       "read 8 (arg 0) (* (- (c 0) 1) 8)\nwrite 8 (arg 1) (* (c 0) 8)\n",
       0, "access 0 reads bytes [-8, "},
      {"hetero-kernel 1\nsplit no atomic update of mapped memory\n", 0,
       "atomic"},
  };
  for (const Case &C : Cases) {
    KernelDescriptor D = parseDescriptor(C.Desc);
    KernelTraits K = traits(D);
    LaunchRequest R = request(K, A, B);
    R.TripCount = C.TripCount;
    std::vector<size_t> Ran;
    Back.Total = 3000;
    Back.Kernel = [&](size_t M, uint64_t Lo, uint64_t Hi,
                      const std::vector<uintptr_t> &) {
      EXPECT_EQ(Lo, 0u);
      EXPECT_EQ(Hi, 3000u);
      Ran.push_back(M);
      return true;
    };
    ASSERT_TRUE(E.launch(R));
    EXPECT_FALSE(E.lastLaunch().Split);
    EXPECT_NE(E.lastLaunch().Reason.find(C.Reason), std::string::npos)
        << E.lastLaunch().Reason;
    EXPECT_EQ(Ran, std::vector<size_t>{0}); // whole, on sim:0
  }
  EXPECT_EQ(download(B), V);
}

// Each iteration writes 16 bytes at a stride of 8: neighbouring chunks'
// writes overlap by 8 bytes.
const char *const OverlapDesc = "hetero-kernel 1\nsplit yes\nnest 1\n"
                                "loop 0 0 lt 3000 1\n"
                                "write 16 (arg 1) (* (c 0) 8)\n";

// With HETERO_CHUNKS over 1, each member's several chunks still run one
// after another, each as one piece: cut further, a piece's writes would
// overlap its neighbour's and the launch stopped half run (fuzz seed 7019:
// "4 of its 8 chunks in order ran, then: the chunks' writes overlap").
TEST_F(EngineFixture, OverlappingWritesInOrderKeepEachChunkWhole) {
  std::vector<double> V = initial(N);
  void *A = upload(V), *B = upload(V);
  KernelDescriptor D = parseDescriptor(OverlapDesc);
  KernelTraits K = traits(D);
  Config.Chunks = 2;
  std::vector<std::pair<uint64_t, uint64_t>> Ran;
  Back.Total = 3000;
  Back.Kernel = [&](size_t, uint64_t Lo, uint64_t Hi,
                    const std::vector<uintptr_t> &) {
    Ran.emplace_back(Lo, Hi);
    return true;
  };
  ASSERT_TRUE(E.launch(request(K, A, B)));
  EXPECT_TRUE(E.lastLaunch().Split) << E.lastLaunch().Reason;
  EXPECT_TRUE(E.lastLaunch().InOrder);
  ASSERT_GT(Ran.size(), 3u); // more chunks than members
  for (size_t I = 0; I < Ran.size(); ++I)
    EXPECT_EQ(Ran[I].first, I ? Ran[I - 1].second : 0u);
  EXPECT_EQ(Ran.back().second, 3000u);
}

// A kernel whose chunks' writes overlap a little (each iteration writes 16
// bytes at a stride of 8) runs its chunks one after another, in iteration
// order, each on its member (Engine::launchInOrder); under
// HETERO_CUTS=shares, with a reduction, or when the chunks all write the
// same bytes, it runs whole.
TEST_F(EngineFixture, OverlappingWritesRunTheirChunksInOrder) {
  std::vector<double> V = initial(N);
  void *A = upload(V), *B = upload(V);
  KernelDescriptor D = parseDescriptor(OverlapDesc);
  KernelTraits K = traits(D);
  std::vector<std::tuple<size_t, uint64_t, uint64_t>> Ran;
  Back.Total = 3000;
  Back.Kernel = [&](size_t M, uint64_t Lo, uint64_t Hi,
                    const std::vector<uintptr_t> &) {
    Ran.emplace_back(M, Lo, Hi);
    return true;
  };
  ASSERT_TRUE(E.launch(request(K, A, B)));
  EXPECT_TRUE(E.lastLaunch().Split);
  EXPECT_TRUE(E.lastLaunch().InOrder);
  ASSERT_GE(Ran.size(), 2u);
  for (size_t I = 0; I < Ran.size(); ++I) {
    EXPECT_EQ(std::get<1>(Ran[I]), I ? std::get<2>(Ran[I - 1]) : 0u);
    EXPECT_LT(std::get<1>(Ran[I]), std::get<2>(Ran[I]));
    if (I)
      EXPECT_NE(std::get<0>(Ran[I]), std::get<0>(Ran[I - 1]));
  }
  EXPECT_EQ(std::get<2>(Ran.back()), 3000u);

  auto RunsWhole = [&](const KernelTraits &T, const char *Why) {
    Ran.clear();
    ASSERT_TRUE(E.launch(request(T, A, B)));
    EXPECT_FALSE(E.lastLaunch().Split) << Why;
    EXPECT_FALSE(E.lastLaunch().InOrder) << Why;
    EXPECT_NE(E.lastLaunch().Reason.find("overlap"), std::string::npos)
        << E.lastLaunch().Reason;
    ASSERT_EQ(Ran.size(), 1u) << Why;
    EXPECT_EQ(std::get<1>(Ran[0]), 0u);
    EXPECT_EQ(std::get<2>(Ran[0]), 3000u);
  };
  Config.OwnerCuts = false;
  RunsWhole(K, "HETERO_CUTS=shares");
  Config.OwnerCuts = true;
  // Every iteration writes the same 8 bytes (a flag): each chunk would have
  // to hold them in turn.
  KernelDescriptor Flag =
      parseDescriptor("hetero-kernel 1\nsplit yes\nnest 1\n"
                      "loop 0 0 lt 3000 1\nwrite 8 (arg 1) 0\n");
  RunsWhole(traits(Flag), "a flag all chunks write");
  Config.OwnerCuts = true;
  KernelDescriptor WithSum =
      parseDescriptor((std::string(OverlapDesc) + "reduce 0 + f64\n").c_str());
  RunsWhole(traits(WithSum), "a reduction");
}

TEST_F(EngineFixture, EmptyLoopRunsNothing) {
  KernelDescriptor D = parseDescriptor(StencilDesc);
  KernelTraits K = traits(D);
  std::vector<double> V = initial(N);
  void *A = upload(V), *B = upload(V);
  LaunchRequest R = request(K, A, B);
  R.Args[2] = 1;                           // n = 1: no interior point
  R.TripCount = static_cast<uint32_t>(-1); // libomptarget's count of it
  Back.Kernel = [](size_t, uint64_t, uint64_t, const std::vector<uintptr_t> &) {
    ADD_FAILURE() << "an empty loop ran a chunk";
    return false;
  };
  EXPECT_TRUE(E.launch(R));
}

// Sections found through memory (a gather's indices) hold only for what the
// memory held: a launch after the indices changed resolves them again. Were
// the first launch's sections reused, sim:0 would read the second third of
// a, which it never received.
// Sections bounded by memory (the inspector's least and greatest index)
// are kept while that memory is unwritten, and found again once written.
TEST_F(EngineFixture, SectionsFoundThroughMemoryFollowItsWrites) {
  // b[i] = a[idx[i]] for i in [0, n); args: a, b, n, idx (32-bit indices).
  KernelDescriptor D = parseDescriptor(
      "hetero-kernel 1\nsplit yes\nnest 1\n"
      "loop 0 0 lt (sarg 2 4 1) 1\n"
      "read 4 (arg 3) (* (c 0) 4)\n"
      "read 8 (arg 0) (* (load (+ (arg 3) (* (c 0) 4)) 4 1) 8)\n"
      "write 8 (arg 1) (* (c 0) 8)\n");
  KernelTraits K = traits(D);
  L.setScanMode(DataLayer::ScanMode::Sync); // each chunk's third of a
  Back.Kernel = [](size_t, uint64_t Lo, uint64_t Hi,
                   const std::vector<uintptr_t> &Args) {
    auto *A = reinterpret_cast<const double *>(Args[0]);
    auto *B = reinterpret_cast<double *>(Args[1]);
    auto *Idx = reinterpret_cast<const int32_t *>(Args[3]);
    for (uint64_t I = Lo; I < Hi; ++I)
      B[I] = A[Idx[I]];
    return true;
  };
  std::vector<double> V = initial(N);
  void *A = upload(V), *B = upload(std::vector<double>(N));
  std::vector<int32_t> Idx(N);
  void *IdxBuf = L.allocate(N * sizeof(int32_t));
  LaunchRequest R = request(K, A, B);
  R.Args.push_back(reinterpret_cast<uintptr_t>(IdxBuf));
  R.Offsets.push_back(0);
  // Pass 1 repeats pass 0 with the indices unwritten (the cached sections).
  for (int Pass = 0; Pass < 3; ++Pass) {
    bool Reversed = Pass == 2;
    for (int I = 0; I < N; ++I)
      Idx[I] = Reversed ? N - 1 - I : I;
    if (Pass != 1)
      ASSERT_TRUE(L.write(IdxBuf, Idx.data(), N * sizeof(int32_t)).ok());
    ASSERT_TRUE(E.launch(R));
    ASSERT_TRUE(E.lastLaunch().Split) << E.lastLaunch().Reason;
    EXPECT_GT(iterationsOf("sim:0"), 0u);
    std::vector<double> Got = download(B);
    for (int I = 0; I < N; ++I)
      ASSERT_EQ(Got[I], V[Idx[I]]) << "pass " << Pass << ", b[" << I << "]";
  }
  EXPECT_TRUE(L.release(A).ok());
  EXPECT_TRUE(L.release(B).ok());
  EXPECT_TRUE(L.release(IdxBuf).ok());
}

// A whole launch whose member fails runs again on the next member; one whose
// member held the only copy of what it updated cannot.
TEST_F(EngineFixture, WholeLaunchesRecoverOnceLikeSplitOnes) {
  KernelDescriptor D = parseDescriptor("hetero-kernel 1\nsplit no calls 'f'\n");
  KernelTraits K = traits(D);
  std::vector<double> V = initial(N);
  void *A = upload(V), *B = upload(V);
  Back.Total = N - 2;
  std::vector<size_t> Fail{0};
  Back.Kernel = stencil(&Fail);
  LaunchRequest R = request(K, A, B);
  R.TripCount = N - 2;
  ASSERT_TRUE(E.launch(R));
  EXPECT_TRUE(E.pool()[0].Failed);
  EXPECT_GT(iterationsOf("sim:1"), 0u);
  // sim:1 now holds the only copy of b; it fails too: that launch fails.
  Fail = {1};
  EXPECT_FALSE(E.launch(request(K, B, B)));
  EXPECT_TRUE(E.pool()[1].Failed);
}

// Two "GPUs" with private memories and the CPU pool, over which a kernel
// that the GPUs' image faults on runs whole; the data it touches is valid on
// the host (HETERO_HOST_COPY), so it can run again elsewhere. Set up P, then
// start() the engine.
struct GpuFaultRig {
  Settings Config = [] {
    Settings S;
    S.HostCopy = true;
    return S;
  }();
  DataLayer L;
  Pool P = makePool(L.addNode(std::make_unique<SimulatedNodeOps>(0)),
                    L.addNode(std::make_unique<SimulatedNodeOps>(1)));
  TestBackend Back;
  std::vector<size_t> Ran; // members, in the order chunks ran on them
  KernelDescriptor D;
  KernelTraits K;
  LaunchRequest R;
  std::unique_ptr<Engine> E;

  GpuFaultRig() {
    P[0].Kind = P[1].Kind = MemberKind::Gpu;
    Back.Kernel = [this](size_t M, uint64_t, uint64_t,
                         const std::vector<uintptr_t> &) {
      Ran.push_back(M);
      return M == 2; // the GPUs' image faults
    };
    std::string Err;
    EXPECT_TRUE(KernelDescriptor::parse("hetero-kernel 1\nsplit no calls 'f'\n",
                                        D, Err));
    K.Name = "k";
    K.Desc = &D;
    K.Loaded.assign(3, true);
    K.Windowed.assign(3, false);
  }
  void start() {
    E = std::make_unique<Engine>(Config, L, P, Back, runConcurrently);
    void *A = L.allocate(64);
    char Zeros[64] = {};
    ASSERT_TRUE(L.write(A, Zeros, sizeof(Zeros)).ok()); // valid on the host
    R.Kernel = &K;
    R.Args = {reinterpret_cast<uintptr_t>(A)};
    R.Offsets = {0};
  }
};

// A kernel that fails on one GPU runs again on a member with another image
// (a CPU-side one) before the next GPU: a fault of the kernel's NVPTX code
// would take that GPU out too.
TEST(EngineRecovery, FailedGpuChunksGoToTheOtherKindFirst) {
  GpuFaultRig G;
  G.start();
  ASSERT_TRUE(G.E->launch(G.R));
  EXPECT_EQ(G.Ran, (std::vector<size_t>{0, 2}));
  EXPECT_TRUE(G.E->pool()[0].Failed);
  EXPECT_FALSE(G.E->pool()[1].Failed);
}

// Two parts of one GPU (HETERO_GPU_SPLIT): a kernel fault leaves the CUDA
// context unusable, so the part that did not fault leaves with the one that
// did, and the chunk runs again on the CPU side.
TEST(EngineRecovery, PartsOfAFaultedGpuLeaveTogether) {
  GpuFaultRig G;
  for (int I : {0, 1}) {
    G.P[I].Index = I;
    G.P[I].Device = 0;
    G.P[I].Part = I;
  }
  EXPECT_EQ(G.P[1].name(), "cuda:0.1");
  G.start();
  ASSERT_TRUE(G.E->launch(G.R));
  EXPECT_EQ(G.Ran, (std::vector<size_t>{0, 2}));
  EXPECT_TRUE(G.E->pool()[0].Failed);
  EXPECT_TRUE(G.E->pool()[1].Failed);
  G.Ran.clear();
  ASSERT_TRUE(G.E->launch(G.R)); // later launches run on the CPU side only
  EXPECT_EQ(G.Ran, (std::vector<size_t>{2}));
}

TEST(EngineNoRoom, MemberWithoutRoomIsLeftOut) {
  Settings Config;
  Config.FixedShares = true; // measured shares probe the accelerators first
  DataLayer L;
  // sim:0 holds 1 KiB: not even one of the two 24 KiB buffers fits.
  NodeId S0 = L.addNode(std::make_unique<SimulatedNodeOps>(0, 1024));
  NodeId S1 = L.addNode(std::make_unique<SimulatedNodeOps>(1));
  TestBackend Back;
  Back.Kernel = stencil();
  Engine E(Config, L, makePool(S0, S1), Back, runConcurrently);
  const int N = 3001;
  KernelDescriptor D = parseDescriptor(StencilDesc);
  KernelTraits K;
  K.Name = "stencil";
  K.Desc = &D;
  K.Loaded.assign(3, true);
  K.Windowed.assign(3, true);
  std::vector<double> V = initial(N), Ref = V;
  void *A = L.allocate(N * sizeof(double)), *B = L.allocate(N * sizeof(double));
  ASSERT_TRUE(L.write(A, V.data(), N * sizeof(double)).ok());
  ASSERT_TRUE(L.write(B, V.data(), N * sizeof(double)).ok());
  LaunchRequest R;
  R.Kernel = &K;
  R.Args = {reinterpret_cast<uintptr_t>(A), reinterpret_cast<uintptr_t>(B),
            static_cast<uintptr_t>(N)};
  R.Offsets = {0, 0, 0};
  ASSERT_TRUE(E.launch(R));
  ASSERT_TRUE(E.lastLaunch().Split) << E.lastLaunch().Reason;
  uint64_t Sim0 = 0, Others = 0;
  for (const auto &[Name, U] : E.lastLaunch().Members)
    (Name == "sim:0" ? Sim0 : Others) += U.Iterations;
  EXPECT_EQ(Sim0, 0u);
  EXPECT_EQ(Others, uint64_t(N - 2));
  for (int I = 1; I < N - 1; ++I)
    Ref[I] = (V[I - 1] + V[I] + V[I + 1]) / 3.0;
  std::vector<double> Got(N);
  ASSERT_TRUE(L.read(Got.data(), B, N * sizeof(double)).ok());
  EXPECT_EQ(std::memcmp(Got.data(), Ref.data(), N * sizeof(double)), 0);
}

namespace {

/// The stencil over N doubles on the default engine (measured shares,
/// map-time writes home) of two simulated accelerators and the CPU pool,
/// launched back and forth between A and B beside its serial reference.
struct DefaultsStencil {
  static constexpr int N = 20001;
  static constexpr uint64_t Bytes = N * sizeof(double);
  Settings Config; // the engine keeps a reference
  DataLayer L;
  NodeId S0 = L.addNode(std::make_unique<SimulatedNodeOps>(0));
  NodeId S1;
  TestBackend Back;
  Engine E;
  KernelDescriptor D = parseDescriptor(StencilDesc);
  KernelTraits K;
  std::vector<double> Ref = initial(N), RefB = Ref;
  void *A = nullptr, *B = nullptr;

  /// S1Capacity: the bytes sim:1 holds (0: unbounded).
  explicit DefaultsStencil(const Settings &Given, size_t S1Capacity = 0)
      : Config(Given),
        S1(L.addNode(std::make_unique<SimulatedNodeOps>(1, S1Capacity))),
        E(Config, L, makePool(S0, S1), Back, runConcurrently) {
    Back.Kernel = stencil();
    Back.Total = N - 2; // a whole launch runs every iteration
    K.Name = "stencil";
    K.Desc = &D;
    K.Loaded.assign(3, true);
    K.Windowed.assign(3, true);
    A = L.allocate(Bytes);
    B = L.allocate(Bytes);
  }
  bool upload() {
    return L.write(A, Ref.data(), Bytes) && L.write(B, Ref.data(), Bytes);
  }
  bool launch() {
    LaunchRequest R;
    R.Kernel = &K;
    R.Args = {reinterpret_cast<uintptr_t>(A), reinterpret_cast<uintptr_t>(B),
              static_cast<uintptr_t>(N)};
    R.Offsets = {0, 0, 0};
    R.TripCount = N - 2;
    bool Ok = E.launch(R);
    stencilStep(Ref, RefB);
    std::swap(Ref, RefB);
    std::swap(A, B);
    return Ok;
  }
  uint64_t iterationsOf(const std::string &Member) {
    return iterationsIn(E.lastLaunch(), Member);
  }
  /// Whether the last result is the serial one, bit for bit.
  bool serialAnswers() {
    std::vector<double> Got(N);
    return L.read(Got.data(), A, Bytes) &&
           std::memcmp(Got.data(), Ref.data(), Bytes) == 0;
  }
  ~DefaultsStencil() {
    EXPECT_TRUE(L.release(A));
    EXPECT_TRUE(L.release(B));
  }
};

} // namespace

/// Settings whose shares file (of an earlier run) has the share model run
/// DefaultsStencil's kernel on sim:1 alone.
Settings choosingSim1() {
  Settings Config;
  Config.SharesFile = ::testing::TempDir() + "hetero-engine-one-shares.txt";
  std::ofstream Out(Config.SharesFile, std::ios::trunc);
  Out << "sim:0,sim:1,cpu|" << Engine::sharesScope(Config) << "\t"
      << ShareModel::key("stencil", DefaultsStencil::N - 2)
      << "\tsim:0,sim:1,cpu\tsim:1=1\tsettled-one[one=1ms,spread=2ms]\n";
  return Config;
}

// A member the share model chose alone without room for the launch's data:
// the launch runs whole on another member, with the serial answers.
TEST(EngineDefaults, AChosenMemberWithoutRoomLeavesTheLaunchToTheOthers) {
  Settings Config = choosingSim1();
  DefaultsStencil T(Config, /*S1Capacity=*/1024);
  ASSERT_TRUE(T.upload());
  ASSERT_TRUE(T.launch());
  EXPECT_EQ(T.iterationsOf("sim:1"), 0u);
  EXPECT_EQ(T.iterationsOf("sim:0") + T.iterationsOf("cpu"), uint64_t(T.N - 2))
      << T.E.lastLaunch().Reason;
  EXPECT_TRUE(T.serialAnswers());
  std::remove(Config.SharesFile.c_str());
}

// A member the share model chose alone (here read from an earlier run's
// shares file, ShareModel.h) runs the launch as one chunk. When it fails,
// the members it was chosen from take the chunk: the launch succeeds, and
// the answers are the serial ones.
TEST(EngineDefaults, AChosenMemberThatFailsLeavesItsChunkToTheOthers) {
  Settings Config = choosingSim1();
  DefaultsStencil T(Config);
  ASSERT_TRUE(T.upload());
  ASSERT_TRUE(T.launch());
  const KernelStats::Launch &Last = T.E.lastLaunch();
  EXPECT_TRUE(Last.Split) << Last.Reason;
  EXPECT_EQ(Last.Shares.rfind("persisted-settled-one", 0), 0u) << Last.Shares;
  EXPECT_EQ(Last.Alone, "sim:1");
  ASSERT_EQ(Last.Members.size(), 1u);
  EXPECT_EQ(T.iterationsOf("sim:1"), uint64_t(T.N - 2));
  std::vector<size_t> Fail{1};
  T.Back.Kernel = stencil(&Fail);
  ASSERT_TRUE(T.launch());
  EXPECT_TRUE(T.E.pool()[1].Failed);
  EXPECT_EQ(T.iterationsOf("sim:0") + T.iterationsOf("cpu"), uint64_t(T.N - 2));
  EXPECT_TRUE(T.serialAnswers());
  std::remove(Config.SharesFile.c_str());
}

// Shares persisted by a run under other plan settings (here another
// HETERO_CHUNKS) are not taken: the launch measures again.
TEST(EngineDefaults, SharesOfARunUnderOtherSettingsAreNotTaken) {
  Settings Config = choosingSim1();
  Config.Chunks = 4;
  DefaultsStencil T(Config);
  ASSERT_TRUE(T.upload());
  ASSERT_TRUE(T.launch());
  const KernelStats::Launch &Last = T.E.lastLaunch();
  EXPECT_EQ(Last.Shares.find("persisted"), std::string::npos) << Last.Shares;
  EXPECT_TRUE(Last.Alone.empty());
  EXPECT_TRUE(T.serialAnswers());
  std::remove(Config.SharesFile.c_str());
}

// The defaults: map-time writes go to the home node (sim:0) and shares
// follow measured speed, so chunk boundaries move during the first launches
// and the CPU pool may be left out. Answers stay bit for bit the serial
// ones through every phase.
TEST(EngineDefaults, MeasuredSharesAndMapTimeWritesKeepAnswers) {
  DefaultsStencil T{Settings()};
  EXPECT_EQ(T.L.homeNode(), T.S0);
  ASSERT_TRUE(T.upload());
  EXPECT_TRUE(T.L.validOn(HostNode, reinterpret_cast<BufferId>(T.A)).empty());
  for (int It = 0; It < 12; ++It)
    ASSERT_TRUE(T.launch());
  EXPECT_TRUE(T.serialAnswers());
}

TEST(ChunkPlan, ChunksCoverTheSpaceAndNeverGoBelowTheMinimum) {
  for (uint64_t Total : {1ull, 7ull, 1000ull, 100000ull, 1ull << 40}) {
    for (unsigned Per : {1u, 3u, 256u}) {
      for (uint64_t Min : {1ull, 1024ull}) {
        std::vector<ChunkSpec> C =
            splitIterations(Total, {32, 1, 1, 0.5}, Per, Min);
        uint64_t Next = 0;
        std::map<size_t, unsigned> PerMember;
        for (const ChunkSpec &S : C) {
          EXPECT_EQ(S.Lo, Next);
          EXPECT_LT(S.Lo, S.Hi);
          Next = S.Hi;
          ++PerMember[S.Member];
        }
        EXPECT_EQ(Next, Total);
        for (auto [M, N] : PerMember) {
          EXPECT_LE(N, Per);
          uint64_t Share = 0;
          for (const ChunkSpec &S : C)
            if (S.Member == M)
              Share += S.Hi - S.Lo;
          // Cut finer only where every piece keeps Min iterations.
          if (N > 1)
            EXPECT_GE(Share / N, Min) << Total << " " << Per << " " << Min;
        }
      }
    }
  }
  // 100k iterations, 256 chunks per member asked, 1024 at least each.
  std::vector<ChunkSpec> C = splitIterations(100000, {1, 1, 1, 1}, 256, 1024);
  EXPECT_EQ(C.size(), 4u * 24);
}

// A collapsed nest is cut at whole rows where every chunk keeps a few of
// them: the boundaries are multiples of the row's iterations, and a
// boundary that owner alignment put a column or two off a row goes back.
TEST(ChunkPlan, CollapsedNestsAreCutAtWholeRows) {
  // 241 rows of 498: rows are the grain for up to 60 chunks.
  EXPECT_EQ(rowGrain({241, 498}, 3), 498u);
  EXPECT_EQ(rowGrain({241, 498}, 61), 1u);
  EXPECT_EQ(rowGrain({2, 3998}, 4), 1u);     // a halo update over its depth
  EXPECT_EQ(rowGrain({2, 100, 50}, 4), 50u); // then the inner rows
  EXPECT_EQ(rowGrain({1000}, 4), 1u);
  for (uint64_t Grain : {1ull, 498ull}) {
    std::vector<ChunkSpec> C =
        splitIterations(241 * 498, {1, 1, 1}, 2, 16, Grain);
    ASSERT_EQ(C.size(), 6u);
    uint64_t Next = 0;
    for (const ChunkSpec &S : C) {
      EXPECT_EQ(S.Lo, Next);
      EXPECT_EQ(S.Lo % Grain, 0u) << Grain;
      Next = S.Hi;
    }
    EXPECT_EQ(Next, 241u * 498);
  }
  // Equal thirds of 241 rows: 80, 81 and 80 (the cumulative shares, 80.3
  // and 160.7 rows, round to the nearest row).
  std::vector<ChunkSpec> Thirds =
      splitIterations(241 * 498, {1, 1, 1}, 1, 16, 498);
  EXPECT_EQ(Thirds, (std::vector<ChunkSpec>{{0, 0, 80 * 498},
                                            {1, 80 * 498, 161 * 498},
                                            {2, 161 * 498, 241 * 498}}));
  // Aligned two iterations before a row, and one after: snapped back.
  std::vector<ChunkSpec> Off = {{0, 0, 80 * 498 - 2},
                                {1, 80 * 498 - 2, 161 * 498 + 1},
                                {2, 161 * 498 + 1, 241 * 498}};
  snapBoundaries(Off, 498);
  EXPECT_EQ(Off, Thirds);
  // A chunk that snapping would empty keeps its boundary.
  std::vector<ChunkSpec> Thin = {{0, 0, 100}, {1, 100, 300}, {2, 300, 1000}};
  snapBoundaries(Thin, 498);
  EXPECT_EQ(Thin, (std::vector<ChunkSpec>{
                      {0, 0, 100}, {1, 100, 498}, {2, 498, 1000}}));
}

// A member whose chunks' data cannot be made valid for a reason other than
// room (a copy that failed) leaves the launch too, and the warning says
// what happened, not "no room"; the others take its iterations.
TEST_F(EngineFixture, AMemberWhoseCopiesFailLeavesTheLaunchSayingWhy) {
  KernelDescriptor D = parseDescriptor(StencilDesc);
  KernelTraits K = traits(D);
  Back.Kernel = stencil();
  std::vector<double> Ref = initial(N), Out = Ref;
  void *A = upload(Ref), *B = upload(Ref);
  Node1->Fail = true;
  ::testing::internal::CaptureStderr();
  ASSERT_TRUE(E.launch(request(K, A, B)));
  std::string Said = ::testing::internal::GetCapturedStderr();
  EXPECT_NE(Said.find("sim:1 could not take its chunks' data (a copy"),
            std::string::npos)
      << Said;
  // In the node's own words, under the data layer's.
  EXPECT_NE(Said.find("failed: the test's link is down"), std::string::npos)
      << Said;
  EXPECT_EQ(Said.find("no room"), std::string::npos) << Said;
  EXPECT_TRUE(E.lastLaunch().Split) << E.lastLaunch().Reason;
  EXPECT_EQ(iterationsOf("sim:1"), 0u);
  stencilStep(Ref, Out);
  EXPECT_EQ(download(B), Out);
  Node1->Fail = false;
  EXPECT_TRUE(L.release(A).ok());
  EXPECT_TRUE(L.release(B).ok());
}

//===- SplitLaunchTest.cpp - Split launches over simulated memories -------===//
//
// The split engine with real data-layer coherence: two simulated
// accelerators (private memories) and the host take chunks of a "kernel"
// that the test runs itself on each node's copies, through the arguments the
// engine translated for that node. Results must equal a serial run bit for
// bit, and the bytes moved must be exactly the halos.
//
//===----------------------------------------------------------------------===//
#include "hetero/SplitLaunch.h"
#include "hetero/ChunkPlan.h"
#include "hetero/DataLayer.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstring>
#include <map>
#include <mutex>
#include <thread>
#include <vector>

using namespace hetero;

namespace {

// b[i] = (a[i-1] + a[i] + a[i+1]) / 3 for i in [1, n-1); args: a, b, n.
const char *StencilDesc = "hetero-kernel 1\n"
                          "split yes\n"
                          "nest 1\n"
                          "loop 0 1 lt (- (sarg 2 4 1) 1) 1\n"
                          "read 8 (arg 0) (* (- (c 0) 1) 8)\n"
                          "read 8 (arg 0) (* (c 0) 8)\n"
                          "read 8 (arg 0) (* (+ (c 0) 1) 8)\n"
                          "write 8 (arg 1) (* (c 0) 8)\n";

// s += a[i] for i in [0, n); args: a, &s, n.
const char *SumDesc = "hetero-kernel 1\n"
                      "split yes\n"
                      "nest 1\n"
                      "loop 0 0 lt (sarg 2 4 1) 1\n"
                      "read 8 (arg 0) (* (c 0) 8)\n"
                      "reduce 1 + f64\n";

KernelDescriptor parse(const char *Text) {
  KernelDescriptor D;
  std::string Err;
  EXPECT_TRUE(KernelDescriptor::parse(Text, D, Err)) << Err;
  return D;
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

struct SplitFixture : ::testing::Test {
  DataLayer L;
  NodeId S0 = L.addNode(std::make_unique<SimulatedNodeOps>(0));
  NodeId S1 = L.addNode(std::make_unique<SimulatedNodeOps>(1));
  std::vector<SplitMember> Members{
      {S0, 0, 1, "sim:0"}, {S1, 1, 1, "sim:1"}, {HostNode, 2, 1, "cpu"}};
  const int N = 3001;

  void *upload(const std::vector<double> &V) {
    void *P = L.allocate(V.size() * sizeof(double));
    EXPECT_TRUE(L.write(P, V.data(), V.size() * sizeof(double)));
    return P;
  }
  std::vector<double> download(void *P) {
    std::vector<double> V(N);
    EXPECT_TRUE(L.read(V.data(), P, N * sizeof(double)));
    return V;
  }
  SplitLaunchInput input(const KernelDescriptor &D, void *A, void *B) {
    SplitLaunchInput In;
    In.Desc = &D;
    In.Args = {reinterpret_cast<uintptr_t>(A), reinterpret_cast<uintptr_t>(B),
               static_cast<uintptr_t>(N)};
    In.Offsets = {0, 0, 0};
    return In;
  }
};

std::vector<double> initial(int N) {
  std::vector<double> V(N);
  for (int I = 0; I < N; ++I)
    V[I] = (I * 37 % 101) / 7.0;
  return V;
}

/// The stencil on one node: NodeArgs point into that node's copies.
ChunkLauncher stencil(std::vector<size_t> *Fail = nullptr) {
  return
      [Fail](size_t M, uint64_t Lo, uint64_t Hi, std::vector<uintptr_t> &Args) {
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

TEST_F(SplitFixture, StencilChainMatchesSerialAndMovesOnlyHalos) {
  KernelDescriptor D = parse(StencilDesc);
  std::vector<double> Ref = initial(N), RefB = Ref;
  void *A = upload(Ref), *B = upload(Ref);
  const int Iters = 6;
  uint64_t H2DAfterFirst = 0, D2DAfterFirst = 0, D2HAfterFirst = 0;
  for (int It = 0; It < Iters; ++It) {
    SplitLaunchInput In = input(D, A, B);
    SplitResult R = launchSplit(L, In, Members, stencil(), runConcurrently);
    ASSERT_EQ(R.Outcome, SplitOutcome::Done) << R.Reason;
    uint64_t Iterations = 0;
    for (const MemberUsage &U : R.Usage) {
      EXPECT_GT(U.Iterations, 0u); // every member took a chunk
      Iterations += U.Iterations;
    }
    EXPECT_EQ(Iterations, uint64_t(N - 2));
    for (int I = 1; I < N - 1; ++I)
      RefB[I] = (Ref[I - 1] + Ref[I] + Ref[I + 1]) / 3.0;
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
  L.release(A);
  L.release(B);
}

TEST_F(SplitFixture, ReductionCombinesChunkPartialsInOrder) {
  KernelDescriptor D = parse(SumDesc);
  std::vector<double> V = initial(N);
  void *A = upload(V);
  double Start = 0.125;
  void *S = upload({Start});
  SplitLaunchInput In = input(D, A, S);
  In.ChunksPerMember = 3;
  // Each chunk adds its iterations, in order, into its private copy.
  std::vector<std::pair<uint64_t, uint64_t>> Windows;
  std::mutex WindowsMutex;
  auto Sum = [&](size_t, uint64_t Lo, uint64_t Hi,
                 std::vector<uintptr_t> &Args) {
    auto *X = reinterpret_cast<const double *>(Args[0]);
    auto *Acc = reinterpret_cast<double *>(Args[1]);
    EXPECT_EQ(*Acc, 0.0); // the identity of +
    for (uint64_t I = Lo; I < Hi; ++I)
      *Acc += X[I];
    std::lock_guard<std::mutex> Lock(WindowsMutex);
    Windows.push_back({Lo, Hi});
    return true;
  };
  SplitResult R = launchSplit(L, In, Members, Sum, runConcurrently);
  ASSERT_EQ(R.Outcome, SplitOutcome::Done) << R.Reason;
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
  ASSERT_TRUE(L.read(&Got, S, sizeof(Got)));
  EXPECT_EQ(std::memcmp(&Got, &Want, sizeof(Got)), 0);
}

TEST_F(SplitFixture, FailedMemberChunksRunElsewhere) {
  KernelDescriptor D = parse(StencilDesc);
  std::vector<double> Ref = initial(N), RefB = Ref;
  void *A = upload(Ref), *B = upload(Ref);
  // One good launch: sim:1 holds valid data of its own.
  SplitLaunchInput In = input(D, A, B);
  ASSERT_EQ(launchSplit(L, In, Members, stencil(), runConcurrently).Outcome,
            SplitOutcome::Done);
  for (int I = 1; I < N - 1; ++I)
    RefB[I] = (Ref[I - 1] + Ref[I] + Ref[I + 1]) / 3.0;
  // The next launch (b -> a) fails on sim:1; its chunks go to the cpu.
  std::vector<size_t> Fail{1};
  SplitLaunchInput In2 = input(D, B, A);
  SplitResult R = launchSplit(L, In2, Members, stencil(&Fail), runConcurrently);
  ASSERT_EQ(R.Outcome, SplitOutcome::Done) << R.Reason;
  ASSERT_EQ(R.FailedMembers, std::vector<size_t>{1});
  EXPECT_EQ(R.Usage[1].Iterations, 0u);
  for (int I = 1; I < N - 1; ++I)
    Ref[I] = (RefB[I - 1] + RefB[I] + RefB[I + 1]) / 3.0;
  std::vector<double> Got = download(A);
  EXPECT_EQ(std::memcmp(Got.data(), Ref.data(), N * sizeof(double)), 0);
}

TEST_F(SplitFixture, UnsafePlansRunUnsplitAndChangeNothing) {
  std::vector<double> V = initial(N);
  void *A = upload(V), *B = upload(V);
  auto NeverRuns = [](size_t, uint64_t, uint64_t, std::vector<uintptr_t> &) {
    ADD_FAILURE() << "a refused plan ran a chunk";
    return false;
  };
  struct Case {
    const char *Desc;
    uint64_t TripCount;
    const char *Reason;
  } Cases[] = {
      // Each iteration writes 16 bytes at a stride of 8: chunks overlap.
      {"hetero-kernel 1\nsplit yes\nnest 1\nloop 0 0 lt 3000 1\n"
       "write 16 (arg 1) (* (c 0) 8)\n",
       0, "overlap"},
      // libomptarget's trip count disagrees with the descriptor.
      {"hetero-kernel 1\nsplit yes\nnest 1\nloop 0 0 lt 3000 1\n"
       "write 8 (arg 1) (* (c 0) 8)\n",
       2999, "trip count"},
      // Writes past the end of the mapped buffer.
      {"hetero-kernel 1\nsplit yes\nnest 1\nloop 0 0 lt 3002 1\n"
       "write 8 (arg 1) (* (c 0) 8)\n",
       0,
       "write section [16008, 24016) of a 24008-byte buffer of access 0 "
       "leaves its mapped buffer"},
      // Reads before the start of the mapped buffer (a[i - 1] from i = 0).
      {"hetero-kernel 1\nsplit yes\nnest 1\nloop 0 0 lt 3000 1\n"
       "read 8 (arg 0) (* (- (c 0) 1) 8)\nwrite 8 (arg 1) (* (c 0) 8)\n",
       0, "read section [-8, "},
      {"hetero-kernel 1\nsplit no atomic update of mapped memory\n", 0,
       "atomic"},
  };
  for (const Case &C : Cases) {
    KernelDescriptor D = parse(C.Desc);
    SplitLaunchInput In = input(D, A, B);
    In.TripCount = C.TripCount;
    uint64_t Before = L.stats().BytesH2D + L.stats().BytesD2D;
    SplitResult R = launchSplit(L, In, Members, NeverRuns, runConcurrently);
    EXPECT_EQ(R.Outcome, SplitOutcome::NotSplit);
    EXPECT_NE(R.Reason.find(C.Reason), std::string::npos) << R.Reason;
    EXPECT_EQ(L.stats().BytesH2D + L.stats().BytesD2D, Before);
  }
  EXPECT_EQ(download(B), V);
}

TEST_F(SplitFixture, EmptyLoopRunsNothing) {
  KernelDescriptor D = parse(StencilDesc);
  std::vector<double> V = initial(N);
  void *A = upload(V), *B = upload(V);
  SplitLaunchInput In = input(D, A, B);
  In.Args[2] = 1;                           // n = 1: no interior point
  In.TripCount = static_cast<uint32_t>(-1); // libomptarget's count of it
  auto NeverRuns = [](size_t, uint64_t, uint64_t, std::vector<uintptr_t> &) {
    ADD_FAILURE() << "an empty loop ran a chunk";
    return false;
  };
  EXPECT_EQ(launchSplit(L, In, Members, NeverRuns, runConcurrently).Outcome,
            SplitOutcome::Done);
}

TEST(SplitLaunchNoRoom, MemberWithoutRoomIsLeftOut) {
  DataLayer L;
  // sim:0 holds 1 KiB: not even one of the two 24 KiB buffers fits.
  NodeId S0 = L.addNode(std::make_unique<SimulatedNodeOps>(0, 1024));
  NodeId S1 = L.addNode(std::make_unique<SimulatedNodeOps>(1));
  std::vector<SplitMember> Members{
      {S0, 0, 1, "sim:0"}, {S1, 1, 1, "sim:1"}, {HostNode, 2, 1, "cpu"}};
  const int N = 3001;
  KernelDescriptor D = parse(StencilDesc);
  std::vector<double> V = initial(N), Ref = V;
  void *A = L.allocate(N * sizeof(double)), *B = L.allocate(N * sizeof(double));
  ASSERT_TRUE(L.write(A, V.data(), N * sizeof(double)));
  ASSERT_TRUE(L.write(B, V.data(), N * sizeof(double)));
  SplitLaunchInput In;
  In.Desc = &D;
  In.Args = {reinterpret_cast<uintptr_t>(A), reinterpret_cast<uintptr_t>(B),
             static_cast<uintptr_t>(N)};
  In.Offsets = {0, 0, 0};
  SplitResult R = launchSplit(L, In, Members, stencil(), runConcurrently);
  ASSERT_EQ(R.Outcome, SplitOutcome::Done) << R.Reason;
  EXPECT_EQ(R.NoRoomMembers, std::vector<size_t>{0});
  EXPECT_EQ(R.Usage[0].Iterations, 0u);
  EXPECT_EQ(R.Usage[1].Iterations + R.Usage[2].Iterations, uint64_t(N - 2));
  for (int I = 1; I < N - 1; ++I)
    Ref[I] = (V[I - 1] + V[I] + V[I + 1]) / 3.0;
  std::vector<double> Got(N);
  ASSERT_TRUE(L.read(Got.data(), B, N * sizeof(double)));
  EXPECT_EQ(std::memcmp(Got.data(), Ref.data(), N * sizeof(double)), 0);
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

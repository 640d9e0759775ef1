//===- InspectorTest.cpp - Sections of indirect accesses ------------------===//
//
// Loads whose address moves with the loop variables (a CSR row's bounds
// rowptr[i], a gathered column col[k]) are evaluated over a window as the
// least and greatest value they can read (DescEnv::LoadRange), so that
// x[col[k]] reads the columns a chunk's rows reach, not all of x.
//
//===----------------------------------------------------------------------===//
#include "hetero/DataLayer.h"
#include "hetero/DescriptorEval.h"
#include "hetero/KernelDescriptor.h"
#include "hetero/WindowSections.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstring>
#include <random>
#include <string>
#include <vector>

using namespace hetero;

namespace {

// What the compiler writes for
//   for (int i = 0; i < n; i++) { double s = 0;
//     for (int k = rowptr[i]; k < rowptr[i + 1]; k++) s += val[k] * x[col[k]];
//     y[i] = s; }
// with arguments n, rowptr, val, x, col, y.
const char *CsrKernel =
    "hetero-kernel 1\nsplit yes\nnest 1\n"
    "loop 0 0 lt (sarg 0 4 1) 1\n"
    "var 0 (load (+ (arg 1) (+ 0 (* (c 0) 4))) 4 1) "
    "(- (load (+ (arg 1) (+ 0 (* (wrap 32 1 (+ (c 0) 1)) 4))) 4 1) 1)\n"
    "read 4 (arg 1) (+ 0 (* (+ (c 0) 1) 4))\n"
    "read 4 (arg 1) (+ 0 (* (c 0) 4))\n"
    "read 4 (arg 4) (+ 0 (* (v 0) 4))\n"
    "read 8 (arg 2) (+ 0 (* (v 0) 8))\n"
    "read 8 (arg 3) (+ 0 (* (load (+ (arg 4) (+ 0 (* (v 0) 4))) 4 1) 8))\n"
    "write 8 (arg 5) (+ 0 (* (c 0) 8))\n";

uint64_t addr(const void *P) { return reinterpret_cast<uintptr_t>(P); }

/// Evaluation over host memory, as the data layer does it over its nodes.
DescEnv hostEnv(std::vector<uint64_t> Args) {
  DescEnv E;
  E.Args = std::move(Args);
  E.Load = [](uint64_t A, void *Dst, unsigned Bytes) {
    std::memcpy(Dst, reinterpret_cast<const void *>(A), Bytes);
    return true;
  };
  E.LoadRange = [](uint64_t A, unsigned Bytes, uint64_t Stride, uint64_t Count,
                   bool Signed, int64_t &Min, int64_t &Max) {
    return scanLoadedValues(reinterpret_cast<const unsigned char *>(A), Bytes,
                            Stride, Count, Signed, Min, Max);
  };
  return E;
}

struct Csr {
  std::vector<int> RowPtr, Col;
  std::vector<double> Val, X, Y;
  std::vector<uint64_t> args() const {
    return {uint64_t(RowPtr.size() - 1),
            addr(RowPtr.data()),
            addr(Val.data()),
            addr(X.data()),
            addr(Col.data()),
            addr(Y.data())};
  }
};

/// Rows of 0..MaxPerRow entries at random columns of [0, Cols).
Csr randomCsr(std::mt19937 &Rng, int Rows, int Cols, int MaxPerRow) {
  Csr M;
  M.RowPtr.push_back(0);
  for (int I = 0; I < Rows; ++I) {
    int K = static_cast<int>(Rng() % (MaxPerRow + 1));
    for (int J = 0; J < K; ++J)
      M.Col.push_back(static_cast<int>(Rng() % Cols));
    M.RowPtr.push_back(static_cast<int>(M.Col.size()));
  }
  M.Val.assign(M.Col.size() + 1, 1.0);
  M.X.assign(Cols, 0.0);
  M.Y.assign(Rows, 0.0);
  return M;
}

bool covers(const WindowSection &S, uint64_t Lo, uint64_t Hi) {
  for (const auto &[RLo, RHi] : S.Ranges)
    if (RLo <= Lo && Hi <= RHi)
      return true;
  return false;
}

} // namespace

TEST(Inspector, CsrSectionsAreWhatTheRowsReach) {
  KernelDescriptor D;
  std::string Err;
  ASSERT_TRUE(KernelDescriptor::parse(CsrKernel, D, Err)) << Err;
  // The 5-point Laplacian of a 16 x 16 grid.
  const int G = 16, N = G * G;
  Csr M;
  M.RowPtr.push_back(0);
  for (int I = 0; I < N; ++I) {
    for (int C : {I - G, I - 1, I, I + 1, I + G})
      if (C >= 0 && C < N && (C == I - G || C == I + G || C / G == I / G))
        M.Col.push_back(C);
    M.RowPtr.push_back(static_cast<int>(M.Col.size()));
  }
  M.Val.assign(M.Col.size(), 1.0);
  M.X.assign(N, 0.0);
  M.Y.assign(N, 0.0);
  DescEnv E = hostEnv(M.args());
  std::vector<uint64_t> Trips;
  ASSERT_TRUE(tripCounts(D, E, Trips, Err)) << Err;
  std::vector<WindowSection> S;
  ASSERT_TRUE(windowSections(D, E, Trips, 0, N / 2, S, Err)) << Err;
  ASSERT_EQ(S.size(), 6u);
  // x: the rows' own half and one grid row of halo, not all of x.
  EXPECT_EQ(S[4].Kind, AccessKind::Read);
  ASSERT_EQ(S[4].Ranges.size(), 1u);
  EXPECT_EQ(S[4].Ranges[0].first, addr(M.X.data()));
  EXPECT_EQ(S[4].Ranges[0].second, addr(M.X.data() + N / 2 + G));
  // val and col: the rows' own entries.
  int End = M.RowPtr[N / 2];
  EXPECT_EQ(S[3].Ranges[0],
            std::make_pair(addr(M.Val.data()), addr(M.Val.data() + End)));
  EXPECT_EQ(S[2].Ranges[0],
            std::make_pair(addr(M.Col.data()), addr(M.Col.data() + End)));
}

TEST(Inspector, RandomGathersAreSound) {
  KernelDescriptor D;
  std::string Err;
  ASSERT_TRUE(KernelDescriptor::parse(CsrKernel, D, Err)) << Err;
  std::mt19937 Rng(7);
  for (int Trial = 0; Trial < 40; ++Trial) {
    Csr M = randomCsr(Rng, 1 + int(Rng() % 200), 1 + int(Rng() % 500),
                      int(Rng() % 8));
    int Rows = int(M.RowPtr.size()) - 1;
    DescEnv E = hostEnv(M.args());
    std::vector<uint64_t> Trips;
    ASSERT_TRUE(tripCounts(D, E, Trips, Err)) << Err;
    for (int Lo = 0; Lo < Rows; Lo += 1 + int(Rng() % 37)) {
      int Hi = std::min(Rows, Lo + 1 + int(Rng() % 60));
      std::vector<WindowSection> S;
      ASSERT_TRUE(
          windowSections(D, E, Trips, uint64_t(Lo), uint64_t(Hi), S, Err))
          << Err;
      for (int I = Lo; I < Hi; ++I) {
        EXPECT_TRUE(covers(S[5], addr(&M.Y[I]), addr(&M.Y[I]) + 8));
        for (int K = M.RowPtr[I]; K < M.RowPtr[I + 1]; ++K) {
          EXPECT_TRUE(covers(S[2], addr(&M.Col[K]), addr(&M.Col[K]) + 4));
          EXPECT_TRUE(covers(S[3], addr(&M.Val[K]), addr(&M.Val[K]) + 8));
          const double *X = &M.X[M.Col[K]];
          EXPECT_TRUE(covers(S[4], addr(X), addr(X) + 8))
              << "trial " << Trial << " row " << I;
        }
      }
    }
  }
}

TEST(Inspector, WhatCannotBeScannedIsReadWhole) {
  std::vector<int> Idx(64);
  for (int I = 0; I < 64; ++I)
    Idx[I] = (I * 5) % 64;
  std::vector<double> X(64);
  DescEnv E = hostEnv({addr(Idx.data()), addr(X.data())});
  auto Sections = [&](const std::string &Read, std::vector<WindowSection> &S,
                      std::string &Err) {
    KernelDescriptor D;
    EXPECT_TRUE(KernelDescriptor::parse(
        "hetero-kernel 1\nsplit yes\nnest 1\nloop 0 0 lt 8 1\n" + Read, D, Err))
        << Err;
    std::vector<uint64_t> Trips;
    EXPECT_TRUE(tripCounts(D, E, Trips, Err)) << Err;
    return windowSections(D, E, Trips, 2, 5, S, Err);
  };
  std::vector<WindowSection> S;
  std::string Err;
  // The address moves by (c 0)^2: no even step to scan at.
  ASSERT_TRUE(Sections(
      "read 8 (arg 1) (* (load (+ (arg 0) (* (* (c 0) (c 0)) 4)) 4 1) 8)\n", S,
      Err))
      << Err;
  EXPECT_EQ(S[0].Kind, AccessKind::ReadAll);
  // A moving load inside a moving load's address.
  ASSERT_TRUE(Sections("read 8 (arg 1) (* (load (+ (arg 0) (* (load (+ (arg 0) "
                       "(* (c 0) 4)) 4 1) 4)) 4 1) 8)\n",
                       S, Err))
      << Err;
  EXPECT_EQ(S[0].Kind, AccessKind::ReadAll);
  // Scanned: idx[2..4] = 10, 15, 20.
  ASSERT_TRUE(Sections(
      "read 8 (arg 1) (* (load (+ (arg 0) (* (c 0) 4)) 4 1) 8)\n", S, Err))
      << Err;
  EXPECT_EQ(S[0].Kind, AccessKind::Read);
  EXPECT_EQ(S[0].Ranges[0], std::make_pair(addr(&X[10]), addr(&X[20]) + 8));
  // Without a way to scan, a read is whole and a write fails.
  E.LoadRange = nullptr;
  ASSERT_TRUE(Sections(
      "read 8 (arg 1) (* (load (+ (arg 0) (* (c 0) 4)) 4 1) 8)\n", S, Err))
      << Err;
  EXPECT_EQ(S[0].Kind, AccessKind::ReadAll);
  EXPECT_FALSE(Sections(
      "write 8 (arg 1) (* (load (+ (arg 0) (* (c 0) 4)) 4 1) 8)\n", S, Err));
}

TEST(Inspector, ScannedValuesAreExtendedAsLoaded) {
  const unsigned char Bytes[8] = {0xff, 0x01, 0x80, 0x7f, 0, 0, 0, 0x80};
  int64_t Min, Max;
  ASSERT_TRUE(scanLoadedValues(Bytes, 1, 1, 4, true, Min, Max));
  EXPECT_EQ(Min, -128);
  EXPECT_EQ(Max, 127);
  ASSERT_TRUE(scanLoadedValues(Bytes, 1, 2, 2, false, Min, Max));
  EXPECT_EQ(Min, 0x80); // bytes 0 and 2
  EXPECT_EQ(Max, 0xff);
  ASSERT_TRUE(scanLoadedValues(Bytes, 8, 8, 1, true, Min, Max));
  EXPECT_LT(Min, 0);
  EXPECT_FALSE(scanLoadedValues(Bytes, 8, 8, 1, false, Min, Max)); // >= 2^63
}

namespace {
/// Four ints {5, -3, 9, 2} in a new buffer, written through L to node A
/// (map-time writes land there, as on an accelerator).
void *fourOn(DataLayer &L, NodeId A) {
  L.setHomeNode(A);
  const int V[] = {5, -3, 9, 2};
  void *P = L.allocate(sizeof(V));
  EXPECT_TRUE(L.write(P, V, sizeof(V)));
  return P;
}
} // namespace

TEST(Inspector, DataLayerRemembersScansUntilTheBufferIsWritten) {
  DataLayer L;
  L.setScanMode(DataLayer::ScanMode::Sync);
  void *P = fourOn(L, L.addNode(std::make_unique<SimulatedNodeOps>(0)));
  int64_t Min, Max;
  ASSERT_TRUE(L.loadRange(addr(P), 4, 4, 4, true, Min, Max));
  EXPECT_EQ(Min, -3);
  EXPECT_EQ(Max, 9);
  uint64_t Read = L.stats().BytesD2H;
  EXPECT_EQ(Read, 16u); // from the accelerator, the only copy
  ASSERT_TRUE(L.loadRange(addr(P), 4, 4, 4, true, Min, Max));
  EXPECT_EQ(L.stats().BytesD2H, Read);                        // remembered
  ASSERT_TRUE(L.loadRange(addr(P), 4, 8, 2, true, Min, Max)); // V[0], V[2]
  EXPECT_EQ(Min, 5);
  EXPECT_EQ(Max, 9);
  int Big = 100;
  ASSERT_TRUE(L.write(static_cast<int *>(P) + 1, &Big, sizeof(Big)));
  ASSERT_TRUE(L.loadRange(addr(P), 4, 4, 4, true, Min, Max));
  EXPECT_EQ(Min, 2);
  EXPECT_EQ(Max, 100);
  EXPECT_FALSE(L.loadRange(addr(P), 4, 4, 5, true, Min, Max)); // past it
  L.setHostResident(P);
  EXPECT_FALSE(L.loadRange(addr(P), 4, 4, 4, true, Min, Max));
}

TEST(Inspector, BackgroundReadsAnswerLaterLaunches) {
  DataLayer L;
  L.setScanMode(DataLayer::ScanMode::Background);
  NodeId A = L.addNode(std::make_unique<SimulatedNodeOps>(0));
  L.setHomeNode(A);
  std::vector<int> V(1 << 20);
  for (size_t I = 0; I < V.size(); ++I)
    V[I] = static_cast<int>(I % 1000) - 7;
  void *P = L.allocate(V.size() * sizeof(int));
  ASSERT_TRUE(L.write(P, V.data(), V.size() * sizeof(int)));
  int64_t Min, Max;
  // Not read yet: the caller reads the whole buffer meanwhile.
  EXPECT_FALSE(L.loadRange(addr(P), 4, 4, V.size(), true, Min, Max));
  L.waitForScans();
  ASSERT_TRUE(L.loadRange(addr(P), 4, 4, V.size(), true, Min, Max));
  EXPECT_EQ(Min, -7);
  EXPECT_EQ(Max, 992);
  // Written: read again, in the background, while launches go on.
  int Big = 5000;
  ASSERT_TRUE(L.write(static_cast<int *>(P) + 3, &Big, sizeof(Big)));
  EXPECT_FALSE(L.loadRange(addr(P), 4, 4, V.size(), true, Min, Max));
  for (int I = 0; I < 4; ++I) // concurrent readers and writers of others
    ASSERT_TRUE(L.read(&Big, static_cast<int *>(P) + I, sizeof(Big)));
  L.waitForScans();
  ASSERT_TRUE(L.loadRange(addr(P), 4, 4, V.size(), true, Min, Max));
  EXPECT_EQ(Max, 5000);
  // Values that cannot be read are remembered as such.
  void *Q = L.allocate(8);
  uint64_t Huge = ~uint64_t(0);
  ASSERT_TRUE(L.write(Q, &Huge, 8));
  EXPECT_FALSE(L.loadRange(addr(Q), 8, 8, 1, false, Min, Max));
  L.waitForScans();
  EXPECT_FALSE(L.loadRange(addr(Q), 8, 8, 1, false, Min, Max));
  L.setScanMode(DataLayer::ScanMode::Off);
  EXPECT_FALSE(L.loadRange(addr(P), 4, 4, V.size(), true, Min, Max));
}

namespace {
/// A simulated accelerator that bounds values where they lie, as a GPU's
/// kernel does (CudaIndexRange.h), counting its scans.
class ScanningNode : public SimulatedNodeOps {
public:
  using SimulatedNodeOps::SimulatedNodeOps;
  Scan scanValues(const void *Ptr, unsigned Bytes, uint64_t Stride,
                  uint64_t Count, bool Signed, int64_t &Min,
                  int64_t &Max) override {
    ++Scans;
    return scanLoadedValues(static_cast<const unsigned char *>(Ptr), Bytes,
                            Stride, Count, Signed, Min, Max)
               ? Scan::Found
               : Scan::NoAnswer;
  }
  int Scans = 0;
};
} // namespace

TEST(Inspector, ValuesWholeOnANodeAreScannedThere) {
  for (DataLayer::ScanMode Mode :
       {DataLayer::ScanMode::InPlace, DataLayer::ScanMode::Sync,
        DataLayer::ScanMode::Background}) {
    DataLayer L;
    L.setScanMode(Mode);
    auto Owned = std::make_unique<ScanningNode>(0);
    ScanningNode &Node = *Owned;
    NodeId A = L.addNode(std::move(Owned));
    void *P = fourOn(L, A);
    int64_t Min, Max;
    // Answered at once in every mode, nothing read to the host.
    ASSERT_TRUE(L.loadRange(addr(P), 4, 4, 4, true, Min, Max));
    EXPECT_EQ(Min, -3);
    EXPECT_EQ(Max, 9);
    EXPECT_EQ(Node.Scans, 1);
    EXPECT_EQ(L.stats().BytesD2H, 0u);
    ASSERT_TRUE(L.loadRange(addr(P), 4, 4, 4, true, Min, Max));
    EXPECT_EQ(Node.Scans, 1); // remembered
    // Written on the host: the node no longer holds them all, and the
    // values are read through the host (in the background mode later).
    int Big = 100;
    ASSERT_TRUE(L.makeValid(HostNode, addr(P), 0, 4 * sizeof(int)));
    std::memcpy(P, &Big, sizeof(Big));
    L.markWritten(HostNode, addr(P), 0, sizeof(int));
    // In place only: not at all, the caller reading the buffer whole.
    if (Mode == DataLayer::ScanMode::InPlace) {
      uint64_t Read = L.stats().BytesD2H;
      EXPECT_FALSE(L.loadRange(addr(P), 4, 4, 4, true, Min, Max));
      EXPECT_FALSE(L.loadRange(addr(P), 4, 4, 4, true, Min, Max));
      EXPECT_EQ(L.stats().BytesD2H, Read);
      // Whole on the node again: read there.
      ASSERT_TRUE(L.makeValid(A, addr(P), 0, 4 * sizeof(int)));
    } else if (Mode == DataLayer::ScanMode::Background) {
      EXPECT_FALSE(L.loadRange(addr(P), 4, 4, 4, true, Min, Max));
      L.waitForScans();
    }
    ASSERT_TRUE(L.loadRange(addr(P), 4, 4, 4, true, Min, Max));
    EXPECT_EQ(Min, -3);
    EXPECT_EQ(Max, 100);
    EXPECT_EQ(Node.Scans, Mode == DataLayer::ScanMode::InPlace ? 2 : 1);
    // What the node cannot bound is remembered as such.
    // (Not pointer-sized: such a buffer may hold a pointer a kernel stored,
    // which only the host's view reads right.)
    void *Q = L.allocate(16);
    uint64_t Read = L.stats().BytesD2H;
    uint64_t Huge[2] = {~uint64_t(0), 1};
    ASSERT_TRUE(L.write(Q, Huge, 16));
    int Before = Node.Scans;
    EXPECT_FALSE(L.loadRange(addr(Q), 8, 8, 2, false, Min, Max));
    EXPECT_FALSE(L.loadRange(addr(Q), 8, 8, 2, false, Min, Max));
    EXPECT_EQ(Node.Scans, Before + 1);
    ASSERT_TRUE(L.loadRange(addr(Q), 8, 8, 2, true, Min, Max));
    EXPECT_EQ(Min, -1);
    EXPECT_EQ(Max, 1);
    EXPECT_EQ(Node.Scans, Before + 2);
    EXPECT_EQ(L.stats().BytesD2H, Read);
  }
}

//===- PluginPartsTest.cpp - The plugin's parts that need no GPU ----------===//
//
// The image table (a binary's images grouped), symbol lookup in an ELF image,
// the protection of host memory (const globals are never written), the
// CPU teams' thread limits, the bookkeeping of pinned host memory, each on
// real inputs: this test binary's own ELF file, its own read-only and
// writable data, and libomp; and the thread the pool starts on.
//
//===----------------------------------------------------------------------===//
#include "CpuTeam.h"
#include "HostMappings.h"
#include "HostPinRanges.h"
#include "ImageSymbols.h"
#include "ImageTable.h"
#include "PoolStart.h"

#include <gtest/gtest.h>

#include <atomic>
#include <fstream>
#include <iterator>
#include <omp.h>
#include <string>
#include <thread>
#include <vector>

using namespace hetero;

extern "C" int heteroPluginTestSymbol(int X) { return X + 1; }

namespace {

/// This test binary's own ELF file, as an offload image.
struct OwnImage {
  std::vector<char> Bytes;
  __tgt_device_image Img{};
  OwnImage() {
    std::ifstream In("/proc/self/exe", std::ios::binary);
    Bytes.assign(std::istreambuf_iterator<char>(In),
                 std::istreambuf_iterator<char>());
    Img.ImageStart = Bytes.data();
    Img.ImageEnd = Bytes.data() + Bytes.size();
  }
};

const int ReadOnlyTable[1024] = {1, 2, 3};
int WritableTable[1024] = {1, 2, 3};

} // namespace

TEST(ImageTable, ImagesOfOneBinaryShareAGroup) {
  __tgt_offload_entry EntriesA[2] = {}, EntriesB[1] = {};
  __tgt_device_image X86A{}, Cuda80A{}, Cuda90A{}, X86B{};
  X86A.EntriesBegin = Cuda80A.EntriesBegin = Cuda90A.EntriesBegin = EntriesA;
  X86B.EntriesBegin = EntriesB;
  ImageTable T;
  T.add(&Cuda80A, ImageKind::Cuda);
  T.add(&X86A, ImageKind::Host);
  T.add(&Cuda90A, ImageKind::Cuda);
  T.add(&Cuda90A, ImageKind::Cuda); // offered twice, kept once
  T.add(&X86B, ImageKind::Host);
  ImageGroup *A = T.groupOf(&Cuda90A);
  ASSERT_NE(A, nullptr);
  EXPECT_EQ(A, T.groupOf(&X86A));
  EXPECT_EQ(A->HostImage, &X86A);
  EXPECT_EQ(A->CudaImages,
            (std::vector<__tgt_device_image *>{&Cuda80A, &Cuda90A}));
  ImageGroup *B = T.groupOf(&X86B);
  ASSERT_NE(B, nullptr);
  EXPECT_NE(A, B);
  EXPECT_TRUE(B->CudaImages.empty());
  __tgt_device_image Unknown{};
  __tgt_offload_entry Other[1] = {};
  Unknown.EntriesBegin = Other;
  EXPECT_EQ(T.groupOf(&Unknown), nullptr);
}

TEST(ImageSymbols, DefinedSymbolsOfAnElfImage) {
  OwnImage Own;
  ASSERT_GT(Own.Bytes.size(), 64u);
  ImageSymbols Symbols;
  // Asked twice: the second answer comes from the table read the first time.
  for (int Round = 0; Round < 2; ++Round) {
    EXPECT_TRUE(Symbols.defines(&Own.Img, "heteroPluginTestSymbol"));
    EXPECT_TRUE(Symbols.defines(&Own.Img, "main"));
    EXPECT_FALSE(Symbols.defines(&Own.Img, "noSuchSymbolAnywhere_xyz"));
    // Used, not defined here (libomp defines it).
    EXPECT_FALSE(Symbols.defines(&Own.Img, "omp_get_thread_limit"));
  }
  // Not an ELF image: nothing is defined.
  char Junk[64] = "not an elf file";
  __tgt_device_image Bad{};
  Bad.ImageStart = Junk;
  Bad.ImageEnd = Junk + sizeof(Junk);
  EXPECT_FALSE(Symbols.defines(&Bad, "main"));
  EXPECT_FALSE(Symbols.defines(nullptr, "main"));
  // Each image has its own table.
  EXPECT_TRUE(Symbols.defines(&Own.Img, "main"));
}

TEST(HostMappings, ConstDataIsNotWritable) {
  EXPECT_FALSE(isHostMemoryWritable(ReadOnlyTable, sizeof(ReadOnlyTable)));
  EXPECT_FALSE(isHostMemoryWritable("a string literal", 17));
  EXPECT_TRUE(isHostMemoryWritable(WritableTable, sizeof(WritableTable)));
  std::vector<double> Heap(100000);
  EXPECT_TRUE(isHostMemoryWritable(Heap.data(), Heap.size() * sizeof(double)));
  EXPECT_FALSE(isHostMemoryWritable(reinterpret_cast<void *>(16), 8));
}

TEST(CpuTeam, ThreadLimitsHoldForTheirScopeOnly) {
  int Before = omp_get_thread_limit();
  {
    ScopedThreadLimit L(3);
    EXPECT_EQ(omp_get_thread_limit(), 3);
    int Team = 0;
#pragma omp parallel num_threads(8)
#pragma omp single
    Team = omp_get_num_threads();
    EXPECT_LE(Team, 3);
    {
      ScopedThreadLimit Inner(1);
      EXPECT_EQ(omp_get_thread_limit(), 1);
    }
    EXPECT_EQ(omp_get_thread_limit(), 3);
  }
  EXPECT_EQ(omp_get_thread_limit(), Before);
  ScopedThreadLimit None(0); // no clause, no cap: unchanged
  EXPECT_EQ(omp_get_thread_limit(), Before);
}

// The CPU pool's threads sleep at once beside a GPU (CpuTeam.h): the
// blocktime of the teams the thread forks is 0 while the guard lives, and
// what it was afterwards. A negative value changes nothing.
TEST(CpuTeam, ScopedBlocktimeSetsAndRestores) {
  int Before = kmp_get_blocktime();
  {
    ScopedBlocktime B(0);
    EXPECT_EQ(kmp_get_blocktime(), 0);
    int Team = 0;
#pragma omp parallel num_threads(2)
#pragma omp single
    Team = omp_get_num_threads();
    EXPECT_GE(Team, 1);
    EXPECT_EQ(kmp_get_blocktime(), 0);
  }
  EXPECT_EQ(kmp_get_blocktime(), Before);
  ScopedBlocktime None(-1);
  EXPECT_EQ(kmp_get_blocktime(), Before);
}

// The pool's start runs on a thread of its own while the program goes on;
// the first of several concurrent waits joins it and runs Then once, before
// any of them returns; every wait returns the start's result.
TEST(PoolStart, TheFirstWaitJoinsTheStartAndRunsThenOnce) {
  PoolStart S;
  std::atomic<bool> Release{false};
  std::atomic<int> Thens{0};
  std::thread::id StartedOn;
  S.begin([&] {
    StartedOn = std::this_thread::get_id();
    while (!Release)
      std::this_thread::yield();
    return std::string("no member");
  });
  EXPECT_FALSE(S.done());
  std::vector<std::string> Got(4);
  std::vector<int> ThensSeen(4, -1);
  std::vector<std::thread> Waiters;
  for (size_t I = 0; I < Got.size(); ++I)
    Waiters.emplace_back([&, I] {
      Got[I] = S.wait([&](const std::string &Error) {
        EXPECT_EQ(Error, "no member");
        ++Thens;
      });
      ThensSeen[I] = Thens;
    });
  Release = true;
  for (std::thread &T : Waiters)
    T.join();
  EXPECT_TRUE(S.done());
  EXPECT_EQ(Thens, 1);
  for (size_t I = 0; I < Got.size(); ++I) {
    EXPECT_EQ(Got[I], "no member");
    EXPECT_EQ(ThensSeen[I], 1);
  }
  EXPECT_NE(StartedOn, std::this_thread::get_id());
}

// A start that ran on the loading thread (no CPU member certain): waits
// return its result at once, Then still runs once.
TEST(PoolStart, AStartRunHereIsWaitedForOnce) {
  PoolStart S;
  S.ranHere("");
  int Thens = 0;
  EXPECT_EQ(S.wait([&](const std::string &) { ++Thens; }), "");
  EXPECT_EQ(S.wait([&](const std::string &) { ++Thens; }), "");
  EXPECT_EQ(Thens, 1);
  EXPECT_TRUE(S.done());
}

// What of a range asked for is pinned: whole pages, nothing twice, within
// the limit; a copy is cut at every edge of a registration; a freed
// buffer's registrations go, and only its.
TEST(HostPinRanges, WholePagesOnceWithinTheLimitAndCopiesCutAtEdges) {
  using Span = HostPinRanges::Span;
  const uintptr_t P = 4096;
  HostPinRanges R(P, 10 * P);
  // Whole pages inside: [P + 1, 4P + 5) pins [2P, 4P).
  EXPECT_EQ(R.toPin(P + 1, 4 * P + 5), (std::vector<Span>{{2 * P, 4 * P}}));
  R.added(2 * P, 4 * P);
  // Around it, only what is not pinned yet.
  EXPECT_EQ(R.toPin(P, 6 * P), (std::vector<Span>{{P, 2 * P}, {4 * P, 6 * P}}));
  R.added(P, 2 * P);
  R.added(4 * P, 6 * P);
  EXPECT_TRUE(R.toPin(P, 6 * P).empty());
  EXPECT_TRUE(R.toPin(3 * P, 3 * P + 100).empty());
  EXPECT_EQ(R.bytes(), 5 * P);
  // The limit: 5 more pages at most.
  EXPECT_EQ(R.toPin(10 * P, 30 * P), (std::vector<Span>{{10 * P, 15 * P}}));
  // A copy across registrations and pageable memory: one piece each.
  EXPECT_EQ(R.pieces(P / 2, 7 * P), (std::vector<Span>{{P / 2, P},
                                                       {P, 2 * P},
                                                       {2 * P, 4 * P},
                                                       {4 * P, 6 * P},
                                                       {6 * P, 7 * P}}));
  EXPECT_EQ(R.pieces(3 * P, 3 * P + 8),
            (std::vector<Span>{{3 * P, 3 * P + 8}}));
  EXPECT_EQ(R.pieces(8 * P, 9 * P), (std::vector<Span>{{8 * P, 9 * P}}));
  // Freeing [2P, 6P) takes the two registrations that start there.
  EXPECT_EQ(R.removeInside(2 * P, 6 * P),
            (std::vector<Span>{{2 * P, 4 * P}, {4 * P, 6 * P}}));
  EXPECT_EQ(R.bytes(), P);
  EXPECT_FALSE(R.empty());
  EXPECT_EQ(R.removeInside(0, 100 * P), (std::vector<Span>{{P, 2 * P}}));
  EXPECT_TRUE(R.empty());
}

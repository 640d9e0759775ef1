//===- SectionCacheTest.cpp - Sections of recent split plans --------------===//
//
// The cache answers a launch only while everything its sections came from
// is the same; a buffer of its own that the layer answers otherwise (freed,
// remapped) drops the entry, and so does a write to a buffer the sections'
// bounds were read from. The engine's side (sections bounded by memory
// follow its writes) is in EngineTest.cpp.
//
//===----------------------------------------------------------------------===//
#include "hetero/SectionCache.h"
#include "hetero/DataLayer.h"

#include <gtest/gtest.h>

#include <string>

using namespace hetero;

namespace {

// b[i] = a[i] + a[i+1] for i in [0, n); args: a, b, n.
const char *PairDesc = "hetero-kernel 1\n"
                       "split yes\n"
                       "nest 1\n"
                       "loop 0 0 lt (sarg 2 4 1) 1\n"
                       "read 8 (arg 0) (* (c 0) 8)\n"
                       "read 8 (arg 0) (* (+ (c 0) 1) 8)\n"
                       "write 8 (arg 1) (* (c 0) 8)\n";

struct SectionCacheTest : ::testing::Test {
  DataLayer L;
  KernelDescriptor D;
  void *A = nullptr, *B = nullptr;
  const uint64_t N = 100;
  SectionCache::Key K;
  DescEnv Env;

  void SetUp() override {
    std::string Err;
    ASSERT_TRUE(KernelDescriptor::parse(PairDesc, D, Err)) << Err;
    A = L.allocate((N + 1) * 8);
    B = L.allocate(N * 8);
    K.Desc = &D;
    K.Args = {reinterpret_cast<uintptr_t>(A), reinterpret_cast<uintptr_t>(B),
              N};
    K.Offsets = {0, 0, 0};
    K.Trips = {N};
    K.Chunks = {{0, 0, 50}, {1, 50, N}};
    Env.Args = K.Args;
  }
  /// Resolves K's sections and stores them.
  SectionCache::Shared
  resolveAndStore(SectionCache &C,
                  std::vector<SectionCache::MemoryRead> Reads = {}) {
    std::vector<ChunkSections> S;
    std::vector<SectionLookup> Lookups;
    std::string Why;
    EXPECT_TRUE(
        resolveSections(D, Env, K.Args, K.Trips, L, K.Chunks, S, Why, &Lookups))
        << Why;
    EXPECT_EQ(Lookups.size(), 2u); // a and b, once each
    SectionCache::Shared Shared;
    for (ChunkSections &One : S)
      Shared.push_back(std::make_shared<const ChunkSections>(std::move(One)));
    C.store(K, Lookups, Reads, Shared);
    return Shared;
  }
};

TEST_F(SectionCacheTest, AnswersTheSameLaunchAgain) {
  SectionCache C;
  SectionCache::Shared Resolved = resolveAndStore(C), Got;
  ASSERT_TRUE(C.find(K, L, Got));
  EXPECT_EQ(Got, Resolved); // the same sections, not copies
  // Chunk 1 reads a[50, 101): 8 * 51 bytes from byte 400; writes b[50, 100).
  ASSERT_EQ(Got[1]->Buffers.size(), 2u);
  EXPECT_EQ(Got[1]->Buffers[0].Read.list(), (std::vector<Range>{{400, 808}}));
  EXPECT_EQ(Got[1]->Buffers[1].Write.list(), (std::vector<Range>{{400, 800}}));

  // Anything else the sections came from asks again.
  SectionCache::Key Other = K;
  Other.Chunks[0].Hi = Other.Chunks[1].Lo = 51;
  EXPECT_FALSE(C.find(Other, L, Got));
  Other = K;
  Other.Offsets[0] = 8;
  EXPECT_FALSE(C.find(Other, L, Got));
  Other = K;
  Other.Args[2] = N - 1;
  EXPECT_FALSE(C.find(Other, L, Got));
  Other = K;
  std::swap(Other.Args[0], Other.Args[1]);
  EXPECT_FALSE(C.find(Other, L, Got));
  EXPECT_EQ(C.size(), 1u);
  EXPECT_TRUE(C.find(K, L, Got));
}

TEST_F(SectionCacheTest, ABufferOfItsOwnThatChangedDropsTheEntry) {
  SectionCache C;
  resolveAndStore(C);
  SectionCache::Shared Got;
  // Other buffers come and go (a reduction variable every launch).
  void *S = L.allocate(8);
  ASSERT_TRUE(L.release(S).ok());
  EXPECT_TRUE(C.find(K, L, Got));
  // One of its own goes: the entry with it.
  ASSERT_TRUE(L.release(B).ok());
  EXPECT_FALSE(C.find(K, L, Got));
  EXPECT_EQ(C.size(), 0u);
  B = L.allocate(N * 8);
  K.Args[1] = reinterpret_cast<uintptr_t>(B);
  Env.Args = K.Args;
  resolveAndStore(C);
  // Host-resident now: the same buffer, answered otherwise.
  L.setHostResident(A);
  EXPECT_FALSE(C.find(K, L, Got));
}

TEST_F(SectionCacheTest, SectionsFromMemoryHoldWhileItIsUnwritten) {
  SectionCache C;
  // As if the bounds had come from a's values (a CSR row's extent).
  std::optional<BufferInfo> Read = L.find(reinterpret_cast<uintptr_t>(A));
  ASSERT_TRUE(Read);
  resolveAndStore(C, {{Read->Id, Read->Generation}});
  SectionCache::Shared Got;
  double V = 1;
  ASSERT_TRUE(L.write(B, &V, sizeof(V))); // another buffer: no matter
  EXPECT_TRUE(C.find(K, L, Got));
  ASSERT_TRUE(L.write(A, &V, sizeof(V))); // the one read: written
  EXPECT_FALSE(C.find(K, L, Got));
  EXPECT_EQ(C.size(), 0u);
}

TEST_F(SectionCacheTest, KeepsTheMostRecentlyUsed) {
  SectionCache C;
  resolveAndStore(C);
  SectionCache::Shared Got;
  SectionCache::Key Other = K;
  for (size_t I = 1; I < SectionCache::Capacity; ++I) {
    Other.Offsets[2] = static_cast<ptrdiff_t>(I);
    C.store(Other, {}, {}, {});
  }
  EXPECT_EQ(C.size(), SectionCache::Capacity);
  EXPECT_TRUE(C.find(K, L, Got)); // now the most recent
  Other.Offsets[2] = -1;
  C.store(Other, {}, {}, {});
  EXPECT_EQ(C.size(), SectionCache::Capacity);
  EXPECT_TRUE(C.find(K, L, Got));
  Other.Offsets[2] = 1; // the least recently used: gone
  EXPECT_FALSE(C.find(Other, L, Got));
}

// An application's step: more kernels than the cache once held (CloverLeaf
// launches 102 a step), each with two launch shapes, round after round: every
// launch after the first round is answered from the cache.
TEST_F(SectionCacheTest, AStepOfManyKernelsStaysCached) {
  SectionCache C;
  std::vector<KernelDescriptor> Kernels(150);
  SectionCache::Shared Got;
  size_t Misses = 0;
  for (int Round = 0; Round < 3; ++Round)
    for (KernelDescriptor &Kernel : Kernels)
      for (ptrdiff_t Shape : {0, 1}) {
        SectionCache::Key Step = K;
        Step.Desc = &Kernel;
        Step.Offsets[2] = Shape;
        if (!C.find(Step, L, Got)) {
          ++Misses;
          C.store(Step, {}, {}, {});
        }
      }
  EXPECT_EQ(Misses, Kernels.size() * 2); // the first round's
  EXPECT_EQ(C.size(), Kernels.size() * 2);
}

} // namespace

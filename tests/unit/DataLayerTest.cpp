//===- DataLayerTest.cpp - Coherence over simulated memory nodes ----------===//
#include "hetero/DataLayer.h"
#include "SimulatedLayer.h"

#include <gtest/gtest.h>

#include <condition_variable>
#include <cstring>
#include <future>
#include <mutex>
#include <numeric>
#include <thread>
#include <vector>

using namespace hetero;

namespace {
/// N bytes that differ from their neighbours and repeat only over pages:
/// a copy that lands a piece in the wrong place shows.
std::vector<char> patterned(size_t N) {
  std::vector<char> V(N);
  for (size_t I = 0; I < N; ++I)
    V[I] = static_cast<char>(I * 13 + I / 4096);
  return V;
}
/// Nodes A, B (and C, unused here) after the host.
using Fixture = SimulatedLayer;
} // namespace

TEST_F(Fixture, WriteReadRoundTrip) {
  auto V = iota(1000);
  void *P = L.allocate(V.size() * sizeof(int));
  ASSERT_NE(P, nullptr);
  ASSERT_TRUE(L.write(P, V.data(), V.size() * sizeof(int)));
  std::vector<int> Back(V.size());
  ASSERT_TRUE(L.read(Back.data(), P, Back.size() * sizeof(int)));
  EXPECT_EQ(Back, V);
  EXPECT_EQ(L.stats().BytesH2D, 0u); // never left the host
  EXPECT_TRUE(L.release(P));
  EXPECT_FALSE(L.release(P));
}

TEST_F(Fixture, KernelOnNodeCopiesOnlyWhatIsMissing) {
  auto V = iota(1024);
  const uint64_t Bytes = V.size() * sizeof(int);
  void *P = L.allocate(Bytes);
  ASSERT_TRUE(L.write(P, V.data(), Bytes));
  BufferId Buf = id(P);
  ASSERT_TRUE(L.makeValid(A, Buf, 0, Bytes));
  EXPECT_EQ(L.stats().BytesH2D, Bytes);
  // Valid already: nothing moves.
  ASSERT_TRUE(L.makeValid(A, Buf, 0, Bytes));
  EXPECT_EQ(L.stats().BytesH2D, Bytes);
  // Node A "writes" the upper half; the host copy of it is now stale.
  int *OnA = nodeView(A, P);
  for (int I = 512; I < 1024; ++I)
    OnA[I] = -I;
  L.markWritten(A, Buf, 512 * sizeof(int), Bytes);
  // B reads everything: peers are preferred over the host, so all of it
  // comes straight from A (a peer copy); nothing more from the host.
  ASSERT_TRUE(L.makeValid(B, Buf, 0, Bytes));
  EXPECT_EQ(L.stats().BytesH2D, Bytes);
  EXPECT_EQ(L.stats().BytesD2D, Bytes);
  int *OnB = nodeView(B, P);
  EXPECT_EQ(OnB[3], 3);
  EXPECT_EQ(OnB[700], -700);
  // The host reads back exactly the stale half.
  std::vector<int> Back(V.size());
  ASSERT_TRUE(L.read(Back.data(), P, Bytes));
  EXPECT_EQ(L.stats().BytesD2H, Bytes / 2);
  EXPECT_EQ(Back[700], -700);
  EXPECT_EQ(Back[100], 100);
}

// A chunk's needs in one call (prepareChunk) do what willUse, makeValid and
// bytesMissing do one by one: its span becomes valid, and what it read and
// the node lacked is counted; its arguments translate as translate() does.
TEST_F(Fixture, AChunksNeedsAreMetInOneCall) {
  auto V = iota(1024);
  const uint64_t Bytes = V.size() * sizeof(int);
  void *P = L.allocate(Bytes);
  void *Q = L.allocate(Bytes);
  ASSERT_TRUE(L.write(P, V.data(), Bytes));
  ASSERT_TRUE(L.write(Q, V.data(), Bytes));
  ASSERT_TRUE(L.makeValid(A, id(P), 0, 256)); // A holds 256 bytes of P
  RangeSet ReadP, WriteP, SpanP, None, WriteQ;
  ReadP.insert(0, 1024);
  WriteP.insert(2048, 3072);
  SpanP = ReadP;
  SpanP.insert(2048, 3072);
  WriteQ.insert(0, 512);
  std::vector<DataLayer::ChunkNeed> Needs = {{id(P), &ReadP, &WriteP, &SpanP},
                                             {id(Q), &None, &WriteQ, &WriteQ}};
  uint64_t Missing = 0;
  ASSERT_TRUE(L.prepareChunk(A, Needs, &Missing));
  EXPECT_EQ(Missing, 1024u - 256u);
  EXPECT_TRUE(L.validOn(A, id(P)).contains(0, 1024));
  EXPECT_TRUE(L.validOn(A, id(P)).contains(2048, 3072));
  EXPECT_FALSE(L.validOn(A, id(P)).contains(1024, 2048));
  EXPECT_TRUE(L.validOn(A, id(Q)).contains(0, 512));
  EXPECT_EQ(L.stats().BytesH2D, 256u + 768u + 1024u + 512u);
  std::vector<uintptr_t> In = {reinterpret_cast<uintptr_t>(P) + 8, 0,
                               reinterpret_cast<uintptr_t>(Q)};
  std::vector<uintptr_t> Out;
  ASSERT_TRUE(L.translateAll(A, In, Out));
  ASSERT_EQ(Out.size(), In.size());
  for (size_t I = 0; I < In.size(); ++I) {
    uintptr_t One = 0;
    ASSERT_TRUE(L.translate(A, In[I], One));
    EXPECT_EQ(Out[I], One);
  }
  EXPECT_EQ(Out[0], reinterpret_cast<uintptr_t>(nodeView(A, P)) + 8);
  // A freed buffer it still needs fails the chunk (the launch says why).
  BufferId Gone = id(Q);
  ASSERT_TRUE(L.release(Q));
  Needs = {{Gone, &None, &WriteQ, &WriteQ}};
  EXPECT_EQ(L.prepareChunk(A, Needs, nullptr).code(), StatusCode::NotMapped);
  EXPECT_TRUE(L.release(P));
}

// What a chunk overwrites whole and does not read (ChunkNeed::Covered) is
// held on its node, not copied there: it is valid there once the chunk has
// written it, and nothing of it crossed before.
TEST_F(Fixture, ACoveredWriteIsHeldNotCopied) {
  auto V = iota(1024);
  const uint64_t Bytes = V.size() * sizeof(int);
  void *P = L.allocate(Bytes);
  ASSERT_TRUE(L.write(P, V.data(), Bytes));
  RangeSet Read, Write, Span, Covered;
  Read.insert(0, 1024);
  Write.insert(1024, 4096);
  Span = Read;
  Span.insert(1024, 4096);
  Covered.insert(1024, 4096);
  std::vector<DataLayer::ChunkNeed> Needs = {
      {id(P), &Read, &Write, &Span, &Covered}};
  ASSERT_TRUE(L.prepareChunk(A, Needs, nullptr));
  EXPECT_EQ(L.stats().BytesH2D, 1024u); // the read alone
  EXPECT_TRUE(L.validOn(A, id(P)).contains(0, 1024));
  EXPECT_TRUE(L.validOn(A, id(P)).intersect(1024, 4096).empty());
  // The chunk writes it; the host reads the new bytes back.
  auto *OnA = static_cast<int *>(nodeView(A, P));
  for (size_t I = 256; I < 1024; ++I)
    OnA[I] = -int(I);
  L.markWritten(A, id(P), 1024, 4096);
  std::vector<int> Back(V.size());
  ASSERT_TRUE(L.read(Back.data(), P, Bytes));
  EXPECT_EQ(Back[100], 100);
  EXPECT_EQ(Back[300], -300);
  EXPECT_EQ(L.stats().BytesD2H, 3072u);
  EXPECT_TRUE(L.release(P));
}

TEST_F(Fixture, NeverWrittenBytesAreNotCopied) {
  void *P = L.allocate(4096);
  BufferId Buf = id(P);
  ASSERT_TRUE(L.makeValid(A, Buf, 0, 4096));
  EXPECT_EQ(L.stats().BytesH2D, 0u);
}

TEST_F(Fixture, PointerSlotsAreTranslatedPerNode) {
  // struct { int *Data; } S; with S.Data attached to a mapped array.
  void *Arr = L.allocate(16 * sizeof(int));
  auto V = iota(16, 100);
  ASSERT_TRUE(L.write(Arr, V.data(), 16 * sizeof(int)));
  void *S = L.allocate(sizeof(void *));
  ASSERT_TRUE(L.write(S, &Arr, sizeof(void *)));

  std::vector<uintptr_t> Args{reinterpret_cast<uintptr_t>(S)};
  std::vector<BufferId> Touched;
  ASSERT_TRUE(L.acquireWhole(A, Args, Touched));
  EXPECT_EQ(Touched.size(), 2u); // the struct and the array it points to
  int **OnA = reinterpret_cast<int **>(Args[0]);
  EXPECT_NE(reinterpret_cast<void *>(OnA), S);
  EXPECT_EQ((*OnA)[5], 105); // the pointer inside points into A's copy
  EXPECT_EQ(reinterpret_cast<void *>(*OnA),
            reinterpret_cast<void *>(nodeView(A, Arr)));
  (*OnA)[5] = 7;
  L.releaseWhole(A, Touched);
  // Back on the host the slot holds the host address again.
  void *Back = nullptr;
  ASSERT_TRUE(L.read(&Back, S, sizeof(void *)));
  EXPECT_EQ(Back, Arr);
  int X;
  ASSERT_TRUE(L.read(&X, static_cast<int *>(Arr) + 5, sizeof(int)));
  EXPECT_EQ(X, 7);
}

// A struct written whole (a functor mapped `to`) whose members hold hetero
// addresses (a view's omp_target_alloc pointer): each such member is a
// pointer slot, translated on every node; other words are left as written.
TEST_F(Fixture, PointerMembersOfAWrittenStructAreTranslatedPerNode) {
  void *Arr = L.allocate(16 * sizeof(int));
  auto V = iota(16, 200);
  ASSERT_TRUE(L.write(Arr, V.data(), 16 * sizeof(int)));
  struct View {
    double Scale;
    void *Data;
    long Extent;
  } F{2.5, Arr, 16};
  void *S = L.allocate(sizeof(View));
  ASSERT_TRUE(L.write(S, &F, sizeof(View)));
  std::vector<uintptr_t> Args{reinterpret_cast<uintptr_t>(S)};
  std::vector<BufferId> Touched;
  ASSERT_TRUE(L.acquireWhole(A, Args, Touched));
  EXPECT_EQ(Touched.size(), 2u); // the struct and the array it points to
  const auto *OnA = reinterpret_cast<const View *>(Args[0]);
  EXPECT_EQ(OnA->Scale, 2.5);
  EXPECT_EQ(OnA->Extent, 16);
  EXPECT_EQ(OnA->Data, static_cast<void *>(nodeView(A, Arr)));
  EXPECT_EQ(static_cast<const int *>(OnA->Data)[3], 203);
  L.releaseWhole(A, Touched);
  View Back{};
  ASSERT_TRUE(L.read(&Back, S, sizeof(View)));
  EXPECT_EQ(Back.Data, Arr); // the host reads its own address back
}

TEST_F(Fixture, OutOfMemoryNodeFailsCleanly) {
  NodeId Small = L.addNode(std::make_unique<SimulatedNodeOps>(2, 1 << 20));
  void *P = L.allocate(1 << 20);
  void *Q = L.allocate(1 << 10);
  std::vector<uintptr_t> Args{reinterpret_cast<uintptr_t>(P),
                              reinterpret_cast<uintptr_t>(Q)};
  std::vector<BufferId> Touched;
  EXPECT_FALSE(L.acquireWhole(Small, Args, Touched)); // 1 MiB + 1 KiB
  // The host copy is untouched and still usable elsewhere.
  Args = {reinterpret_cast<uintptr_t>(P)};
  EXPECT_TRUE(L.acquireWhole(A, Args, Touched));
  // Freeing P gives the node its room back.
  EXPECT_TRUE(L.release(P));
  Args = {reinterpret_cast<uintptr_t>(Q)};
  EXPECT_TRUE(L.acquireWhole(Small, Args, Touched));
}

// A simulated accelerator holds the granules of a buffer its chunks touch,
// not the whole buffer: a buffer four times its memory fits in part, the
// rest of it is refused (NoRoom), and freeing gives the granules back.
TEST_F(Fixture, ANodeHoldsTheGranulesItsRangesTouch) {
  const uint64_t MiB = 1 << 20, G = SimulatedNodeOps::Granule;
  NodeId Small = L.addNode(std::make_unique<SimulatedNodeOps>(2, MiB));
  void *P = L.allocate(4 * MiB);
  ASSERT_NE(P, nullptr);
  std::vector<char> V(4 * MiB, 5);
  ASSERT_TRUE(L.write(P, V.data(), V.size()));
  ASSERT_TRUE(L.makeValid(Small, id(P), 1, MiB / 2)); // granules [0, 512K)
  EXPECT_EQ(L.heldBytes()[Small].Held, MiB / 2);
  ASSERT_TRUE(L.makeValid(Small, id(P), 3 * MiB + 10, 3 * MiB + 20));
  EXPECT_EQ(L.heldBytes()[Small].Held, MiB / 2 + G);
  Status S = L.makeValid(Small, id(P), MiB, 2 * MiB);
  EXPECT_EQ(S.code(), StatusCode::NoRoom) << S.message();
  EXPECT_EQ(L.heldBytes()[Small].Held, MiB / 2 + G);
  // What it holds is right, and the rest comes from the host.
  std::vector<char> Back(16);
  ASSERT_TRUE(L.makeValid(Small, id(P), 3 * MiB, 3 * MiB + 16));
  std::memcpy(Back.data(),
              reinterpret_cast<char *>(nodeView(Small, P)) + 3 * MiB,
              Back.size());
  EXPECT_EQ(Back, std::vector<char>(16, 5));
  ASSERT_TRUE(L.release(P));
  EXPECT_EQ(L.heldBytes()[Small].Held, 0u);
  EXPECT_EQ(L.heldBytes()[Small].Peak, MiB / 2 + G);
  // The room is back: a whole MiB of another buffer fits.
  void *Q = L.allocate(MiB);
  ASSERT_TRUE(L.makeValid(Small, id(Q), 0, MiB));
  EXPECT_TRUE(L.release(Q));
}

// A kernel's `p = q` (a mapped pointer variable) stores its node's address of
// q: the host, and every other node, read q's address in their own space.
TEST_F(Fixture, PointerVariablesComeBackInTheReadersAddressSpace) {
  void *P = L.allocate(sizeof(void *));
  auto V = iota(16);
  void *Q = L.allocate(V.size() * sizeof(int));
  ASSERT_TRUE(L.write(Q, V.data(), V.size() * sizeof(int)));
  // "Kernel" on A: p = q + 3.
  int *QonA = nodeView(A, Q);
  ASSERT_TRUE(L.makeValid(A, id(Q), 0, 64));
  void **PonA = reinterpret_cast<void **>(nodeView(A, P));
  *PonA = QonA + 3;
  L.markWritten(A, id(P), 0, 8);
  void *Got = nullptr;
  ASSERT_TRUE(L.read(&Got, P, sizeof(Got)));
  EXPECT_EQ(Got, static_cast<int *>(Q) + 3);
  // On node B the value is B's address of q[3].
  BufferId PB = id(P);
  L.markWritten(A, PB, 0, 8); // the host copy stale again
  ASSERT_TRUE(L.makeValid(B, PB, 0, 8));
  void **PonB = reinterpret_cast<void **>(nodeView(B, P));
  EXPECT_EQ(*PonB, nodeView(B, Q) + 3);
  // A value that is no device address comes back unchanged.
  *PonA = reinterpret_cast<void *>(uintptr_t(12345));
  L.markWritten(A, PB, 0, 8);
  ASSERT_TRUE(L.read(&Got, P, sizeof(Got)));
  EXPECT_EQ(Got, reinterpret_cast<void *>(uintptr_t(12345)));
}

// A freed pointee makes the other nodes' translated copies of pointers to it
// stale; the host's copy (hetero addresses) stays the truth.
TEST_F(Fixture, FreedPointeesMakeTranslatedPointersStale) {
  void *Arr = L.allocate(4 * sizeof(void *));
  void *Q = L.allocate(64);
  ASSERT_TRUE(L.write(static_cast<char *>(Arr) + 8, &Q, sizeof(Q)));
  BufferId AB = id(Arr);
  ASSERT_TRUE(L.makeValid(A, AB, 0, 32));
  EXPECT_TRUE(L.validOn(A, AB).contains(8, 16));
  ASSERT_TRUE(L.release(Q));
  EXPECT_FALSE(L.validOn(A, AB).contains(8, 16));
  EXPECT_TRUE(L.validOn(A, AB).contains(0, 8));
  EXPECT_TRUE(L.validOn(HostNode, AB).contains(8, 16));
}

// More than the host can hold is refused at once, not found out pages later.
TEST_F(Fixture, BuffersTheHostCannotHoldAreRefused) {
  uint64_t Avail = availableHostMemory();
  ASSERT_GT(Avail, 0u);
  EXPECT_EQ(L.allocate(Avail + (uint64_t(1) << 30)), nullptr);
  EXPECT_EQ(L.allocate(uint64_t(200) << 40), nullptr);
  void *P = L.allocate(HostNodeOps::CheckedSize);
  ASSERT_NE(P, nullptr);
  EXPECT_TRUE(L.release(P));
}

// Released mappings are reused (no munmap and mmap per map and unmap), and
// reused storage reads as zeros, like a new mapping: small ones cleared,
// larger ones with their pages dropped.
TEST(HostNodeOpsTest, MappingsAreReusedAsFreshStorage) {
  HostNodeOps H;
  for (size_t Size : {size_t(64), size_t(3) << 20}) {
    auto *P = static_cast<unsigned char *>(H.allocateWithLeadIn(Size, 1 << 20));
    ASSERT_NE(P, nullptr);
    EXPECT_EQ(reinterpret_cast<uintptr_t>(P) % 4096, 0u);
    memset(P, 0xab, Size);
    H.release(P);
    EXPECT_EQ(H.allocationSize(P), 0u);
    auto *Q = static_cast<unsigned char *>(H.allocateWithLeadIn(Size, 1 << 20));
    ASSERT_EQ(Q, P) << Size;
    EXPECT_EQ(H.allocationSize(Q), Size);
    for (size_t I = 0; I < Size; I += 511)
      ASSERT_EQ(Q[I], 0) << Size << " " << I;
    ASSERT_EQ(Q[Size - 1], 0) << Size;
    // Another lead-in takes another mapping.
    void *R = H.allocateWithLeadIn(Size, 2 << 20);
    EXPECT_NE(R, static_cast<void *>(Q));
    H.release(R);
    H.release(Q);
  }
  // Storage past CheckedSize is given back, not kept.
  void *Big = H.allocate(HostNodeOps::CheckedSize + 4096);
  ASSERT_NE(Big, nullptr);
  H.release(Big);
  void *Again = H.allocate(HostNodeOps::CheckedSize + 4096);
  ASSERT_NE(Again, nullptr);
  H.release(Again);
  // A pointer it did not allocate is not its to free.
  int Local = 0;
  H.release(&Local);
  EXPECT_EQ(H.allocationSize(&Local), 0u);
}

TEST_F(Fixture, ReadOnlyGlobalsAreNeverWritten) {
  static const int Table[4] = {1, 2, 3, 4};
  static int Copy[4] = {1, 2, 3, 4};
  void *Base = const_cast<int *>(Table);
  L.registerExternal(Base, sizeof(Table), /*ReadOnly=*/true);
  L.setExternalNodeStorage(Base, A, Copy);
  BufferId Buf = id(Base);
  ASSERT_NE(Buf, 0u);
  // A kernel that ran whole on A does not make A's copy the only one.
  std::vector<uintptr_t> Args;
  std::vector<BufferId> Touched;
  ASSERT_TRUE(L.acquireWhole(A, Args, Touched));
  L.releaseWhole(A, Touched);
  EXPECT_TRUE(L.validOnlyOn(A, Buf).empty());
  EXPECT_TRUE(L.makeValid(HostNode, Buf, 0, sizeof(Table)));
  int X = 7;
  EXPECT_FALSE(L.write(Base, &X, sizeof(X))); // an error, not a fault
  int Y = 0;
  EXPECT_TRUE(L.read(&Y, Base, sizeof(Y)));
  EXPECT_EQ(Y, 1);
}

TEST_F(Fixture, DiscardRefusesToDropTheOnlyCopy) {
  auto V = iota(64);
  void *P = L.allocate(64 * sizeof(int));
  ASSERT_TRUE(L.write(P, V.data(), 64 * sizeof(int)));
  std::vector<uintptr_t> Args{reinterpret_cast<uintptr_t>(P)};
  std::vector<BufferId> Touched;
  ASSERT_TRUE(L.acquireWhole(A, Args, Touched));
  EXPECT_TRUE(L.discardNode(A, Touched));  // the host still has it
  Args = {reinterpret_cast<uintptr_t>(P)}; // acquire translated them
  ASSERT_TRUE(L.acquireWhole(A, Args, Touched));
  L.releaseWhole(A, Touched); // now only A holds it
  EXPECT_FALSE(L.discardNode(A, Touched));
}

TEST_F(Fixture, HostResidentBuffersFollowTheHost) {
  void *P = L.allocate(sizeof(int));
  L.setHostResident(P);
  int One = 1;
  std::memcpy(P, &One, sizeof(int)); // the host writes it directly
  std::vector<uintptr_t> Args{reinterpret_cast<uintptr_t>(P)};
  std::vector<BufferId> Touched;
  ASSERT_TRUE(L.acquireWhole(A, Args, Touched));
  int *OnA = reinterpret_cast<int *>(Args[0]);
  EXPECT_EQ(*OnA, 1);
  *OnA = 2;
  L.releaseWhole(A, Touched);
  EXPECT_EQ(*static_cast<int *>(P), 2); // copied back at once
  int Three = 3;
  std::memcpy(P, &Three, sizeof(int));
  Args = {reinterpret_cast<uintptr_t>(P)};
  ASSERT_TRUE(L.acquireWhole(A, Args, Touched));
  EXPECT_EQ(*reinterpret_cast<int *>(Args[0]), 3);
}

// A global of the loaded images: the host image's copy is the hetero address,
// node A has its own copy (its own image), valid from the start.
TEST_F(Fixture, ExternalGlobalsHaveOneCopyPerNode) {
  static int Global = 42;
  static int GlobalOnA = 42;
  L.registerExternal(&Global, sizeof(Global));
  L.setExternalNodeStorage(&Global, A, &GlobalOnA);
  std::vector<uintptr_t> Args; // kernels use globals without arguments
  std::vector<BufferId> Touched;
  ASSERT_TRUE(L.acquireWhole(A, Args, Touched));
  EXPECT_EQ(Touched.size(), 1u);
  EXPECT_EQ(L.stats().BytesH2D, 0u); // both copies hold the image's value
  int Seven = 7;
  ASSERT_TRUE(L.write(&Global, &Seven, sizeof(int))); // target update to
  ASSERT_TRUE(L.acquireWhole(A, Args, Touched));
  EXPECT_EQ(GlobalOnA, 7);
  GlobalOnA = 8; // the kernel on A writes it
  L.releaseWhole(A, Touched);
  int Back = 0;
  ASSERT_TRUE(L.read(&Back, &Global, sizeof(int))); // target update from
  EXPECT_EQ(Back, 8);
  EXPECT_FALSE(L.release(&Global)); // not ours to free
}

// Several host threads moving data at once (run under TSan too).
TEST_F(Fixture, ConcurrentWritersAndReaders) {
  constexpr int Threads = 4, Elems = 4096;
  std::vector<void *> Bufs(Threads);
  for (auto &P : Bufs)
    P = L.allocate(Elems * sizeof(int));
  std::vector<std::thread> Ts;
  for (int T = 0; T < Threads; ++T)
    Ts.emplace_back([&, T] {
      auto V = iota(Elems, T * Elems);
      for (int Rep = 0; Rep < 20; ++Rep) {
        ASSERT_TRUE(L.write(Bufs[T], V.data(), Elems * sizeof(int)));
        std::vector<uintptr_t> Args{reinterpret_cast<uintptr_t>(Bufs[T])};
        std::vector<BufferId> Touched;
        NodeId N = T % 2 ? A : B;
        ASSERT_TRUE(L.acquireWhole(N, Args, Touched));
        L.releaseWhole(N, Touched);
        std::vector<int> Back(Elems);
        ASSERT_TRUE(L.read(Back.data(), Bufs[T], Elems * sizeof(int)));
        ASSERT_EQ(Back, V);
      }
    });
  for (auto &T : Ts)
    T.join();
}

// A section a[100:50] is attached and passed by its base &a[0], which lies
// before the buffer: it must still be translated, as an argument and as a
// pointer stored in mapped memory.
TEST_F(Fixture, BasePointersBeforeTheBufferAreTranslated) {
  void *Sec = L.allocate(50 * sizeof(int));
  auto V = iota(50, 100);
  ASSERT_TRUE(L.write(Sec, V.data(), 50 * sizeof(int)));
  uintptr_t Base = reinterpret_cast<uintptr_t>(Sec) - 100 * sizeof(int);
  void *S = L.allocate(sizeof(void *));
  ASSERT_TRUE(L.write(S, &Base, sizeof(Base)));

  std::vector<uintptr_t> Args{Base, reinterpret_cast<uintptr_t>(S)};
  std::vector<BufferId> Touched;
  ASSERT_TRUE(L.acquireWhole(A, Args, Touched));
  EXPECT_EQ(Touched.size(), 2u);
  int *OnA = reinterpret_cast<int *>(Args[0]);
  EXPECT_EQ(OnA[120], 120); // a[120] through the translated base
  int **SlotOnA = reinterpret_cast<int **>(Args[1]);
  EXPECT_EQ(*SlotOnA, OnA);
  // Far below any buffer: not a hetero pointer, left alone.
  uintptr_t Out = 0;
  EXPECT_TRUE(L.translate(A, 4096, Out));
  EXPECT_EQ(Out, 4096u);
}

// With a home node, data moves when it is mapped: a write goes straight to
// the home node and a read comes straight from where the bytes are, and the
// host's copy stays unused (its storage never committed).
TEST_F(Fixture, MapTimeWritesGoHomeAndReadsComeFromWhereTheBytesAre) {
  L.setHomeNode(A);
  auto V = iota(4096);
  void *P = L.allocate(V.size() * sizeof(int));
  uint64_t Size = V.size() * sizeof(int);
  ASSERT_TRUE(L.write(P, V.data(), Size));
  EXPECT_TRUE(L.validOn(A, id(P)).contains(0, Size));
  EXPECT_TRUE(L.validOn(HostNode, id(P)).empty());
  EXPECT_EQ(L.stats().BytesH2D, Size);
  // A "kernel" on B writes the second half.
  ASSERT_TRUE(L.makeValid(B, id(P), Size / 2, Size));
  int *OnB = nodeView(B, P);
  for (size_t I = V.size() / 2; I < V.size(); ++I)
    OnB[I] = -int(I);
  L.markWritten(B, id(P), Size / 2, Size);
  std::vector<int> Got(V.size());
  ASSERT_TRUE(L.read(Got.data(), P, Size));
  for (size_t I = 0; I < V.size(); ++I)
    ASSERT_EQ(Got[I], I < V.size() / 2 ? int(I) : -int(I)) << I;
  EXPECT_TRUE(L.validOn(HostNode, id(P)).empty());
  EXPECT_EQ(L.stats().BytesD2H, Size);
  // Pointer-sized writes (pointer attachments) stay on the host, where
  // their slots are kept.
  void *Q = L.allocate(sizeof(void *));
  ASSERT_TRUE(L.write(Q, &P, sizeof(P)));
  EXPECT_TRUE(L.validOn(HostNode, id(Q)).contains(0, sizeof(void *)));
  void *Back = nullptr;
  ASSERT_TRUE(L.read(&Back, Q, sizeof(Back)));
  EXPECT_EQ(Back, P);
  EXPECT_TRUE(L.release(Q));
  EXPECT_TRUE(L.release(P));
}

// A home node without room leaves the write on the host.
TEST(DataLayerHome, NoRoomAtHomeWritesToTheHost) {
  DataLayer L;
  NodeId Small = L.addNode(std::make_unique<SimulatedNodeOps>(0, 1024));
  L.setHomeNode(Small);
  std::vector<char> V(4096, 7);
  void *P = L.allocate(V.size());
  ASSERT_TRUE(L.write(P, V.data(), V.size()));
  BufferId Id = L.find(reinterpret_cast<uintptr_t>(P))->Id;
  EXPECT_TRUE(L.validOn(HostNode, Id).contains(0, V.size()));
  EXPECT_TRUE(L.validOn(Small, Id).empty());
  EXPECT_TRUE(L.release(P));
}

// A buffer larger than a quarter of the home node is spread over the
// accelerators at map time in equal blocks, in their order, so that a
// problem larger than one of them starts where the split launches need it;
// a block that finds no room stays on the host. Smaller buffers go home.
TEST(DataLayerHome, LargeBuffersAreSpreadOverTheAccelerators) {
  const uint64_t Granule = SimulatedNodeOps::Granule, Room = 8 * Granule;
  DataLayer L;
  NodeId A = L.addNode(std::make_unique<SimulatedNodeOps>(0, Room));
  NodeId B = L.addNode(std::make_unique<SimulatedNodeOps>(1, Room));
  NodeId C = L.addNode(std::make_unique<SimulatedNodeOps>(2, Granule));
  L.setHomeNode(A);
  L.setSpreadNodes({A, B});
  std::vector<char> V = patterned(6 * Granule);
  void *P = L.allocate(V.size());
  ASSERT_TRUE(L.write(P, V.data(), V.size()));
  BufferId Id = L.find(reinterpret_cast<uintptr_t>(P))->Id;
  EXPECT_TRUE(L.validOn(A, Id).contains(0, 3 * Granule));
  EXPECT_TRUE(L.validOn(A, Id).intersect(3 * Granule, 6 * Granule).empty());
  EXPECT_TRUE(L.validOn(B, Id).contains(3 * Granule, 6 * Granule));
  EXPECT_TRUE(L.validOn(B, Id).intersect(0, 3 * Granule).empty());
  EXPECT_TRUE(L.validOn(HostNode, Id).empty());
  EXPECT_EQ(L.stats().BytesH2D, V.size());
  EXPECT_EQ(L.heldBytes()[A].Held, 3 * Granule);
  std::vector<char> Got(V.size());
  ASSERT_TRUE(L.read(Got.data(), P, Got.size()));
  EXPECT_EQ(Got, V);
  // A small buffer goes home whole.
  std::vector<char> W(Granule, 3);
  void *Q = L.allocate(W.size());
  ASSERT_TRUE(L.write(Q, W.data(), W.size()));
  EXPECT_TRUE(L.validOn(A, L.find(reinterpret_cast<uintptr_t>(Q))->Id)
                  .contains(0, W.size()));
  // C holds one granule: its block of a spread write stays on the host.
  L.setSpreadNodes({A, C});
  void *R = L.allocate(V.size());
  ASSERT_TRUE(L.write(R, V.data(), V.size()));
  BufferId RId = L.find(reinterpret_cast<uintptr_t>(R))->Id;
  EXPECT_TRUE(L.validOn(HostNode, RId).contains(3 * Granule, 6 * Granule));
  EXPECT_TRUE(L.validOn(C, RId).empty());
  ASSERT_TRUE(L.read(Got.data(), R, Got.size()));
  EXPECT_EQ(Got, V);
  EXPECT_TRUE(L.release(P));
  EXPECT_TRUE(L.release(Q));
  EXPECT_TRUE(L.release(R));
}

// A node the others cannot reach directly (copies between it and them go
// through the host).
class IslandNode : public SimulatedNodeOps {
public:
  using SimulatedNodeOps::SimulatedNodeOps;
  bool reachesPeer(const NodeOps &) const override { return false; }
};

// Where the accelerators reach each other directly, an array of
// SpreadMinBytes or more is spread at map time however much room the home
// node has: each block crosses over its own node's link, at once, and a
// read takes each block from its node the same way. Smaller ones go home,
// and so does every array where one node is reachable only through the
// host (a kernel on fewer nodes would stage what it gathers).
TEST(DataLayerHome, LargeArraysCrossEveryLinkWhereTheNodesAreLinked) {
  const uint64_t Size = DataLayer::SpreadMinBytes;
  DataLayer L;
  NodeId A = L.addNode(std::make_unique<SimulatedNodeOps>(0));
  NodeId B = L.addNode(std::make_unique<SimulatedNodeOps>(1));
  L.setHomeNode(A);
  L.setSpreadNodes({A, B});
  std::vector<char> V = patterned(Size);
  void *P = L.allocate(Size);
  ASSERT_TRUE(L.write(P, V.data(), Size));
  BufferId Id = L.find(reinterpret_cast<uintptr_t>(P))->Id;
  EXPECT_TRUE(L.validOn(A, Id).contains(0, Size / 2));
  EXPECT_TRUE(L.validOn(A, Id).intersect(Size / 2, Size).empty());
  EXPECT_TRUE(L.validOn(B, Id).contains(Size / 2, Size));
  EXPECT_TRUE(L.validOn(HostNode, Id).empty());
  std::vector<char> Got(Size);
  ASSERT_TRUE(L.read(Got.data(), P, Size));
  EXPECT_TRUE(Got == V);
  EXPECT_EQ(L.stats().BytesD2H, Size);
  // A part of it that lies on both, and one on B alone.
  std::vector<char> Part(Size / 4);
  ASSERT_TRUE(
      L.read(Part.data(), static_cast<char *>(P) + 3 * Size / 8, Part.size()));
  EXPECT_TRUE(std::equal(Part.begin(), Part.end(), V.begin() + 3 * Size / 8));
  ASSERT_TRUE(
      L.read(Part.data(), static_cast<char *>(P) + 5 * Size / 8, Part.size()));
  EXPECT_TRUE(std::equal(Part.begin(), Part.end(), V.begin() + 5 * Size / 8));
  // One byte less goes home whole.
  void *Q = L.allocate(Size - 1);
  ASSERT_TRUE(L.write(Q, V.data(), Size - 1));
  EXPECT_TRUE(L.validOn(A, L.find(reinterpret_cast<uintptr_t>(Q))->Id)
                  .contains(0, Size - 1));
  EXPECT_TRUE(L.release(P));
  EXPECT_TRUE(L.release(Q));

  DataLayer M;
  NodeId C = M.addNode(std::make_unique<SimulatedNodeOps>(0));
  NodeId D = M.addNode(std::make_unique<IslandNode>(1));
  M.setHomeNode(C);
  M.setSpreadNodes({C, D});
  void *R = M.allocate(Size);
  ASSERT_TRUE(M.write(R, V.data(), Size));
  BufferId RId = M.find(reinterpret_cast<uintptr_t>(R))->Id;
  EXPECT_TRUE(M.validOn(C, RId).contains(0, Size));
  EXPECT_TRUE(M.validOn(D, RId).empty());
  EXPECT_TRUE(M.release(R));
}

// A node that says which link it crosses and counts the copies to the host
// under way at once (each holds its link for a while).
class LinkedNode : public SimulatedNodeOps {
public:
  LinkedNode(int Index, int Link, std::atomic<int> &Now, std::atomic<int> &Most)
      : SimulatedNodeOps(Index), Link(Link), Now(Now), Most(Most) {}
  int hostLink() const override { return Link; }
  Status copyToHost(void *Dst, const void *Src, size_t Size) override {
    int In = ++Now;
    for (int Seen = Most; In > Seen && !Most.compare_exchange_weak(Seen, In);)
      ;
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
    Status S = SimulatedNodeOps::copyToHost(Dst, Src, Size);
    --Now;
    return S;
  }

private:
  int Link;
  std::atomic<int> &Now, &Most;
};

// A large read from several nodes copies over each link at once, and one
// after the other over a link that nodes share (the parts of one GPU).
TEST(DataLayerHome, AReadBackCrossesEachLinkAtOnce) {
  const uint64_t Size = DataLayer::ParallelReadBytes;
  for (bool Shared : {false, true}) {
    std::atomic<int> Now{0}, Most{0};
    DataLayer L;
    NodeId A = L.addNode(std::make_unique<LinkedNode>(0, 0, Now, Most));
    NodeId B =
        L.addNode(std::make_unique<LinkedNode>(1, Shared ? 0 : 1, Now, Most));
    std::vector<char> V = patterned(Size);
    void *P = L.allocate(Size);
    ASSERT_TRUE(L.write(P, V.data(), Size));
    BufferId Id = L.find(reinterpret_cast<uintptr_t>(P))->Id;
    // Each node writes its half.
    ASSERT_TRUE(L.makeValid(A, Id, 0, Size / 2));
    ASSERT_TRUE(L.makeValid(B, Id, Size / 2, Size));
    L.markWritten(A, Id, 0, Size / 2);
    L.markWritten(B, Id, Size / 2, Size);
    std::vector<char> Got(Size);
    ASSERT_TRUE(L.read(Got.data(), P, Size));
    EXPECT_TRUE(Got == V);
    EXPECT_EQ(Most.load(), Shared ? 1 : 2) << (Shared ? "shared" : "own");
    EXPECT_TRUE(L.release(P));
  }
}

// A node whose copies from the host wait until the test opens its gate.
class GatedNode : public SimulatedNodeOps {
public:
  using SimulatedNodeOps::SimulatedNodeOps;
  Status copyFromHost(void *Dst, const void *Src, size_t Size) override {
    if (Size >= DataLayer::SpreadMinBytes / 4) {
      std::unique_lock<std::mutex> L(M);
      Entered = true;
      Changed.notify_all();
      Changed.wait(L, [&] { return Open; });
    }
    return SimulatedNodeOps::copyFromHost(Dst, Src, Size);
  }
  void waitEntered() {
    std::unique_lock<std::mutex> L(M);
    Changed.wait(L, [&] { return Entered; });
  }
  void open() {
    std::lock_guard<std::mutex> L(M);
    Open = true;
    Changed.notify_all();
  }

private:
  std::mutex M;
  std::condition_variable Changed;
  bool Entered = false, Open = false;
};

// A large map-time copy runs without the layer's lock: while one thread's
// copy to a GPU is under way, another thread maps, reads and frees other
// arrays (before, it waited for the copy); a free of the array being copied
// waits for the copy to end.
TEST(DataLayerLocks, AMapTimeCopyHoldsUpOnlyItsOwnArray) {
  const uint64_t Big = DataLayer::SpreadMinBytes / 4;
  DataLayer L;
  auto Node = std::make_unique<GatedNode>(0);
  GatedNode &Gate = *Node;
  NodeId A = L.addNode(std::move(Node));
  L.setHomeNode(A);
  std::vector<char> V(Big, 7);
  void *P = L.allocate(Big);
  std::thread Writer([&] { EXPECT_TRUE(L.write(P, V.data(), Big)); });
  Gate.waitEntered();
  // The writer's copy is held at the gate.
  auto Others = std::async(std::launch::async, [&] {
    std::vector<char> W(4096, 3), Got(4096);
    void *Q = L.allocate(W.size());
    bool Ok = Q && L.write(Q, W.data(), W.size()).ok() &&
              L.read(Got.data(), Q, Got.size()).ok() && Got == W &&
              L.release(Q).ok();
    return Ok;
  });
  bool Done =
      Others.wait_for(std::chrono::seconds(20)) == std::future_status::ready;
  EXPECT_TRUE(Done) << "another array's map waited for the copy";
  std::atomic<bool> Freed{false};
  std::thread Freer([&] {
    EXPECT_TRUE(L.release(P));
    Freed = true;
  });
  std::this_thread::sleep_for(std::chrono::milliseconds(100));
  EXPECT_FALSE(Freed.load()) << "the array was freed under its copy";
  Gate.open();
  Writer.join();
  Freer.join();
  EXPECT_TRUE(Freed.load());
  if (Done)
    EXPECT_TRUE(Others.get());
}

// A host read waits for what ran ahead on the GPU that holds its bytes
// without the layer's lock: while that wait is under way, another thread
// maps, reads and frees other arrays (before, they waited for the GPU).
TEST(DataLayerLocks, AHostReadWaitsForItsGpuWithoutTheLock) {
  const uint64_t Size = 4096;
  DataLayer L;
  NodeId A = L.addNode(std::make_unique<SimulatedNodeOps>(0));
  std::mutex M;
  std::condition_variable Changed;
  bool Entered = false, Open = false;
  L.setSettler([&](NodeId N, const char *Why) {
    if (N == A && std::string(Why) == "host reads") {
      std::unique_lock<std::mutex> G(M);
      Entered = true;
      Changed.notify_all();
      Changed.wait(G, [&] { return Open; });
    }
    return Status();
  });
  std::vector<char> V = patterned(Size);
  void *P = L.allocate(Size);
  ASSERT_TRUE(L.write(P, V.data(), Size));
  BufferId Id = L.find(reinterpret_cast<uintptr_t>(P))->Id;
  ASSERT_TRUE(L.makeValid(A, Id, 0, Size));
  L.markWritten(A, Id, 0, Size); // A alone holds it, as after a kernel
  std::vector<char> Got(Size);
  std::thread Reader([&] { EXPECT_TRUE(L.read(Got.data(), P, Size)); });
  {
    std::unique_lock<std::mutex> G(M);
    Changed.wait(G, [&] { return Entered; });
  }
  auto Others = std::async(std::launch::async, [&] {
    std::vector<char> W(Size, 3), Back(Size);
    void *Q = L.allocate(W.size());
    return Q && L.write(Q, W.data(), W.size()).ok() &&
           L.read(Back.data(), Q, Back.size()).ok() && Back == W &&
           L.release(Q).ok();
  });
  bool Done =
      Others.wait_for(std::chrono::seconds(20)) == std::future_status::ready;
  EXPECT_TRUE(Done) << "another array's map waited for the GPU";
  {
    std::lock_guard<std::mutex> G(M);
    Open = true;
    Changed.notify_all();
  }
  Reader.join();
  EXPECT_TRUE(Got == V);
  if (Done)
    EXPECT_TRUE(Others.get());
  L.setSettler(nullptr);
  EXPECT_TRUE(L.release(P));
}

// A node without room for what a launch needs evicts what earlier launches
// used there, least recently used first: bytes only it holds go to the
// host first, clean ones are dropped; what this launch used stays.
TEST(DataLayerEviction, LeastRecentlyUsedGoesAndDirtyBytesGoHomeFirst) {
  const uint64_t G = SimulatedNodeOps::Granule;
  DataLayer L;
  NodeId A = L.addNode(std::make_unique<SimulatedNodeOps>(0, 2 * G));
  std::vector<char> X(G, 1), Y(G, 2), Z(G, 3);
  void *PX = L.allocate(G), *PY = L.allocate(G), *PZ = L.allocate(G);
  ASSERT_TRUE(L.write(PX, X.data(), G));
  ASSERT_TRUE(L.write(PY, Y.data(), G));
  ASSERT_TRUE(L.write(PZ, Z.data(), G));
  auto Id = [&](void *P) { return L.find(reinterpret_cast<uintptr_t>(P))->Id; };
  // Launch 1 reads X on A; launch 2 writes Y there (valid only on A).
  L.newEpoch();
  ASSERT_TRUE(L.makeValid(A, Id(PX), 0, G));
  L.newEpoch();
  ASSERT_TRUE(L.makeValid(A, Id(PY), 0, G));
  uintptr_t OnA = 0;
  ASSERT_TRUE(L.translate(A, reinterpret_cast<uintptr_t>(PY), OnA));
  std::memset(reinterpret_cast<void *>(OnA), 9, G);
  L.markWritten(A, Id(PY), 0, G);
  // Launch 3 needs Z: X goes (least recently used, clean).
  L.newEpoch();
  ASSERT_TRUE(L.makeValid(A, Id(PZ), 0, G));
  EXPECT_TRUE(L.validOn(A, Id(PX)).empty());
  EXPECT_EQ(L.heldBytes()[A].Evicted, G);
  EXPECT_EQ(L.stats().BytesD2H, 0u);
  // Launch 4 needs X again: Y (written on A only) goes home first.
  L.newEpoch();
  ASSERT_TRUE(L.makeValid(A, Id(PX), 0, G));
  EXPECT_TRUE(L.validOn(A, Id(PY)).empty());
  EXPECT_TRUE(L.validOn(HostNode, Id(PY)).contains(0, G));
  EXPECT_EQ(L.stats().BytesD2H, G);
  std::vector<char> Got(G);
  ASSERT_TRUE(L.read(Got.data(), PY, G));
  EXPECT_EQ(Got, std::vector<char>(G, 9));
  // One launch that needs three granules on a node of two: no room, and
  // what it made valid stays.
  L.newEpoch();
  ASSERT_TRUE(L.makeValid(A, Id(PX), 0, G));
  ASSERT_TRUE(L.makeValid(A, Id(PZ), 0, G));
  Status S = L.makeValid(A, Id(PY), 0, G);
  EXPECT_EQ(S.code(), StatusCode::NoRoom);
  EXPECT_TRUE(L.validOn(A, Id(PX)).contains(0, G));
  EXPECT_TRUE(L.validOn(A, Id(PZ)).contains(0, G));
  // Nothing was evicted for it: it could not have made room.
  EXPECT_EQ(L.heldBytes()[A].Evicted, 2 * G);
  // A request larger than the node evicts nothing either.
  L.newEpoch();
  void *Big = L.allocate(3 * G);
  EXPECT_EQ(L.makeValid(A, Id(Big), 0, 3 * G).code(), StatusCode::NoRoom);
  EXPECT_TRUE(L.validOn(A, Id(PX)).contains(0, G));
  EXPECT_EQ(L.heldBytes()[A].Evicted, 2 * G);
  EXPECT_TRUE(L.release(Big));
  EXPECT_TRUE(L.release(PX));
  EXPECT_TRUE(L.release(PY));
  EXPECT_TRUE(L.release(PZ));
}

// Evicted bytes come back: the evicting node is asked to pin their host
// side (NodeOps::pinHost: a GPU's copies then run at its link's rate), and
// every node to unpin a buffer's host storage before it is freed.
TEST(DataLayerEviction, EvictedHostRangesArePinnedUntilTheBufferGoes) {
  struct Recording : SimulatedNodeOps {
    using SimulatedNodeOps::SimulatedNodeOps;
    std::vector<std::pair<const void *, uint64_t>> Pinned, Unpinned;
    void pinHost(const void *P, uint64_t Size) override {
      Pinned.emplace_back(P, Size);
    }
    void unpinHost(const void *P, uint64_t Size) override {
      Unpinned.emplace_back(P, Size);
    }
  };
  const uint64_t G = SimulatedNodeOps::Granule;
  DataLayer L;
  auto Node = std::make_unique<Recording>(0, 2 * G);
  Recording &R = *Node;
  NodeId A = L.addNode(std::move(Node));
  void *PX = L.allocate(G), *PY = L.allocate(G), *PZ = L.allocate(G);
  std::vector<char> V(G, 1);
  for (void *P : {PX, PY, PZ})
    ASSERT_TRUE(L.write(P, V.data(), G));
  auto Id = [&](void *P) { return L.find(reinterpret_cast<uintptr_t>(P))->Id; };
  for (void *P : {PX, PY}) {
    L.newEpoch();
    ASSERT_TRUE(L.makeValid(A, Id(P), 0, G));
  }
  EXPECT_TRUE(R.Pinned.empty()); // nothing evicted yet
  L.newEpoch();
  ASSERT_TRUE(L.makeValid(A, Id(PZ), 0, G)); // X goes
  using Call = std::pair<const void *, uint64_t>;
  EXPECT_EQ(R.Pinned, (std::vector<Call>{{PX, G}}));
  EXPECT_TRUE(L.release(PY));
  EXPECT_TRUE(R.Unpinned.empty()); // Y was never evicted
  EXPECT_TRUE(L.release(PX));
  EXPECT_EQ(R.Unpinned, (std::vector<Call>{{PX, G}}));
  EXPECT_TRUE(L.release(PZ));
  EXPECT_EQ(R.Unpinned.size(), 1u);
}

// A launch that streams through a buffer larger than the node (a round of
// Engine.h's) may evict the blocks of that buffer it does not use there:
// bytes only the node holds go home first; the blocks it uses stay.
TEST(DataLayerEviction, TheBlocksALaunchDoesNotUseGoFromABufferInUse) {
  const uint64_t G = SimulatedNodeOps::Granule;
  const uint64_t Block = SimulatedNodeOps(0, 0).backingBlock();
  DataLayer L;
  NodeId A = L.addNode(std::make_unique<SimulatedNodeOps>(0, 3 * Block));
  std::vector<char> V(4 * Block, 1);
  void *P = L.allocate(V.size());
  ASSERT_TRUE(L.write(P, V.data(), V.size()));
  BufferId Id = L.find(reinterpret_cast<uintptr_t>(P))->Id;
  // Round 1 writes blocks 0-2 on A (valid there only).
  L.newEpoch();
  L.willUse(A, {{Id, RangeSet()}});
  ASSERT_TRUE(L.makeValid(A, Id, 0, 3 * Block));
  uintptr_t OnA = 0;
  ASSERT_TRUE(L.translate(A, reinterpret_cast<uintptr_t>(P), OnA));
  std::memset(reinterpret_cast<void *>(OnA), 7, 3 * Block);
  L.markWritten(A, Id, 0, 3 * Block);
  // Round 2 uses block 3 and one granule of block 2 (its halo): blocks 0
  // and 1 go home and leave A; block 2 stays.
  L.newEpoch();
  RangeSet Used;
  Used.insert(3 * Block - G, 4 * Block);
  L.willUse(A, {{Id, Used}});
  ASSERT_TRUE(L.makeValid(A, Id, 3 * Block - G, 4 * Block));
  EXPECT_EQ(L.heldBytes()[A].Evicted, 2 * Block);
  EXPECT_EQ(L.stats().BytesD2H, 2 * Block);
  EXPECT_TRUE(L.validOn(A, Id).contains(2 * Block, 4 * Block));
  EXPECT_FALSE(L.validOn(A, Id).contains(0, G));
  std::vector<char> Got(V.size());
  ASSERT_TRUE(L.read(Got.data(), P, Got.size()));
  EXPECT_EQ(Got[0], 7);
  EXPECT_EQ(Got[2 * Block - 1], 7);
  EXPECT_EQ(Got[3 * Block - 1], 7);
  EXPECT_EQ(Got[4 * Block - 1], 1);
  // Ranges a launch will use (willUse) are kept before they are made valid.
  L.newEpoch();
  RangeSet Three;
  Three.insert(0, 3 * Block);
  L.willUse(A, {{Id, Three}});
  ASSERT_TRUE(L.makeValid(A, Id, 0, 2 * Block));
  EXPECT_TRUE(L.validOn(A, Id).contains(2 * Block, 3 * Block));
  EXPECT_FALSE(L.validOn(A, Id).contains(3 * Block, 3 * Block + G));
  EXPECT_TRUE(L.release(P));
}

namespace {
/// One buffer of Blocks eviction blocks (all ones) on a simulated node of
/// four, as a launch in rounds finds it: rounds write ranges of it there.
struct RoundsOnOneNode {
  const uint64_t Block = SimulatedNodeOps(0, 0).backingBlock();
  DataLayer L;
  NodeId A;
  void *P = nullptr;
  BufferId Id = 0;
  uintptr_t OnA = 0;
  explicit RoundsOnOneNode(uint64_t Blocks)
      : A(L.addNode(std::make_unique<SimulatedNodeOps>(0, 4 * Block))) {
    std::vector<char> V(Blocks * Block, 1);
    P = L.allocate(V.size());
    EXPECT_TRUE(L.write(P, V.data(), V.size()));
    Id = L.find(reinterpret_cast<uintptr_t>(P))->Id;
    EXPECT_TRUE(L.translate(A, reinterpret_cast<uintptr_t>(P), OnA));
  }
  /// A round writes Value over [Lo, Hi) on the node.
  void written(uint64_t Lo, uint64_t Hi, char Value) {
    L.newEpoch();
    ASSERT_TRUE(L.makeValid(A, Id, Lo, Hi));
    std::memset(reinterpret_cast<void *>(OnA + Lo), Value, Hi - Lo);
    L.markWritten(A, Id, Lo, Hi);
  }
  DataLayer::BufferRanges ranges(uint64_t Lo, uint64_t Hi) const {
    RangeSet S;
    S.insert(Lo, Hi);
    return {{Id, S}};
  }
  /// The host's view of byte At.
  char hostByte(uint64_t At) {
    char C = 0;
    EXPECT_TRUE(L.read(&C, static_cast<char *>(P) + At, 1));
    return C;
  }
};
} // namespace

// A streaming round of a launch in rounds (Engine.h) gives back what it
// used there, but the blocks the first round's data keeps: bytes only the
// node holds go home first; ranges the node does not hold change nothing.
TEST(DataLayerEviction, ARoundGivesBackWhatItUsedButTheBlocksThatStay) {
  RoundsOnOneNode R(4);
  const uint64_t G = SimulatedNodeOps::Granule, Block = R.Block;
  DataLayer &L = R.L;
  R.written(0, 2 * Block, 5); // the first round: blocks 0 and 1 stay
  // The next round reads a granule of block 1 (its halo), writes block 2.
  R.written(2 * Block, 3 * Block, 6);
  ASSERT_TRUE(L.giveBack(R.A, R.ranges(2 * Block - G, 3 * Block),
                         R.ranges(0, 2 * Block)));
  EXPECT_EQ(L.heldBytes()[R.A].Evicted, Block);
  EXPECT_EQ(L.stats().BytesD2H, Block);
  EXPECT_TRUE(L.validOn(R.A, R.Id).contains(0, 2 * Block));
  EXPECT_FALSE(L.validOn(R.A, R.Id).contains(2 * Block, 2 * Block + G));
  EXPECT_TRUE(L.validOn(HostNode, R.Id).contains(2 * Block, 3 * Block));
  // Block 3, never held there, and block 2 again: nothing moves.
  ASSERT_TRUE(L.giveBack(R.A, R.ranges(2 * Block - G, 4 * Block),
                         R.ranges(0, 2 * Block)));
  EXPECT_EQ(L.heldBytes()[R.A].Evicted, Block);
  EXPECT_EQ(L.stats().BytesD2H, Block);
  EXPECT_EQ(R.hostByte(0), 5);
  EXPECT_EQ(R.hostByte(2 * Block - 1), 5);
  EXPECT_EQ(R.hostByte(2 * Block), 6);
  EXPECT_EQ(R.hostByte(4 * Block - 1), 1);
  EXPECT_TRUE(L.release(R.P));
}

// Given back later (giveBackLater), the blocks go in the node's next
// prepareChunk, their bytes home while that chunk's data comes in, but not
// the blocks that chunk needs; giveBackNow runs what is still pending.
TEST(DataLayerEviction, ALaterGiveBackGoesWhileTheNextChunkComesIn) {
  RoundsOnOneNode R(6);
  const uint64_t Block = R.Block;
  DataLayer &L = R.L;
  R.written(0, Block, 5);         // stays
  R.written(Block, 3 * Block, 6); // a round, given back later
  ASSERT_TRUE(
      L.giveBackLater(R.A, R.ranges(Block, 3 * Block), R.ranges(0, Block)));
  EXPECT_EQ(L.heldBytes()[R.A].Evicted, 0u); // not yet
  // The next round needs block 3 and, as its halo, block 2: block 1 goes.
  RangeSet Read, Write, Span;
  Read.insert(2 * Block, 4 * Block);
  Span = Read;
  std::vector<DataLayer::ChunkNeed> Needs = {{R.Id, &Read, &Write, &Span}};
  L.newEpoch();
  ASSERT_TRUE(L.prepareChunk(R.A, Needs, nullptr));
  EXPECT_EQ(L.heldBytes()[R.A].Evicted, Block);
  EXPECT_EQ(L.stats().BytesD2H, Block);
  EXPECT_TRUE(L.validOn(R.A, R.Id).contains(0, Block));
  EXPECT_FALSE(L.validOn(R.A, R.Id).contains(Block, Block + 1));
  EXPECT_TRUE(L.validOn(R.A, R.Id).contains(2 * Block, 4 * Block));
  EXPECT_TRUE(L.validOn(HostNode, R.Id).contains(Block, 2 * Block));
  // Pending at the end of a launch: giveBackNow.
  ASSERT_TRUE(
      L.giveBackLater(R.A, R.ranges(2 * Block, 4 * Block), R.ranges(0, Block)));
  ASSERT_TRUE(L.giveBackNow());
  EXPECT_EQ(L.heldBytes()[R.A].Evicted, 3 * Block);
  EXPECT_EQ(L.stats().BytesD2H, 2 * Block); // block 3 was clean
  EXPECT_TRUE(L.validOn(R.A, R.Id).contains(0, Block));
  EXPECT_FALSE(L.validOn(R.A, R.Id).contains(2 * Block, 2 * Block + 1));
  EXPECT_EQ(R.hostByte(0), 5);
  EXPECT_EQ(R.hostByte(Block), 6);
  EXPECT_EQ(R.hostByte(3 * Block - 1), 6);
  EXPECT_EQ(R.hostByte(3 * Block), 1);
  EXPECT_TRUE(L.release(R.P)); // not busy: the release does not wait
}

// A whole launch whose buffers together exceed the node is refused before
// anything moves or is evicted for it.
TEST(DataLayerEviction, AWholeLaunchLargerThanTheNodeMovesNothing) {
  const uint64_t G = SimulatedNodeOps::Granule;
  DataLayer L;
  NodeId A = L.addNode(std::make_unique<SimulatedNodeOps>(0, 2 * G));
  std::vector<char> V(G, 5);
  std::vector<uintptr_t> Args;
  for (int I = 0; I < 3; ++I) {
    void *P = L.allocate(G);
    ASSERT_TRUE(L.write(P, V.data(), G));
    Args.push_back(reinterpret_cast<uintptr_t>(P));
  }
  L.newEpoch();
  std::vector<uintptr_t> NodeArgs = Args;
  std::vector<BufferId> Touched;
  EXPECT_EQ(L.acquireWhole(A, NodeArgs, Touched).code(), StatusCode::NoRoom);
  EXPECT_EQ(L.stats().BytesH2D, 0u);
  EXPECT_EQ(L.heldBytes()[A].Held, 0u);
  NodeArgs.pop_back(); // two fit
  ASSERT_TRUE(L.acquireWhole(A, NodeArgs, Touched));
  EXPECT_EQ(L.stats().BytesH2D, 2 * G);
  for (uintptr_t P : Args)
    EXPECT_TRUE(L.release(reinterpret_cast<void *>(P)));
}

// Host copies from DataLayer::ParallelHostCopy bytes on go over the shared
// copier's threads: every byte arrives, both ways, at any offset.
TEST_F(Fixture, LargeHostCopiesArriveWhole) {
  const size_t Size = DataLayer::ParallelHostCopy + 12345;
  std::vector<unsigned char> V(Size);
  for (size_t I = 0; I < Size; ++I)
    V[I] = static_cast<unsigned char>(I * 2654435761u >> 13);
  void *P = L.allocate(Size + 8);
  ASSERT_NE(P, nullptr);
  ASSERT_TRUE(L.write(static_cast<char *>(P) + 8, V.data(), Size));
  std::vector<unsigned char> Got(Size);
  ASSERT_TRUE(L.read(Got.data(), static_cast<char *>(P) + 8, Size));
  EXPECT_EQ(Got, V);
  EXPECT_TRUE(L.release(P));
}

TEST_F(Fixture, EachNodeCountsTheStorageItHoldsAndItsPeak) {
  const uint64_t Small = 4096, Large = 3 * 4096;
  void *P = L.allocate(Small);
  void *Q = L.allocate(Large);
  ASSERT_NE(P, nullptr);
  ASSERT_NE(Q, nullptr);
  std::vector<NodeBytes> H = L.heldBytes();
  ASSERT_GT(H.size(), static_cast<size_t>(B));
  EXPECT_EQ(H[HostNode].Held, Small + Large); // the mapped buffers
  EXPECT_EQ(H[A].Held, 0u);
  // A node holds a whole buffer once a kernel there touches any of it.
  ASSERT_TRUE(L.makeValid(A, id(P), 0, 8));
  ASSERT_TRUE(L.makeValid(B, id(Q), 0, 8));
  ASSERT_TRUE(L.makeValid(A, id(Q), 8, 16));
  H = L.heldBytes();
  EXPECT_EQ(H[A].Held, Small + Large);
  EXPECT_EQ(H[B].Held, Large);
  ASSERT_TRUE(L.release(Q));
  H = L.heldBytes();
  EXPECT_EQ(H[HostNode].Held, Small);
  EXPECT_EQ(H[A].Held, Small);
  EXPECT_EQ(H[B].Held, 0u);
  // The peaks stay.
  EXPECT_EQ(H[HostNode].Peak, Small + Large);
  EXPECT_EQ(H[A].Peak, Small + Large);
  EXPECT_EQ(H[B].Peak, Large);
  ASSERT_TRUE(L.release(P));
  EXPECT_EQ(L.heldBytes()[A].Held, 0u);
}

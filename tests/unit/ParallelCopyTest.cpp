//===- ParallelCopyTest.cpp - ParallelCopier against memcpy ---------------===//
#include "hetero/ParallelCopy.h"

#include <gtest/gtest.h>

#include <cstring>
#include <thread>
#include <vector>

using hetero::ParallelCopier;

namespace {
std::vector<unsigned char> pattern(size_t N, unsigned Seed) {
  std::vector<unsigned char> V(N);
  for (size_t I = 0; I < N; ++I)
    V[I] = static_cast<unsigned char>((I * 2654435761u + Seed) >> 7);
  return V;
}
} // namespace

// Sizes around the piece boundaries: below two pieces (one memcpy), uneven
// last pieces, offsets that are not page-aligned.
TEST(ParallelCopy, CopiesEveryByteOnce) {
  ParallelCopier C(4);
  const size_t M = ParallelCopier::MinPiece;
  for (size_t N : {size_t(0), size_t(1), M, 2 * M - 1, 2 * M, 5 * M + 12345,
                   17 * M + 4095}) {
    std::vector<unsigned char> Src = pattern(N + 7, static_cast<unsigned>(N));
    std::vector<unsigned char> Dst(N + 16, 0xAB);
    C.copy(Dst.data() + 3, Src.data() + 7, N);
    EXPECT_EQ(0, std::memcmp(Dst.data() + 3, Src.data() + 7, N)) << N;
    for (size_t I : {size_t(0), size_t(1), size_t(2)})
      EXPECT_EQ(Dst[I], 0xAB) << N;
    for (size_t I = N + 3; I < N + 16; ++I)
      EXPECT_EQ(Dst[I], 0xAB) << N;
  }
}

// Copies one after the other reuse the helpers (a late helper must not take
// a piece of the next copy with the last one's addresses), and copies from
// several threads at once all complete, in parallel or on their own thread.
TEST(ParallelCopy, BackToBackAndConcurrentCopies) {
  ParallelCopier C(3);
  const size_t N = 3 * ParallelCopier::MinPiece + 999;
  std::vector<std::vector<unsigned char>> Src, Dst;
  for (unsigned T = 0; T < 4; ++T) {
    Src.push_back(pattern(N, T));
    Dst.emplace_back(N, 0);
  }
  for (int Round = 0; Round < 20; ++Round)
    for (unsigned T = 0; T < 4; ++T) {
      C.copy(Dst[T].data(), Src[(T + Round) % 4].data(), N);
      ASSERT_EQ(Dst[T], Src[(T + Round) % 4]) << Round;
    }
  std::vector<std::thread> Threads;
  for (unsigned T = 0; T < 4; ++T)
    Threads.emplace_back([&, T] {
      for (int Round = 0; Round < 10; ++Round) {
        std::vector<unsigned char> Out(N, 0);
        C.copy(Out.data(), Src[T].data(), N);
        EXPECT_EQ(Out, Src[T]);
      }
    });
  for (std::thread &T : Threads)
    T.join();
}

TEST(ParallelCopy, OneThreadIsMemcpy) {
  ParallelCopier C(1);
  std::vector<unsigned char> Src = pattern(4 * ParallelCopier::MinPiece, 9);
  std::vector<unsigned char> Dst(Src.size());
  C.copy(Dst.data(), Src.data(), Src.size());
  EXPECT_EQ(Dst, Src);
  EXPECT_EQ(C.threads(), 1u);
}

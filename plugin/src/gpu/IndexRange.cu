//===- IndexRange.cu - The inspector's least and greatest value, on a GPU -===//
//
// The run-time inspector of indirect accesses (DataLayer::loadRange) bounds
// the values of an index array over the range a chunk reaches: CG's column
// indices, 336 MB at 16.7M rows. Copied to the host in pieces and scanned
// there they took about 130 ms on an H200; read where they lie by this
// kernel, a fraction of a millisecond. The plugin embeds one cubin of it
// per GPU generation and launches it as a bare kernel (CudaIndexRange.h).
//
//===----------------------------------------------------------------------===//

namespace {
constexpr unsigned Threads = 256;

// T: the values' type; W: the 64-bit type they extend to (signed or not).
template <typename T, typename W>
__device__ void blockRange(const unsigned char *Base, unsigned long long Stride,
                           unsigned long long Count, W Lo, W Hi,
                           long long *Out) {
  unsigned long long Step = (unsigned long long)gridDim.x * blockDim.x;
  for (unsigned long long I =
           (unsigned long long)blockIdx.x * blockDim.x + threadIdx.x;
       I < Count; I += Step) {
    W V = W(*reinterpret_cast<const T *>(Base + I * Stride));
    Lo = V < Lo ? V : Lo;
    Hi = V > Hi ? V : Hi;
  }
  for (unsigned Off = 16; Off > 0; Off /= 2) {
    W L = __shfl_down_sync(0xffffffffu, Lo, Off);
    W H = __shfl_down_sync(0xffffffffu, Hi, Off);
    Lo = L < Lo ? L : Lo;
    Hi = H > Hi ? H : Hi;
  }
  __shared__ W WarpLo[Threads / 32], WarpHi[Threads / 32];
  if (threadIdx.x % 32 == 0) {
    WarpLo[threadIdx.x / 32] = Lo;
    WarpHi[threadIdx.x / 32] = Hi;
  }
  __syncthreads();
  if (threadIdx.x != 0)
    return;
  for (unsigned Wp = 1; Wp < blockDim.x / 32; ++Wp) {
    Lo = WarpLo[Wp] < Lo ? WarpLo[Wp] : Lo;
    Hi = WarpHi[Wp] > Hi ? WarpHi[Wp] : Hi;
  }
  Out[2 * blockIdx.x] = (long long)Lo;
  Out[2 * blockIdx.x + 1] = (long long)Hi;
}

template <typename S, typename U>
__device__ void typedRange(bool Signed, const unsigned char *Base,
                           unsigned long long Stride, unsigned long long Count,
                           long long *Out) {
  if (Signed)
    blockRange<S, long long>(Base, Stride, Count, 0x7fffffffffffffffLL,
                             -0x7fffffffffffffffLL - 1, Out);
  else
    blockRange<U, unsigned long long>(Base, Stride, Count, ~0ULL, 0ULL, Out);
}
} // namespace

// Block B's least and greatest among Count values of Type & 255 bytes (1,
// 2, 4 or 8; signed when Type has bit 8) at Base, Base + Stride, ...:
// Out[2 * B] and Out[2 * B + 1], as 64-bit patterns (signed values
// sign-extended, unsigned ones zero-extended); a block without values
// writes the identities. Launched with blockDim.x == Threads. Every
// parameter is 8 bytes: the cuda plugin passes a bare kernel's arguments as
// one buffer of pointer-sized slots.
extern "C" __global__ void __launch_bounds__(Threads)
    hetero_index_range(const unsigned char *Base, unsigned long long Stride,
                       unsigned long long Count, unsigned long long Type,
                       long long *Out) {
  bool Signed = Type & 256;
  switch (Type & 255) {
  case 1:
    return typedRange<signed char, unsigned char>(Signed, Base, Stride, Count,
                                                  Out);
  case 2:
    return typedRange<short, unsigned short>(Signed, Base, Stride, Count, Out);
  case 4:
    return typedRange<int, unsigned>(Signed, Base, Stride, Count, Out);
  default:
    return typedRange<long long, unsigned long long>(Signed, Base, Stride,
                                                     Count, Out);
  }
}

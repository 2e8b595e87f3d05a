// The fixed-capacity messages of the MPCD solvent's device migration
// (mpcd_domain_messages.cuh; the operation is mpcd_domain.cu's). Nothing
// here needs a count on the host: the leavers' counts, the kept count and
// the arrivals' counts are device words, and every launch is sized by the
// capacity.
#include "meso/cuda/check.hpp"
#include "mpcd/mpcd_domain_messages.cuh"
#include "mpcd/mpcd_kernels.cuh"

namespace meso::cuda {
namespace {

// The leavers in one pass (classify_leavers' rule, then the selection) over
// the n = solvent_count(p) particles: code[i] (0 stays, 1 towards lo, 2
// towards hi), leavers appended to list0 (w[kLo]) and list1 (w[kHi]), each
// of cap entries (a larger count says that it overflowed), and the strays,
// leavers whose position lies beyond the neighbour they go to (domains of
// equal width hi - lo; none with two ranks along the axis), in w[kStrays].
// The lists' order is the order warps arrive in: the collision's
// fixed-point cell sums do not see the order of the solvent.
template <class S4>
__global__ void leavers_kernel(MpcdView<S4> p, SlabArgs s, uint8_t* __restrict__ code, uint32_t* __restrict__ list0,
                               uint32_t* __restrict__ list1, uint32_t cap, uint32_t* __restrict__ w) {
  const uint32_t i = blockIdx.x * blockDim.x + threadIdx.x;
  uint8_t c = 0;
  if (i < solvent_count(p)) {
    const Vec3d r = xyz(p.pos[i]);
    double u = (s.axis == 0 ? r.x : s.axis == 1 ? r.y : r.z) - s.lo;
    if (u < 0.0) u += s.length;
    if (u >= s.length) u -= s.length;
    const double width = s.hi - s.lo;
    c = u < width ? 0 : (s.length - u) < (u - width) ? 1 : 2;
    code[i] = c;
    if (c == 1 ? s.length - u > width : c == 2 && u >= 2.0 * width) atomicAdd(w + kStrays, 1u);
  }
  append(c == 1, list0, w + kLo, i, cap);
  append(c == 2, list1, w + kHi, i, cap);
}

// One thread: what leaves (nothing when a side holds more than the
// messages' capacity), the kept count, the two messages' headers, the
// migration's report words, and the solvent's fault count (CudaMpcd::live[1]).
__global__ void settle_kernel(uint32_t* __restrict__ w, const uint32_t* __restrict__ live,
                              uint32_t* __restrict__ faults, uint32_t cap, double* __restrict__ out,
                              uint32_t* __restrict__ acc) {
  const uint32_t c0 = w[kLo], c1 = w[kHi], most = max(c0, c1);
  const bool over = most > cap;
  const uint32_t s0 = over ? 0u : c0, s1 = over ? 0u : c1;
  w[kSentLo] = s0;
  w[kSentHi] = s1;
  w[kKept] = *live - s0 - s1;
  out[0] = double(s0);
  out[std::size_t(cap + 1) * kMpcdRecord] = double(s1);
  acc[kMost] = max(acc[kMost], most);
  acc[kStrayTotal] += w[kStrays];
  if (over) acc[kOverflowTotal] += most;
  if (over || w[kStrays]) *faults += 1u;
}

// Leaver k of the sent ones into its message: thread k < cap of side 0, k
// - cap of side 1 (record 0 of a message is its header).
template <class S4>
__global__ void pack_messages_kernel(MpcdView<S4> p, const uint32_t* __restrict__ list0,
                                     const uint32_t* __restrict__ list1, const uint32_t* __restrict__ w, uint32_t cap,
                                     double* __restrict__ out) {
  const uint32_t t = blockIdx.x * blockDim.x + threadIdx.x;
  const uint32_t side = t / cap, k = t % cap;
  if (side > 1 || k >= w[kSentLo + side]) return;
  const uint32_t i = (side ? list1 : list0)[k];
  pack_record(p, i, out + (std::size_t(side) * (cap + 1) + 1 + k) * kMpcdRecord);
}

// The holes the sent leavers leave below the kept count (from the leaver
// lists: w[kSentLo] + w[kSentHi] entries) and the stayers at or above it
// (slots [kept, n), as many), appended to holes (w[kHoles]) and movers
// (w[kMovers]): mover k then fills hole k. Work in proportion to the
// leavers; `bound` >= their number sizes the launch.
__global__ void holes_kernel(const uint8_t* __restrict__ code, const uint32_t* __restrict__ list0,
                             const uint32_t* __restrict__ list1, uint32_t* __restrict__ w,
                             uint32_t* __restrict__ holes, uint32_t* __restrict__ movers) {
  const uint32_t k = blockIdx.x * blockDim.x + threadIdx.x;
  const uint32_t c0 = w[kSentLo], c1 = w[kSentHi], kept = w[kKept];
  bool hole = false, mover = false;
  uint32_t h = 0, m = 0;
  if (k < c0 + c1) {
    h = k < c0 ? list0[k] : list1[k - c0];
    hole = h < kept;
    m = kept + k;  // < n: n - kept = c0 + c1
    mover = code[m] == 0;
  }
  append(hole, holes, w + kHoles, h);
  append(mover, movers, w + kMovers, m);
}

// The two arrived messages appended at the kept count (thread layout as
// pack_messages_kernel), then (one thread) the new count.
__device__ __forceinline__ uint32_t header_count(const double* in, uint32_t side, uint32_t cap) {
  return min(uint32_t(in[std::size_t(side) * (cap + 1) * kMpcdRecord]), cap);
}
template <class S4>
__global__ void unpack_messages_kernel(MpcdView<S4> p, const double* __restrict__ in, const uint32_t* __restrict__ w,
                                       uint32_t cap) {
  const uint32_t t = blockIdx.x * blockDim.x + threadIdx.x;
  const uint32_t side = t / cap, k = t % cap;
  if (side > 1 || k >= header_count(in, side, cap)) return;
  const uint32_t at = w[kKept] + (side ? header_count(in, 0, cap) : 0u) + k;
  unpack_record(p, in + (std::size_t(side) * (cap + 1) + 1 + k) * kMpcdRecord, at);
}
__global__ void arrived_kernel(const double* __restrict__ in, const uint32_t* __restrict__ w, uint32_t cap,
                               uint32_t* __restrict__ live) {
  *live = w[kKept] + header_count(in, 0, cap) + header_count(in, 1, cap);
}

}  // namespace

template <class S4>
void mpcd_pack_messages(MpcdView<S4> v, const SlabArgs& s, uint32_t cap, uint8_t* code, uint32_t* list0,
                        uint32_t* list1, uint32_t* holes, uint32_t* movers, uint32_t* w, uint32_t* acc,
                        uint32_t* faults, double* out, cudaStream_t st) {
  MESO_CUDA_CHECK(cudaMemsetAsync(w, 0, kAxisWords * sizeof(uint32_t), st));
  if (v.n) {
    const uint32_t bn = mpcd_migration::blocks(v.n);
    leavers_kernel<S4><<<bn, kMpcdMigrationBlock, 0, st>>>(v, s, code, list0, list1, cap, w);
    MESO_CUDA_CHECK(cudaGetLastError());
  }
  settle_kernel<<<1, 1, 0, st>>>(w, v.live, faults, cap, out, acc);
  MESO_CUDA_CHECK(cudaGetLastError());
  const uint32_t b = mpcd_migration::blocks(2 * cap);
  pack_messages_kernel<S4><<<b, kMpcdMigrationBlock, 0, st>>>(v, list0, list1, w, cap, out);
  MESO_CUDA_CHECK(cudaGetLastError());
  holes_kernel<<<b, kMpcdMigrationBlock, 0, st>>>(code, list0, list1, w, holes, movers);
  MESO_CUDA_CHECK(cudaGetLastError());
  mpcd_move_slots<S4>(v, movers, holes, w + kHoles, 2 * cap, st);
}

template <class S4>
void mpcd_count_leavers(MpcdView<S4> v, const SlabArgs& s, uint8_t* code, uint32_t* w, cudaStream_t st) {
  MESO_CUDA_CHECK(cudaMemsetAsync(w, 0, kAxisWords * sizeof(uint32_t), st));
  if (!v.n) return;
  // Lists of no entries: the leavers are counted, none stored.
  leavers_kernel<S4><<<mpcd_migration::blocks(v.n), kMpcdMigrationBlock, 0, st>>>(v, s, code, nullptr, nullptr, 0u, w);
  MESO_CUDA_CHECK(cudaGetLastError());
}

template <class S4>
void mpcd_unpack_messages(MpcdView<S4> v, const double* in, const uint32_t* w, uint32_t cap, uint32_t* live,
                          cudaStream_t st) {
  const uint32_t b = mpcd_migration::blocks(2 * cap);
  unpack_messages_kernel<S4><<<b, kMpcdMigrationBlock, 0, st>>>(v, in, w, cap);
  MESO_CUDA_CHECK(cudaGetLastError());
  arrived_kernel<<<1, 1, 0, st>>>(in, w, cap, live);
  MESO_CUDA_CHECK(cudaGetLastError());
}

#define MESO_INSTANTIATE(S4)                                                                                   \
  template void mpcd_pack_messages<S4>(MpcdView<S4>, const SlabArgs&, uint32_t, uint8_t*, uint32_t*, uint32_t*, \
                                       uint32_t*, uint32_t*, uint32_t*, uint32_t*, uint32_t*, double*,          \
                                       cudaStream_t);                                                           \
  template void mpcd_unpack_messages<S4>(MpcdView<S4>, const double*, const uint32_t*, uint32_t, uint32_t*,     \
                                         cudaStream_t);                                                         \
  template void mpcd_count_leavers<S4>(MpcdView<S4>, const SlabArgs&, uint8_t*, uint32_t*, cudaStream_t);
MESO_INSTANTIATE(Double4)
MESO_INSTANTIATE(float4)
#undef MESO_INSTANTIATE

}  // namespace meso::cuda

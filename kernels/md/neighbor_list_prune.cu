// Dynamic pruning (GROMACS's, Páll et al., J. Chem. Phys. 153, 134110,
// 2020; RunParams::inner_skin): the list the forces read is filtered on the
// GPU from an outer list built with a larger skin, keeping the entries within
// r_c + inner_skin in their order, so a pruned row is its outer row less the
// far pairs (a half row stays a half row, a ballot row keeps its core run
// first). When to prune and when to rebuild the outer list instead is the
// step control's (StepRules::prune_suffices); this kernel is the prune.
//
// Why: a build tests every candidate of 27 cells (about 7 per list entry at
// DPD densities) however thin the skin, while a prune reads one outer row.
// A thin inner skin then keeps the force kernel's rows short without paying
// a build at every refresh.
//
// The pair geometry is the force kernels' (MinImage in the storage
// precision), and fp32 widens r_inner^2 by 2^-20 relative as the builders
// widen r_list^2, so rounding can add a pair but never drop one inside r_c +
// inner_skin.
//
// Column-major rows (tpp = 1) take one thread a row, read and written
// coalesced across the warp, with kUnroll slots' indices and then positions
// in flight before any is tested (one dependent gather at a time left the
// first version latency-bound: 200 us a prune at N = 1M, half the force
// kernel). Row-major rows (tpp > 1, LJ's) take the row's TPP lanes, each a
// slot of TPP consecutive ones, compacted in slot order by a ballot (one
// thread a row read each row's 128 slots alone: 95 us for LJ's 25 us force).
#include "meso/cuda/check.hpp"
#include "core/tpp_dispatch.cuh"
#include "md/neighbor_list.cuh"

namespace meso::cuda {
namespace {

constexpr uint32_t kPruneBlock = 256;
constexpr uint32_t kUnroll = 4;

template <class R, class S4>
__device__ __forceinline__ bool inside(const S4& pi, const S4& pj, const MinImage<R>& box, R r_sq) {
  R dx = R(pi.x) - R(pj.x), dy = R(pi.y) - R(pj.y), dz = R(pi.z) - R(pj.z);
  box.apply(dx, dy, dz);
  return dx * dx + dy * dy + dz * dz < r_sq;
}

template <class S4, uint32_t TPP>
__global__ void __launch_bounds__(kPruneBlock)
    prune_kernel(const S4* __restrict__ pos, S4* __restrict__ last_pos, NlistPruneArgs a) {
  using R = BuildReal<S4>;
  StepControl* ctl = a.ctl;
  // Stopped by an overflow of the build before it, or of another block of
  // this prune (the host grows the capacity and prunes every row again):
  // read once for the block, which must agree before its __syncthreads.
  __shared__ uint32_t stopped;
  if (threadIdx.x == 0) stopped = *static_cast<volatile unsigned int*>(&ctl->abort);
  __syncthreads();
  if (stopped) return;
  const uint32_t t = blockIdx.x * blockDim.x + threadIdx.x;
  const uint32_t i = t / TPP, sub = t % TPP, lane = threadIdx.x & 31u;
  const MinImage<R> box(a.box);
  const R r_sq = R(a.r_inner_sq);
  const NlistView& in = a.outer;
  const NlistView& out = a.inner;
  const bool row = i < a.n;
  S4 pi{};
  uint32_t c = 0, m = 0;
  if (row) {
    pi = pos[i];
    c = min(in.count[i], in.cap);
  }
  if constexpr (TPP == 1) {
    for (uint32_t k0 = 0; k0 < c; k0 += kUnroll) {
      uint32_t j[kUnroll];
      S4 pj[kUnroll];
#pragma unroll
      for (uint32_t u = 0; u < kUnroll; ++u) j[u] = k0 + u < c ? __ldg(in.idx + in.at(i, k0 + u)) : i;
#pragma unroll
      for (uint32_t u = 0; u < kUnroll; ++u) pj[u] = ldg4(pos + j[u]);
#pragma unroll
      for (uint32_t u = 0; u < kUnroll; ++u) {
        if (k0 + u < c && inside(pi, pj[u], box, r_sq)) {
          if (m < out.cap) out.idx[out.at(i, m)] = j[u];
          ++m;
        }
      }
    }
  } else {
    // Every lane of the warp takes part in each round's ballot (the rounds
    // of the warp's longest row); the row's bits are its group's.
    const uint32_t rounds = __reduce_max_sync(0xffffffffu, c);
    const uint32_t group = TPP == 32 ? 0xffffffffu : ((1u << TPP) - 1u) << (lane & ~(TPP - 1u));
    const uint32_t below = (1u << lane) - 1u;
    for (uint32_t k0 = 0; k0 < rounds; k0 += TPP) {
      const uint32_t k = k0 + sub;
      uint32_t j = 0;
      bool hit = false;
      if (k < c) {
        j = __ldg(in.idx + in.at(i, k));
        hit = inside(pi, ldg4(pos + j), box, r_sq);
      }
      const uint32_t bits = __ballot_sync(0xffffffffu, hit) & group;
      if (hit) {
        const uint32_t slot = m + __popc(bits & below);
        if (slot < out.cap) out.idx[out.at(i, slot)] = j;
      }
      m += __popc(bits);
    }
  }
  if (row && sub == 0) {
    out.count[i] = m;
    last_pos[i] = pi;  // the reference of the next displacement check
  }
  // The block's longest pruned row: the host's shrink_to_fit sizes the
  // capacity from it, and one over the capacity stops the loop (abort), to
  // be grown and pruned again from the same outer list.
  __shared__ uint32_t warp_max[kPruneBlock / 32];
  m = __reduce_max_sync(0xffffffffu, row ? m : 0u);
  if (lane == 0) warp_max[threadIdx.x >> 5] = m;
  __syncthreads();
  if (threadIdx.x == 0) {
    for (uint32_t w = 1; w < kPruneBlock / 32; ++w) m = max(m, warp_max[w]);
    atomicMax(&ctl->list.prune_max, m);
    if (m > out.cap) {
      atomicMax(&ctl->list.prune_overflow, m);
      atomicExch(&ctl->abort, 1u);
    }
  }
  if (t == 0) {
    ctl->list.steps_since_build = 0;
    ctl->list.prunes += 1;
  }
}

}  // namespace

template <class S4>
void prune_nlist(const S4* pos, S4* last_pos, const NlistPruneArgs& a, uint32_t tpp, cudaStream_t s) {
  if (!a.n) return;
  dispatch_tpp(tpp, "prune_nlist", [&](auto k) {
    constexpr uint32_t TPP = decltype(k)::value;
    const uint64_t threads = uint64_t(a.n) * TPP;
    prune_kernel<S4, TPP><<<uint32_t((threads + kPruneBlock - 1) / kPruneBlock), kPruneBlock, 0, s>>>(pos, last_pos, a);
  });
  MESO_CUDA_CHECK(cudaGetLastError());
}

template void prune_nlist<Double4>(const Double4*, Double4*, const NlistPruneArgs&, uint32_t, cudaStream_t);
template void prune_nlist<float4>(const float4*, float4*, const NlistPruneArgs&, uint32_t, cudaStream_t);

}  // namespace meso::cuda

// The pair-force kernel over cluster-pair rows (nlist=cluster,
// md/neighbor_list_cluster.cu; GROMACS nbnxm's tile, Páll & Hess, CPC 184,
// 2641, 2013): one warp an i-cluster of kClusterI particles, one lane a pair
// of the kClusterI x kClusterJ tile, lane = ii * kClusterJ + jj. For each
// j-cluster of the row, lane (ii, jj) evaluates particle ii of the
// i-cluster against member jj of the j-cluster through the same evaluator
// hooks as pair_force_kernel (begin, box, pair, virial_share), so the
// physics is the one pair_force.cuh evaluates. The kClusterJ lanes of a
// particle then add their sums by a fixed XOR butterfly and the first of
// them finishes it (finish_particle). Full rows: each pair is visited from
// both sides, as in pair_force_kernel, without atomics. The pair step is
// pair_force_kernel's direct traversal, written out again rather than
// shared through a device function, for the reason pair_force.cuh gives
// (nvcc's register allocation of the measured kernels).
//
// Why a tile: the warp loads a j-cluster's index once for 8 particles, and
// the j members' data once for the 8 (a lane each, broadcast by the cache),
// where a full row loads an index and a position per pair and per side.
// What it costs: every lane tests a pair of the tile whether the pair is in
// range or not, and a tile holds far more pairs than the particles' rows
// (results/cuda-dpd/cluster).
#pragma once

#include <cuda_runtime.h>

#include "core/device_views.cuh"
#include "md/neighbor_list.cuh"
#include "md/pair_force.cuh"

namespace meso::cuda {

constexpr uint32_t kClusterWarps = kForceBlock / 32;
static_assert(kClusterI * kClusterJ == 32, "a tile is a warp");

// Blocks of kForceBlock threads for n particles: one warp an i-cluster.
inline uint32_t cluster_force_blocks(uint32_t n) {
  const uint32_t nci = (n + kClusterI - 1) / kClusterI;
  return (nci + kClusterWarps - 1) / kClusterWarps;
}

template <class E, bool SUMS, bool FUSE, class... X>
__global__ void __launch_bounds__(kForceBlock, E::kMinBlocks)
    cluster_pair_force_kernel(typename E::Args a, X... x) {
  using S4 = typename E::S4;
  using A = typename E::A;
  using R = typename E::R;
  const E ev{a, x...};
  const uint32_t lane = threadIdx.x & 31u, ii = lane / kClusterJ, jj = lane % kClusterJ;
  const uint32_t ci = blockIdx.x * kClusterWarps + (threadIdx.x >> 5);
  const uint32_t i = ci * kClusterI + ii;
  const uint32_t nci = (a.p.n + kClusterI - 1) / kClusterI;
  const bool row = ci < nci && !a.ctl->abort;  // the same for the whole warp
  const bool active = row && i < a.p.n;
  A fx = 0, fy = 0, fz = 0;
  double e = 0.0, w = 0.0;
  S4 pi{};
  uint32_t ti = 0;
  if (active) {
    const S4* __restrict__ pos = a.p.pos;
    const auto pe = ev.begin(i, pos, pi, ti);
    const uint32_t cnt = min(a.nl.count[ci], a.nl.cap);
    const uint32_t* __restrict__ idx = a.nl.idx + a.nl.at(ci, 0);
    for (uint32_t k = 0; k < cnt; ++k) {
      const uint32_t j = __ldg(idx + size_t(k) * a.nl.slot_stride) * kClusterJ + jj;
      if (j >= a.p.n || j == i) continue;
      take_pair<E, SUMS>(pe, pi, j, ldg4(pos + j), fx, fy, fz, e, w);
    }
  }
  for (uint32_t o = kClusterJ / 2; o > 0; o >>= 1) {
    fx += __shfl_xor_sync(0xffffffffu, fx, o);
    fy += __shfl_xor_sync(0xffffffffu, fy, o);
    fz += __shfl_xor_sync(0xffffffffu, fz, o);
  }
  if (active && jj == 0)
    finish_particle<FUSE>(a.p, i, Vec3d{double(fx), double(fy), double(fz)}, pi, ti, a.body, a.type_mass, a.dt,
                          a.fuse_base_pred);
  if constexpr (SUMS) block_partials(e, w, a.partials);
}

// One launch over n particles, SUMS and FUSE chosen at run time.
template <class E, class... X>
void launch_cluster_pair_force(const typename E::Args& a, bool sums, bool fuse, cudaStream_t s, X... x) {
  const uint32_t blocks = cluster_force_blocks(a.p.n);
  if (sums) {
    if (fuse) cluster_pair_force_kernel<E, true, true><<<blocks, kForceBlock, 0, s>>>(a, x...);
    else cluster_pair_force_kernel<E, true, false><<<blocks, kForceBlock, 0, s>>>(a, x...);
  } else {
    if (fuse) cluster_pair_force_kernel<E, false, true><<<blocks, kForceBlock, 0, s>>>(a, x...);
    else cluster_pair_force_kernel<E, false, false><<<blocks, kForceBlock, 0, s>>>(a, x...);
  }
}

}  // namespace meso::cuda

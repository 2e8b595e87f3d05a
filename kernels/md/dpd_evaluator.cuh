// The DPD evaluator of the split-array gathers (gather=split and
// gather=masked) and its launch chain over the variant axes, shared by
// dpd_force.cu (split), dpd_force_masked.cu (masked), dpd_force_half.cu
// (nlist=half: half_pair_force_kernel of pair_force_half.cuh),
// dpd_force_cluster.cu (nlist=cluster: cluster_pair_force_kernel of
// pair_force_cluster.cuh) and dpd_force_cells.cu (nlist=cells:
// cell_pair_force_kernel of pair_force_cells.cuh): five translation units,
// so each compiles its ~100 kernel instantiations in parallel.
#pragma once

#include <stdexcept>
#include <type_traits>

#include "md/dpd_force.cuh"
#include "md/pair_force_cells.cuh"
#include "md/pair_force_cluster.cuh"
#include "md/pair_force_half.cuh"
#include "md/sheared_image.cuh"
#include "meso/cuda/check.hpp"
#include "meso/physics/fast_math.hpp"
#include "meso/physics/pair_noise.hpp"
#include "meso/physics/tea.hpp"

namespace meso::cuda::dpd_split {

// The DPD pair in the arithmetic of the policy (A for both the pair and the
// sums): positions, velocities (vel, or vel_pred when PRED), tags and TEA
// signatures, the pair noise of the rng axis (philox, or TEA keyed per
// step), physics::dpd_pair_force with the pow of the pow axis. Pairs at or
// beyond r_cut (and r = 0) are skipped before their velocity, tag and noise
// are loaded: the driver's direct traversal (kUnroll = 1).
//
// One thread per particle. Four threads sharing a list with a shuffle
// reduction (HOOMD-blue's threads-per-particle) was measured on the H200
// (N = 1M, mixed): faster with morton2 ordering (580 -> 503 us), slower with
// pow=fast,rng=tea,fuse=on (498 -> 567 us), whole-step TPS 2-3% lower in both.
//
// SHEARED: the traversal can run under Lees-Edwards shear (full rows: split
// and masked); whether it does is a runtime branch on the shear rate. The
// half, cluster and cells traversals, which the cuda backend refuses under
// shear, keep the periodic MinImage and the registers it leaves them.
template <class P, class Pow, class Noise, bool TEA, bool PRED, bool MASKED, bool SHEARED = false>
struct DpdEvaluator {
  using Args = DpdForceArgs<typename P::S4>;
  using S4 = typename P::S4;
  using A = typename P::A;
  using R = A;
  using Pair = physics::DpdPairForceT<A>;
  static constexpr int kMinBlocks = 8;  // 8 blocks of 128 per SM: at most 64 registers
  static constexpr uint32_t kUnroll = 1;
  static constexpr bool kMasked = MASKED;  // gather=masked: pair_force.cuh's masked traversal

  const Args& a;

  // Lees-Edwards shear (docs/walls.md; SHEARED): box_ takes the sheared
  // minimum image and a pair across a z face sees its partner's image
  // velocity, v_j + n gdot L_z along x (physics::le_relative_velocity), n
  // from i's z (zi).
  using Image = std::conditional_t<SHEARED, ShearedImage<A>, MinImage<A>>;
  struct Particle {
    const Args& a;
    Image box_;
    uint64_t step;
    physics::TeaPairKey key;
    const S4* vel;
    S4 vi;
    uint32_t tag_i, sig_i;
    const physics::DpdPairParams* row;
    A inv_sqrt_dt;
    A zi;

    __device__ __forceinline__ const Image& box() const { return box_; }

    // Whether the pair interacts: inside the r_cut of its types, r > 0.
    __device__ __forceinline__ bool in_range(const S4& pj, const A& rsq) const {
      const A rc = A(row[type_of(pj)].rcut);
      return rsq < rc * rc && rsq != A(0);
    }

    // The geometry by reference: see pair_force_kernel.
    __device__ __forceinline__ bool pair(const uint32_t& j, const S4& pj, const A& dx, const A& dy,
                                         const A& dz, const A& rsq, Pair& pf) const {
      if (!in_range(pj, rsq)) return false;
      const physics::DpdPairParams& pp = row[type_of(pj)];
      const S4 vj = ldg4(vel + j);
      A dvx = A(vi.x) - A(vj.x);
      // dz is the raw separation's z less n L_z (pair_separation, ShearedImage).
      if constexpr (SHEARED)
        if (box_.sheared()) dvx -= box_.image_of(zi - A(pj.z) - dz) * box_.jump;
      const A rdotv = dx * dvx + dy * (A(vi.y) - A(vj.y)) + dz * (A(vi.z) - A(vj.z));
      const uint32_t tag_j = __ldg(a.p.tag + j);
      decltype(Noise::philox(0u, 0u, 0ull, 0u)) xi;  // double, or float for noise=fp32
      if constexpr (TEA)
        xi = Noise::tea(tag_i, sig_i, tag_j, __ldg(a.p.signature + j), key);
      else
        xi = Noise::philox(tag_i, tag_j, step, a.seed);
      pf = physics::dpd_pair_force<A>(rsq, rdotv, A(xi), inv_sqrt_dt, pp, Pow{});
      return true;
    }
  };

  __device__ __forceinline__ Particle begin(uint32_t i, const S4* pos, S4& pi,
                                            uint32_t& ti) const {
    const StepControl* ctl = a.ctl;
    const uint64_t step = ctl->step;
    // The offset of the step's time, t = step dt, as the reference's force.
    const Image box = [&] {
      if constexpr (SHEARED)
        return Image(a.box, a.shear_rate != 0.0
                                ? physics::lees_edwards_at(a.shear_rate, a.box.lengths(), double(step) * a.dt)
                                : physics::LeesEdwards{});
      else
        return Image(a.box);
    }();
    physics::TeaPairKey key{};
    if constexpr (TEA) key = {{ctl->tea_key[0], ctl->tea_key[1], ctl->tea_key[2], ctl->tea_key[3]}};
    const S4* vel = PRED ? a.p.vel_pred : a.p.vel;
    pi = ldg4(pos + i);
    const S4 vi = ldg4(vel + i);
    ti = type_of(pi);
    const uint32_t tag_i = __ldg(a.p.tag + i);
    const uint32_t sig_i = TEA ? __ldg(a.p.signature + i) : 0u;
    const physics::DpdPairParams* row = a.params + ti * a.ntypes;
    const A inv_sqrt_dt = A(a.inv_sqrt_dt);
    return {a, box, step, key, vel, vi, tag_i, sig_i, row, inv_sqrt_dt, A(pi.z)};
  }

  // The pair's virial r_ij . F_ij = f_over_r rsq, half to each side.
  __device__ __forceinline__ static double virial_share(const Pair& pf, const A& rsq) {
    return 0.5 * double(pf.f_over_r) * double(rsq);
  }
};

// How the kernel walks the list: full rows, one thread a row (split, or the
// masked traversal), half rows (h: their fixed-point sums; the pairs only,
// the caller then finishes the particles with launch_finish_half, fused or
// not), cluster-pair rows, or the cells' half stencil (cp; into h, finished
// the same way as half rows).
enum class Traversal { split, masked, half, cluster, cells };

template <class P, class Pow, class Noise, bool TEA, bool SUMS, bool FUSE, Traversal T>
void launch3(const DpdForceArgs<typename P::S4>& a, bool pred, cudaStream_t s, const HalfForceSums* h,
             const CellPairArgs* cp) {
  constexpr bool MASKED = T == Traversal::masked, HALF = T == Traversal::half;
  const uint32_t blocks =
      T == Traversal::cluster ? cluster_force_blocks(a.p.n) : (a.p.n + kForceBlock - 1) / kForceBlock;
  if constexpr (T == Traversal::cluster) {
    const uint32_t cblocks = blocks;
    if (pred)
      cluster_pair_force_kernel<DpdEvaluator<P, Pow, Noise, TEA, true, false>, SUMS, FUSE><<<cblocks, kForceBlock, 0, s>>>(a);
    else
      cluster_pair_force_kernel<DpdEvaluator<P, Pow, Noise, TEA, false, false>, SUMS, FUSE><<<cblocks, kForceBlock, 0, s>>>(a);
  } else if constexpr (T == Traversal::cells) {
    static_assert(!FUSE, "cells: finished by launch_finish_half");
    if (pred) launch_cell_pair_force<DpdEvaluator<P, Pow, Noise, TEA, true, false>>(a, *cp, *h, SUMS, s);
    else launch_cell_pair_force<DpdEvaluator<P, Pow, Noise, TEA, false, false>>(a, *cp, *h, SUMS, s);
  } else if constexpr (HALF) {
    static_assert(!MASKED && !FUSE, "half rows: the split traversal, finished by launch_finish_half");
    if (pred)
      half_pair_force_kernel<DpdEvaluator<P, Pow, Noise, TEA, true, false>, SUMS><<<blocks, kForceBlock, 0, s>>>(a, *h);
    else
      half_pair_force_kernel<DpdEvaluator<P, Pow, Noise, TEA, false, false>, SUMS><<<blocks, kForceBlock, 0, s>>>(a, *h);
  } else if (pred)
    pair_force_kernel<DpdEvaluator<P, Pow, Noise, TEA, true, MASKED, true>, 1, SUMS, FUSE>
        <<<blocks, kForceBlock, 0, s>>>(a);
  else
    pair_force_kernel<DpdEvaluator<P, Pow, Noise, TEA, false, MASKED, true>, 1, SUMS, FUSE>
        <<<blocks, kForceBlock, 0, s>>>(a);
  MESO_CUDA_CHECK(cudaGetLastError());
}

template <class P, class Pow, class Noise, bool TEA, Traversal T>
void launch2(const DpdForceArgs<typename P::S4>& a, const DpdForceConfig& c, cudaStream_t s,
             const HalfForceSums* h, const CellPairArgs* cp) {
  if constexpr (T == Traversal::half || T == Traversal::cells) {
    if (c.sums) launch3<P, Pow, Noise, TEA, true, false, T>(a, c.predicted, s, h, cp);
    else launch3<P, Pow, Noise, TEA, false, false, T>(a, c.predicted, s, h, cp);
  } else if (c.sums) {
    if (c.fuse) launch3<P, Pow, Noise, TEA, true, true, T>(a, c.predicted, s, h, cp);
    else launch3<P, Pow, Noise, TEA, true, false, T>(a, c.predicted, s, h, cp);
  } else {
    if (c.fuse) launch3<P, Pow, Noise, TEA, false, true, T>(a, c.predicted, s, h, cp);
    else launch3<P, Pow, Noise, TEA, false, false, T>(a, c.predicted, s, h, cp);
  }
}

template <class P, class Pow, class Noise, Traversal T>
void launch1(const DpdForceArgs<typename P::S4>& a, const DpdForceConfig& c, cudaStream_t s,
             const HalfForceSums* h, const CellPairArgs* cp) {
  if (c.tea) launch2<P, Pow, Noise, true, T>(a, c, s, h, cp);
  else launch2<P, Pow, Noise, false, T>(a, c, s, h, cp);
}


// The pow and noise axes, then rng, sums, fuse and the prediction.
template <class P, Traversal T>
void launch(const DpdForceArgs<typename P::S4>& a, const DpdForceConfig& c, cudaStream_t s,
            const HalfForceSums* h = nullptr, const CellPairArgs* cp = nullptr) {
  if (c.fp32_noise) {
    // noise=fp32 is for fp32 storage (the operation refuses it for double).
    if constexpr (std::is_same_v<typename P::S4, float4>) {
      if (c.fast_math) launch1<P, physics::FastPow, NoiseF32, T>(a, c, s, h, cp);
      else launch1<P, physics::LibmPow, NoiseF32, T>(a, c, s, h, cp);
    } else {
      throw std::logic_error("dpd force: noise=fp32 with fp64 storage");
    }
  } else if (c.fast_math) {
    launch1<P, physics::FastPow, NoiseF64<physics::FastBoxMuller>, T>(a, c, s, h, cp);
  } else {
    launch1<P, physics::LibmPow, NoiseF64<physics::LibmBoxMuller>, T>(a, c, s, h, cp);
  }
}

}  // namespace meso::cuda::dpd_split

// The pair-force kernel written once for every pair potential (HOOMD-blue's
// PotentialPairGPU.cuh pattern): pair_force_kernel<Evaluator, TPP, SUMS,
// FUSE> walks a particle's full neighbor list, asks the evaluator for each
// pair's force, and ends the same way for every potential (body force,
// store, optional fused half-step, fixed-order energy/virial block
// partials). The evaluators: DpdEvaluator (dpd_force.cu), IsotropicEvaluator
// (isotropic_pair_force.cuh).
//
// Determinism (Tang & Karniadakis, CPC 2014, sec. 3.5): every pair is
// evaluated from both sides from a full list; the pair noise is a pure
// function of (tags, step, seed) and minimum image is exactly antisymmetric,
// so F_ji = -F_ij bit for bit without atomics, and the result does not depend
// on the order of particles or of list entries beyond the order of the
// accumulation (which the list builders fix). Energy and virial go through
// fixed-order block partials (block_partials, then reduce_partials).
//
// The evaluator E provides:
//   Args           the kernel's argument struct (p, nl, ctl, body, type_mass,
//                  dt, fuse_base_pred, partials); E is built in the kernel as
//                  E{args, x...} from the kernel's parameters;
//   S4, A, R       storage, accumulation (the force sum) and pair arithmetic
//                  (dx, rsq) types;
//   Pair           its pair result, with f_over_r and energy;
//   kMinBlocks     minimum blocks per SM of the launch bounds (0: none);
//   kUnroll        1: direct traversal, one slot at a time, each pair added
//                  straight into the A sums (one thread per particle only);
//                  > 1: kUnroll slots per lane at a time, summed in R and then
//                  added to the A sums (the grouped traversal below);
//   begin(i, pos, pi, ti)  loads pi, sets ti and returns the particle's
//                  evaluator pe (what every pair of i needs, in registers);
//   pe.box()       the MinImage<R> of the pair geometry;
//   pe.pair(j, pj, dx, dy, dz, rsq, pf)  the pair force into pf; false: no
//                  interaction, the pair is skipped;
//   virial_share(pf, rsq)  the pair's share of the virial sum (each pair is
//                  visited from both sides: half of it), added to the sum
//                  by the kernel (w += share; nvcc contracts DPD's product
//                  into an FMA with the add as before).
// Optionally (direct traversal only): kMasked = true, the masked traversal
// (DPD gather=masked), with pe.in_range(pj, rsq): whether pair() would
// interact (pair() still decides; it must agree).
// Optionally (grouped traversal only): Neighbor and neighbor(j), what the
// kernel loads for a list slot instead of the position from pos: a record
// with x, y, z and whatever pe.pair() reads besides (DPD gather=record);
// pe.pair() then takes it in place of the S4.
#pragma once

#include <cuda_runtime.h>

#include <type_traits>

#include "core/device_views.cuh"
#include "meso/physics/body_force.hpp"

namespace meso::cuda {

constexpr int kForceBlock = 128;

// What the grouped traversal loads for a list slot: the evaluator's own
// Neighbor record through ev.neighbor(j) when it declares one, else the
// neighbour's position.
template <class E, class = void>
struct NeighborOf {
  using type = typename E::S4;
  static constexpr bool own = false;
};
template <class E>
struct NeighborOf<E, std::void_t<typename E::Neighbor>> {
  using type = typename E::Neighbor;
  static constexpr bool own = true;
};

// Whether the evaluator asks for the masked traversal (E::kMasked).
template <class E, class = void>
struct MaskedOf : std::false_type {};
template <class E>
struct MaskedOf<E, std::void_t<decltype(E::kMasked)>> : std::bool_constant<E::kMasked> {};

// Writes the block's sums of e and w (every thread's contribution) to
// partials[2 blockIdx.x], partials[2 blockIdx.x + 1] in a fixed order: the
// deterministic first stage of the energy/virial reduction. Call from all
// threads of a kForceBlock-thread block.
__device__ __forceinline__ void block_partials(double e, double w, double* partials) {
  __shared__ double se[kForceBlock / 32], sw[kForceBlock / 32];
  for (int o = 16; o > 0; o >>= 1) {
    e += __shfl_xor_sync(0xffffffffu, e, o);
    w += __shfl_xor_sync(0xffffffffu, w, o);
  }
  if ((threadIdx.x & 31u) == 0) {
    se[threadIdx.x >> 5] = e;
    sw[threadIdx.x >> 5] = w;
  }
  __syncthreads();
  if (threadIdx.x == 0) {
    double te = 0.0, tw = 0.0;
    for (int k = 0; k < kForceBlock / 32; ++k) {
      te += se[k];
      tw += sw[k];
    }
    partials[2 * blockIdx.x] = te;
    partials[2 * blockIdx.x + 1] = tw;
  }
}

// The common end of a pair-force kernel for particle i: adds the body force
// to the pair sum, stores it and, when fused, performs the second
// velocity-Verlet half-step v = v_base + dt/2 f/m with the force still in
// registers (Shkurti et al.'s BRAHMS fusion). v_base is v(t + dt/2): kept in
// vel_pred for velocity Verlet, so that this write to vel cannot race with
// other threads' dissipative loads (which read vel_pred); in vel for
// Groot-Warren (whose loads read the prediction in vel_pred). Each thread
// touches only its own entry.
template <bool FUSE, class S4>
__device__ __forceinline__ void finish_particle(const ParticleView<S4>& p, uint32_t i,
                                                const Vec3d& pair_force, const S4& pos_i,
                                                uint32_t type_i, const physics::BodyForce& body,
                                                const double* type_mass, double dt,
                                                bool base_in_pred) {
  Vec3d f = pair_force;
  if (body.active()) f += body.force(xyz(pos_i), type_i, type_mass[type_i]);
  p.force[i] = make4<S4>(f, 0.0);
  if constexpr (FUSE) {
    const double h = 0.5 * dt / type_mass[type_i];
    const Vec3d v = xyz(base_in_pred ? p.vel_pred[i] : p.vel[i]) + h * f;
    p.vel[i] = make4<S4>(v, 0.0);
  }
}

// The two halves of every traversal's pair step, written once for the
// kernels below and the cluster and half-list kernels. __forceinline__ and
// by reference, as the evaluator hooks are (see pair_force_kernel): the SASS
// of every pair kernel is the same as with the bodies written out.
//
// pair_separation: the minimum-image separation pi - pj in R and its square.
template <class R, class Pi, class Pj, class Box>
__device__ __forceinline__ R pair_separation(const Pi& pi, const Pj& pj, const Box& box, R& dx, R& dy, R& dz) {
  dx = R(pi.x) - R(pj.x), dy = R(pi.y) - R(pj.y), dz = R(pi.z) - R(pj.z);
  box.apply(dx, dy, dz);
  return dx * dx + dy * dy + dz * dz;
}

// add_pair: the pair's force into the sums (gx, gy, gz) and, with SUMS, half
// its energy and its virial share into (e, w): each pair is visited from both
// sides of a full list.
template <class E, bool SUMS, class G, class R>
__device__ __forceinline__ void add_pair(const typename E::Pair& pf, const R& dx, const R& dy, const R& dz,
                                         const R& rsq, G& gx, G& gy, G& gz, double& e, double& w) {
  gx += pf.f_over_r * dx;
  gy += pf.f_over_r * dy;
  gz += pf.f_over_r * dz;
  if constexpr (SUMS) {
    e += 0.5 * double(pf.energy);
    w += E::virial_share(pf, rsq);
  }
}

// take_pair: one pair of particle i (at pi, with its evaluator pe) and j (at
// pj, or the evaluator's neighbour record): its separation, the evaluator's
// force and, when the two interact, add_pair.
template <class E, bool SUMS, class Pe, class Pi, class Pj, class G>
__device__ __forceinline__ void take_pair(const Pe& pe, const Pi& pi, uint32_t j, const Pj& pj, G& gx, G& gy,
                                          G& gz, double& e, double& w) {
  using R = typename E::R;
  R dx, dy, dz;
  const R rsq = pair_separation(pi, pj, pe.box(), dx, dy, dz);
  typename E::Pair pf;
  if (pe.pair(j, pj, dx, dy, dz, rsq, pf)) add_pair<E, SUMS>(pf, dx, dy, dz, rsq, gx, gy, gz, e, w);
}

// Sums the per-block partials of the last sums launch in a fixed order (one
// block), so that energy and virial are deterministic: out[0] = energy,
// out[1] = virial.
void reduce_partials(const double* partials, uint32_t nblocks, double* out, cudaStream_t s);

// The pair-force kernel of kForceBlock-thread blocks: TPP adjacent lanes of
// a warp per particle (1 to 32), SUMS: energy and virial into a.partials,
// FUSE: finish_particle's fused half-step. Its parameters are the
// evaluator's argument struct and whatever else the evaluator is built from
// (x: LJ's MinImage, computed once on the host). Minimum blocks per SM of
// the launch bounds: E::kMinBlocks (0: none).
//
// Why one __global__ template rather than a __device__ driver called from
// per-potential kernels: nvcc optimises a callee before inlining it, and a
// driver function perturbed register allocation and spills of some DPD
// variants (same arithmetic, different SASS); for the same reason the
// evaluator hooks declare no __restrict__ locals and take the pair geometry
// by reference (the kernel's own restrict locals keep their meaning). In
// profiles the kernels are pair_force_kernel<DpdEvaluator<...>, ...> and
// pair_force_kernel<IsotropicEvaluator<...>, ...> (before: dpd_force_kernel,
// lj_force_kernel).
template <class E, uint32_t TPP, bool SUMS, bool FUSE, class... X>
__global__ void __launch_bounds__(kForceBlock, E::kMinBlocks)
    pair_force_kernel(typename E::Args a, X... x) {
  static_assert(TPP >= 1 && TPP <= 32 && (TPP & (TPP - 1)) == 0, "TPP: a power of two up to 32");
  static_assert(E::kUnroll > 1 || TPP == 1, "the direct traversal is one thread per particle");
  using S4 = typename E::S4;
  using A = typename E::A;  // accumulation: the force sum
  using R = typename E::R;  // one pair
  const E ev{a, x...};
  const uint32_t t = blockIdx.x * blockDim.x + threadIdx.x;
  const uint32_t i = t / TPP, sub = t % TPP;
  const bool active = i < a.p.n && !a.ctl->abort && a.nl.takes(i);  // rows: NlistView
  // The order of these declarations moves nvcc's register assignment only
  // (that of the DPD kernel; LJ's declared e, w first).
  A fx = 0, fy = 0, fz = 0;
  double e = 0.0, w = 0.0;
  S4 pi{};
  uint32_t ti = 0;
  if (active) {
    const S4* __restrict__ pos = a.p.pos;
    const auto pe = ev.begin(i, pos, pi, ti);
    // A row longer than cap only exists after an overflow, when this kernel
    // does not run (abort); the clamp keeps a stale count from reading past it.
    const uint32_t cnt = min(a.nl.count[i], a.nl.cap);
    if constexpr (MaskedOf<E>::value) {
      static_assert(E::kUnroll == 1, "the masked traversal is one thread per particle");
      // Masked traversal, 32 slots at a time: first only the slots'
      // positions (kMaskUnroll gathers in flight, nothing else loaded) and a
      // bit for each pair inside the cutoff; then the set bits in slot
      // order, each pair evaluated exactly as the direct traversal does
      // (its geometry recomputed from the same loads, now L1 hits): the
      // same pairs in the same order, so bitwise the same sums, while the
      // warp's pair loop runs over in-range pairs only.
      constexpr uint32_t kMaskUnroll = 8;
      const uint32_t* __restrict__ idx = a.nl.idx + a.nl.at(i, 0);
      for (uint32_t k0 = 0; k0 < cnt; k0 += 32) {
        const uint32_t m = min(32u, cnt - k0);
        uint32_t mask = 0;
#pragma unroll kMaskUnroll
        for (uint32_t u = 0; u < m; ++u) {
          const uint32_t j = __ldg(idx + size_t(k0 + u) * a.nl.slot_stride);
          const S4 pj = ldg4(pos + j);
          R dx, dy, dz;
          if (pe.in_range(pj, pair_separation(pi, pj, pe.box(), dx, dy, dz))) mask |= 1u << u;
        }
        while (mask) {
          const uint32_t u = __ffs(mask) - 1;
          mask &= mask - 1;
          const uint32_t j = __ldg(idx + size_t(k0 + u) * a.nl.slot_stride);
          take_pair<E, SUMS>(pe, pi, j, ldg4(pos + j), fx, fy, fz, e, w);
        }
      }
    } else if constexpr (E::kUnroll == 1) {
      const uint32_t* __restrict__ idx = a.nl.idx + a.nl.at(i, 0);
      // Direct traversal: each pair straight into the A sums (for DPD,
      // fx += f_over_r * dx is one FMA per component), pairs out of range
      // skipped before anything else of theirs is loaded.
      for (uint32_t k = 0; k < cnt; ++k) {
        const uint32_t j = __ldg(idx + size_t(k) * a.nl.slot_stride);
        take_pair<E, SUMS>(pe, pi, j, ldg4(pos + j), fx, fy, fz, e, w);
      }
    } else {
      // Grouped traversal: lane s of the group takes slots s, s + TPP, ...,
      // kUnroll of them at a time: their indices, then their positions, are
      // loaded before any is used, so each lane has kUnroll gathers in
      // flight instead of one (ncu: the one-at-a-time loop waited on L1TEX).
      // The pairs are still summed in slot order.
      constexpr uint32_t kUnroll = E::kUnroll;
      const size_t step = size_t(TPP) * a.nl.slot_stride;  // from one of this lane's slots to the next
      const uint32_t* __restrict__ idx = a.nl.idx + a.nl.at(i, sub);
      for (uint32_t k0 = sub; k0 < cnt; k0 += kUnroll * TPP, idx += kUnroll * step) {
        uint32_t j[kUnroll];
#pragma unroll
        for (uint32_t u = 0; u < kUnroll; ++u) j[u] = k0 + u * TPP < cnt ? __ldg(idx + u * step) : i;
        typename NeighborOf<E>::type pj[kUnroll];
#pragma unroll
        for (uint32_t u = 0; u < kUnroll; ++u) {
          if constexpr (NeighborOf<E>::own) pj[u] = ev.neighbor(j[u]);
          else pj[u] = ldg4(pos + j[u]);
        }
        // The kUnroll pairs are summed in R, then added to the A sums: for
        // mixed LJ, fp32 sums of at most 4 fp32 pair forces (rounding no
        // larger than that of the pair forces themselves) and the particle's
        // total in fp64, where the cancellation of ~65 terms happens; it
        // saves the fp64 conversion and add of every pair.
        R gx = 0, gy = 0, gz = 0;
#pragma unroll
        for (uint32_t u = 0; u < kUnroll; ++u) {
          if (k0 + u * TPP >= cnt) break;
          take_pair<E, SUMS>(pe, pi, j[u], pj[u], gx, gy, gz, e, w);
        }
        fx += A(gx);
        fy += A(gy);
        fz += A(gz);
      }
    }
  }
  // The group's partial sums by a fixed XOR butterfly (none at TPP = 1).
  // Every lane takes part (inactive ones with zeros): the groups never
  // straddle a warp because TPP divides 32 and kForceBlock.
  for (uint32_t o = TPP / 2; o > 0; o >>= 1) {
    fx += __shfl_xor_sync(0xffffffffu, fx, o);
    fy += __shfl_xor_sync(0xffffffffu, fy, o);
    fz += __shfl_xor_sync(0xffffffffu, fz, o);
    if constexpr (SUMS) {
      e += __shfl_xor_sync(0xffffffffu, e, o);
      w += __shfl_xor_sync(0xffffffffu, w, o);
    }
  }
  if (active && sub == 0)
    finish_particle<FUSE>(a.p, i, Vec3d{double(fx), double(fy), double(fz)}, pi, ti, a.body,
                          a.type_mass, a.dt, a.fuse_base_pred);
  if constexpr (SUMS) block_partials(sub == 0 ? e : 0.0, sub == 0 ? w : 0.0, a.partials);
}

// One launch of pair_force_kernel<E, TPP, SUMS, FUSE> over `blocks` blocks,
// SUMS and FUSE chosen at run time (the LJ and table launches).
template <class E, uint32_t TPP, class... X>
void launch_pair_force(const typename E::Args& a, uint32_t blocks, bool sums, bool fuse, cudaStream_t s, X... x) {
  if (sums) {
    if (fuse) pair_force_kernel<E, TPP, true, true><<<blocks, kForceBlock, 0, s>>>(a, x...);
    else pair_force_kernel<E, TPP, true, false><<<blocks, kForceBlock, 0, s>>>(a, x...);
  } else {
    if (fuse) pair_force_kernel<E, TPP, false, true><<<blocks, kForceBlock, 0, s>>>(a, x...);
    else pair_force_kernel<E, TPP, false, false><<<blocks, kForceBlock, 0, s>>>(a, x...);
  }
}

}  // namespace meso::cuda

// The pair-force kernel of orientational particles (HOOMD-blue's
// AnisoPotentialPairGPU), the CUDA twin of the reference's
// aniso_pair_force.hpp: forces and torques over the full neighbor list, one
// thread per particle, templated on an evaluator (pair_gay_berne.cu,
// pair_ssd.cu, pair_janus.cu) over the shared physics (engine/include/meso/physics/
// gay_berne.hpp, ssd_water.hpp).
//
// Each pair is evaluated in one canonical order, from the particle with the
// lower tag, by both of its particles, exactly as the reference: the force
// on the other is the exact negative, each takes its own torque from the
// same evaluation, and no atomics are needed. The evaluators compute a pair
// in the arithmetic of the storage (fp32 for mixed and single, as the LJ
// pairs: a Gay-Berne pair is some 15 divisions and square roots, which cost
// many times more in fp64), and the kernel sums the pairs, the energy and
// the virial in fp64; energy and virial go through the fixed-order block
// partials of pair_force.cuh.
//
// A pair the evaluator refuses (Gay-Berne cores that interpenetrate: the
// pole of the potential) is recorded as (lower tag << 32 | higher tag) by
// atomicMin, the smallest such pair, and stops the loop (ctl->abort): every
// later kernel of the batch returns at once and the host names the pair
// (the operation's raise_if_stopped), as the reference does after its pass.
//
// The evaluator E provides
//   rcut_sq(ti, tj)                      beyond it no interaction;
//   pair(ti, tj, qi, qj, dr, out)        dr = r_i - r_j (minimum image), the
//                                        pair (i, j) in that order; false:
//                                        the pair is refused;
//   kRefused                             what a refused pair is, for the
//                                        host's message ("were refused").
// AnisoPairTable below provides the first and the table the second reads.
#pragma once

#include <cuda_runtime.h>

#include <cstdint>

#include "core/device_views.cuh"
#include "core/tpp_dispatch.cuh"
#include "md/pair_force.cuh"
#include "meso/physics/body_force.hpp"

namespace meso::cuda {

// One pair's force on i, torques on i and j, energy and virial r.F_i.
struct AnisoPair {
  Vec3d force_i, torque_i, torque_j;
  double energy, virial;
};

constexpr unsigned long long kNoBrokenPair = ~0ull;

// The base of an evaluator: the style's parameters of every type pair
// (ntypes x ntypes), their cutoffs, and the default word of a refusal.
template <class Params>
struct AnisoPairTable {
  static constexpr const char* kRefused = "were refused";
  const Params* table;
  uint32_t ntypes;

  __device__ double rcut_sq(uint32_t a, uint32_t b) const {
    const double rc = table[a * ntypes + b].rcut;
    return rc * rc;
  }
  __device__ const Params& params(uint32_t a, uint32_t b) const { return table[a * ntypes + b]; }
};

// A pair's result W (force_i, torque_i, torque_j, energy, virial in the
// pair's arithmetic) in the kernel's fp64 sums.
template <class W>
__device__ AnisoPair aniso_pair_of(const W& w) {
  return {vec_cast<double>(w.force_i), vec_cast<double>(w.torque_i), vec_cast<double>(w.torque_j),
          double(w.energy), double(w.virial)};
}

template <class S4>
struct AnisoForceArgs {
  ParticleView<S4> p;
  RotationalView<S4> rot;
  NlistView nl;
  Box box;
  physics::BodyForce body;
  const double* type_mass;
  StepControl* ctl;
  unsigned long long* broken;  // the smallest refused pair, kNoBrokenPair if none
  double* partials;            // 2 per block (energy, virial) when sums
  bool overwrite;              // the first force of the plan: store, else add
};

// TPP adjacent lanes of a warp per particle (the variant axis tpp: 1 to
// 32): lane s of the group takes list slots s, s + TPP, ..., and the group's
// sums meet by a fixed XOR butterfly, so the result is deterministic for a
// given TPP (and differs between TPPs by the order of summation only). Why:
// a pair is long (some 15 divisions and square roots), and at one thread a
// particle an 8000-particle system fills 63 blocks on 132 SMs; TPP lanes
// multiply the warps in flight.
template <class E, uint32_t TPP, bool SUMS, class S4>
__global__ void __launch_bounds__(kForceBlock) aniso_pair_force_kernel(AnisoForceArgs<S4> a, E ev) {
  static_assert(TPP >= 1 && TPP <= 32 && (TPP & (TPP - 1)) == 0, "TPP: a power of two up to 32");
  const uint32_t lane = blockIdx.x * blockDim.x + threadIdx.x;
  const uint32_t i = lane / TPP, sub = lane % TPP;
  const bool active = i < a.p.n && !a.ctl->abort;
  double e = 0.0, w = 0.0;
  Vec3d f{0.0, 0.0, 0.0}, t{0.0, 0.0, 0.0};
  S4 pi{};
  if (active) {
    pi = a.p.pos[i];
    const Vec3d ri = xyz(pi);
    const uint32_t ti = type_of(pi), tag_i = a.p.tag[i];
    const Quatd qi = quat_of(a.rot.orient[i]);
    const uint32_t cnt = min(a.nl.count[i], a.nl.cap);
    for (uint32_t k = sub; k < cnt; k += TPP) {
      const uint32_t j = __ldg(a.nl.idx + a.nl.at(i, k));
      const S4 pj = ldg4(a.p.pos + j);
      const Vec3d dr = a.box.min_image(ri - xyz(pj));
      const double rsq = dot(dr, dr);
      const uint32_t tj = type_of(pj);
      if (rsq == 0.0 || !(rsq < ev.rcut_sq(ti, tj))) continue;
      const uint32_t tag_j = a.p.tag[j];
      const Quatd qj = quat_of(a.rot.orient[j]);
      const bool lower = tag_i < tag_j;
      AnisoPair pr;
      if (!(lower ? ev.pair(ti, tj, qi, qj, dr, pr) : ev.pair(tj, ti, qj, qi, -1.0 * dr, pr))) {
        const unsigned long long lo = lower ? tag_i : tag_j, hi = lower ? tag_j : tag_i;
        atomicMin(a.broken, (lo << 32) | hi);
        a.ctl->abort = 1;
        continue;
      }
      if (lower) {
        f += pr.force_i;
        t += pr.torque_i;
      } else {
        f -= pr.force_i;
        t += pr.torque_j;
      }
      if constexpr (SUMS) {
        e += 0.5 * pr.energy;  // each pair is visited from both sides
        w += 0.5 * pr.virial;
      }
    }
  }
  // The group's sums by a fixed butterfly; every lane takes part (inactive
  // ones with zeros): groups never straddle a warp (TPP divides 32).
  for (uint32_t o = TPP / 2; o > 0; o >>= 1) {
    f.x += __shfl_xor_sync(0xffffffffu, f.x, o);
    f.y += __shfl_xor_sync(0xffffffffu, f.y, o);
    f.z += __shfl_xor_sync(0xffffffffu, f.z, o);
    t.x += __shfl_xor_sync(0xffffffffu, t.x, o);
    t.y += __shfl_xor_sync(0xffffffffu, t.y, o);
    t.z += __shfl_xor_sync(0xffffffffu, t.z, o);
    if constexpr (SUMS) {
      e += __shfl_xor_sync(0xffffffffu, e, o);
      w += __shfl_xor_sync(0xffffffffu, w, o);
    }
  }
  if (active && sub == 0) {
    const uint32_t ti = type_of(pi);
    if (a.body.active()) f += a.body.force(xyz(pi), ti, a.type_mass[ti]);
    if (!a.overwrite) {
      f += xyz(a.p.force[i]);
      t += xyz(a.rot.torque[i]);
    }
    a.p.force[i] = make4<S4>(f, 0.0);
    a.rot.torque[i] = make4<S4>(t, 0.0);
  }
  if constexpr (SUMS) block_partials(sub == 0 ? e : 0.0, sub == 0 ? w : 0.0, a.partials);
}

// Blocks of kForceBlock threads for n particles at tpp lanes each (the
// energy/virial partials a sums launch writes).
inline uint32_t aniso_force_blocks(uint32_t n, uint32_t tpp) {
  return uint32_t((uint64_t(n) * tpp + kForceBlock - 1) / kForceBlock);
}

// One launch of the kernel with evaluator ev at tpp lanes a particle (each
// evaluator's file instantiates it, through CudaAnisoPairForce).
template <class E, class S4>
void launch_aniso_pair_force(const AnisoForceArgs<S4>& a, const E& ev, uint32_t tpp, bool sums, cudaStream_t s) {
  const uint32_t blocks = aniso_force_blocks(a.p.n, tpp);
  if (!blocks) return;
  dispatch_tpp(tpp, "aniso pair force", [&](auto k) {
    constexpr uint32_t TPP = decltype(k)::value;
    if (sums) aniso_pair_force_kernel<E, TPP, true, S4><<<blocks, kForceBlock, 0, s>>>(a, ev);
    else aniso_pair_force_kernel<E, TPP, false, S4><<<blocks, kForceBlock, 0, s>>>(a, ev);
  });
}

}  // namespace meso::cuda

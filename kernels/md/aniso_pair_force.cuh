// The pair-force kernel of orientational particles (HOOMD-blue's
// AnisoPotentialPairGPU), the CUDA twin of the reference's
// aniso_pair_force.hpp: forces and torques over the full neighbor list, one
// thread per particle, templated on an evaluator (gay_berne_force.cu,
// ssd_water_force.cu) over the shared physics (engine/include/meso/physics/
// gay_berne.hpp, ssd_water.hpp).
//
// Each pair is evaluated in one canonical order, from the particle with the
// lower tag, by both of its particles, exactly as the reference: the force
// on the other is the exact negative, each takes its own torque from the
// same evaluation, and no atomics are needed. Arithmetic is in double
// whatever the storage (an evaluator is ~150 flops of square roots, powers
// and cross products; the pairs within the cutoff are few: ~20 for the
// Gay-Berne liquid, ~40 for SSD water). Energy and virial go through the
// fixed-order block partials of pair_force.cuh.
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
//                                        the pair is refused.
#pragma once

#include <cuda_runtime.h>

#include <cstdint>

#include "core/device_views.cuh"
#include "md/pair_force.cuh"
#include "meso/physics/body_force.hpp"

namespace meso::physics {
struct GayBerneParams;
struct SsdParams;
}  // namespace meso::physics

namespace meso::cuda {

// One pair's force on i, torques on i and j, energy and virial r.F_i.
struct AnisoPair {
  Vec3d force_i, torque_i, torque_j;
  double energy, virial;
};

constexpr unsigned long long kNoBrokenPair = ~0ull;

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

template <class E, bool SUMS, class S4>
__global__ void __launch_bounds__(kForceBlock) aniso_pair_force_kernel(AnisoForceArgs<S4> a, E ev) {
  const uint32_t i = blockIdx.x * blockDim.x + threadIdx.x;
  const bool active = i < a.p.n && !a.ctl->abort;
  double e = 0.0, w = 0.0;
  if (active) {
    const S4 pi = a.p.pos[i];
    const Vec3d ri = xyz(pi);
    const uint32_t ti = type_of(pi), tag_i = a.p.tag[i];
    const Quatd qi = quat_of(a.rot.orient[i]);
    Vec3d f{0.0, 0.0, 0.0}, t{0.0, 0.0, 0.0};
    const uint32_t cnt = min(a.nl.count[i], a.nl.cap);
    const uint32_t* __restrict__ idx = a.nl.idx + a.nl.at(i, 0);
    for (uint32_t k = 0; k < cnt; ++k) {
      const uint32_t j = __ldg(idx + size_t(k) * a.nl.slot_stride);
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
    if (a.body.active()) f += a.body.force(ri, ti, a.type_mass[ti]);
    if (!a.overwrite) {
      f += xyz(a.p.force[i]);
      t += xyz(a.rot.torque[i]);
    }
    a.p.force[i] = make4<S4>(f, 0.0);
    a.rot.torque[i] = make4<S4>(t, 0.0);
  }
  if constexpr (SUMS) block_partials(e, w, a.partials);
}

inline uint32_t aniso_force_blocks(uint32_t n) { return (n + kForceBlock - 1) / kForceBlock; }

// One launch of the kernel with evaluator ev (each evaluator's file
// instantiates it).
template <class E, class S4>
void launch_aniso_pair_force(const AnisoForceArgs<S4>& a, const E& ev, bool sums, cudaStream_t s) {
  const uint32_t blocks = aniso_force_blocks(a.p.n);
  if (!blocks) return;
  if (sums) aniso_pair_force_kernel<E, true, S4><<<blocks, kForceBlock, 0, s>>>(a, ev);
  else aniso_pair_force_kernel<E, false, S4><<<blocks, kForceBlock, 0, s>>>(a, ev);
}

// The launches (one block of kForceBlock threads per kForceBlock particles;
// params: ntypes x ntypes).
template <class S4>
void compute_gay_berne_forces(const AnisoForceArgs<S4>& a, const physics::GayBerneParams* params,
                              uint32_t ntypes, bool sums, cudaStream_t s);  // gay_berne_force.cu
template <class S4>
void compute_ssd_forces(const AnisoForceArgs<S4>& a, const physics::SsdParams* params, uint32_t ntypes,
                        bool sums, cudaStream_t s);  // ssd_water_force.cu

}  // namespace meso::cuda

// Lennard-Jones force kernel (HOOMD-blue PotentialPairGPU with the LJ
// evaluator; here pair_force.cuh's kernel with LjEvaluator): tpp threads per
// particle (1 to 32) over the full neighbor list shared with the DPD
// kernels, calling the shared evaluator physics::lj_pair_force
// (engine/include/meso/physics/lj_force.hpp) on coefficients prepared once
// per type pair (physics::lj_pair_coeffs), in the arithmetic of the
// precision policy.
#pragma once

#include <cuda_runtime.h>

#include "core/device_views.cuh"
#include "meso/physics/body_force.hpp"
#include "meso/physics/lj_force.hpp"
#include "md/pair_force.cuh"

namespace meso::cuda {

// Arithmetic of one LJ pair: that of the stored positions (fp32 for mixed
// and single, as in HOOMD-blue's single-precision pair kernels), while
// mixed sums a particle's pair forces, the energy and the virial in fp64
// (P::A). Why not fp64 pairs for mixed: the evaluator is ~40 fp64
// operations, and fp64 issues at half the fp32 rate on H100/H200; at
// lj-liquid's 65 neighbors per particle that alone set a ~10 us floor on the
// force kernel. The positions are fp32 in mixed already, so the pair's own
// rounding (~1e-7 relative) stays below that of its inputs.
template <class P>
using LjPairReal = BuildReal<typename P::S4>;

template <class P>
struct LjForceArgs {
  ParticleView<typename P::S4> p;
  NlistView nl;
  Box box;
  const physics::LjPairCoeffs<LjPairReal<P>>* coeffs;  // ntypes x ntypes (physics::lj_pair_coeffs)
  const double* type_mass;
  uint32_t ntypes;
  physics::BodyForce body;
  double dt;
  const StepControl* ctl;
  double* partials;  // 2 per block (energy, virial) when sums
  bool fuse;            // second half-step folded into the kernel (finish_particle)
  bool fuse_base_pred;  // its base v(t + dt/2) is in vel_pred (velocity Verlet) or vel (gw)
  uint32_t tpp = 1;     // threads per particle: 1, 2, 4, 8, 16 or 32 (variant axis tpp)
  bool cluster = false; // nlist=cluster: cluster-pair rows (pair_force_cluster.cuh)
};

// Blocks of kForceBlock threads for n particles at tpp threads each, or of
// cluster-pair tiles (the number of energy/virial partials a sums launch
// writes).
uint32_t lj_force_blocks(uint32_t n, uint32_t tpp, bool cluster = false);

template <class P>
void compute_lj_forces(const LjForceArgs<P>& a, bool sums, cudaStream_t s);

}  // namespace meso::cuda

// DPD force kernel: one thread per particle over its full neighbor list (the
// pair-force driver of pair_force.cuh with the DPD evaluator), calling the
// shared evaluator (engine/include/meso/physics/dpd_force.hpp) and the shared
// pair noise (engine/include/meso/physics/pair_noise.hpp). Variant axes: precision (policy
// P), pow (libm | fast), rng (philox | tea), fuse (second velocity-Verlet
// half-step folded into the kernel, Shkurti et al.'s BRAHMS fusion).
#pragma once

#include <cuda_runtime.h>

#include "device_views.cuh"
#include "meso/physics/body_force.hpp"
#include "meso/physics/dpd_force.hpp"
#include "pair_force.cuh"

namespace meso::cuda {

struct DpdForceConfig {
  bool fast_math = false;  // pow=fast: fastpow and fast-log/fast-cos Box-Muller
  bool tea = false;        // rng=tea
  bool fuse = false;       // fuse=on
  bool sums = false;       // energy and virial per block into partials
  bool predicted = false;  // dissipation from vel_pred (Groot-Warren, or fused velocity Verlet)
};

template <class S4>
struct DpdForceArgs {
  ParticleView<S4> p;
  NlistView nl;
  Box box;
  const physics::DpdPairParams* params;  // ntypes x ntypes
  const double* type_mass;
  uint32_t ntypes;
  physics::BodyForce body;
  double dt;
  double inv_sqrt_dt;
  uint32_t seed;
  const StepControl* ctl;  // step number and TEA key of the step in progress
  double* partials;        // 2 per block (energy, virial) when sums
  bool fuse_base_pred;     // fuse=on with velocity Verlet: v(t + dt/2) is in vel_pred
};

template <class P>
void compute_dpd_forces(const DpdForceArgs<typename P::S4>& a, const DpdForceConfig& cfg,
                        cudaStream_t s);

// kForceBlock (the block size of every launch above) and reduce_partials
// (the second stage of the energy/virial sums) are declared in pair_force.cuh.

}  // namespace meso::cuda

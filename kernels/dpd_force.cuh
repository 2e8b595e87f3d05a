// DPD force kernel: one thread per particle over its full neighbor list,
// calling the shared evaluator (engine/physics/dpd_force.hpp) and the shared
// pair noise (engine/physics/pair_noise.hpp). Variant axes: precision (policy
// P), pow (libm | fast), rng (philox | tea), fuse (second velocity-Verlet
// half-step folded into the kernel, Shkurti et al.'s BRAHMS fusion).
#pragma once

#include <cuda_runtime.h>

#include "device_views.cuh"
#include "physics/body_force.hpp"
#include "physics/dpd_force.hpp"

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

constexpr int kForceBlock = 128;

template <class P>
void compute_dpd_forces(const DpdForceArgs<typename P::S4>& a, const DpdForceConfig& cfg,
                        cudaStream_t s);

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

// Sums the per-block partials of the last sums launch in a fixed order (one
// block), so that energy and virial are deterministic: out[0] = energy,
// out[1] = virial.
void reduce_partials(const double* partials, uint32_t nblocks, double* out, cudaStream_t s);

}  // namespace meso::cuda

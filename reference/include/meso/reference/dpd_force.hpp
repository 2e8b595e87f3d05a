// Reference DPD forces: one pass per particle over its full neighbor list,
// calling the shared evaluator (engine/physics/dpd_force.hpp) with the shared
// pair noise. Each pair is evaluated from both sides; the noise is symmetric
// and minimum image is exactly antisymmetric, so F_ji == -F_ij bit for bit and
// no atomics or reductions are needed: the result is deterministic under
// OpenMP. Arithmetic is in double whatever the storage precision.
#pragma once

#include <cstdint>
#include <vector>

#include "meso/reference/neighbor_list.hpp"
#include "meso/system.hpp"
#include "meso/thermo.hpp"
#include "physics/pair_noise.hpp"

namespace meso::reference {

struct DpdForceArgs {
  uint64_t timestep = 0;  // keys the pair noise
  uint32_t seed = 0;
  double dt = 0.005;
  physics::RngKind rng = physics::RngKind::philox;
  bool want_sums = false;  // also accumulate energy and virial
};

// velocity: the velocities the dissipative force uses (v(t + dt/2) for
// velocity Verlet, the Groot-Warren prediction otherwise). signature: TEA
// per-particle signatures (only read when args.rng == tea).
template <class Real>
PairSums compute_dpd_forces(const System& sys, const Vec3<Real>* pos, const Vec3<Real>* velocity,
                            const uint32_t* type, const uint32_t* tag, const uint32_t* signature,
                            std::size_t n, const NeighborList& nlist, const DpdForceArgs& args,
                            Vec3<Real>* force);

// TEA signatures of all particles from their tags and current velocities.
template <class Real>
void compute_tea_signatures(const Vec3<Real>* velocity, const uint32_t* tag, std::size_t n,
                            uint32_t seed, std::vector<uint32_t>& out);

}  // namespace meso::reference

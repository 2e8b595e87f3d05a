// Initial configurations. Random draws come from the counter-based Philox
// generator keyed by (tag, purpose, seed), so a configuration depends only on
// the seed and N: not on the platform, the standard library, or thread count.
#pragma once

#include <cstdint>

#include "meso/system.hpp"

namespace meso {

// Places particles [0, n_local) uniformly at random in the box.
void place_uniform_random(System& sys, uint64_t seed);

// Draws Maxwell-Boltzmann velocities at temperature kT (per-type masses),
// removes the centre-of-mass velocity and rescales so that the kinetic
// temperature with 3N - 3 degrees of freedom equals kT exactly.
void draw_maxwell_boltzmann(System& sys, double kT, uint64_t seed);

// Subtracts the centre-of-mass velocity from particles [0, n_local) (per-type
// masses), so that the total momentum is zero up to round-off. Returns the
// momentum that was removed.
Vec3d remove_net_momentum(const System& sys, ParticleData<double>& p);

}  // namespace meso

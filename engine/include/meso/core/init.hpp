// Initial configurations. Random draws come from the counter-based Philox
// generator keyed by (tag, purpose, seed), so a configuration depends only on
// the seed and N: not on the platform, the standard library, or thread count.
#pragma once

#include <cstdint>
#include <functional>
#include <vector>

#include "meso/ops/communicator.hpp"
#include "meso/core/system.hpp"

namespace meso {

// Places particles [0, n_local) uniformly at random in the box.
void place_uniform_random(System& sys, uint64_t seed);

// Draws Maxwell-Boltzmann velocities at temperature kT (per-type masses),
// removes the centre-of-mass velocity and rescales so that the kinetic
// temperature with 3N - 3 degrees of freedom equals kT exactly.
void draw_maxwell_boltzmann(System& sys, double kT, uint64_t seed);

// The same draws for a part of a system held by one of several ranks:
// `sum` adds a value over the ranks (a collective every rank enters; the
// identity on one), n_total is the whole system's count. With the identity
// and every particle, bitwise draw_maxwell_boltzmann.
void draw_maxwell_boltzmann(ParticleData<double>& p, const std::vector<double>& type_mass, double kT,
                            uint64_t seed, uint64_t n_total, const std::function<double(double)>& sum);

// N particles placed uniformly at random, stratified so that each rank can
// build only its own (flat set-up time and memory in weak scaling): the box
// is cut into a grid of blocks of about kStratumParticles particles (fixed
// by N and the box, not by the ranks), block b holds N / B particles (the
// first N % B one more) with consecutive tags, and each is drawn uniformly
// in its block from Philox keyed by (tag, seed); type = tag % types.
// Returns those the domain owns (all of them for a whole-box domain), with
// zero velocity and force; every rank's together are the same N particles
// whatever the rank grid.
ParticleData<double> place_stratified(uint64_t n, uint32_t types, uint64_t seed, const Domain& d);
inline constexpr uint64_t kStratumParticles = 4096;

// N particles on a simple cubic lattice filling a cubic box: m = ceil(N^(1/3))
// sites a side, particle i (tag i, type 0) at the centre of site
// floor(i m^3 / N) (x fastest), so the N are spread evenly over the m^3
// sites. Returns those the domain owns (all of them, in tag order, for a
// whole-box domain), with zero velocity and force; a rank visits only the
// sites of its own domain.
ParticleData<double> place_lattice(uint64_t n, const Box& box, const Domain& d);

// Subtracts the centre-of-mass velocity from particles [0, n_local) (per-type
// masses), so that the total momentum is zero up to round-off. Returns the
// momentum that was removed.
Vec3d remove_net_momentum(const System& sys, ParticleData<double>& p);

}  // namespace meso

// GALAMOST's triblock Janus system (Table 1; meso/physics/janus.hpp): soft
// one-site particles with an attractive patch at each pole, at the DPD
// density 3 in a cubic box; the `janus-triblock` workload and the
// janus-assembly case build it.
#pragma once

#include <cmath>
#include <cstdint>

#include "meso/physics/janus.hpp"
#include "meso/core/system.hpp"

namespace meso {

struct JanusTriblockParams {
  double L = 20.0;    // cubic box edge (Table 1: 20, 40, 60, 80)
  double rho = 3.0;   // particles per volume (Table 1: 24,000 in 20^3)
  double kT = 1.0;
  physics::JanusParams janus;  // a^R = 396, a^A = 132, theta_m = 65 degrees, nu = 0.5, r_c = 1, triblock
  double mass = 1.0;
  // Moments of inertia: a uniform sphere of diameter r_c about the axes
  // across the patch axis, m r_c^2 / 10; none about it (the potential
  // exerts no torque about n).
  double inertia_perp() const { return mass * janus.rcut * janus.rcut / 10.0; }
  uint64_t seed = 1;

  uint64_t n() const { return uint64_t(std::llround(rho * L * L * L)); }
  void validate() const;  // InputError naming the bad value
};

// Uniform random positions and patch axes (random_orientation: n uniform
// on the sphere), Maxwell-Boltzmann velocities and angular momenta at kT
// with zero net momentum.
System make_janus_triblock(const JanusTriblockParams& p);

}  // namespace meso

// Orientational particles in a System: the Gay-Berne liquid (the
// `gb-liquid` workload, the nve-drift-rigid and rotational-equipartition
// gates), uniform random orientations, the Maxwell-Boltzmann draw of
// body-frame angular momenta, and the nematic order parameter.
#pragma once

#include <cstdint>

#include "meso/physics/gay_berne.hpp"
#include "meso/core/system.hpp"

namespace meso {

// Identical uniaxial GB(kappa, kappa', mu, nu) ellipsoids of mass m. The
// moments of inertia are those of a uniform solid ellipsoid with axes
// (sigma0, sigma0, kappa sigma0) about its short axes,
// I_perp = m sigma0^2 (1 + kappa^2) / 20, and 0 about the symmetry axis (the
// potential exerts no torque about it): two rotational degrees of freedom.
struct GbLiquidParams {
  uint64_t n = 1000;
  double rho = 0.30;  // number density in sigma0^-3
  double kT = 2.0;
  physics::GayBerneParams gb;  // GB(3, 5, 2, 1), r_cut 4 sigma0, energy shifted
  double mass = 1.0;
  uint64_t seed = 1;

  double inertia_perp() const { return mass * gb.sigma * gb.sigma * (1.0 + gb.kappa * gb.kappa) / 20.0; }
  void validate() const;  // InputError naming the bad value
};

// Builds the liquid aligned along z (a random start would put ellipsoids
// through each other): sites on an nxy x nxy x nz lattice of the cubic box,
// layers at least kappa sigma0 apart along z and sites at least 0.9 sigma0
// apart across, N of them taken evenly spaced; velocities and angular
// momenta Maxwell-Boltzmann at kT with zero net momentum. validate()
// refuses densities the aligned lattice cannot hold. A Langevin run melts
// it (orientations randomise at the default kT).
System make_gb_liquid(const GbLiquidParams& p);

// A rotation uniform over SO(3) (so its body axes are uniform on the
// sphere), from Philox keyed by (tag, seed): the random starts of
// ssd-water and janus-triblock.
Quatd random_orientation(uint32_t tag, uint64_t seed);

// Body-frame angular momenta L_k = sqrt(I_k kT) g_k, g_k standard normal
// from Philox keyed by (tag, seed), and 0 about axes without inertia.
void draw_angular_momenta(ParticleData<double>& p, double kT, uint64_t seed);

// The nematic order parameter S2: the largest eigenvalue of
// Q = <3/2 u u - 1/2 I> over the particles' body z axes (0 isotropic, 1
// perfectly aligned; about 1.5/sqrt(N) in an isotropic sample of N).
double nematic_order(const ParticleData<double>& p);

}  // namespace meso

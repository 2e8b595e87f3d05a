// Thermodynamic observables, computed from particle state plus the per-pair
// energy and virial sums a backend accumulates with its forces.
#pragma once

#include <cstdint>

#include "meso/core/system.hpp"
#include "meso/physics/vec3.hpp"

namespace meso {

struct PairSums {
  double energy = 0.0;  // sum over pairs of U(r_ij)
  double virial = 0.0;  // sum over pairs of r_ij . F_ij (all force terms of the pair style)
};

struct ThermoSample {
  uint64_t step = 0;
  double kinetic_energy = 0.0;
  double potential_energy = 0.0;
  double temperature = 0.0;  // 2 KE / (3N - 3): momentum is conserved
  double pressure = 0.0;     // (2 KE + virial) / (3 V)
  Vec3d momentum{0.0, 0.0, 0.0};
  // Orientational particles: sum_k L_k^2 / (2 I_k), the rotational degrees
  // of freedom (axes with I_k > 0) and T_rot = 2 K_rot / dof_rot; all 0 in an
  // isotropic system.
  double rotational_kinetic_energy = 0.0;
  double rotational_dof = 0.0;
  double rotational_temperature = 0.0;
  // Nose-Hoover term g kT (tau^2 xi^2/2 + eta) of the conserved quantity
  // (integrator nvt; 0 otherwise), filled in by the backend.
  double thermostat_energy = 0.0;

  double total_energy() const { return kinetic_energy + rotational_kinetic_energy + potential_energy; }
  // What the integrator conserves: E for nve/vv, E + thermostat term for nvt.
  double conserved_energy() const { return total_energy() + thermostat_energy; }
};

template <class Real>
ThermoSample compute_thermo(const System& sys, const ParticleData<Real>& p, const PairSums& sums,
                            uint64_t step);

Vec3d total_momentum(const System& sys, const ParticleData<double>& p);

}  // namespace meso

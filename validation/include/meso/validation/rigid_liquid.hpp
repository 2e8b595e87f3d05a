// The orientational liquids of the rigid-body gates (nve-drift-rigid,
// rotational-equipartition): built, then melted and thermalized by Langevin
// dynamics of translation and rotation on the context's backend; and
// windowed statistics of an energy series that both gates use.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "meso/core/system.hpp"
#include "meso/validation/validation_case.hpp"

namespace meso::validation {

// A liquid of rigid bodies at its start (a lattice), the NVE step the gates
// run it with, and what the drift gate needs of its units.
struct RigidLiquid {
  std::string model;  // for the result's data
  System start;
  RunParams run;  // NVE at dt (the gates switch the integrator as they need)
  double kT = 0.0;
  double rho = 0.0;  // particles per volume
  // Steps at dt of one |dE/E| window (1 tau of the Gay-Berne liquid, 1 ps
  // of water).
  uint64_t window = 500;
  // The LJ energy and time units (eps, sigma sqrt(m / eps)) of the model's
  // LJ part in its own units: the LJ gate's drift bound, per eps/tau and
  // particle, in the model's units.
  double lj_energy = 1.0, lj_time = 1.0;
  std::string units = "reduced (eps0, sigma0, m)";
};

// GB(3, 5, 2, 1), r_cut 4, rho = 0.30, kT = 2, dt = 0.002, skin 0.4.
RigidLiquid gay_berne_liquid(uint64_t n, uint64_t seed);
// SSD/RF water at 0.997 g/cm^3 and 298.15 K (meso/systems/water.hpp), dt = 2 fs,
// skin 1 A, Langevin damping 1 ps; units A, kcal/mol, amu (48.888 fs).
RigidLiquid ssd_water_liquid(uint64_t n, uint64_t seed);

// `steps` of Langevin at the liquid's kT (the liquid's gamma and gamma_r)
// from its lattice start: the particles after them (tag order).
System thermalized(const Context& ctx, const RigidLiquid& liquid, uint64_t steps);

// sd(x) in consecutive windows of `window` samples (a trailing partial
// window dropped): the mean of the windows' sd and its standard error from
// their spread (0 with one window).
struct WindowedSd {
  double mean = 0.0, sem = 0.0;
  int windows = 0;
};
WindowedSd windowed_sd(const std::vector<double>& x, std::size_t window);

}  // namespace meso::validation

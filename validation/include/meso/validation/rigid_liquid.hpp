// The orientational liquids of the rigid-body gates (nve-drift-rigid,
// rotational-equipartition): built, then melted and thermalized by Langevin
// dynamics of translation and rotation on the context's backend; and
// windowed statistics of an energy series that both gates use.
#pragma once

#include <cstdint>
#include <vector>

#include "meso/gay_berne_liquid.hpp"
#include "meso/validation/validation_case.hpp"

namespace meso::validation {

// The Gay-Berne liquid of the gates: GB(3, 5, 2, 1), r_cut 4, rho = 0.30,
// kT = 2, dt = 0.002, skin 0.4.
struct RigidLiquid {
  GbLiquidParams params;
  RunParams run;  // NVE at dt (the gates switch the integrator as they need)
};
RigidLiquid gay_berne_liquid(uint64_t n, uint64_t seed);

// `steps` of Langevin (gamma = gamma_r = 1) at the liquid's kT from its
// aligned lattice start: the particles after them (tag order).
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

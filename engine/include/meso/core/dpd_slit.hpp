// A DPD fluid between planar slit walls (docs/walls.md): the `dpd-channel`
// workload's and the dpd-slit-poiseuille gate's system.
#pragma once

#include "meso/core/system.hpp"

namespace meso {

struct DpdSlitParams {
  // The fluid: rho, a, gamma, kT, r_c, s, mass, seed; lx and ly the edges
  // across the walls' normal (lz and n are not read).
  DpdFluidParams fluid;
  double height = 6.0;      // between the walls (>= 2 r_c)
  double wall_speed = 0.0;  // the upper wall moves at +wall_speed along x, the lower at minus it
  bool wall_force = true;   // the effective wall force; off: bounce-back alone (the gate's control)
  bool bounce_back = true;  // off: specular reflection
};

// N = rho lx ly height particles, uniform between the walls at z = +-height / 2
// with Maxwell-Boltzmann velocities (make_dpd_fluid's draws), in a box of
// lx x ly x (height + 2 r_c): the padding keeps the fluid at one wall beyond
// the reach of the fluid at the other across the periodic face. The walls are
// the fluid's continuation: a_w = a, gamma_w = gamma, rho_w = rho, its kT, r_c
// and s.
System make_dpd_slit(const DpdSlitParams& p);

}  // namespace meso

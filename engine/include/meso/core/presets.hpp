// Published parameter sets, named once (docs/reference.md has the sources):
// the workloads, the validation cases and the microbenchmarks start from
// these instead of typing the values out again.
#pragma once

#include "meso/core/mpcd.hpp"
#include "meso/core/system.hpp"

namespace meso::presets {

// Tang & Karniadakis' DPD benchmark fluid (CPC 2014): a = 25, gamma = 4.5,
// kT = 1, s = 0.5, r_c = 1, at density rho with n particles.
inline DpdFluidParams tang_dpd_fluid(double rho, uint64_t n) {
  DpdFluidParams p;
  p.rho = rho;
  p.a = 25.0;
  p.gamma = 4.5;
  p.kT = 1.0;
  p.rcut = 1.0;
  p.s = 0.5;
  p.n = n;
  return p;
}

// HOOMD-blue's LJ liquid benchmark (Anderson et al.): packing fraction 0.20
// (rho = 6 phi / pi = 0.382), r_cut = 3, kT = 1.2, shifted potential.
inline LjLiquidParams hoomd_lj_liquid(uint64_t n) {
  LjLiquidParams p;
  p.n = n;
  p.packing_fraction = 0.20;
  p.kT = 1.2;
  p.rcut = 3.0;
  p.mode = physics::LjMode::shift;
  return p;
}

// Howard et al.'s SRD benchmark solvent (CPC 2018): cell a = 1, m = 1,
// kT = 1, rotation angle 130 degrees, collision time 0.1, random grid shift.
inline MpcdParams howard_srd_solvent(uint32_t seed) {
  MpcdParams p;
  p.cell_size = 1.0;
  p.mass = 1.0;
  p.kT = 1.0;
  p.angle_deg = 130.0;
  p.dt = 0.1;
  p.grid_shift = true;
  p.seed = seed;
  return p;
}

}  // namespace meso::presets

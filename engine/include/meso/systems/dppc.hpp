// The DPPC bilayer in water of the hybrid particle-field model
// (docs/reference.md, "DPPC and water model"; HylleraasMD's DPPC example,
// GALAMOST's MD-SCF validation): 12-bead lipids N-P-G-G + two 4-bead tails,
// water beads W, harmonic bonds and angles, and the MD-SCF field in place of
// pair forces (pair style none).
//
// Units. The model is physical (nm, ps, kJ/mol, g/mol, K); the engine's
// units are chosen so that its numbers carry over unchanged:
//   length  1 = 1 nm
//   energy  1 = 1 kJ/mol
//   mass    1 = 72 g/mol (one bead)
//   time    1 = sqrt(72 g/mol nm^2 / (kJ/mol)) = 8.4853 ps
//   kT      = k_B T = 0.0083144626 kJ/mol/K * T (2.6856 at 323 K)
// so chi, 1/kappa, bond and angle constants enter as published; times in
// ps are divided by 8.4853 (DppcUnits).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "meso/io/h5md.hpp"
#include "meso/core/system.hpp"

namespace meso {

struct DppcUnits {
  static constexpr double nm = 1.0;
  static constexpr double kj_per_mol = 1.0;
  static constexpr double bead_mass_g_per_mol = 72.0;
  static constexpr double boltzmann_kj_per_mol_k = 0.0083144626;
  // sqrt(72e-3 kg/mol * 1e-18 m^2 / 1e3 J/mol) in ps.
  static double time_ps();
  static double kT(double kelvin) { return boltzmann_kj_per_mol_k * kelvin; }
  static double from_ps(double ps) { return ps / time_ps(); }
  // One line for results and logs: "length 1 nm, energy 1 kJ/mol, ...".
  static std::string describe();
  // Trajectories in nm and ps: times and velocities converted from the
  // engine's time unit (time_ps()), positions as they are.
  static io::H5mdUnits trajectory_units();
};

// Bead types of the model, in this order in the System.
enum DppcType : uint32_t { kDppcN = 0, kDppcP = 1, kDppcG = 2, kDppcC = 3, kDppcW = 4, kDppcNumTypes = 5 };

struct DppcBilayerParams {
  uint32_t lipids = 528;  // split evenly between the leaflets
  uint64_t waters = 14000;
  double lx = 13.0, ly = 13.0, lz = 14.0;  // nm
  double kelvin = 323.0;
  // MD-SCF field: grid spacing (nm), Gaussian filter width (nm; 0: none),
  // steps between updates, compressibility and reference density.
  double grid_spacing = 0.65;
  double filter_sigma = 0.5;
  uint32_t update_every = 10;
  double kappa = 0.05;  // mol/kJ
  double rho0 = 8.86;   // beads/nm^3
  // A random grid shift at every update (MdscfField::grid_shift): on by
  // default, the form the dppc-density gate passes with (without it the
  // long form's water profile is not mirror symmetric within its errors).
  bool grid_shift = true;
  uint64_t seed = 1;

  void validate() const;  // throws InputError naming the bad value
};

// The bilayer in the x-y plane centred at z = 0, heads at |z| ~ 2.1 nm,
// tails towards the middle, lipids on a lattice of each leaflet with random
// orientations of the glycerol pair; water uniformly random in the slabs
// outside the lipid layer (thickness from the mean density); velocities
// Maxwell-Boltzmann at kT. Tags: lipid l has tags 12 l .. 12 l + 11 (N, P,
// G1, G2, C1A..C4A, C1B..C4B), waters follow.
System make_dppc_bilayer(const DppcBilayerParams& p);

// The chi table (kJ/mol) of docs/reference.md for the five types above.
std::vector<double> dppc_chi();

}  // namespace meso

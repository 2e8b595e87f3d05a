// The polymer solution of Howard et al. (CPC 2018, sec. 4.3, Fig. 9): bead-
// spring chains in the benchmark SRD solvent, coupled to it only through the
// collisions (the monomers are MpcdParams::embed_types), and its Langevin
// baseline (the chains alone, solvent friction and noise per monomer).
//
// The chain model is that of Huang, Winkler, Sutmann & Gompper
// (Macromolecules 43, 10107, 2010), a Kremer-Grest chain in MPC units:
// - WCA between all monomers, bonded ones included: LJ with epsilon = kT,
//   sigma = a (the cell edge), cut at 2^(1/6) sigma and shifted to zero;
// - FENE bonds, V = -(K/2) R0^2 ln(1 - r^2/R0^2), K = 30 kT/a^2, R0 = 1.5 a;
// - monomer mass M = rho m (neutrally buoyant: one cell's solvent mass);
// - one collision every 50 MD steps (MD step dt_c / 50 = 0.002).
// docs/showcases.md states the values and what each gate changes.
#pragma once

#include <cstdint>
#include <vector>

#include "meso/core/mpcd.hpp"
#include "meso/core/system.hpp"

namespace meso {

struct PolymerSolutionParams {
  uint32_t chains = 16;
  uint32_t chain_length = 50;
  double L = 50.0;       // cubic box edge in cells (a = 1)
  double rho = 10.0;     // solvent particles per cell
  double kT = 1.0;
  double epsilon = 1.0;  // WCA, in kT
  double sigma = 1.0;    // WCA, in a
  double fene_k = 30.0;  // kT / a^2
  double fene_r0 = 1.5;  // R0, in a
  double monomer_mass = 10.0;  // rho m
  uint64_t seed = 1;

  uint64_t monomers() const { return uint64_t(chains) * chain_length; }
  void validate() const;  // throws InputError naming the bad value
};

// The chains alone (tags c L .. c L + L - 1 for chain c, in bond order):
// one type "M" of monomer_mass, the WCA pair table, one FENE bond type.
// Each chain is a self-avoiding walk of steps 0.97 sigma (the Kremer-Grest
// bond length) in uniformly random directions from a uniformly random start,
// no bead within 0.9 sigma of any bead placed before it (a step that would
// be is drawn again; a chain that cannot go on starts again elsewhere). All
// draws are Philox keyed by the tag, the attempt and `seed`, so the chains
// depend only on the parameters. Velocities: Maxwell-Boltzmann at kT with
// zero net momentum. Images follow the walk, so unwrapped positions are the
// chain's conformation.
System make_polymer_chains(const PolymerSolutionParams& p);

// The SRD solvent around them: make_srd_fluid at (L, rho, seed) with
// `params` (the benchmark solvent: presets::howard_srd_solvent) and the
// monomers embedded (embed_types = 1).
MpcdSystem make_polymer_solvent(const PolymerSolutionParams& p, MpcdParams params);

// Per chain, from tag-ordered particles: the centre of mass of the unwrapped
// positions and the squared radius of gyration (equal masses). Chains are
// `chains` runs of `length` consecutive tags from tag 0.
struct ChainConformations {
  std::vector<Vec3d> com;
  std::vector<double> rg2;
};
ChainConformations chain_conformations(const Box& box, const ParticleData<double>& p, uint32_t chains,
                                       uint32_t length);

// Zimm's centre-of-mass diffusion coefficient of a non-draining chain,
// 8 / (3 sqrt(6 pi^3)) kT / (eta R_e) with R_e^2 = 6 R_g^2 (Doi & Edwards
// eq. 4.164, Gaussian statistics): about 0.0798 kT / (eta R_g).
double zimm_diffusion(double kT, double eta, double rg);
// Dünweg & Kremer (J. Chem. Phys. 99, 6983, 1993): a chain in a periodic
// cube of edge L diffuses slower than in infinite solvent by
// 2.837 kT / (6 pi eta L); D_inf = D_L + this.
double periodic_box_correction(double kT, double eta, double L);
// The Langevin drag per monomer (RunParams::gamma, force -gamma v) with
// which a Rouse chain of n monomers diffuses as kT / (n gamma) = d.
double rouse_matched_gamma(double kT, uint32_t n, double d);

}  // namespace meso

// The vesicle-forming DPD system of Tang & Karniadakis (CPC 185, 2809, 2014,
// sec. 4.5; docs/reference.md, "Vesicle formation"): triblock chains
// BBBAABBB (A hydrophilic, B hydrophobic) at 10% of the beads in a solvent S,
// rho = 5, sigma = 3, gamma = 4.5, kT = 1, harmonic bonds F = K (r - r0)
// with r0 = 0.38 and K = 80, and a_ij of AA 15, AB 120, AS 15, BB 15,
// BS 120, SS 15. The paper's boundaries were bounce-forward walls; here the
// box is periodic. Its weight exponent is not stated: s = 1 (standard DPD)
// unless asked.
#pragma once

#include <cstdint>
#include <string>

#include "meso/core/system.hpp"

namespace meso {

// Bead types, in this order in the System.
enum VesicleType : uint32_t { kVesicleA = 0, kVesicleB = 1, kVesicleS = 2, kVesicleNumTypes = 3 };

struct VesicleParams {
  uint64_t n = 262144;          // beads in all (chains and solvent)
  double rho = 5.0;
  double concentration = 0.10;  // fraction of the beads in chains
  std::string sequence = "BBBAABBB";
  double a_aa = 15.0, a_ab = 120.0, a_as = 15.0, a_bb = 15.0, a_bs = 120.0, a_ss = 15.0;
  double gamma = 4.5;  // sigma = sqrt(2 gamma kT) = 3
  double kT = 1.0;
  double rcut = 1.0;
  double s = 1.0;
  double mass = 1.0;
  double bond_k = 80.0;
  double bond_r0 = 0.38;
  uint64_t seed = 1;

  // Beads of each chain, and the number of chains: the concentration's
  // share of n, rounded to whole chains.
  uint32_t chain_length() const { return static_cast<uint32_t>(sequence.size()); }
  uint64_t chains() const;
  void validate() const;  // throws InputError naming the bad value
};

// The chains placed at random, as the paper does: the first bead of each
// uniformly in the (cubic, N = rho L^3) box, each next one r0 from the
// previous in a uniformly random direction; the solvent uniformly random;
// velocities Maxwell-Boltzmann at kT with zero net momentum. All draws are
// Philox keyed by the tag and `seed`. Tags: chain c holds c L .. c L + L - 1
// in sequence order (L = chain_length()), the solvent follows.
System make_dpd_vesicle(const VesicleParams& p);

}  // namespace meso

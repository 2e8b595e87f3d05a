// Iterative Boltzmann inversion of a bead-spring melt: the non-bonded pair
// potential from the intermolecular g(r), the bond potential from the bond
// lengths' distribution and the angle potential from the angles', all three
// corrected at every iteration from one run (meso/tables/ibi.hpp for pairs,
// meso/tables/ibi_bonded.hpp for bonds and angles; docs/tables.md).
//
// The melt: `chains` linear chains of `chain_length` beads of one type,
// bonds between neighbours along a chain (one bond type), angles at every
// inner bead (one angle type), the pair potential between all beads, bonded
// ones included, in the analytic model as in the tabulated one. The
// analytic model (the closed loop's source of targets) is a DPD-type soft
// repulsion V = (a rc / 2)(1 - r/rc)^2 with harmonic bonds and angles under
// Langevin dynamics; the tabulated one replaces all three by tables.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <vector>

#include "meso/run/backend.hpp"
#include "meso/tables/ibi_bonded.hpp"
#include "meso/analysis/rdf.hpp"
#include "meso/core/system.hpp"

namespace meso {

struct BeadSpringMeltParams {
  uint32_t chains = 60, chain_length = 10;
  double rho = 3.0;  // beads per unit volume
  double kT = 1.0;
  double a = 25.0, rcut = 1.0;                  // soft repulsion between all beads
  double bond_k = 100.0, bond_r0 = 0.7;         // V = k/2 (r - r0)^2
  double angle_k = 5.0, angle_theta0 = 120.0;   // V = k/2 (theta - theta0)^2, theta0 in degrees
  uint64_t seed = 1;

  uint64_t beads() const { return uint64_t(chains) * chain_length; }
  void validate() const;  // InputError naming the bad value
};

// The analytic melt: a cubic box at rho, chains as random walks of steps
// bond_r0 from uniformly random starts (soft beads may overlap), tags
// c * chain_length + k in bond order, Maxwell-Boltzmann velocities at kT.
// Draws are Philox keyed by tag and seed. pair_style dpd with gamma = 0
// (the conservative force only; the thermostat is the run's Langevin).
System make_bead_spring_melt(const BeadSpringMeltParams& p);

// The chain of each tag (`chains` runs of `length` consecutive tags).
std::vector<uint32_t> chain_of_tag(uint32_t chains, uint32_t length);

// The three distributions IBI fits, each on its own bins.
struct MeltDistributions {
  Rdf pair;  // intermolecular g(r)
  BondedDistribution bond, angle;
};

// How a run is sampled: equilibration steps, then `samples` configurations
// `every` steps apart; the bins of each distribution. The defaults are the
// analytic melt's (the validation case's and `mesobench ibi --melt-targets`'):
// g(r) to 1.5 in bins of 0.02, bond lengths 0.3-1.1 in 0.01, angles in 2
// degrees.
struct MeltSampling {
  uint64_t equilibrate = 1000, samples = 200, every = 20;
  double r_max = 1.5;
  int pair_bins = 75;
  double bond_lo = 0.3, bond_hi = 1.1;
  int bond_bins = 80;
  double angle_lo = 0.0, angle_hi = 3.141592653589793;  // radians
  int angle_bins = 90;
};

// Runs `sys` (Langevin at rp) on a backend from `make_backend` and samples
// the three distributions of its melt (molecules: chain_of_tag). With
// `last`, the final configuration is stored there: the next iteration
// starts from it (a random walk's overlaps would meet the steep inner walls
// of the potentials of mean force).
MeltDistributions sample_melt(const System& sys, const RunParams& rp,
                              const std::function<std::unique_ptr<Backend>()>& make_backend,
                              const std::vector<uint32_t>& molecule_of_tag, const MeltSampling& s,
                              ParticleData<double>* last = nullptr);

// The integrated absolute differences of each distribution from its target
// (rdf_difference, distribution_difference) and the largest of the three.
struct MeltDifference {
  double pair = 0.0, bond = 0.0, angle = 0.0;
  double largest() const;
};
MeltDifference melt_difference(const MeltDistributions& d, const MeltDistributions& target);

// The potentials of one iteration, on the targets' bins.
struct MeltPotentials {
  BinnedPotential pair, bond, angle;
};
// Where the inversion and its corrections apply: bins whose g (pair) or P
// relative to its maximum (bond, angle) exceeds the floor; the walls of the
// potentials of mean force continue them beyond (meso/tables/ibi.hpp). A bin of a
// few counts gives a correction of +- kT ln 2 at random each iteration,
// which adds up to spikes with large forces: the floors keep the bins
// below ~25 counts in a run of 400 beads x 200 configurations fixed.
struct MeltFloors {
  double pair = 0.05, bonded = 0.01;
};
// The start: each potential of mean force (the bonded ones with their
// Jacobians).
MeltPotentials melt_potentials_of_mean_force(const MeltDistributions& target, double kT, const MeltFloors& f = {});
// Soft beads overlap: a melt's pair table reaches down to this r. A pair
// this close is a chance of ~4e-15 per bead and step at rho = 3
// (4/3 pi r^3 rho g(0)).
inline constexpr double kMeltTableRIn = 1e-5;
// `sys` with its pair, bond and angle potentials replaced by the tables of
// `v` (`points` points each; pair on the r^2 grid, down to kMeltTableRIn).
System with_melt_tables(System sys, const MeltPotentials& v, uint32_t points);
// One IBI correction of all three.
void ibi_update(MeltPotentials& v, const MeltDistributions& measured, const MeltDistributions& target, double kT,
                double alpha = 1.0, const MeltFloors& f = {});

}  // namespace meso

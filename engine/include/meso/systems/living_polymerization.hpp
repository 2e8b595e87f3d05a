// The well-mixed living polymerization of the living-polymerization gate
// and workload, and the statistics that gate it: the mean-field rate
// equation, Pearson's chi-square against Poisson, and the dispersity
// (docs/polymerization.md).
#pragma once

#include <cstdint>
#include <vector>

#include "meso/core/system.hpp"

namespace meso {

// A well-mixed living polymerization (the living-polymerization gate and
// workload): `initiators` active ends (type I, tags 0 ..) and `monomers`
// free monomers (type M) placed uniformly at random, reacted monomers of
// type P, all of mass 1 and with no pair force (an ideal solution, so the
// monomers around an end are uniform and the rate equation is exact in the
// reaction-limited limit), chains held by harmonic bonds.
struct LivingPolymerizationParams {
  uint64_t initiators = 500;
  uint64_t monomers = 10000;
  double monomer_density = 0.5;  // free monomers per volume at t = 0
  double capture_radius = 1.0;
  double probability = 0.01;
  uint64_t period = 10;
  double bond_k = 20.0;  // harmonic bond, V = k/2 (r - r0)^2
  double bond_r0 = 0.5;
  double kT = 1.0;
  uint64_t seed = 1;

  void validate() const;  // InputError naming the bad value
};
System make_living_polymerization(const LivingPolymerizationParams& p);

// The mean-field rate equation of a living polymerization of n_ends ends in
// a box of volume V: an end reacts at an attempt with probability
// p(M) = P (1 - (1 - v_c / V)^M), the chance that at least one of the M
// free monomers, uniform and independent of it, lies in its capture sphere
// of volume v_c, times P. Returns the expected free monomers after each of
// `attempts` attempts (entry 0: m0), iterating M <- M - n_ends p(M).
// Contested claims are left out (their rate is second order in the end
// density; the run reports how many there were).
std::vector<double> living_free_monomers(double m0, double n_ends, double probability, double capture_volume,
                                         double volume, uint64_t attempts);

// Pearson's chi-square of counts (monomers added per chain) against a
// Poisson distribution of their own mean. Bins are the counts 0, 1, ...,
// merged from both tails until every expected count is at least 5; the mean
// is fitted, so dof = bins - 2. The p-value uses the Wilson-Hilferty cube
// root normal approximation of the chi-square tail (within 1e-3 of the
// exact one from dof = 3 on at the tail probabilities a gate tests).
struct PoissonTest {
  double mean = 0.0;
  double chi_square = 0.0;
  int dof = 0;
  double p_value = 1.0;
  std::vector<double> observed, expected;  // per merged bin
  std::vector<uint32_t> first;             // the smallest count in each merged bin
};
PoissonTest poisson_chi_square(const std::vector<uint32_t>& counts);
double chi_square_tail(double chi_square, int dof);  // P(X >= chi_square), Wilson-Hilferty

// Weight-average over number-average length of chains of 1 + growth[i]
// monomers (the initiator counts as one): 1 + lambda / (1 + lambda)^2 for
// Poisson growth of mean lambda, so 1 + 1/DP for long chains.
double dispersity(const std::vector<uint32_t>& growth);

}  // namespace meso

// The statistics of the living-polymerization gate (meso/living_
// polymerization.hpp) against hand-computed values, and the draws of
// meso/physics/polymerization.hpp: pure functions of their keys.
#include <gtest/gtest.h>

#include <cmath>
#include <random>
#include <vector>

#include "meso/core/error.hpp"
#include "meso/systems/living_polymerization.hpp"
#include "meso/physics/polymerization.hpp"

namespace {

using namespace meso;

TEST(LivingPolymerization, RateEquationByHand) {
  // M0 = 100, 10 ends, P = 0.5, v_c / V = 0.01: an end finds a monomer
  // with probability 1 - 0.99^100 = 0.633968, so 10 x 0.5 x 0.633968 react.
  const std::vector<double> m = living_free_monomers(100.0, 10.0, 0.5, 1.0, 100.0, 2);
  ASSERT_EQ(m.size(), 3u);
  EXPECT_DOUBLE_EQ(m[0], 100.0);
  EXPECT_NEAR(m[1], 100.0 - 5.0 * (1.0 - std::pow(0.99, 100.0)), 1e-12);
  EXPECT_NEAR(m[2], m[1] - 5.0 * (1.0 - std::pow(0.99, m[1])), 1e-12);
  // No monomer, no reaction; never below zero.
  EXPECT_DOUBLE_EQ(living_free_monomers(0.0, 10.0, 0.5, 1.0, 100.0, 3).back(), 0.0);
  EXPECT_GE(living_free_monomers(3.0, 1000.0, 1.0, 50.0, 100.0, 3).back(), 0.0);
}

TEST(LivingPolymerization, ChiSquareTailMatchesTables) {
  // Exact upper-tail values (chi-square tables): the Wilson-Hilferty form
  // is within 1e-3 of them from dof = 3 on.
  EXPECT_NEAR(chi_square_tail(23.209, 10), 0.01, 1e-3);
  EXPECT_NEAR(chi_square_tail(9.342, 10), 0.50, 1e-3);
  EXPECT_NEAR(chi_square_tail(16.266, 3), 0.001, 3e-4);
  EXPECT_NEAR(chi_square_tail(31.410, 20), 0.05, 1e-3);
  EXPECT_THROW(chi_square_tail(1.0, 0), InputError);
}

TEST(LivingPolymerization, PoissonSamplesPassAndNarrowOnesFail) {
  std::mt19937_64 gen(11);
  std::poisson_distribution<uint32_t> poisson(7.5);
  std::vector<uint32_t> counts(4000);
  for (uint32_t& c : counts) c = poisson(gen);
  const PoissonTest t = poisson_chi_square(counts);
  EXPECT_NEAR(t.mean, 7.5, 0.15);
  EXPECT_GT(t.p_value, 1e-3);
  EXPECT_GE(t.dof, 8);
  double observed = 0.0, expected = 0.0;
  for (std::size_t b = 0; b < t.observed.size(); ++b) {
    observed += t.observed[b];
    expected += t.expected[b];
    EXPECT_GE(t.expected[b], 5.0);
  }
  EXPECT_DOUBLE_EQ(observed, 4000.0);
  // The merged bins start at increasing counts, the first at 0.
  ASSERT_EQ(t.first.size(), t.observed.size());
  EXPECT_EQ(t.first.front(), 0u);
  for (std::size_t b = 1; b < t.first.size(); ++b) EXPECT_GT(t.first[b], t.first[b - 1]);
  EXPECT_NEAR(expected, 4000.0, 1e-6);
  // Binomial(15, 0.5): the same mean, half the variance. Rejected.
  std::binomial_distribution<uint32_t> narrow(15, 0.5);
  for (uint32_t& c : counts) c = narrow(gen);
  EXPECT_LT(poisson_chi_square(counts).p_value, 1e-6);
  // Too few chains for two bins of 5 expected.
  EXPECT_THROW(poisson_chi_square({3, 4}), InputError);
}

TEST(LivingPolymerization, DispersityByHand) {
  // Chains of 1 and 3 monomers: Mn = 2, Mw = (1 + 9) / 4 = 2.5.
  EXPECT_DOUBLE_EQ(dispersity({0, 2}), 1.25);
  EXPECT_DOUBLE_EQ(dispersity({4, 4, 4}), 1.0);
  EXPECT_THROW(dispersity({}), InputError);
}

TEST(LivingPolymerization, BuildsTheStatedSystem) {
  LivingPolymerizationParams lp;
  lp.initiators = 10;
  lp.monomers = 1000;
  lp.monomer_density = 0.5;
  const System sys = make_living_polymerization(lp);
  EXPECT_EQ(sys.particles.n_local, 1010u);
  EXPECT_NEAR(sys.box.volume(), 2000.0, 1e-9);
  EXPECT_EQ(sys.polymerization.initiators.size(), 10u);
  EXPECT_EQ(sys.polymerization.period, lp.period);
  EXPECT_TRUE(sys.topology.bonds.empty());
  for (std::size_t i = 0; i < 1010; ++i) EXPECT_EQ(sys.particles.type[i], i < 10 ? 0u : 1u);
  sys.validate(0.0);
  lp.probability = 2.0;
  EXPECT_THROW(make_living_polymerization(lp), InputError);
}

TEST(PolymerizationDraws, PureFunctionsOfTheirKeys) {
  using namespace meso::physics;
  EXPECT_EQ(polymerization_candidate(1, 10, 3, 77), polymerization_candidate(1, 10, 3, 77));
  EXPECT_NE(polymerization_candidate(1, 10, 3, 77), polymerization_candidate(1, 11, 3, 77));
  EXPECT_NE(polymerization_candidate(1, 10, 3, 77), polymerization_candidate(2, 10, 3, 77));
  // The candidate's low word is the monomer's tag (ties broken by it); the
  // claim keeps the random high word and puts the end's tag below it.
  EXPECT_EQ(polymerization_candidate(1, 10, 3, 77) & 0xffffffffu, 77u);
  const uint64_t c = polymerization_candidate(1, 10, 3, 77);
  EXPECT_EQ(polymerization_claim(c, 3) >> 32, c >> 32);
  EXPECT_EQ(polymerization_claim(c, 3) & 0xffffffffu, 3u);
  // The acceptance rate is P: 20000 ends at P = 0.3, within 4 sigma.
  int accepted = 0;
  for (uint32_t e = 0; e < 20000; ++e) accepted += polymerization_accepts(5, 1000, e, 0.3);
  EXPECT_NEAR(accepted, 6000.0, 4.0 * std::sqrt(20000 * 0.3 * 0.7));
  EXPECT_FALSE(polymerization_accepts(5, 1000, 1, 0.0));
  EXPECT_TRUE(polymerization_accepts(5, 1000, 1, 1.0));
}

}  // namespace

// The index-of-dispersion test of living-polymerization
// (meso/validation/index_of_dispersion.hpp): by hand, its false-alarm rate on
// Poisson counts, and its power against chains whose rates spread +-10%,
// the alternative the gate's chi-square cannot resolve (issue 57).
#include <gtest/gtest.h>

#include <cmath>
#include <random>
#include <vector>

#include "meso/core/error.hpp"
#include "meso/validation/index_of_dispersion.hpp"

namespace {

using namespace meso::validation;

TEST(IndexOfDispersion, ByHand) {
  // Counts 0, 2, 4: mean 2, s^2 = 4, D = 2; n = 3, se = sqrt(2/3).
  const DispersionTest t = index_of_dispersion({0, 2, 4}, 1.0);
  EXPECT_DOUBLE_EQ(t.mean, 2.0);
  EXPECT_DOUBLE_EQ(t.index, 2.0);
  EXPECT_DOUBLE_EQ(t.se, std::sqrt(2.0 / 3.0));
  EXPECT_NEAR(t.z, 1.0 / std::sqrt(2.0 / 3.0), 1e-12);
  EXPECT_NEAR(t.p_value, std::erfc(t.z / std::sqrt(2.0)), 1e-15);
  EXPECT_THROW(index_of_dispersion({3}, 1.0), meso::InputError);
  EXPECT_THROW(index_of_dispersion({0, 0}, 1.0), meso::InputError);
  // Ten attempts at p = 0.1 each: the binomial's D = 1 - p = 0.9.
  std::vector<double> free(11);
  for (int k = 0; k <= 10; ++k) free[k] = 100.0 - 10.0 * k;  // 100 ends, 10 react an attempt
  EXPECT_NEAR(poisson_binomial_dispersion(free, 100.0, 10), 0.9, 1e-12);
}

// Counts of n chains of mean lambda, each chain's rate lambda (1 + u), u
// uniform in [-spread, spread].
std::vector<uint32_t> chains(std::mt19937_64& rng, std::size_t n, double lambda, double spread) {
  std::uniform_real_distribution<double> u(-spread, spread);
  std::vector<uint32_t> c(n);
  for (auto& x : c) x = std::poisson_distribution<uint32_t>(lambda * (1.0 + u(rng)))(rng);
  return c;
}

// The long form pools 24 runs of 4000 chains (96,000) at conversion 0.5,
// where a chain has added lambda = 10 on average. Rates spread +-10% raise
// D by lambda / 300 = 0.033, 7.3 standard errors (sqrt(2/96000) = 0.0046):
// the gate (two-sided p >= 1e-3, |z| <= 3.29) rejects it with power 0.9999.
// Poisson counts pass it but for a fraction 1e-3. Fixed seeds: 40 null and
// 20 spread samples, each of 96,000 chains; the expected false alarms
// number 0.04 and the expected misses 0.002.
TEST(IndexOfDispersion, RejectsARateSpreadOfTenPerCentThatPoissonCountsPass) {
  std::mt19937_64 rng(20261129);
  const std::size_t n = 96000;
  int false_alarms = 0, misses = 0;
  double mean_z_spread = 0.0;
  for (int k = 0; k < 40; ++k)
    false_alarms += index_of_dispersion(chains(rng, n, 10.0, 0.0), 1.0).p_value < 1e-3;
  for (int k = 0; k < 20; ++k) {
    const DispersionTest t = index_of_dispersion(chains(rng, n, 10.0, 0.1), 1.0);
    misses += t.p_value >= 1e-3;
    mean_z_spread += t.z / 20.0;
  }
  EXPECT_EQ(false_alarms, 0);
  EXPECT_EQ(misses, 0);
  // The shift itself: 7.3 standard errors expected, each sample within 1 of it.
  EXPECT_NEAR(mean_z_spread, (10.0 / 300.0) / std::sqrt(2.0 / n), 1.0);
}

}  // namespace

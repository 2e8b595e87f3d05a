// The fits of polymer-hydrodynamics (meso/validation/polymer_fits.hpp) on
// data with known exponents.
#include <gtest/gtest.h>

#include <cmath>

#include "meso/error.hpp"
#include "meso/validation/polymer_fits.hpp"

namespace {

using namespace meso::validation;

TEST(PolymerFits, MeanAndStandardErrorByHand) {
  const MeanSem m = mean_sem({1.0, 2.0, 3.0, 6.0});
  EXPECT_DOUBLE_EQ(m.mean, 3.0);
  // Sample variance (4 + 1 + 0 + 9) / 3 = 14/3; SEM sqrt(14/3 / 4).
  EXPECT_NEAR(m.sem, std::sqrt(14.0 / 12.0), 1e-15);
  EXPECT_THROW(mean_sem({1.0}), meso::InputError);
}

// Exact power laws come back exactly; the slope's error follows the
// weights: two points with relative errors e give se = e sqrt(2) / ln(n2/n1).
TEST(PolymerFits, PowerLawRecoversItsExponent) {
  const std::vector<double> n = {10, 20, 40};
  std::vector<MeanSem> y;
  for (double x : n) y.push_back({3.0 * std::pow(x, -0.59), 0.02 * 3.0 * std::pow(x, -0.59)});
  const PowerFit f = power_fit(n, y);
  EXPECT_NEAR(f.exponent, -0.59, 1e-12);
  EXPECT_NEAR(f.prefactor, 3.0, 1e-10);
  const PowerFit two = power_fit({10, 40}, {y[0], y[2]});
  EXPECT_NEAR(two.se, 0.02 * std::sqrt(2.0) / std::log(4.0), 1e-12);
}

TEST(PolymerFits, LocalExponentsByHand) {
  const std::vector<double> e = local_exponents({10, 20, 40}, {1.0, 2.0, 8.0});
  ASSERT_EQ(e.size(), 2u);
  EXPECT_NEAR(e[0], 1.0, 1e-15);
  EXPECT_NEAR(e[1], 2.0, 1e-15);
  EXPECT_THROW(local_exponents({10, 20}, {1.0}), meso::InputError);
}

}  // namespace

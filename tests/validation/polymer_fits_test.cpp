// The fits of polymer-hydrodynamics (meso/validation/polymer_fits.hpp) on
// data with known exponents.
#include <gtest/gtest.h>

#include <cmath>
#include <random>

#include "meso/core/error.hpp"
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

// R_g^2 of short self-avoiding chains: A N^(2 nu) (1 + c N^-delta) with the
// values the long form's chains showed (A = 0.232, 2 nu = 1.2, c = -0.87).
std::vector<MeanSem> corrected_law(const std::vector<double>& n, double a, double p, double c, double delta,
                                   double rel_err) {
  std::vector<MeanSem> y;
  for (double x : n) {
    const double v = a * std::pow(x, p) * (1.0 + c * std::pow(x, -delta));
    y.push_back({v, rel_err * v});
  }
  return y;
}

// The law itself comes back: exponent, amplitude and correction, through
// three points (no degree of freedom left) and through four.
TEST(PolymerFits, CorrectedPowerLawRecoversItsParameters) {
  for (const std::vector<double>& n : {std::vector<double>{10, 20, 40}, std::vector<double>{10, 20, 40, 80}}) {
    const CorrectedPowerFit f = corrected_power_fit(n, corrected_law(n, 0.232, 1.2, -0.87, 0.528, 0.003), 0.528);
    EXPECT_NEAR(f.exponent, 1.2, 1e-9);
    EXPECT_NEAR(f.amplitude, 0.232, 1e-9);
    EXPECT_NEAR(f.correction, -0.87, 1e-8);
    EXPECT_LT(f.chi2, 1e-12);
    EXPECT_EQ(f.dof, static_cast<int>(n.size()) - 3);
  }
  // A pure power law is one with no correction.
  const std::vector<double> n = {10, 20, 40, 80};
  const CorrectedPowerFit pure = corrected_power_fit(n, corrected_law(n, 2.0, 1.176, 0.0, 0.528, 0.01), 0.528);
  EXPECT_NEAR(pure.exponent, 1.176, 1e-9);
  EXPECT_NEAR(pure.correction, 0.0, 1e-8);
}

// The stated error is the spread: over 400 noisy copies of the long form's
// R_g^2 (relative errors 0.04%, 0.17%, 0.44%, as measured), the z-scores of
// the exponent have unit variance and, through four points, chi^2 averages
// its one degree of freedom (each within 0.21: 3 sigma of a mean of 400
// chi-square draws of one degree, sqrt(2 / 400) = 0.071).
TEST(PolymerFits, CorrectedPowerLawErrorIsTheSpread) {
  const std::vector<double> n3 = {10, 20, 40}, n4 = {10, 20, 40, 80};
  const std::vector<double> rel = {4e-4, 1.7e-3, 4.4e-3, 1.4e-2};
  std::mt19937_64 rng(20261128);
  std::normal_distribution<double> z;
  double z2_3 = 0, z2_4 = 0, chi2 = 0;
  const int draws = 400;
  for (int k = 0; k < draws; ++k) {
    std::vector<MeanSem> y = corrected_law(n4, 0.232, 1.2, -0.87, 0.528, 0.0);
    for (std::size_t i = 0; i < y.size(); ++i) {
      y[i].sem = rel[i] * y[i].mean;
      y[i].mean += y[i].sem * z(rng);
    }
    const CorrectedPowerFit f3 = corrected_power_fit(n3, {y[0], y[1], y[2]}, 0.528);
    const CorrectedPowerFit f4 = corrected_power_fit(n4, y, 0.528);
    z2_3 += std::pow((f3.exponent - 1.2) / f3.se, 2);
    z2_4 += std::pow((f4.exponent - 1.2) / f4.se, 2);
    chi2 += f4.chi2;
  }
  EXPECT_NEAR(z2_3 / draws, 1.0, 0.21);
  EXPECT_NEAR(z2_4 / draws, 1.0, 0.21);
  EXPECT_NEAR(chi2 / draws, 1.0, 0.21);
}

// The gate's power: an ideal (freely jointed) chain's exact R_g^2 =
// b^2 (N^2 - 1) / (6 N) gives nu = 1/2 through the same fit, 0.088 outside
// the band of 0.588 +- 0.03.
TEST(PolymerFits, IdealChainIsNotSwollen) {
  const std::vector<double> n = {10, 20, 40, 80};
  std::vector<MeanSem> y;
  for (double x : n) y.push_back({(x * x - 1.0) / (6.0 * x), 0.003 * (x * x - 1.0) / (6.0 * x)});
  const CorrectedPowerFit f = corrected_power_fit(n, y, 0.528);
  EXPECT_NEAR(0.5 * f.exponent, 0.5, 0.01);
  EXPECT_GT(std::fabs(0.5 * f.exponent - 0.588), 0.03);
}

TEST(PolymerFits, CorrectedPowerLawRefusals) {
  const std::vector<MeanSem> two = {{1.0, 0.1}, {2.0, 0.1}};
  EXPECT_THROW(corrected_power_fit({10, 20}, two, 0.528), meso::InputError);
  EXPECT_THROW(corrected_power_fit({10, 20, 40}, {{1.0, 0.1}, {2.0, 0.0}, {4.0, 0.1}}, 0.528), meso::InputError);
  EXPECT_THROW(corrected_power_fit({10, 20, 40}, {{1.0, 0.1}, {2.0, 0.1}, {4.0, 0.1}}, 0.0), meso::InputError);
}

TEST(PolymerFits, LocalExponentsByHand) {
  const std::vector<double> e = local_exponents({10, 20, 40}, {1.0, 2.0, 8.0});
  ASSERT_EQ(e.size(), 2u);
  EXPECT_NEAR(e[0], 1.0, 1e-15);
  EXPECT_NEAR(e[1], 2.0, 1e-15);
  EXPECT_THROW(local_exponents({10, 20}, {1.0}), meso::InputError);
}

}  // namespace

// Least-squares parabola: exact on synthetic parabolas, and on noisy data the
// curvature error is what the stated standard error says it is.
#include <gtest/gtest.h>

#include <cmath>
#include <random>

#include "meso/core/error.hpp"
#include "meso/analysis/parabola_fit.hpp"

namespace {

using namespace meso;

TEST(ParabolaFit, ExactOnParabolaFarFromOrigin) {
  // Channel half [-6, 0) sampled at 24 bin centres, shifted by 1000 to check
  // the conditioning of the centred basis: u = 0.3 - 0.02 (x - 997)^2 ...
  std::vector<double> x, u;
  for (int i = 0; i < 24; ++i) {
    x.push_back(1000.0 - 6.0 + 0.25 * (i + 0.5));
    const double d = x.back() - 997.0;
    u.push_back(0.3 + 0.01 * d - 0.02 * d * d);
  }
  const ParabolaFit f = fit_parabola(x, u);
  EXPECT_NEAR(f.curvature(), -0.02, 1e-12);
  for (std::size_t i = 0; i < x.size(); ++i) EXPECT_NEAR(f(x[i]), u[i], 1e-11);
  EXPECT_LT(f.residual_rms, 1e-11);
  EXPECT_EQ(f.dof, 21);
  // Weighted fit of exact data: the same parabola.
  const ParabolaFit fw = fit_parabola(x, u, std::vector<double>(x.size(), 0.1));
  EXPECT_NEAR(fw.curvature(), -0.02, 1e-12);
}

TEST(ParabolaFit, CurvatureWeightsReproduceTheFit) {
  std::vector<double> x{-2.0, -1.0, 0.0, 1.5, 3.0}, u{4.1, 0.9, 0.2, 2.0, 9.3};
  const auto w = parabola_curvature_weights(x);
  double c2 = 0.0;
  for (std::size_t i = 0; i < x.size(); ++i) c2 += w[i] * u[i];
  EXPECT_NEAR(c2, fit_parabola(x, u).curvature(), 1e-13);
  // A constant and a straight line have zero curvature.
  double s0 = 0.0, s1 = 0.0;
  for (std::size_t i = 0; i < x.size(); ++i) s0 += w[i], s1 += w[i] * x[i];
  EXPECT_NEAR(s0, 0.0, 1e-13);
  EXPECT_NEAR(s1, 0.0, 1e-13);
}

TEST(ParabolaFit, NoisyDataWithinStatedStandardError) {
  // 2000 independent noisy profiles (seeded): the z-scores of the curvature,
  // (c2 - true) / se, must have mean 0 and variance 1. With dof = 21 the
  // z-score is Student-t distributed, variance 21/19 = 1.105; the tolerances
  // are 5 standard errors of the sample mean and variance (fixed seed, so
  // the test is deterministic; the bound only documents the margin).
  std::mt19937_64 gen(20261121);
  std::normal_distribution<double> noise(0.0, 0.05);
  std::vector<double> x;
  for (int i = 0; i < 24; ++i) x.push_back(-6.0 + 0.25 * (i + 0.5));
  const int trials = 2000;
  double sum = 0.0, sum2 = 0.0, sum_with_sigma = 0.0;
  for (int t = 0; t < trials; ++t) {
    std::vector<double> u;
    for (double xi : x) u.push_back(0.1 - 0.0789 * (xi + 3.0) * (xi + 3.0) + noise(gen));
    const ParabolaFit f = fit_parabola(x, u);
    const double z = (f.curvature() + 0.0789) / f.se[2];
    sum += z;
    sum2 += z * z;
    const ParabolaFit fs = fit_parabola(x, u, std::vector<double>(x.size(), 0.05));
    const double zs = (fs.curvature() + 0.0789) / fs.se[2];
    sum_with_sigma += zs * zs;
  }
  const double mean = sum / trials, var = sum2 / trials - mean * mean;
  EXPECT_NEAR(mean, 0.0, 5.0 * std::sqrt(1.105 / trials));
  EXPECT_NEAR(var, 21.0 / 19.0, 5.0 * std::sqrt(2.0 * 1.5 / trials));
  // With the true sigma given, z is exactly normal: variance 1.
  EXPECT_NEAR(sum_with_sigma / trials, 1.0, 5.0 * std::sqrt(2.0 / trials));
}

TEST(ParabolaFit, RejectsBadInput) {
  EXPECT_THROW(fit_parabola({0.0, 1.0, 2.0}, {0.0, 1.0, 4.0}), InputError);  // no dof for the scatter
  EXPECT_THROW(fit_parabola({0.0, 1.0, 1.0, 0.0}, {0.0, 1.0, 1.0, 0.0}), InputError);  // 2 distinct x
  EXPECT_THROW(fit_parabola({0.0, 1.0, 2.0, 3.0}, {0.0, 1.0, 4.0}), InputError);
  EXPECT_THROW(fit_parabola({0.0, 1.0, 2.0, 3.0}, {0.0, NAN, 4.0, 9.0}), InputError);
  EXPECT_THROW(fit_parabola({0.0, 1.0, 2.0}, {0.0, 1.0, 4.0}, {1.0, 0.0, 1.0}), InputError);
}

}  // namespace

#include <gtest/gtest.h>

#include <cmath>

#include "meso/init.hpp"
#include "meso/thermo.hpp"

namespace {

TEST(Init, UniformPositionsInsideBoxAndReproducible) {
  meso::DpdFluidParams p;
  p.n = 20000;
  p.seed = 99;
  const auto a = meso::make_dpd_fluid(p);
  const auto b = meso::make_dpd_fluid(p);
  const double h = 0.5 * a.box.lengths().x;
  double mean_x = 0.0;
  for (std::size_t i = 0; i < a.particles.n_local; ++i) {
    const auto r = a.particles.position[i];
    ASSERT_GE(r.x, -h);
    ASSERT_LT(r.x, h);
    ASSERT_GE(r.z, -h);
    ASSERT_LT(r.z, h);
    ASSERT_EQ(r.x, b.particles.position[i].x);
    mean_x += r.x;
  }
  // Uniform on [-h, h): mean 0, standard error h / sqrt(3 N); 5 sigma bound.
  mean_x /= static_cast<double>(p.n);
  EXPECT_LT(std::fabs(mean_x), 5.0 * h / std::sqrt(3.0 * p.n));
}

TEST(Init, MaxwellBoltzmannExactTemperatureZeroMomentum) {
  meso::DpdFluidParams p;
  p.n = 5000;
  p.kT = 1.7;
  p.mass = 2.0;
  const auto sys = meso::make_dpd_fluid(p);
  const auto t = meso::compute_thermo(sys, sys.particles, {}, 0);
  EXPECT_NEAR(t.temperature, 1.7, 1e-12);
  EXPECT_LT(std::fabs(t.momentum.x) + std::fabs(t.momentum.y) + std::fabs(t.momentum.z), 1e-10);
  // Gaussian components: <v_x^4> / <v_x^2>^2 = 3 (5 sigma: kurtosis SE ~ sqrt(24/N)).
  double m2 = 0, m4 = 0;
  for (const auto& v : sys.particles.velocity) {
    m2 += v.x * v.x;
    m4 += v.x * v.x * v.x * v.x;
  }
  m2 /= p.n;
  m4 /= p.n;
  EXPECT_NEAR(m4 / (m2 * m2), 3.0, 5.0 * std::sqrt(24.0 / p.n));
}

TEST(Init, DifferentSeedsGiveDifferentConfigurations) {
  meso::DpdFluidParams p;
  p.n = 100;
  p.seed = 1;
  const auto a = meso::make_dpd_fluid(p);
  p.seed = 2;
  const auto b = meso::make_dpd_fluid(p);
  EXPECT_NE(a.particles.position[0].x, b.particles.position[0].x);
}

}  // namespace

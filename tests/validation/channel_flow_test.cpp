// The analysis pieces of the Poiseuille cases: the start-up series, its bin
// and window averages, and the kinetic-theory viscosity.
#include <gtest/gtest.h>

#include <cmath>

#include "meso/core/error.hpp"
#include "meso/validation/channel_flow.hpp"

namespace {

using namespace meso::validation;

TEST(StartupChannelFlow, StartsAtRestAndReachesTheParabola) {
  const double g = 0.01, nu = 0.3, d = 8.0, umax = g * d * d / (8.0 * nu);
  for (double z : {-3.9, -2.0, 0.0, 1.0, 3.5}) {
    // t = 0: the series cancels the parabola (1/n^3 convergence, 20000 terms).
    EXPECT_NEAR(startup_channel_velocity(z, z, 0.0, 0.0, g, nu, d), 0.0, 1e-8 * umax) << z;
    // t >> d^2 / (pi^2 nu) = 21.6: the steady parabola.
    EXPECT_NEAR(startup_channel_velocity(z, z, 1e4, 1e4, g, nu, d), umax * (1.0 - 4.0 * z * z / (d * d)),
                1e-12 * umax);
  }
  // Walls stay at rest at all times.
  EXPECT_NEAR(startup_channel_velocity(4.0, 4.0, 5.0, 5.0, g, nu, d), 0.0, 1e-9 * umax);
  // Early times: the centre accelerates freely, u = g t, before the walls are felt.
  EXPECT_NEAR(startup_channel_velocity(0.0, 0.0, 0.5, 0.5, g, nu, d), g * 0.5, 1e-9);
}

TEST(StartupChannelFlow, BinAndWindowAveragesAreAverages) {
  const double g = 0.02, nu = 0.25, d = 10.0;
  // Compare the closed-form averages with a fine midpoint rule.
  const double z0 = 1.0, z1 = 1.5, t0 = 2.0, t1 = 3.0;
  double sum = 0.0;
  const int n = 200;
  for (int i = 0; i < n; ++i)
    for (int j = 0; j < n; ++j) {
      const double z = z0 + (i + 0.5) * (z1 - z0) / n, t = t0 + (j + 0.5) * (t1 - t0) / n;
      sum += startup_channel_velocity(z, z, t, t, g, nu, d);
    }
  EXPECT_NEAR(startup_channel_velocity(z0, z1, t0, t1, g, nu, d), sum / (n * n), 1e-7);
}

TEST(KineticTheoryViscosity, GrootWarrenClosedFormForStandardWeights) {
  // s = 1: eta_K = 45 kT / (4 pi gamma r_c^3), eta_D = 2 pi gamma rho^2 r_c^5 / 1575.
  const auto v = kinetic_theory_viscosity(6.0, 20.25, 0.5, 1.0, 1.0);
  EXPECT_NEAR(v.kinetic, 45.0 * 0.5 / (4.0 * M_PI * 20.25), 1e-9);
  EXPECT_NEAR(v.dissipative, 2.0 * M_PI * 20.25 * 36.0 / 1575.0, 1e-9);
  const auto w = kinetic_theory_viscosity(3.0, 4.5, 1.0, 1.0, 1.0);
  EXPECT_NEAR(w.total(), 45.0 / (4.0 * M_PI * 4.5) + 2.0 * M_PI * 4.5 * 9.0 / 1575.0, 1e-9);
}

TEST(SrdKineticTheoryViscosity, BenchmarkSolventByHand) {
  // a = 1, m = 1, kT = 1, alpha = 130 deg, h = dt_c = 0.1, n = 10 (by hand,
  // 30 digits with mpmath): cos 130 = -0.642787609686539,
  // cos 260 = -0.173648177666930, so 4 - 2 cos a - 2 cos 2a = 5.632871574706939;
  // n - 1 + e^-n = 9.000045399929762;
  // kinetic = n kT h / a^3 (5n / (9.0000454 * 5.6328716) - 1/2)
  //         = 1 * (0.986269162605213 - 0.5) = 0.486269162605213;
  // collisional = m / (18 a h) (n - 1 + e^-n)(1 - cos a)
  //             = 9.000045399929762 * 1.642787609686539 / 1.8 = 8.213979483122749;
  // total 8.700248645727962.
  const auto v = srd_kinetic_theory_viscosity(10.0, 1.0, 1.0, 1.0, 0.1, 130.0);
  EXPECT_NEAR(v.kinetic, 0.486269162605213, 1e-13);
  EXPECT_NEAR(v.collisional, 8.213979483122749, 1e-12);
  EXPECT_NEAR(v.total(), 8.700248645727962, 1e-12);
}

TEST(SrdKineticTheoryViscosity, ScalesAndRejectsBadInput) {
  const auto v = srd_kinetic_theory_viscosity(10.0, 1.0, 1.0, 1.0, 0.1, 130.0);
  // The kinetic part carries kT h / a^3, the collisional part m / (a h).
  const auto w = srd_kinetic_theory_viscosity(10.0, 2.0, 3.0, 2.0, 0.2, 130.0);
  EXPECT_NEAR(w.kinetic, v.kinetic * 2.0 * 2.0 / 8.0, 1e-13);
  EXPECT_NEAR(w.collisional, v.collisional * 3.0 / (2.0 * 2.0), 1e-12);
  // alpha = 90 deg, n = 5: 4 - 0 - 2 cos 180 = 6; n - 1 + e^-5.
  const double f = 4.0 + std::exp(-5.0);
  const auto r = srd_kinetic_theory_viscosity(5.0, 1.0, 1.0, 1.0, 1.0, 90.0);
  EXPECT_NEAR(r.kinetic, 5.0 * (25.0 / (6.0 * f) - 0.5), 1e-12);
  EXPECT_NEAR(r.collisional, f / 18.0, 1e-14);
  EXPECT_THROW(srd_kinetic_theory_viscosity(0.0, 1.0, 1.0, 1.0, 0.1, 130.0), meso::InputError);
  EXPECT_THROW(srd_kinetic_theory_viscosity(10.0, 1.0, 1.0, 1.0, 0.0, 130.0), meso::InputError);
  EXPECT_THROW(srd_kinetic_theory_viscosity(10.0, 1.0, 1.0, 1.0, 0.1, 180.0), meso::InputError);
}

}  // namespace

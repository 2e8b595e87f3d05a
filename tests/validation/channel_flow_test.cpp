// The analysis pieces of the Poiseuille cases: the start-up series, its bin
// and window averages, and the kinetic-theory viscosity.
#include <gtest/gtest.h>

#include <cmath>

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

}  // namespace

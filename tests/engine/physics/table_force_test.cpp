// The tabulated pair evaluator (meso/physics/table_force.hpp) and its
// spline (meso/tables/pair_potential_table.hpp): a cubic in z = r^2 is reproduced
// exactly, the force is -2 dV/dz times r_vec, and the grid's ends.
#include <gtest/gtest.h>

#include <cmath>

#include "meso/core/error.hpp"
#include "meso/tables/pair_potential_table.hpp"
#include "meso/physics/table_force.hpp"

namespace {

using namespace meso;

double cubic(double z) { return 1.0 + 2.0 * z - 0.5 * z * z + 0.1 * z * z * z; }
double cubic_slope(double z) { return 2.0 - z + 0.3 * z * z; }

// A clamped cubic spline through a cubic with its exact end slopes is that
// cubic: V and f_over_r = -2 dV/dz anywhere on the grid, to round-off.
TEST(TableForce, ACubicInRsqIsReproducedExactly) {
  const double z0 = 0.64, dz = 0.05;
  const int n = 40;
  std::vector<double> v;
  for (int k = 0; k <= n; ++k) v.push_back(cubic(z0 + k * dz));
  const PairPotentialTable t = spline_on_rsq_grid("cubic", z0, dz, v, cubic_slope(z0), cubic_slope(z0 + n * dz));
  EXPECT_EQ(t.intervals, 40u);
  EXPECT_NEAR(t.r_min, 0.8, 1e-15);
  EXPECT_NEAR(t.r_max, std::sqrt(0.64 + 2.0), 1e-15);
  for (double z = z0; z < z0 + n * dz; z += 0.0137) {
    const physics::TablePairForce<double> f = physics::table_pair_force(z, t.view());
    EXPECT_NEAR(f.energy, cubic(z), 1e-12) << "z = " << z;
    EXPECT_NEAR(f.f_over_r, -2.0 * cubic_slope(z), 1e-11) << "z = " << z;
    EXPECT_NEAR(f.virial, f.f_over_r * z, 1e-12);
    // F(r) = -dV/dr = -2 r dV/dz.
    EXPECT_NEAR(t.force(std::sqrt(z)), -2.0 * std::sqrt(z) * cubic_slope(z), 1e-11);
  }
  // The last interval serves z a rounding below z_max.
  const double top = std::nextafter(z0 + n * dz, 0.0);
  EXPECT_NEAR(physics::table_pair_force(top, t.view()).energy, cubic(top), 1e-12);
  EXPECT_THROW(t.energy(0.79), InputError);
  EXPECT_THROW(t.energy(t.r_max), InputError);
}

// A spline is not a polynomial of higher degree: a quartic in z is off by
// O(dz^4), and halving dz divides the error by about 16.
TEST(TableForce, InterpolationErrorIsFourthOrder) {
  auto quartic = [](double z) { return z * z * z * z; };
  auto error = [&](int n) {
    const double z0 = 1.0, dz = 1.0 / n;
    std::vector<double> v;
    for (int k = 0; k <= n; ++k) v.push_back(quartic(z0 + k * dz));
    const PairPotentialTable t = spline_on_rsq_grid("q", z0, dz, v, 4.0, 32.0);
    double e = 0.0;
    for (double z = z0; z < 2.0; z += 0.001)
      e = std::max(e, std::fabs(physics::table_pair_force(z, t.view()).energy - quartic(z)));
    return e;
  };
  const double e20 = error(20), e40 = error(40);
  EXPECT_GT(e20 / e40, 12.0);
  EXPECT_LT(e20 / e40, 20.0);
}

TEST(TableForce, RefusesABadGrid) {
  EXPECT_THROW(spline_on_rsq_grid("x", 1.0, 0.1, {1.0}, 0.0, 0.0), InputError);
  EXPECT_THROW(spline_on_rsq_grid("x", 1.0, 0.0, {1.0, 2.0}, 0.0, 0.0), InputError);
  EXPECT_THROW(spline_on_rsq_grid("x", 0.0, 0.1, {1.0, 2.0}, 0.0, 0.0), InputError);
  EXPECT_THROW(spline_on_rsq_grid("x", 1.0, 0.1, {1.0, NAN}, 0.0, 0.0), InputError);
}

}  // namespace

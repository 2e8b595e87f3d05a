// The Gay-Berne evaluator against values by hand (the side-by-side and
// end-to-end wells of GB(3, 5, 2, 1)), its forces and torques against
// central finite differences of its energy under small displacements and
// rotations, Newton's third law and the pair's angular momentum balance.
#include <gtest/gtest.h>

#include <cmath>
#include <random>

#include "meso/physics/gay_berne.hpp"

namespace {

using meso::cross;
using meso::dot;
using meso::Quatd;
using meso::Vec3d;
using meso::physics::gay_berne_pair;
using meso::physics::GayBerneParams;

GayBerneParams unshifted() {
  GayBerneParams p;
  p.shift = false;
  return p;
}

double energy(const Vec3d& dr, const Vec3d& ui, const Vec3d& uj, const GayBerneParams& p) {
  return gay_berne_pair(dr, ui, uj, p).energy;
}

Vec3d turned(const Vec3d& u, const Vec3d& axis, double angle) {
  return meso::rotate(meso::quat_from_axis_angle(axis, angle), u);
}

TEST(GayBerne, SideBySideWellIsEps0OverSqrtOneMinusChiSquared) {
  // u_i = u_j = z, r along x: a = b = 0, c = 1, so sigma = sigma0 and
  // eps = eps0 (1 - chi^2)^(-1/2) = 5/3 for kappa = 3 (chi = 0.8). The
  // minimum is at r = 2^(1/6) sigma0 with U = -eps.
  const GayBerneParams p = unshifted();
  const Vec3d z{0, 0, 1};
  const double rmin = std::pow(2.0, 1.0 / 6.0);
  EXPECT_NEAR(energy({rmin, 0, 0}, z, z, p), -5.0 / 3.0, 1e-12);
  EXPECT_NEAR(energy({1.0, 0, 0}, z, z, p), 0.0, 1e-12);  // contact at sigma0
  const auto pair = gay_berne_pair({rmin, 0, 0}, z, z, p);
  EXPECT_NEAR(pair.force_i.x, 0.0, 1e-10);  // the bottom of the well
}

TEST(GayBerne, EndToEndWellIsKappaPrimeShallowerAtKappaSigma0) {
  // r along z: a = b = 1, c = 1, so sigma = kappa sigma0 = 3 and
  // eps = (5/3) (1/sqrt(5))^mu = 1/3: the side-by-side well is kappa' = 5
  // times deeper, as the parametrisation promises.
  const GayBerneParams p = unshifted();
  const Vec3d z{0, 0, 1};
  const double rmin = 3.0 + std::pow(2.0, 1.0 / 6.0) - 1.0;
  EXPECT_NEAR(energy({0, 0, rmin}, z, z, p), -1.0 / 3.0, 1e-12);
  EXPECT_NEAR(energy({0, 0, 3.0}, z, z, p), 0.0, 1e-12);
}

TEST(GayBerne, CrossedPairIsIndependentOfOrientationAboutTheLine) {
  // u_i = x, u_j = y, r along z: a = b = c = 0, so sigma = sigma0 and
  // eps = eps0: the plain LJ well of depth eps0 at 2^(1/6).
  const GayBerneParams p = unshifted();
  EXPECT_NEAR(energy({0, 0, std::pow(2.0, 1.0 / 6.0)}, {1, 0, 0}, {0, 1, 0}, p), -1.0, 1e-12);
}

TEST(GayBerne, ShiftedEnergyVanishesAtTheCutoff) {
  GayBerneParams p;
  std::mt19937_64 rng(3);
  std::normal_distribution<double> g;
  for (int k = 0; k < 20; ++k) {
    Vec3d ui{g(rng), g(rng), g(rng)}, uj{g(rng), g(rng), g(rng)}, d{g(rng), g(rng), g(rng)};
    ui = (1.0 / std::sqrt(dot(ui, ui))) * ui;
    uj = (1.0 / std::sqrt(dot(uj, uj))) * uj;
    d = ((p.rcut - 1e-9) / std::sqrt(dot(d, d))) * d;
    EXPECT_NEAR(energy(d, ui, uj, p), 0.0, 1e-8);
  }
}

// Random pairs at distances across the well, shifted and not.
class GayBerneDerivatives : public ::testing::TestWithParam<bool> {};

TEST_P(GayBerneDerivatives, ForcesAndTorquesAreMinusTheEnergyGradient) {
  GayBerneParams p;
  p.shift = GetParam();
  std::mt19937_64 rng(11);
  std::normal_distribution<double> g;
  std::uniform_real_distribution<double> dist(1.0, 3.9);
  const double h = 1e-6;
  const Vec3d axes[3] = {{1, 0, 0}, {0, 1, 0}, {0, 0, 1}};
  int tested = 0;
  while (tested < 200) {
    Vec3d ui{g(rng), g(rng), g(rng)}, uj{g(rng), g(rng), g(rng)}, d{g(rng), g(rng), g(rng)};
    ui = (1.0 / std::sqrt(dot(ui, ui))) * ui;
    uj = (1.0 / std::sqrt(dot(uj, uj))) * uj;
    d = (dist(rng) / std::sqrt(dot(d, d))) * d;
    const auto pair = gay_berne_pair(d, ui, uj, p);
    if (pair.overlap || std::abs(pair.energy) > 50.0) continue;  // near the pole FD loses digits
    ++tested;
    const double scale = 1.0 + std::abs(pair.energy) + std::sqrt(dot(pair.force_i, pair.force_i));
    for (int k = 0; k < 3; ++k) {
      const Vec3d e = axes[k];
      const double fd_force = -(energy(d + h * e, ui, uj, p) - energy(d - h * e, ui, uj, p)) / (2 * h);
      const double fd_ti = -(energy(d, turned(ui, e, h), uj, p) - energy(d, turned(ui, e, -h), uj, p)) / (2 * h);
      const double fd_tj = -(energy(d, ui, turned(uj, e, h), p) - energy(d, ui, turned(uj, e, -h), p)) / (2 * h);
      EXPECT_NEAR(dot(pair.force_i, e), fd_force, 1e-6 * scale) << "force " << k;
      EXPECT_NEAR(dot(pair.torque_i, e), fd_ti, 1e-6 * scale) << "torque i " << k;
      EXPECT_NEAR(dot(pair.torque_j, e), fd_tj, 1e-6 * scale) << "torque j " << k;
    }
    // A torque has no component along the particle's own axis.
    EXPECT_NEAR(dot(pair.torque_i, ui), 0.0, 1e-12 * scale);
    // Seen from j, the force is opposite and the torques trade places.
    const auto back = gay_berne_pair(-1.0 * d, uj, ui, p);
    for (int k = 0; k < 3; ++k) {
      const Vec3d e = axes[k];
      EXPECT_NEAR(dot(back.force_i, e), -dot(pair.force_i, e), 1e-11 * scale);
      EXPECT_NEAR(dot(back.torque_i, e), dot(pair.torque_j, e), 1e-11 * scale);
    }
    EXPECT_NEAR(back.energy, pair.energy, 1e-12 * scale);
    // Angular momentum balance: tau_i + tau_j + (r_i - r_j) x F_i = 0.
    const Vec3d net = pair.torque_i + pair.torque_j + cross(d, pair.force_i);
    EXPECT_NEAR(std::sqrt(dot(net, net)), 0.0, 1e-11 * scale);
  }
}

INSTANTIATE_TEST_SUITE_P(ShiftAndNot, GayBerneDerivatives, ::testing::Bool());

}  // namespace

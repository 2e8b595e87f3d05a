// The shared Lennard-Jones evaluator against values by hand, -dV/dr, and the
// continuity that each mode promises (HOOMD-blue's pair.lj conventions).
#include <gtest/gtest.h>

#include <cmath>

#include "meso/physics/lj_force.hpp"

namespace {

using meso::physics::lj_pair_force;
using meso::physics::LjMode;
using meso::physics::LjPairParams;

// Closed forms written out independently of the evaluator.
double v_lj(double r, double eps, double sigma, double alpha) {
  return 4.0 * eps * (std::pow(sigma / r, 12) - alpha * std::pow(sigma / r, 6));
}
double f_lj(double r, double eps, double sigma, double alpha) {  // -dV/dr
  return 4.0 * eps * (12.0 * std::pow(sigma, 12) / std::pow(r, 13) -
                      6.0 * alpha * std::pow(sigma, 6) / std::pow(r, 7));
}
double xplor_s(double r, double ron, double rc) {
  if (r < ron) return 1.0;
  const double a = rc * rc - r * r;
  return a * a * (rc * rc + 2 * r * r - 3 * ron * ron) / std::pow(rc * rc - ron * ron, 3);
}

TEST(LjPairForce, ByHandAtSigmaAndAtTheMinimum) {
  const LjPairParams p{1.5, 1.1, 1.0, 3.0, 0.0, LjMode::none};
  // r = sigma: V = 0, F = 24 eps / sigma (12 - 6 = 6 times 4 eps / sigma).
  auto f = lj_pair_force(1.21, p);
  EXPECT_NEAR(f.energy, 0.0, 1e-14);
  EXPECT_NEAR(f.f_over_r * 1.1, 24.0 * 1.5 / 1.1, 1e-12);
  EXPECT_NEAR(f.virial, f.f_over_r * 1.21, 1e-13);
  // r = 2^(1/6) sigma: V = -eps, F = 0.
  const double rmin = std::pow(2.0, 1.0 / 6.0) * 1.1;
  f = lj_pair_force(rmin * rmin, p);
  EXPECT_NEAR(f.energy, -1.5, 1e-13);
  EXPECT_NEAR(f.f_over_r, 0.0, 1e-12);
}

TEST(LjPairForce, AlphaScalesOnlyTheAttraction) {
  // alpha = 0 (purely repulsive r^-12): V = 4 eps (sigma/r)^12 at r = 1.2.
  const LjPairParams p{2.0, 1.0, 0.0, 2.5, 0.0, LjMode::none};
  const auto f = lj_pair_force(1.44, p);
  EXPECT_NEAR(f.energy, 8.0 * std::pow(1.2, -12), 1e-14);
  EXPECT_NEAR(f.f_over_r * 1.2, 8.0 * 12.0 * std::pow(1.2, -13), 1e-13);
  const LjPairParams half{2.0, 1.0, 0.5, 2.5, 0.0, LjMode::none};
  EXPECT_NEAR(lj_pair_force(1.44, half).energy, v_lj(1.2, 2.0, 1.0, 0.5), 1e-14);
}

TEST(LjPairForce, ForceIsMinusEnergyDerivativeInEveryMode) {
  for (LjMode mode : {LjMode::none, LjMode::shift, LjMode::xplor}) {
    const LjPairParams p{1.0, 1.0, 1.0, 2.5, 1.5, mode};
    for (double r : {0.95, 1.1, 1.3, 1.6, 2.0, 2.3, 2.45}) {
      const double h = 1e-6;
      const double dvdr = (lj_pair_force((r + h) * (r + h), p).energy -
                           lj_pair_force((r - h) * (r - h), p).energy) / (2 * h);
      const auto f = lj_pair_force(r * r, p);
      EXPECT_NEAR(f.f_over_r * r, -dvdr, 1e-7 * (1.0 + std::fabs(dvdr)))
          << "mode " << static_cast<int>(mode) << " r " << r;
    }
  }
}

TEST(LjPairForce, ShiftMakesEnergyContinuousAtCutoff) {
  const LjPairParams none{1.0, 1.0, 1.0, 2.5, 0.0, LjMode::none};
  const LjPairParams shift{1.0, 1.0, 1.0, 2.5, 0.0, LjMode::shift};
  const double vc = v_lj(2.5, 1.0, 1.0, 1.0);  // -0.016316891...
  EXPECT_NEAR(vc, -0.0163168911360, 1e-12);
  for (double r : {1.0, 1.7, 2.2}) {
    EXPECT_NEAR(lj_pair_force(r * r, shift).energy, v_lj(r, 1, 1, 1) - vc, 1e-14);
    // The shift leaves the force alone.
    EXPECT_EQ(lj_pair_force(r * r, shift).f_over_r, lj_pair_force(r * r, none).f_over_r);
  }
  const double below = 2.5 * (1.0 - 1e-10);
  EXPECT_NEAR(lj_pair_force(below * below, shift).energy, 0.0, 1e-11);
  EXPECT_NEAR(lj_pair_force(below * below, none).energy, vc, 1e-11);  // the jump shift removes
  // The force still jumps at r_cut: shift does not smooth it.
  EXPECT_NEAR(lj_pair_force(below * below, shift).f_over_r * 2.5, f_lj(2.5, 1, 1, 1), 1e-9);
  EXPECT_LT(lj_pair_force(below * below, shift).f_over_r, -1e-3);
  // At and beyond the cutoff: exactly nothing.
  for (double r : {2.5, 2.6}) {
    const auto f = lj_pair_force(r * r, shift);
    EXPECT_EQ(f.energy, 0.0);
    EXPECT_EQ(f.f_over_r, 0.0);
    EXPECT_EQ(f.virial, 0.0);
  }
}

TEST(LjPairForce, XplorByHandAndContinuousAtRonAndCutoff) {
  const double ron = 1.5, rc = 2.5;
  const LjPairParams x{1.0, 1.0, 1.0, rc, ron, LjMode::xplor};
  const LjPairParams none{1.0, 1.0, 1.0, rc, 0.0, LjMode::none};
  // Below r_on: S = 1, bitwise the plain potential.
  for (double r : {0.9, 1.2, 1.49}) {
    EXPECT_EQ(lj_pair_force(r * r, x).energy, lj_pair_force(r * r, none).energy);
    EXPECT_EQ(lj_pair_force(r * r, x).f_over_r, lj_pair_force(r * r, none).f_over_r);
  }
  // In the switching region: V S and S F - V dS/dr, by hand.
  const double r = 2.0;
  const double s = xplor_s(r, ron, rc);
  EXPECT_NEAR(s, 2.25 * 2.25 * (6.25 + 8.0 - 6.75) / std::pow(4.0, 3), 1e-15);  // 0.59326...
  const double ds_dr = 12.0 * r * (rc * rc - r * r) * (ron * ron - r * r) / std::pow(rc * rc - ron * ron, 3);
  const auto f = lj_pair_force(r * r, x);
  EXPECT_NEAR(f.energy, v_lj(r, 1, 1, 1) * s, 1e-15);
  EXPECT_NEAR(f.f_over_r * r, f_lj(r, 1, 1, 1) * s - v_lj(r, 1, 1, 1) * ds_dr, 1e-14);
  // Continuity at r_on: energy and force from both sides agree to O(delta).
  const double d = 1e-9;
  const auto lo = lj_pair_force((ron - d) * (ron - d), x);
  const auto hi = lj_pair_force((ron + d) * (ron + d), x);
  EXPECT_NEAR(lo.energy, hi.energy, 1e-8);
  EXPECT_NEAR(lo.f_over_r, hi.f_over_r, 1e-7);
  // Continuity at r_cut: energy and force both go to zero.
  const double below = rc - d;
  const auto c = lj_pair_force(below * below, x);
  EXPECT_NEAR(c.energy, 0.0, 1e-12);
  EXPECT_NEAR(c.f_over_r, 0.0, 1e-9);
}

TEST(LjPairForce, XplorWithoutSmoothingRegionShiftsLikeHoomd) {
  // r_on >= r_cut: HOOMD-blue shifts the energy instead of smoothing.
  const LjPairParams x{1.0, 1.0, 1.0, 2.5, 2.5, LjMode::xplor};
  const LjPairParams shift{1.0, 1.0, 1.0, 2.5, 0.0, LjMode::shift};
  for (double r : {1.0, 2.0, 2.49}) {
    EXPECT_EQ(lj_pair_force(r * r, x).energy, lj_pair_force(r * r, shift).energy);
    EXPECT_EQ(lj_pair_force(r * r, x).f_over_r, lj_pair_force(r * r, shift).f_over_r);
  }
}

TEST(LjPairForce, SinglePrecisionAgreesWithDouble) {
  for (LjMode mode : {LjMode::none, LjMode::shift, LjMode::xplor}) {
    const LjPairParams p{1.0, 1.0, 1.0, 2.5, 1.5, mode};
    for (double r : {0.9, 1.12, 1.7, 2.2}) {
      const auto d = lj_pair_force(r * r, p);
      const auto f = lj_pair_force<float>(static_cast<float>(r * r), p);
      const double scale = std::fabs(d.f_over_r) + 1e-3;
      EXPECT_NEAR(f.f_over_r, d.f_over_r, 2e-6 * scale + 1e-6) << r;
      EXPECT_NEAR(f.energy, d.energy, 2e-6 * (std::fabs(d.energy) + 1e-2)) << r;
    }
  }
}

}  // namespace

// The shared DPD evaluator against forces computed by hand.
#include <gtest/gtest.h>

#include <cmath>

#include "meso/physics/dpd_force.hpp"

namespace {

using meso::physics::dpd_pair_force;
using meso::physics::DpdPairParams;

// r_ij = r_i - r_j = (-0.5, 0, 0): j sits at +x from i, r = 0.5, e = (-1, 0, 0).
// v_ij = (1, 0, 0): i moves towards j, so e.v = -1.
constexpr double kRsq = 0.25, kRdotv = -0.5, kXi = 0.3, kDt = 0.01;

TEST(DpdPairForce, StandardWeightByHand) {
  const DpdPairParams p{25.0, 4.5, 3.0, 1.0, 1.0};
  const auto f = dpd_pair_force(kRsq, kRdotv, kXi, 1.0 / std::sqrt(kDt), p);
  // w_C = w_R = 0.5, w_D = 0.25.
  // F^C = 25 * 0.5 = 12.5; F^D = -4.5 * 0.25 * (-1) = 1.125;
  // F^R = 3 * 0.5 * 0.3 / sqrt(0.01) = 4.5; sum 18.125 along e, so
  // f/r = 18.125 / 0.5 = 36.25 and F_i = 36.25 * (-0.5, 0, 0) = (-18.125, 0, 0):
  // repelled away from j.
  EXPECT_NEAR(f.f_over_r, 36.25, 1e-13);
  EXPECT_NEAR(f.energy, 0.5 * 25.0 * 1.0 * 0.25, 1e-15);  // a r_c/2 w_C^2 = 3.125
}

TEST(DpdPairForce, FractionalExponentByHand) {
  const DpdPairParams p{25.0, 4.5, 3.0, 1.0, 0.5};
  const auto f = dpd_pair_force(kRsq, kRdotv, kXi, 1.0 / std::sqrt(kDt), p);
  // w_R = sqrt(0.5), w_D = 0.5: F = 12.5 + 4.5*0.5 + 3*sqrt(0.5)*0.3*10.
  const double expected = (12.5 + 2.25 + 9.0 * std::sqrt(0.5)) / 0.5;
  EXPECT_NEAR(f.f_over_r, expected, 1e-13);
}

// s = 1/2 takes sqrt, whatever the pow policy: bitwise sqrt(w_C), and a pow
// policy that would give something else is never called.
TEST(DpdPairForce, HalfExponentIsSqrtForEveryPowPolicy) {
  struct PoisonPow {
    double operator()(double, double) const { return 1e300; }
  };
  const DpdPairParams p{25.0, 4.5, 3.0, 1.0, 0.5};
  const double rsq = 0.3, rdotv = 0.2, xi = -1.1, isd = 1.0 / std::sqrt(kDt);
  const auto a = dpd_pair_force(rsq, rdotv, xi, isd, p, PoisonPow{});
  const double r = std::sqrt(rsq), wc = 1.0 - r, wr = std::sqrt(wc), wd = wr * wr;
  const double f = 25.0 * wc - 4.5 * wd * (rdotv * (1.0 / r)) + 3.0 * wr * xi * isd;
  EXPECT_EQ(a.f_over_r, f * (1.0 / r));
}

TEST(DpdPairForce, CutoffOtherThanOneScalesWeights) {
  // r_c = 1.5, r = 0.75: w_C = 0.5 as above; the energy scales with r_c.
  const DpdPairParams p{10.0, 0.0, 0.0, 1.5, 1.0};
  const auto f = dpd_pair_force(0.5625, 0.0, 0.0, 1.0, p);
  EXPECT_NEAR(f.f_over_r, 10.0 * 0.5 / 0.75, 1e-13);
  EXPECT_NEAR(f.energy, 0.5 * 10.0 * 1.5 * 0.25, 1e-14);
}

TEST(DpdPairForce, VanishesAtCutoff) {
  const DpdPairParams p{25.0, 4.5, 3.0, 1.0, 0.5};
  const auto f = dpd_pair_force(1.0, 0.7, 1.9, 10.0, p);
  EXPECT_EQ(f.f_over_r, 0.0);
  EXPECT_EQ(f.energy, 0.0);
}

}  // namespace

// ctest -L validation: the short form of srd-couette (validation/srd-couette/)
// on the CPU reference, through the same code path as `mesobench validate
// --filter srd-couette`, and its negative control, which must fail: the
// sheared images' velocity jump omitted (no shear).
#include <gtest/gtest.h>

#include <cmath>

#include "support/run_validation_case.hpp"

namespace {

using meso::test_support::run_validation_case;
using meso::test_support::run_validation_control;

TEST(Validation, SrdCouetteShort) {
  const auto r = run_validation_case("srd-couette");
  EXPECT_TRUE(r.passed) << "eta = " << r.measured << " +/- " << r.uncertainty << ", theory " << r.reference
                        << ", tolerance " << r.tolerance << ", slope " << r.data["slope"] << " +/- "
                        << r.data["slope_se"] << " (" << r.rule << ")";
  // The theory is srd-viscosity's published formula, not a measurement.
  EXPECT_NEAR(r.reference, 8.700248645727962, 1e-9);
  // Meaningful error bars (README.md: ~2% of eta from 10 blocks), and both
  // parts of the stress measured: the kinetic one is 5.6% of eta.
  EXPECT_GT(r.uncertainty, 0.02);
  EXPECT_LT(r.uncertainty, 0.5);
  EXPECT_GT(r.data["eta_kinetic"].get<double>(), 0.2);
  EXPECT_LT(r.data["eta_kinetic"].get<double>(), 0.8);
  EXPECT_LT(r.data["slope_se"].get<double>(), 0.005);
}

// The negative control (validation.negative_controls runs it too) rejected
// for the right reason: without the jump nothing drives the shear, the
// profile flattens and the stress vanishes.
TEST(Validation, SrdCouetteFailsWithoutTheVelocityJump) {
  const auto r = run_validation_control("srd-couette", "no-velocity-jump");
  EXPECT_FALSE(r.passed);
  EXPECT_FALSE(r.data["profile_passed"].get<bool>()) << "slope " << r.data["slope"];
  EXPECT_LT(std::fabs(r.data["slope"].get<double>()), 0.01);
  EXPECT_LT(std::fabs(r.measured), 1.0);
}

}  // namespace

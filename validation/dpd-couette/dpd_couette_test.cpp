// ctest -L validation: the short form of dpd-couette (validation/dpd-couette/)
// on the CPU reference, through the same code path as `mesobench validate
// --filter dpd-couette`, and its negative control, which must fail: gamma
// x 1.5, a fluid of another viscosity.
#include <gtest/gtest.h>

#include "support/run_validation_case.hpp"

namespace {

using meso::test_support::run_validation_case;
using meso::test_support::run_validation_control;

TEST(Validation, DpdCouetteShort) {
  const auto r = run_validation_case("dpd-couette");
  EXPECT_TRUE(r.passed) << "eta = " << r.measured << " +/- " << r.uncertainty << ", reference " << r.reference
                        << ", tolerance " << r.tolerance << ", slope " << r.data["rates"][0]["slope"] << " +/- "
                        << r.data["rates"][0]["slope_se"] << " (" << r.rule << ")";
  EXPECT_DOUBLE_EQ(r.reference, 2.09);  // Backer et al., as poiseuille-viscosity
  // A meaningful error bar (README.md): a few percent, not zero, not huge.
  EXPECT_GT(r.uncertainty, 0.005);
  EXPECT_LT(r.uncertainty, 0.25);
  EXPECT_TRUE(r.data["profile_passed"].get<bool>());
}

// The negative control (validation.negative_controls runs it too) rejected
// for the right reason: the stress of a more viscous fluid.
TEST(Validation, DpdCouetteFailsOnGamma15) {
  const auto r = run_validation_control("dpd-couette", "gamma-1.5");
  EXPECT_FALSE(r.passed);
  EXPECT_FALSE(r.data["eta_passed"].get<bool>()) << "eta " << r.measured;
}

}  // namespace

// ctest -L validation: the short form of dpd-slit-poiseuille
// (validation/dpd-slit-poiseuille/) on the CPU reference, through the same
// code path as `mesobench validate --filter dpd-slit-poiseuille`, and its
// negative control, which must fail: specular walls without the wall force
// (slip at the walls).
#include <gtest/gtest.h>

#include "support/run_validation_case.hpp"

namespace {

using meso::test_support::run_validation_case;
using meso::test_support::run_validation_control;

TEST(Validation, DpdSlitPoiseuilleShort) {
  const auto r = run_validation_case("dpd-slit-poiseuille");
  EXPECT_TRUE(r.passed) << "eta = " << r.measured << " +/- " << r.uncertainty << ", reference " << r.reference
                        << ", tolerance " << r.tolerance << ", slip length " << r.data["slip_length"] << " +/- "
                        << r.data["slip_length_se"] << ", steady " << r.data["steady"] << " (" << r.rule << ")";
  EXPECT_DOUBLE_EQ(r.reference, 2.09);  // Backer et al., as poiseuille-viscosity
  // Meaningful error bars (README.md): the blocks resolve eta to a few
  // percent and the slip length to a tenth of r_c.
  EXPECT_GT(r.uncertainty, 0.01);
  EXPECT_LT(r.uncertainty, 0.25);
  EXPECT_LT(r.data["slip_length_se"].get<double>(), 0.1);
  // The a = 0 fluid is an ideal gas between the walls: the wall force leaves
  // its density uniform (within 5%: the walls' noise and friction satisfy
  // fluctuation-dissipation, and bounce-back keeps the Boltzmann weight).
  EXPECT_NEAR(r.data["density_near_walls"].get<double>() / r.data["density_bulk"].get<double>(), 1.0, 0.05);
}

// The negative control (validation.negative_controls runs it too) rejected
// for the right reason: specular walls without the wall force exert no
// shear stress, and the flow slips.
TEST(Validation, DpdSlitPoiseuilleFailsOnSlipWalls) {
  const auto r = run_validation_control("dpd-slit-poiseuille", "slip-walls");
  EXPECT_FALSE(r.passed);
  EXPECT_FALSE(r.data["slip_passed"].get<bool>()) << "slip length " << r.data["slip_length"];
}

}  // namespace

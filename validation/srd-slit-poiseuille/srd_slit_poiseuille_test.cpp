// ctest -L validation: the short form of srd-slit-poiseuille
// (validation/srd-slit-poiseuille/) on the CPU reference, through the same
// code path as `mesobench validate --filter srd-slit-poiseuille`, and its
// negative control, which must fail: the virtual particles off (slip at the
// walls).
#include <gtest/gtest.h>

#include <cmath>

#include "support/run_validation_case.hpp"

namespace {

using meso::test_support::run_validation_case;
using meso::test_support::run_validation_control;

TEST(Validation, SrdSlitPoiseuilleShort) {
  const auto r = run_validation_case("srd-slit-poiseuille");
  EXPECT_TRUE(r.passed) << "eta = " << r.measured << " +/- " << r.uncertainty << ", theory " << r.reference
                        << ", tolerance " << r.tolerance << ", slip length " << r.data["slip_length"] << " +/- "
                        << r.data["slip_length_se"] << ", steady " << r.data["steady"] << " (" << r.rule << ")";
  // The theory is srd-viscosity's published formula, not a measurement.
  EXPECT_NEAR(r.reference, 8.700248645727962, 1e-9);
  // Meaningful error bars: the blocks resolve eta to ~4% and the slip
  // length to ~0.05 of a cell (README.md).
  EXPECT_GT(r.uncertainty, 0.05);
  EXPECT_LT(r.uncertainty, 0.8);
  EXPECT_LT(r.data["slip_length_se"].get<double>(), 0.1);
  EXPECT_LT(r.data["mach"].get<double>(), 0.15);
}

// The negative control (validation.negative_controls runs it too) rejected
// for the right reason: without the virtual particles the cells cut by the
// walls average the fluid's velocity alone, and the flow slips (Lamura et
// al. 2001).
TEST(Validation, SrdSlitPoiseuilleFailsWithoutVirtualParticles) {
  const auto r = run_validation_control("srd-slit-poiseuille", "no-virtual-particles");
  EXPECT_FALSE(r.passed);
  EXPECT_FALSE(r.data["slip_passed"].get<bool>()) << "slip length " << r.data["slip_length"];
  // About a cell (1.13 +/- 0.10 a measured), far beyond the allowance.
  EXPECT_GT(r.data["slip_length"].get<double>(), 0.5);
}

}  // namespace

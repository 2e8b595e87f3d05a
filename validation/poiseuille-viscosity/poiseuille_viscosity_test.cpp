// ctest -L validation: the short form of poiseuille-viscosity through the
// same code path as `mesobench validate --filter poiseuille-viscosity`.
#include <gtest/gtest.h>

#include "support/run_validation_case.hpp"

namespace {

using namespace meso;
using meso::test_support::run_validation_case;

TEST(Validation, PoiseuilleViscosityShort) {
  const auto r = run_validation_case("poiseuille-viscosity");
  EXPECT_TRUE(r.passed) << "eta = " << r.measured << " +/- " << r.uncertainty << ", reference " << r.reference
                        << ", tolerance " << r.tolerance << ", steady " << r.data["steady"] << " ("
                        << r.rule << ")";
  // The error bar must be meaningful: a few percent for 648 particles over
  // 120 time units (fluctuating hydrodynamics), not zero and not huge.
  EXPECT_GT(r.uncertainty, 0.005);
  EXPECT_LT(r.uncertainty, 0.2);
}

}  // namespace

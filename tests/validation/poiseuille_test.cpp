// ctest -L validation: the short forms of the Poiseuille cases through the
// same code path as `mesobench validate --filter poiseuille`.
#include <gtest/gtest.h>

#include "run_case.hpp"

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

TEST(Validation, PoiseuilleTransientShort) {
  const auto r = run_validation_case("poiseuille-transient");
  EXPECT_TRUE(r.passed) << "worst L2 = " << r.measured << ", threshold " << r.tolerance << " ("
                        << r.rule << ")";
  for (const auto& t : r.data["times"])
    EXPECT_TRUE(t["passed"].get<bool>()) << "T = " << t["published_time"] << ": L2 " << t["l2_relative"]
                                         << " > threshold " << t["threshold"];
  // nu must be a measurement with an error bar, and the noise floor sane.
  EXPECT_GT(r.data["nu_se"].get<double>(), 0.0);
  EXPECT_LT(r.data["nu_se"].get<double>(), 0.1 * r.data["nu"].get<double>());
  EXPECT_GT(r.uncertainty, 0.0);
  EXPECT_LT(r.uncertainty, 0.2);
}

}  // namespace

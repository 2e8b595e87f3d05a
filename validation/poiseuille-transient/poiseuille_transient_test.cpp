// ctest -L validation: the short form of poiseuille-transient through the
// same code path as `mesobench validate --filter poiseuille-transient`.
#include <gtest/gtest.h>

#include "support/run_validation_case.hpp"

namespace {

using meso::test_support::run_validation_case;

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

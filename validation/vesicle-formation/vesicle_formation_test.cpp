// ctest -L validation: the short form of vesicle-formation (README.md beside
// the case): the chains of the random start aggregate.
#include <gtest/gtest.h>

#include "support/run_validation_case.hpp"

namespace {

using meso::test_support::run_validation_case;

TEST(Validation, VesicleFormationShort) {
  const auto r = run_validation_case("vesicle-formation");
  EXPECT_TRUE(r.passed) << "chain fraction " << r.measured << " against the bound " << r.reference << " ("
                        << r.rule << ")";
  // The series starts at the random start's chance clusters, below the bound.
  const auto& f = r.data["runs"][0]["chain_fraction"];
  ASSERT_GE(f.size(), 2u);
  EXPECT_LT(f.front().get<double>(), 0.4);
}

}  // namespace

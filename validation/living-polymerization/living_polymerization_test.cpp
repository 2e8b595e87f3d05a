// ctest -L validation: the short form of living-polymerization (README.md
// beside the case): Poisson chain growth and the rate equation at two
// conversions.
#include <gtest/gtest.h>

#include "support/run_validation_case.hpp"

namespace {

using meso::test_support::run_validation_case;

TEST(Validation, LivingPolymerizationShort) {
  const auto r = run_validation_case("living-polymerization");
  EXPECT_TRUE(r.passed) << r.data["gates"].dump(1);
  // The two conversions were reached (within the rate equation's error).
  const auto& gates = r.data["gates"];
  ASSERT_EQ(gates.size(), 5u);
  EXPECT_NEAR(gates[0]["conversion"].get<double>(), 0.25, 0.02);
  EXPECT_NEAR(gates[2]["conversion"].get<double>(), 0.5, 0.02);
}

}  // namespace

// ctest -L validation: the short form of living-polymerization (README.md
// beside the case): Poisson chain growth, its index of dispersion and the
// rate equation at two conversions.
#include <gtest/gtest.h>

#include <iostream>

#include "support/run_validation_case.hpp"

namespace {

using meso::test_support::run_validation_case;

TEST(Validation, LivingPolymerizationShort) {
  const auto r = run_validation_case("living-polymerization");
  EXPECT_TRUE(r.passed) << r.data["gates"].dump(1);
  // Per conversion the rate equation, the chi-square and the index of
  // dispersion, then the mixing; the two conversions were reached (within
  // the rate equation's error).
  const auto& gates = r.data["gates"];
  ASSERT_EQ(gates.size(), 7u);
  EXPECT_NEAR(gates[0]["conversion"].get<double>(), 0.25, 0.02);
  EXPECT_NEAR(gates[3]["conversion"].get<double>(), 0.5, 0.02);
  for (int c : {2, 5}) {
    // The index of dispersion's own reference: the Poisson binomial's, just
    // below 1 (the mean reaction probability per attempt, under 1%), and its
    // standard error sqrt(2 / 1600).
    std::cout << gates[c].dump() << "\n";
    EXPECT_GT(gates[c]["expected"].get<double>(), 0.98);
    EXPECT_LT(gates[c]["expected"].get<double>(), 1.0);
    EXPECT_NEAR(gates[c]["se"].get<double>(), 0.0354, 0.0005);
  }
}

}  // namespace

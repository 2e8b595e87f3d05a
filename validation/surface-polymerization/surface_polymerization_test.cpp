// ctest -L validation: the short form of surface-polymerization on the CPU
// reference (README.md beside the case): the grafted chains' growth against
// the rate equation and one rate's index of dispersion.
#include <gtest/gtest.h>

#include <iostream>

#include "support/run_validation_case.hpp"

namespace {

TEST(Validation, SurfacePolymerizationShort) {
  const auto r = meso::test_support::run_validation_case("surface-polymerization");
  ASSERT_EQ(r.name, "surface-polymerization");
  for (const auto& g : r.data["gates"]) std::cout << g.dump() << "\n";
  EXPECT_TRUE(r.passed) << r.data["gates"].dump(1);
  // Two runs of the ball's 166 chains.
  EXPECT_EQ(r.data["growth"].size(), 332u);
  EXPECT_EQ(r.data["reach"].size(), 332u);
}

}  // namespace

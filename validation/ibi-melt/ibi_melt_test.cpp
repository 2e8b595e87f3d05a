// ctest -L validation: the short form of ibi-melt (README.md beside the
// case): IBI of a bead-spring melt's pair, bond and angle potentials,
// closed on the analytic melt's distributions.
#include <gtest/gtest.h>

#include "support/run_validation_case.hpp"

namespace {

using meso::test_support::run_validation_case;

TEST(Validation, IbiMeltShort) {
  const auto r = run_validation_case("ibi-melt");
  EXPECT_TRUE(r.passed) << r.data["gates"].dump(1);
  ASSERT_EQ(r.data["gates"].size(), 4u);
  // Every distribution came closer to its target than the potentials of
  // mean force left it, or stayed at its noise.
  const auto& first = r.data["per_iteration"][0];
  EXPECT_LT(r.data["late"]["pair"].get<double>(), first["pair"].get<double>());
}

}  // namespace

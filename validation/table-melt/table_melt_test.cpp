// ctest -L validation: the short form of table-melt (README.md beside the
// case). Without a GPU both sets run on the CPU reference: the tabulated
// melt against the analytic potentials it tabulates (an independent code
// path), each set of independent runs.
#include <gtest/gtest.h>

#include "support/run_validation_case.hpp"

namespace {

using meso::test_support::run_validation_case;

TEST(Validation, TableMeltShort) {
  const auto r = run_validation_case("table-melt");
  EXPECT_TRUE(r.passed) << r.data["gates"].dump(1);
  ASSERT_EQ(r.data["gates"].size(), 3u);
  EXPECT_EQ(r.data["reference_potentials"], "analytic");
  for (const char* d : {"pair", "bond", "angle"}) {
    // Enough bins for a mean of z^2, and the two sets' distributions close
    // in the integrated sense too (the ibi-melt noise floors are 1-4% at
    // this size).
    EXPECT_GE(r.data[d]["bins"].get<int>(), 30) << d;
    EXPECT_LT(r.data[d]["integrated_difference"].get<double>(), 0.03) << d;
  }
}

}  // namespace

// ctest -L validation: the short form of every validation case through the
// same code path as `mesobench validate`.
#include <gtest/gtest.h>

#include "support/run_validation_case.hpp"

namespace {

using namespace meso;
using meso::test_support::run_validation_case;

TEST(Validation, DpdTemperatureShort) {
  const auto r = run_validation_case("dpd-temperature");
  EXPECT_TRUE(r.passed) << "<T> = " << r.measured << " +/- " << r.uncertainty << ", reference "
                        << r.reference << ", tolerance " << r.tolerance << " (" << r.rule << ")";
  // The error bar itself must be meaningful: a few tenths of a percent for
  // ~1500 particles over 100 time units, not zero and not huge.
  EXPECT_GT(r.uncertainty, 1e-5);
  EXPECT_LT(r.uncertainty, 5e-3);
}

TEST(Validation, BlockAverageOfWhiteNoise) {
  // Independent samples: SEM equals sigma / sqrt(n) within the uncertainty
  // of a 20-block estimate (relative SE 1/sqrt(2 * 19) ~ 16%; 4 sigma).
  std::vector<double> x(20000);
  uint32_t s = 12345;
  for (auto& v : x) {
    s = s * 1664525u + 1013904223u;
    v = (s >> 8) * (1.0 / 16777216.0);  // uniform [0, 1): sigma^2 = 1/12
  }
  const auto b = validation::block_average(x, 20);
  const double expected = std::sqrt(1.0 / 12.0 / x.size());
  EXPECT_NEAR(b.sem / expected, 1.0, 4 * 0.16);
  EXPECT_NEAR(b.mean, 0.5, 5 * expected);
}

}  // namespace

// ctest -L validation: the short form of dppc-density (validation/dppc-density/)
// on the CPU reference: every gate (the GPU comparison is not applicable on
// the reference and says so).
#include <gtest/gtest.h>

#include "meso/validation/validation_case.hpp"
#include "support/run_validation_case.hpp"

namespace {

TEST(Validation, DppcDensityShort) {
  const auto r = meso::test_support::run_validation_case("dppc-density");
  EXPECT_TRUE(r.passed) << r.rule;
  for (const auto& g : r.data.at("gates")) EXPECT_TRUE(g.at("passed").get<bool>()) << g.dump();
  EXPECT_FALSE(r.data.at("gates")[4].at("applicable").get<bool>());
  EXPECT_GT(r.measured, 3.6);
}

}  // namespace

// ctest -L validation: the short form of nve-drift (shift and xplor, double
// and single storage on the CPU) through the same code path as
// `mesobench validate --filter nve-drift`.
#include <gtest/gtest.h>

#include <string>
#include <tuple>

#include "support/run_validation_case.hpp"

namespace {

using namespace meso;
using meso::test_support::run_validation_case;

// Strings, not char pointers: gtest prints the values into the ctest names, and a pointer's
// address changed them with every build (ctest then never had a time for these tests).
class NveDrift : public ::testing::TestWithParam<std::tuple<std::string, std::string>> {};

TEST_P(NveDrift, ShortForm) {
  const auto [name, precision] = GetParam();
  const auto r = run_validation_case(name, Variant::parse("precision=" + precision));
  ASSERT_EQ(r.name, name);
  for (const auto& g : r.data["gates"])
    EXPECT_TRUE(g["passed"].get<bool>()) << g.dump();
  EXPECT_TRUE(r.passed);
  // The error bars must be meaningful (not zero, not of the order of the value).
  EXPECT_GT(r.uncertainty, 0.0);
  EXPECT_LT(r.uncertainty, 0.5 * r.measured);
}

INSTANTIATE_TEST_SUITE_P(Cpu, NveDrift,
                         ::testing::Combine(::testing::Values(std::string("nve-drift-shift"),
                                                              std::string("nve-drift-xplor")),
                                            ::testing::Values(std::string("double"), std::string("single"))));

}  // namespace

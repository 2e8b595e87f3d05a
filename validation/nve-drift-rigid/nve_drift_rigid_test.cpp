// ctest -L validation: the short forms of the rigid-body drift gates
// (nve-drift-rigid and nve-drift-rigid-ssd) on the CPU reference, through the
// same code path as `mesobench validate`.
#include <gtest/gtest.h>

#include <iostream>

#include "support/run_validation_case.hpp"

namespace {

TEST(RigidBodyGates, NveDriftRigidShortForm) {
  const auto r = meso::test_support::run_validation_case("nve-drift-rigid");
  ASSERT_EQ(r.name, "nve-drift-rigid");
  for (const auto& g : r.data["gates"]) {
    std::cout << g.dump() << "\n";  // the measured values, for the log
    EXPECT_TRUE(g["passed"].get<bool>()) << g.dump();
  }
  EXPECT_TRUE(r.passed);
  EXPECT_GT(r.uncertainty, 0.0);
}

// SSD/RF water, 343 molecules: the same gates in water's units.
TEST(RigidBodyGates, NveDriftRigidSsdShortForm) {
  const auto r = meso::test_support::run_validation_case("nve-drift-rigid-ssd");
  ASSERT_EQ(r.name, "nve-drift-rigid-ssd");
  for (const auto& g : r.data["gates"]) {
    std::cout << g.dump() << "\n";  // the measured values, for the log
    EXPECT_TRUE(g["passed"].get<bool>()) << g.dump();
  }
  EXPECT_TRUE(r.passed);
  EXPECT_GT(r.uncertainty, 0.0);
}

}  // namespace

// ctest -L validation: the short forms of the rigid-body gates
// (nve-drift-rigid, rotational-equipartition) on the CPU reference, through
// the same code path as `mesobench validate`.
#include <gtest/gtest.h>

#include <iostream>

#include "run_case.hpp"

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

TEST(RigidBodyGates, RotationalEquipartitionShortForm) {
  const auto r = meso::test_support::run_validation_case("rotational-equipartition");
  ASSERT_EQ(r.name, "rotational-equipartition");
  for (const auto& g : r.data["gates"]) {
    std::cout << g.dump() << "\n";  // the measured values, for the log
    EXPECT_TRUE(g["passed"].get<bool>()) << g.dump();
  }
  EXPECT_TRUE(r.passed);
}

}  // namespace

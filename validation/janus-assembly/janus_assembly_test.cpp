// ctest -L validation: the short form of janus-assembly on the CPU reference,
// through the same code path as `mesobench validate`.
#include <gtest/gtest.h>

#include <iostream>

#include "support/run_validation_case.hpp"

namespace {

// The short form: 648 particles for t = 150 (the pilots ordered by t = 70).
TEST(RigidBodyGates, JanusAssemblyShortForm) {
  const auto r = meso::test_support::run_validation_case("janus-assembly");
  ASSERT_EQ(r.name, "janus-assembly");
  const auto& run = r.data["runs"][0];
  const auto& first = run["samples"].front();
  const auto& last = run["samples"].back();
  std::cout << first.dump() << "\n" << last.dump() << "\n";
  // The random start is what chance says: no order, a third of the pairs facing.
  EXPECT_LT(first["order"].get<double>(), 0.15);
  EXPECT_NEAR(first["local_order"].get<double>(), 0.0, 0.05);
  EXPECT_NEAR(first["facing"].get<double>(), r.data["facing_chance"].get<double>(), 0.03);
  EXPECT_TRUE(r.passed) << last.dump();
}

}  // namespace

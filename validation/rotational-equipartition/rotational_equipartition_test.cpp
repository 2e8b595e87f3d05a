// ctest -L validation: the short form of rotational-equipartition on the CPU
// reference, through the same code path as `mesobench validate`.
#include <gtest/gtest.h>

#include <iostream>

#include "support/run_validation_case.hpp"

namespace {

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

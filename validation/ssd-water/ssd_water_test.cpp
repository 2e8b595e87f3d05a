// ctest -L validation: the short form of ssd-water on the CPU reference,
// through the same code path as `mesobench validate`.
#include <gtest/gtest.h>

#include <iostream>

#include "support/run_validation_case.hpp"

namespace {

// The short form: 343 molecules, 20 ps of Langevin, 20 ps of NVE (about
// 60 s on one thread). D (corrected for the box), n_C and T are gated.
TEST(RigidBodyGates, SsdWaterShortForm) {
  const auto r = meso::test_support::run_validation_case("ssd-water");
  ASSERT_EQ(r.name, "ssd-water");
  for (const auto& g : r.data["gates"]) std::cout << g.dump() << "\n";
  // The liquid's structure: the first peak of g(r) where water's is (2.73-
  // 2.8 A by X-ray and neutron diffraction; Hura et al. 2000, Soper 2000).
  EXPECT_NEAR(r.data["g_first_peak_r_A"].get<double>(), 2.75, 0.15);
  EXPECT_TRUE(r.passed);
}

}  // namespace

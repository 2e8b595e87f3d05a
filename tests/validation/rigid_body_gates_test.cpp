// ctest -L validation: the short forms of the rigid-body gates
// (nve-drift-rigid and -ssd, rotational-equipartition, janus-assembly, ssd-water) on
// the CPU reference, through the same code path as `mesobench validate`.
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

TEST(RigidBodyGates, RotationalEquipartitionShortForm) {
  const auto r = meso::test_support::run_validation_case("rotational-equipartition");
  ASSERT_EQ(r.name, "rotational-equipartition");
  for (const auto& g : r.data["gates"]) {
    std::cout << g.dump() << "\n";  // the measured values, for the log
    EXPECT_TRUE(g["passed"].get<bool>()) << g.dump();
  }
  EXPECT_TRUE(r.passed);
}

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

// The short form: 512 molecules, 60 ps of Langevin, 40 ps of NVE (about
// 80 s on 2 cores). D and the temperature are gated; n_C is the long form's.
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

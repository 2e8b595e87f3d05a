// ctest -L validation: the short form of srd-momentum (validation/srd-momentum/)
// on the CPU reference, in double and in float storage.
#include <gtest/gtest.h>

#include "support/run_validation_case.hpp"

namespace {

using namespace meso;
using meso::test_support::run_validation_case;

void expect_gates(const validation::Result& r) {
  EXPECT_TRUE(r.passed) << r.rule;
  for (const auto& g : r.data.at("gates")) EXPECT_TRUE(g.at("passed").get<bool>()) << g.dump();
}

TEST(Validation, SrdMomentumShort) {
  const auto r = run_validation_case("srd-momentum");
  expect_gates(r);
  // The uniform start is far from Maxwellian (the gate can fail): its KS
  // distance is ~0.05, several times the critical value.
  const auto& ks = r.data.at("gates")[4];
  EXPECT_GT(ks.at("initial").get<double>(), 3.0 * ks.at("limit").get<double>());
}

TEST(Validation, SrdMomentumShortFp32Storage) {
  expect_gates(run_validation_case("srd-momentum", Variant::parse("precision=single")));
}

}  // namespace

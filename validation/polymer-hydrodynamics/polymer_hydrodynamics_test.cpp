// ctest -L validation: the short form of polymer-hydrodynamics (README.md
// beside the case): dilute Langevin chains of N = 10, 20, 40 diffuse as
// Rouse's kT / (N gamma).
#include <gtest/gtest.h>

#include "support/run_validation_case.hpp"

namespace {

using meso::test_support::run_validation_case;

TEST(Validation, PolymerHydrodynamicsShort) {
  const auto r = run_validation_case("polymer-hydrodynamics");
  EXPECT_TRUE(r.passed) << "nu_D = " << r.measured << " +- " << r.uncertainty << " against " << r.reference
                        << " (" << r.rule << ")";
  // Every chain length: its D within 4 SEM and 3% (the chains' mutual
  // collisions at a coil fraction of 0.01) of kT / (N gamma).
  for (const auto& run : r.data["analysis"]["runs"]) {
    const double d = run["D"].get<double>(), sem = run["D_sem"].get<double>(), rouse = run["D_rouse"].get<double>();
    EXPECT_NEAR(d, rouse, 4.0 * sem + 0.03 * rouse) << "N = " << run["N"];
  }
  // The chains swell beyond an ideal chain's N^0.5 (the exponent is reported,
  // not gated, in this form: README.md).
  EXPECT_GT(r.data["analysis"]["nu"]["nu"].get<double>(), 0.55);
}

}  // namespace

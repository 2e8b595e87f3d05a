// Invalid physical parameters are rejected with a message naming the value.
#include <gtest/gtest.h>

#include <string>

#include "meso/run/backend.hpp"
#include "meso/core/error.hpp"
#include "meso/core/system.hpp"
#include "meso/systems/water.hpp"

namespace {

using meso::DpdFluidParams;
using meso::InputError;

void expect_rejected(const DpdFluidParams& p, const std::string& needle, double skin = 0.3) {
  try {
    const auto sys = meso::make_dpd_fluid(p);
    sys.validate(skin);
    FAIL() << "accepted invalid parameters; expected a message containing '" << needle << "'";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find(needle), std::string::npos) << e.what();
  }
}

DpdFluidParams good() {
  DpdFluidParams p;
  p.n = 3000;
  return p;
}

TEST(SystemValidation, RejectsNonPositiveDensity) {
  auto p = good();
  p.rho = 0.0;
  expect_rejected(p, "rho = 0");
  p.rho = -1.5;
  expect_rejected(p, "rho = -1.5");
}

TEST(SystemValidation, RejectsNonPositiveCutoff) {
  auto p = good();
  p.rcut = 0.0;
  expect_rejected(p, "r_c = 0");
  p.rcut = -1.0;
  expect_rejected(p, "r_c = -1");
}

TEST(SystemValidation, RejectsNaN) {
  auto p = good();
  p.gamma = std::nan("");
  expect_rejected(p, "gamma = nan");
}

TEST(SystemValidation, RejectsBoxShorterThanTwiceListRange) {
  auto p = good();
  p.n = 0;
  p.lx = p.ly = 10.0;
  p.lz = 2.5;  // < 2 (1 + 0.3) = 2.6
  expect_rejected(p, "box length 2.5 is too short");
  expect_rejected(p, "2.6");
}

TEST(SystemValidation, RejectsBoxWithMoreParticlesThanTags) {
  auto p = good();
  p.n = 0;
  p.lx = p.ly = p.lz = 1e7;  // rho V = 3e21: refused before anything is allocated
  expect_rejected(p, "rho * V = 3e+21 particles is too many");
}

// SSD/RF's switches: each sticky switch 0 < r_l < r_u, the switched cutoff
// 0 < r_sw < r_c, and the sticky switches inside r_c; NaN is refused too.
TEST(SystemValidation, RejectsDisorderedSsdSwitches) {
  meso::SsdWaterParams wp;
  wp.n = 512;
  const meso::System good_water = meso::make_ssd_water(wp);
  EXPECT_NO_THROW(good_water.validate(1.0));
  auto rejected = [&](auto change, const std::string& needle) {
    meso::physics::SsdParams p;
    change(p);
    meso::System sys = good_water;
    sys.set_pair_style<meso::physics::SsdParams>(1, p);
    try {
      sys.validate(1.0);
      ADD_FAILURE() << "accepted; expected '" << needle << "'";
    } catch (const InputError& e) {
      EXPECT_NE(std::string(e.what()).find(needle), std::string::npos) << e.what();
    }
  };
  rejected([](auto& p) { p.rl = 3.9; }, "(r_l, r_u) = (3.9, 3.8)");
  rejected([](auto& p) { p.rlp = 0.0; }, "and (0, 3.35) must satisfy 0 < r_l < r_u");
  rejected([](auto& p) { p.rup = std::nan(""); }, "and (2.75, nan)");
  rejected([](auto& p) { p.rsw = 9.0; }, "r_sw = 9, r_c = 9 must satisfy 0 < r_sw < r_c");
  rejected([](auto& p) { p.ru = 9.5; }, "with the sticky switches inside r_c");
}

TEST(SystemValidation, AcceptsSmallestLegalBox) {
  auto p = good();
  p.n = 0;
  p.lx = p.ly = p.lz = 2.6;
  EXPECT_NO_THROW(meso::make_dpd_fluid(p).validate(0.3));
}

TEST(RunParamsValidation, RejectsNonPositiveTimestep) {
  meso::RunParams r;
  r.dt = 0.0;
  EXPECT_THROW(r.validate(), InputError);
  r.dt = -0.01;
  try {
    r.validate();
    FAIL();
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("dt = -0.01"), std::string::npos) << e.what();
  }
}

}  // namespace

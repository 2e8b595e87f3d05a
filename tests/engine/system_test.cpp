// Invalid physical parameters are rejected with a message naming the value.
#include <gtest/gtest.h>

#include <string>

#include "meso/backend.hpp"
#include "meso/error.hpp"
#include "meso/system.hpp"

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

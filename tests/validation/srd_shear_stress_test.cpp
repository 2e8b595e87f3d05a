// The xz momentum flux of a sheared SRD solvent (validation/srd_shear_stress.cpp)
// by hand: two particles streaming one period, one of them across the sheared
// top face, and a collision that moves x momentum from one to the other.
#include <gtest/gtest.h>

#include <stdexcept>

#include "meso/validation/srd_shear_stress.hpp"

namespace {

using namespace meso;

TEST(SrdShearFlux, TwoParticlesByHand) {
  // 4^3 unit cells (lo = -2), gdot = 0.1 (jump gdot L_z = 0.4), dt = 0.1, no
  // grid shift, m = 1.
  MpcdSystem sys;
  sys.box = Box(4.0);
  sys.params.shear.rate = 0.1;
  sys.params.dt = 0.1;
  sys.params.grid_shift = false;
  MpcdParticles before, after;
  before.resize(2);
  after.resize(2);
  for (uint32_t i = 0; i < 2; ++i) before.tag[i] = after.tag[i] = i;
  // 0 streams z 0.25 -> 0.35: 0.1 ((0.3 - 0.1 * 0.25) - 0.1 * 0.1 / 2) =
  // 0.027; the collision adds 0.2 to v_x at 0.35 above its cell's face: 0.07.
  before.position[0] = {0.0, 0.0, 0.25};
  before.velocity[0] = {0.3, 0.0, 1.0};
  after.position[0] = {0.03, 0.0, 0.35};
  after.velocity[0] = {0.5, 0.0, 1.0};
  // 1 leaves through the top (z 1.95 -> -1.95, image +1, v_x 0.4 -> 0):
  // 0.1 ((0.4 - 0.1 * 1.95) - 0.005) = 0.02; the collision takes 0.2 off v_x
  // at 0.05 above its cell's face: -0.01.
  before.position[1] = {1.0, 0.0, 1.95};
  before.velocity[1] = {0.4, 0.0, 1.0};
  after.position[1] = {1.0, 0.0, -1.95};
  after.velocity[1] = {-0.2, 0.0, 1.0};
  after.image[1] = {0, 0, 1};
  const validation::SrdShearFlux f = validation::srd_shear_flux(sys, before, after, 5);
  EXPECT_NEAR(f.kinetic, 0.027 + 0.02, 1e-15);
  EXPECT_NEAR(f.collisional, 0.2 * 0.35 - 0.2 * 0.05, 1e-15);
  // Out of tag order, or of other sizes: refused.
  after.tag[0] = 1;
  after.tag[1] = 0;
  EXPECT_THROW(validation::srd_shear_flux(sys, before, after, 5), std::invalid_argument);
  after.resize(1);
  EXPECT_THROW(validation::srd_shear_flux(sys, before, after, 5), std::invalid_argument);
}

}  // namespace

// The DPD slit walls (meso/physics/dpd_wall.hpp) through the CPU reference:
// a particle the drift carries across a wall comes back at the crossing
// time's place with the reflected velocity (bounce-back, moving walls,
// specular), the wall force enters the velocity-Verlet step exactly as
// the formula gives it, an a = 0 fluid between the walls keeps its temperature and a
// uniform density, the slit builder, and the refusals of bad input.
#include <gtest/gtest.h>

#include <cmath>
#include <memory>

#include "meso/core/dpd_slit.hpp"
#include "meso/core/error.hpp"
#include "meso/reference/cpu_backend.hpp"
#include "meso/run/simulation.hpp"

namespace {

using namespace meso;

std::unique_ptr<Backend> cpu() { return std::make_unique<reference::CpuBackend<double>>(Variant{}); }

// Four particles 2.5 apart in a 5 x 5 x 5 box of walls at +-1.5 (no pair
// force: a = gamma = 0, and no wall force): free flights, reflected.
System free_particles(double speed, bool bounce_back) {
  DpdSlitParams p;
  p.fluid.rho = 0.0625;
  p.fluid.lx = p.fluid.ly = 4.0;
  p.fluid.a = 0.0;
  p.fluid.gamma = 0.0;
  p.fluid.seed = 3;
  p.height = 3.0;
  p.wall_speed = speed;
  p.wall_force = false;
  p.bounce_back = bounce_back;
  System sys = make_dpd_slit(p);  // N = 0.0625 * 4 * 4 * 3 = 3
  for (std::size_t i = 0; i < sys.particles.n_local; ++i) {
    sys.particles.position[i] = {-1.5 + 1.5 * double(i), -1.0 + double(i), 0.0};
    sys.particles.velocity[i] = {0.0, 0.0, 0.0};
  }
  return sys;
}

RunParams steps_of(double dt) {
  RunParams rp;
  rp.dt = dt;
  rp.skin = 0.3;
  return rp;
}

TEST(DpdWallReference, CrossingParticleComesBackReflected) {
  System sys = free_particles(0.0, true);
  ASSERT_EQ(sys.particles.n_local, 3u);
  // Particle 0 at z = 1.499 moving out at v_z = 1: it reaches the wall after
  // 0.001 of the step's 0.01 and flies back 0.009.
  sys.particles.position[0] = {0.0, 0.0, 1.499};
  sys.particles.velocity[0] = {0.5, -0.2, 1.0};
  Simulation sim(cpu(), sys, steps_of(0.01));
  sim.run(1);
  const ParticleData<double> p = sim.particles();
  for (std::size_t i = 0; i < p.n_local; ++i) {
    if (p.tag[i] != 0) continue;
    // Bounce-back retraces the path: x and y back to where they were at the wall.
    EXPECT_NEAR(p.position[i].z, 1.5 - 0.009, 1e-12);
    EXPECT_NEAR(p.position[i].x, 0.0005 - 0.0045, 1e-12);
    EXPECT_NEAR(p.velocity[i].x, -0.5, 1e-15);
    EXPECT_NEAR(p.velocity[i].y, 0.2, 1e-15);
    EXPECT_NEAR(p.velocity[i].z, -1.0, 1e-15);
  }
}

TEST(DpdWallReference, MovingAndSpecularWalls) {
  for (bool bounce : {true, false}) {
    System sys = free_particles(0.3, bounce);
    sys.particles.position[0] = {0.0, 0.0, -1.499};
    sys.particles.velocity[0] = {0.5, 0.0, -1.0};
    Simulation sim(cpu(), sys, steps_of(0.01));
    sim.run(1);
    const ParticleData<double> p = sim.particles();
    for (std::size_t i = 0; i < p.n_local; ++i) {
      if (p.tag[i] != 0) continue;
      // The lower wall moves at -0.3: bounce-back gives v_x = -0.6 - 0.5;
      // specular reflection keeps v_x.
      EXPECT_NEAR(p.velocity[i].x, bounce ? -1.1 : 0.5, 1e-15) << "bounce " << bounce;
      EXPECT_NEAR(p.velocity[i].z, 1.0, 1e-15);
      EXPECT_NEAR(p.position[i].z, -1.5 + 0.009, 1e-12);
      EXPECT_NEAR(p.position[i].x, 0.0005 + 0.009 * (bounce ? -1.1 : 0.5), 1e-12);
    }
  }
}

// The Backer fluid (a = 0) in a 3 x 3 x 4 slit.
DpdSlitParams backer_slit(uint64_t seed) {
  DpdSlitParams p;
  p.fluid.rho = 6.0;
  p.fluid.a = 0.0;
  p.fluid.kT = 0.5;
  p.fluid.gamma = 20.25;
  p.fluid.s = 1.0;
  p.fluid.lx = p.fluid.ly = 3.0;
  p.fluid.seed = seed;
  p.height = 4.0;
  return p;
}

TEST(DpdWallReference, WallForceEntersTheVelocityVerletStep) {
  // One particle 0.3 below the upper wall (moving at 0.2), the others out of
  // the walls' reach: its step is velocity Verlet with the wall force of
  // step 0 at (r0, v0) and of step 1 at (r1, v(t + dt/2)), the noise of each
  // step keyed by its tag, step and seed.
  System sys = free_particles(0.2, true);
  sys.wall.a = 25.0;
  sys.wall.gamma = 4.5;
  sys.wall.density = 3.0;
  sys.wall.kT = 1.0;
  const Vec3d r0{0.0, 0.0, 1.2}, v0{0.5, -0.1, 0.3};
  sys.particles.position[0] = r0;
  sys.particles.velocity[0] = v0;
  RunParams rp = steps_of(0.002);
  rp.seed = 9;
  Simulation sim(cpu(), sys, rp);
  sim.run(1);
  const double dt = rp.dt, isd = 1.0 / std::sqrt(dt);
  const uint32_t tag = sys.particles.tag[0];
  const Vec3d f0 = physics::dpd_wall_force(sys.wall, r0, v0, physics::dpd_wall_noise(tag, 0, rp.seed), isd);
  const Vec3d vh = v0 + 0.5 * dt * f0;
  const Vec3d r1 = r0 + dt * vh;
  const Vec3d f1 = physics::dpd_wall_force(sys.wall, r1, vh, physics::dpd_wall_noise(tag, 1, rp.seed), isd);
  const Vec3d v1 = vh + 0.5 * dt * f1;
  ASSERT_GT(std::fabs(f0.z), 1.0);  // the wall acts
  const ParticleData<double> p = sim.particles();
  for (std::size_t i = 0; i < p.n_local; ++i) {
    if (p.tag[i] == tag) {
      EXPECT_NEAR(p.position[i].z, r1.z, 1e-13);
      EXPECT_NEAR(p.velocity[i].x, v1.x, 1e-12);
      EXPECT_NEAR(p.velocity[i].y, v1.y, 1e-12);
      EXPECT_NEAR(p.velocity[i].z, v1.z, 1e-12);
    } else {
      EXPECT_EQ(p.velocity[i].x, 0.0);  // beyond r_c of both walls
    }
  }
}

TEST(DpdWallReference, IdealFluidKeepsTemperatureAndUniformDensity) {
  // An a = 0 fluid of weak friction (gamma = 4.5, rho = 3: it diffuses
  // across the slit in a few time units) in a 4 x 4 x 4 slit, 20 time units
  // from a uniform start, sampled every 0.5.
  DpdSlitParams p = backer_slit(5);
  p.fluid.rho = 3.0;
  p.fluid.kT = 1.0;
  p.fluid.gamma = 4.5;
  p.fluid.lx = p.fluid.ly = 4.0;
  const System sys = make_dpd_slit(p);
  Simulation sim(cpu(), sys, steps_of(0.01));
  double ke = 0.0, near = 0.0, mid = 0.0;
  const int samples = 40;
  for (int k = 0; k < samples; ++k) {
    sim.run(50);
    const ParticleData<double> q = sim.particles();
    for (std::size_t i = 0; i < q.n_local; ++i) {
      ke += 0.5 * dot(q.velocity[i], q.velocity[i]);
      ASSERT_LE(std::fabs(q.position[i].z), sys.wall.h + 1e-12);
      (std::fabs(q.position[i].z) > sys.wall.h - 1.0 ? near : mid) += 1.0;
    }
  }
  const double n = static_cast<double>(sys.particles.n_local) * samples;
  // kT = 1 within 3% (192 particles x 40 samples; DPD's finite-dt heating at
  // gamma dt = 0.045 is below 1%), and the density within r_c of the walls
  // (two slabs of width 1) that of the middle (width 2) within 10%, 3 SE of
  // ~20 independent samples of 192 (an ideal gas: uniform).
  EXPECT_NEAR(2.0 * ke / (3.0 * n), 1.0, 0.03);
  EXPECT_NEAR(near / mid, 1.0, 0.10);
}

TEST(DpdWallReference, Refusals) {
  const System good = make_dpd_slit(backer_slit(1));
  const RunParams rp = steps_of(0.001);
  {
    System s = good;
    s.box = Box(3.0, 3.0, 4.5);  // padding 0.25 a side < r_c
    EXPECT_THROW(Simulation(cpu(), s, rp), InputError);
  }
  {
    System s = good;
    s.particles.position[0].z = 2.2;  // beyond the wall at 2
    EXPECT_THROW(Simulation(cpu(), s, rp), InputError);
  }
  {
    System s = good;
    s.wall.gamma = -1.0;
    EXPECT_THROW(Simulation(cpu(), s, rp), InputError);
  }
  {
    RunParams lv = rp;
    lv.integrator = Integrator::langevin;
    try {
      Simulation sim(cpu(), good, lv);
      FAIL() << "langevin with walls was accepted";
    } catch (const InputError& e) {
      EXPECT_NE(std::string(e.what()).find("vv or gw"), std::string::npos) << e.what();
    }
  }
  DpdSlitParams low = backer_slit(1);
  low.height = 1.5;
  EXPECT_THROW(Simulation(cpu(), make_dpd_slit(low), rp), InputError);
}

}  // namespace

// Leapfrog with Berendsen scaling on the reference backend
// (integrate/berendsen, integrate/berendsen/aniso): the scale by hand and
// at its limits, free particles relaxing to the bath exactly as the scaling
// law says (translation with tau, rotation with tau_r), an LJ liquid held
// at its bath, and, without the
// scaling, the trajectory of velocity Verlet (leapfrog and velocity Verlet
// are one map once the start is shifted by half a kick).
#include <gtest/gtest.h>

#include <cmath>
#include <random>

#include "meso/core/init.hpp"
#include "meso/systems/janus_triblock.hpp"
#include "meso/physics/janus.hpp"
#include "meso/physics/rigid_body.hpp"
#include "meso/physics/thermostats.hpp"
#include "meso/reference/cpu_backend.hpp"
#include "meso/run/simulation.hpp"

namespace {

using namespace meso;

std::unique_ptr<Backend> cpu() { return std::make_unique<reference::CpuBackend<double>>(Variant{}); }

TEST(Berendsen, ScaleByHandAndItsLimits) {
  // T = 2, kT = 1, dt / tau = 0.1: lambda^2 = 1 + 0.1 (1/2 - 1) = 0.95.
  EXPECT_DOUBLE_EQ(physics::berendsen_scale(2.0, 1.0, 0.01, 0.1), std::sqrt(0.95));
  EXPECT_DOUBLE_EQ(physics::berendsen_scale(1.0, 1.0, 0.01, 0.1), 1.0);
  // Held to [0.8, 1.25]: a cold start, no motion at all, a hot one.
  EXPECT_DOUBLE_EQ(physics::berendsen_scale(1e-6, 1.0, 0.01, 0.1), 1.25);
  EXPECT_DOUBLE_EQ(physics::berendsen_scale(0.0, 1.0, 0.01, 0.1), 1.25);
  EXPECT_DOUBLE_EQ(physics::berendsen_scale(1e6, 1.0, 0.1, 0.1), 0.8);
}

// Particles without forces: each step scales T by lambda^2, T' = T + (dt /
// tau) (kT - T), so T_k = kT + (T_0 - kT) (1 - dt/tau)^k; the free rotor
// keeps each particle's rotational energy, so T_rot follows the same law
// with tau_r.
TEST(Berendsen, FreeParticlesRelaxAsTheScalingLawSays) {
  JanusTriblockParams jp;
  jp.L = 4.0;
  jp.kT = 2.0;  // the start; the bath is at 1
  jp.seed = 5;
  jp.janus.a_rep = jp.janus.a_att = 0.0;  // no forces, no torques
  const System sys = make_janus_triblock(jp);
  RunParams rp;
  rp.integrator = Integrator::berendsen;
  rp.kT = 1.0;
  rp.dt = 0.005;
  rp.tau = 0.1;
  rp.tau_r = 0.05;
  rp.skin = 0.3;
  Simulation sim(cpu(), sys, rp);
  const ThermoSample t0 = sim.thermo();
  const int steps = 40;
  sim.run(steps);
  const ThermoSample t = sim.thermo();
  const double want_t = 1.0 + (t0.temperature - 1.0) * std::pow(1.0 - rp.dt / rp.tau, steps);
  const double want_r = 1.0 + (t0.rotational_temperature - 1.0) * std::pow(1.0 - rp.dt / rp.tau_r, steps);
  EXPECT_NEAR(t.temperature, want_t, 1e-12 * want_t);
  EXPECT_NEAR(t.rotational_temperature, want_r, 1e-10 * want_r);
  // Relaxed far enough to tell the two time constants apart.
  EXPECT_LT(std::fabs(t.rotational_temperature - 1.0), 0.5 * std::fabs(t.temperature - 1.0));
}

// integrate/berendsen (no rotation) holds an LJ liquid at its bath: the
// mean of T over the last 1000 of 3000 steps (tau = 0.1, 30 relaxation
// times) within 1% of kT = 1.5 from a lattice start at 1. Berendsen pulls
// the measured T itself to kT every step, so the spread of the mean is
// small: measured 1.4999 with a standard deviation of 0.0005 over 10
// seeds, so 1% is 30 standard deviations: room for rounding, none for a
// wrong scale or sign.
TEST(Berendsen, HoldsAnLjLiquidAtItsBath) {
  LjLiquidParams lp;
  lp.n = 1000;
  lp.rho = 0.4;
  lp.kT = 1.0;
  lp.seed = 4;
  const System sys = make_lj_liquid(lp);
  RunParams rp;
  rp.integrator = Integrator::berendsen;
  rp.kT = 1.5;
  rp.tau = 0.1;
  Simulation sim(cpu(), sys, rp);
  sim.run(2000);
  double mean = 0.0;
  for (int s = 0; s < 100; ++s) {
    sim.run(10);
    mean += sim.thermo().temperature / 100.0;
  }
  EXPECT_NEAR(mean, 1.5, 0.015);
}

// Forces and torques of a Janus system by brute force over pairs (the
// evaluator, min image).
void janus_forces(const System& sys, std::vector<Vec3d>& f, std::vector<Vec3d>& tau) {
  const ParticleData<double>& p = sys.particles;
  const physics::JanusParams jp = sys.pair_table<physics::JanusParams>()(0, 0);
  f.assign(p.n_local, {0, 0, 0});
  tau.assign(p.n_local, {0, 0, 0});
  for (std::size_t i = 0; i < p.n_local; ++i) {
    for (std::size_t j = i + 1; j < p.n_local; ++j) {
      const Vec3d d = sys.box.min_image(p.position[j] - p.position[i]);
      if (dot(d, d) >= jp.rcut * jp.rcut) continue;
      const auto e = physics::janus_pair(d, physics::body_axis_z(p.orientation[i]),
                                         physics::body_axis_z(p.orientation[j]), jp);
      f[i] += e.force_i;
      f[j] -= e.force_i;
      tau[i] += e.torque_i;
      tau[j] += e.torque_j;
    }
  }
}

// With no scaling (tau -> infinity: lambda = 1 to the last bit) leapfrog
// from v(-dt/2) = v(0) - dt/2 F(0)/m and L(-dt/2) = L(0) - dt/2 R^T tau(0)
// visits the positions and orientations of velocity Verlet from v(0), L(0):
// the two differ by the rounding of one kick of dt against two of dt/2,
// which the stiff random start amplifies (measured: 3e-18 after one step,
// 2e-16 after 5, 4e-13 after 20, 5e-11 after 50); an error in the scheme
// (a kick misplaced by half a step) would show at O(dt^2 F/m) = 1e-4.
TEST(Berendsen, WithoutScalingFollowsVelocityVerlet) {
  JanusTriblockParams jp;
  jp.L = 4.0;  // 192 particles
  jp.seed = 11;
  const System sys = make_janus_triblock(jp);
  RunParams rp;
  rp.integrator = Integrator::nve;
  rp.dt = 0.002;
  rp.skin = 0.3;
  System shifted = sys;
  std::vector<Vec3d> f, tau;
  janus_forces(sys, f, tau);
  ParticleData<double>& p = shifted.particles;
  for (std::size_t i = 0; i < p.n_local; ++i) {
    p.velocity[i] -= (0.5 * rp.dt / sys.type_mass[p.type[i]]) * f[i];
    p.angmom[i] = physics::torque_kick(p.orientation[i], p.angmom[i], p.inertia[i], tau[i], -0.5 * rp.dt);
  }
  Simulation vv(cpu(), sys, rp);
  RunParams lf = rp;
  lf.integrator = Integrator::berendsen;
  lf.tau = lf.tau_r = 1e300;
  Simulation leapfrog(cpu(), shifted, lf);
  const int steps = 20;
  vv.run(steps);
  leapfrog.run(steps);
  const ParticleData<double> a = vv.particles(), b = leapfrog.particles();
  double dr = 0.0, dq = 0.0;
  for (std::size_t i = 0; i < a.n_local; ++i) {
    const Vec3d d = sys.box.min_image(a.position[i] - b.position[i]);
    dr = std::max(dr, std::sqrt(dot(d, d)));
    const Vec3d na = physics::body_axis_z(a.orientation[i]), nb = physics::body_axis_z(b.orientation[i]);
    dq = std::max(dq, std::sqrt(dot(na - nb, na - nb)));
  }
  std::printf("leapfrog against velocity Verlet, %d steps: |dr| %.3e, |dn| %.3e\n", steps, dr, dq);
  EXPECT_LT(dr, 1e-10);
  EXPECT_LT(dq, 1e-10);
}

}  // namespace

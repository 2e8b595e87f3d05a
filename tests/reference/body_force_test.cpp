// The body force (engine/include/meso/physics/body_force.hpp) by hand, and through the
// CPU backend: the momentum it puts in per step is exactly dt times the sum
// of the forces, because the DPD pair forces conserve momentum.
#include <gtest/gtest.h>

#include "meso/reference/cpu_backend.hpp"
#include "meso/run/simulation.hpp"
#include "meso/analysis/thermo.hpp"

namespace {

using namespace meso;

TEST(BodyForce, SignPerHalfAndTypeMask) {
  physics::BodyForce bf;
  bf.g = {0.0, 0.0, 0.055};
  bf.reverse_axis = 0;  // +g for x < 0, -g for x >= 0 (the boundary belongs to the upper half)
  EXPECT_DOUBLE_EQ(bf.force({-3.0, 1.0, 1.0}, 0, 1.0).z, 0.055);
  EXPECT_DOUBLE_EQ(bf.force({-1e-12, 0.0, 0.0}, 0, 1.0).z, 0.055);
  EXPECT_DOUBLE_EQ(bf.force({0.0, 0.0, 0.0}, 0, 1.0).z, -0.055);
  EXPECT_DOUBLE_EQ(bf.force({5.9, -3.0, 3.0}, 0, 2.0).z, -0.11);  // m g
  EXPECT_DOUBLE_EQ(bf.force({5.9, -3.0, 3.0}, 0, 2.0).x, 0.0);
  bf.type_mask = 0b10u;  // only type 1 driven
  EXPECT_DOUBLE_EQ(bf.force({-3.0, 0.0, 0.0}, 0, 1.0).z, 0.0);
  EXPECT_DOUBLE_EQ(bf.force({-3.0, 0.0, 0.0}, 1, 1.0).z, 0.055);
  EXPECT_DOUBLE_EQ(bf.force({-3.0, 0.0, 0.0}, 40, 1.0).z, 0.0);  // beyond the mask width: not driven
  physics::BodyForce uniform;
  uniform.g = {0.1, 0.0, 0.0};
  EXPECT_DOUBLE_EQ(uniform.force({-3.0, 0.0, 0.0}, 0, 1.0).x, 0.1);
  EXPECT_DOUBLE_EQ(uniform.force({3.0, 0.0, 0.0}, 0, 1.0).x, 0.1);
  EXPECT_FALSE(physics::BodyForce{}.active());
}

// A two-type DPD fluid (masses 1 and 2) with the full pair forces on.
System two_type_fluid() {
  DpdFluidParams f;
  f.rho = 3.0;
  f.lx = f.ly = f.lz = 5.0;
  f.seed = 7;
  System sys = make_dpd_fluid(f);
  sys.type_names = {"A", "B"};
  sys.type_mass = {1.0, 2.0};
  const physics::DpdPairParams pp{25.0, 4.5, 3.0, 1.0, 1.0};
  sys.set_pair_style<physics::DpdPairParams>(2, pp);
  for (std::size_t i = 0; i < sys.particles.n_local; ++i) {
    sys.particles.type[i] = i % 3 == 0 ? 1u : 0u;
    sys.particles.velocity[i] = {0.0, 0.0, 0.0};
  }
  return sys;
}

TEST(BodyForce, MomentumInputIsNmgDtPerStep) {
  System sys = two_type_fluid();
  sys.body_force.g = {0.0, 0.0, 0.05};
  sys.body_force.type_mask = 0b10u;  // only the heavy type B
  double driven_mass = 0.0;
  for (std::size_t i = 0; i < sys.particles.n_local; ++i)
    if (sys.particles.type[i] == 1u) driven_mass += sys.type_mass[1];
  RunParams rp;
  rp.dt = 0.01;
  for (Integrator integ : {Integrator::velocity_verlet, Integrator::groot_warren}) {
    rp.integrator = integ;
    Simulation sim(std::make_unique<reference::CpuBackend<double>>(Variant{}), sys, rp);
    const int steps = 100;
    sim.run(steps);
    const Vec3d P = total_momentum(sim.system(), sim.particles());
    // Pair forces cancel in pairs; what remains is M_driven g dt per step.
    // Tolerance: round-off of summing ~400 forces of O(10) over 100 steps.
    EXPECT_NEAR(P.z, steps * driven_mass * 0.05 * rp.dt, 1e-10) << to_string(integ);
    EXPECT_NEAR(P.x, 0.0, 1e-10);
    EXPECT_NEAR(P.y, 0.0, 1e-10);
  }
}

TEST(BodyForce, ReverseForceInputFollowsTheHalves) {
  // One step from rest: the momentum put in is dt m g (N_lower - N_upper),
  // counted over the positions at which the forces were evaluated.
  System sys = two_type_fluid();
  sys.body_force.g = {0.0, 0.0, 0.05};
  sys.body_force.reverse_axis = 0;
  double expected = 0.0;
  for (std::size_t i = 0; i < sys.particles.n_local; ++i) {
    const double m = sys.type_mass[sys.particles.type[i]];
    expected += (sys.particles.position[i].x < 0.0 ? 1.0 : -1.0) * m * 0.05;
  }
  RunParams rp;
  rp.dt = 0.01;
  Simulation b(std::make_unique<reference::CpuBackend<double>>(Variant{}), sys, rp);
  ParticleData<double> p;
  p = b.particles();
  double fz = 0.0;
  for (std::size_t i = 0; i < p.n_local; ++i) fz += p.force[i].z;
  EXPECT_NEAR(fz, expected, 1e-11);
  // And per particle the force is the pair force plus the sign of its half.
  System no_drive = sys;
  no_drive.body_force = {};
  Simulation b0(std::make_unique<reference::CpuBackend<double>>(Variant{}), no_drive, rp);
  ParticleData<double> p0;
  p0 = b0.particles();
  for (std::size_t i = 0; i < p.n_local; ++i) {
    const double m = sys.type_mass[p.type[i]];
    EXPECT_NEAR(p.force[i].z - p0.force[i].z, (p.position[i].x < 0.0 ? 1.0 : -1.0) * m * 0.05, 1e-12);
  }
}

}  // namespace

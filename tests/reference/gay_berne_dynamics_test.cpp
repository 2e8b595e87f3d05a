// Gay-Berne ellipsoids on the reference backend: forces and torques of a
// pair through the whole machinery against the evaluator (across a periodic
// boundary), Newton's third law and the conservation of total angular
// momentum in a free cluster, NVE energy with rotation (bounded, O(dt^2)),
// Langevin equipartition between translation and rotation, and the
// refusals (other integrators, several ranks, checkpoint files).
#include <gtest/gtest.h>

#include <omp.h>

#include <cmath>
#include <random>

#include "meso/analysis/block_average.hpp"
#include "meso/core/error.hpp"
#include "meso/systems/gay_berne_liquid.hpp"
#include "meso/reference/cpu_backend.hpp"
#include "meso/run/simulation.hpp"
#include "meso/testing/rotational_system.hpp"

namespace {

using namespace meso;

std::unique_ptr<Backend> cpu() { return std::make_unique<reference::CpuBackend<double>>(Variant{}); }

// n GB particles at given positions and axes (body z), in a box of side L.
System gb_system(const std::vector<Vec3d>& r, const std::vector<Quatd>& q, double L) {
  System sys = meso::testing::rotational_system(r, q, L, {0.5, 0.5, 0.0});
  sys.set_pair_style<physics::GayBerneParams>(1, physics::GayBerneParams{});
  return sys;
}

Quatd random_orientation(std::mt19937_64& rng) {
  std::normal_distribution<double> g;
  return normalized(Quatd{g(rng), {g(rng), g(rng), g(rng)}});
}

TEST(GayBerneDynamics, PairAcrossTheBoundaryMatchesTheEvaluator) {
  std::mt19937_64 rng(2);
  const double L = 12.0;
  const Quatd qa = random_orientation(rng), qb = random_orientation(rng);
  // 5.3 - (-4.5) = 9.8 -> -2.2 by minimum image.
  const System sys = gb_system({{5.3, 0.4, -0.2}, {-4.5, 0.1, 0.6}}, {qa, qb}, L);
  Simulation sim(cpu(), sys, RunParams{});
  const ParticleData<double> p = sim.particles();
  const Vec3d ua = physics::body_axis_z(qa), ub = physics::body_axis_z(qb);
  const auto want = physics::gay_berne_pair(Vec3d{-2.2, 0.3, -0.8}, ua, ub, physics::GayBerneParams{});
  for (const auto& [got, exp] : {std::pair{p.force[0], want.force_i}, std::pair{p.torque[0], want.torque_i},
                                 std::pair{p.torque[1], want.torque_j}}) {
    EXPECT_NEAR(got.x, exp.x, 1e-12);
    EXPECT_NEAR(got.y, exp.y, 1e-12);
    EXPECT_NEAR(got.z, exp.z, 1e-12);
  }
  // Newton's third law, bitwise: both particles use one evaluation.
  EXPECT_EQ(p.force[1].x, -p.force[0].x);
  EXPECT_EQ(p.force[1].y, -p.force[0].y);
  EXPECT_EQ(p.force[1].z, -p.force[0].z);
  EXPECT_NEAR(sim.thermo().potential_energy, want.energy, 1e-12);
}

// A free cluster of 27 ellipsoids in a box far larger than it: the total
// angular momentum sum r x m v + L_space is conserved by the NVE step (the
// kicks balance pair by pair, the drifts conserve it exactly), and so are
// the momentum and, to O(dt^2), the energy.
TEST(GayBerneDynamics, FreeClusterConservesAngularMomentum) {
  // A handful of particles: one thread. OpenMP's barriers would dominate,
  // and under ctest -j a descheduled thread stalls each for milliseconds.
  struct OneThread {
    int saved = omp_get_max_threads();
    OneThread() { omp_set_num_threads(1); }
    ~OneThread() { omp_set_num_threads(saved); }
  } one_thread;
  std::mt19937_64 rng(8);
  std::vector<Vec3d> r;
  std::vector<Quatd> q;
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 3; ++j)
      for (int k = 0; k < 3; ++k) {
        r.push_back({1.3 * i, 1.3 * j, 3.3 * k});
        q.push_back(normalized(Quatd{1.0, {0.1 * (i - 1), 0.1 * (j - 1), 0.05 * k}}));
      }
  System sys = gb_system(r, q, 40.0);
  std::normal_distribution<double> g;
  for (std::size_t i = 0; i < r.size(); ++i) {
    sys.particles.velocity[i] = {0.3 * g(rng), 0.3 * g(rng), 0.3 * g(rng)};
    sys.particles.angmom[i] = {0.3 * g(rng), 0.3 * g(rng), 0.0};
  }
  RunParams rp;
  rp.integrator = Integrator::nve;
  rp.dt = 0.001;
  auto angular_momentum = [](const ParticleData<double>& p) {
    Vec3d j{0, 0, 0};
    for (std::size_t i = 0; i < p.n_local; ++i)
      j += cross(p.position[i], p.velocity[i]) + rotate(p.orientation[i], p.angmom[i]);
    return j;
  };
  Simulation sim(cpu(), sys, rp);
  const Vec3d j0 = angular_momentum(sim.particles());
  const double e0 = sim.thermo().total_energy();
  const Vec3d m0 = sim.thermo().momentum;
  sim.run(2000);
  const ParticleData<double> p = sim.particles();
  for (std::size_t i = 0; i < p.n_local; ++i) ASSERT_EQ(p.image[i].x, 0);  // it stayed free
  const Vec3d j1 = angular_momentum(p), d = j1 - j0;
  EXPECT_LT(std::sqrt(dot(d, d)), 1e-10 * (1.0 + std::sqrt(dot(j0, j0))));
  const Vec3d dm = sim.thermo().momentum - m0;
  EXPECT_LT(std::sqrt(dot(dm, dm)), 1e-12);
  EXPECT_NEAR(sim.thermo().total_energy(), e0, 1e-3 * std::abs(e0));
}

// The melted liquid: 250 ellipsoids (the fewest a box of 2 (r_cut + skin)
// holds at rho = 0.3), melted by Langevin dynamics at kT = 2.
constexpr uint64_t kN = 250;
System melted_gb(uint64_t seed) {
  GbLiquidParams gp;
  gp.n = kN;
  gp.seed = seed;
  System sys = make_gb_liquid(gp);
  RunParams rp;
  rp.integrator = Integrator::langevin;
  rp.kT = 2.0;
  rp.dt = 0.002;
  rp.seed = uint32_t(seed);
  // 3000 steps (6 tau), as the gates: after 1000 the aligned start was still
  // turning isotropic, absorbing heat, and the kinetic temperatures of the
  // next 6 tau sat 2-3% below the bath (4 SEM in one seed).
  Simulation sim(cpu(), sys, rp);
  sim.run(3000);
  sys.particles = sim.particles();
  return sys;
}

TEST(GayBerneDynamics, NveEnergyErrorIsSecondOrderWithRotation) {
  // The largest deviation of E = K_trans + K_rot + U from its start over a
  // fixed time: halving dt divides it by about 4 (Verlet with NO_SQUISH is
  // second order); the rotational energy takes part (it is not a bystander).
  const System sys = melted_gb(5);
  double worst[2] = {0, 0}, k_rot = 0;
  for (int k = 0; k < 2; ++k) {
    RunParams rp;
    rp.integrator = Integrator::nve;
    rp.dt = k == 0 ? 0.002 : 0.001;
    Simulation sim(cpu(), sys, rp);
    const double e0 = sim.thermo().total_energy();
    const uint64_t steps = k == 0 ? 300 : 600;
    sim.run(steps, 5, [&](const ThermoSample& t) {
      worst[k] = std::max(worst[k], std::abs(t.total_energy() - e0));
      k_rot = t.rotational_kinetic_energy;
    });
  }
  EXPECT_GT(k_rot, 0.5 * kN);  // ~ kT per particle (2 dof of kT / 2 each, kT = 2)
  const double ratio = worst[0] / worst[1];
  EXPECT_GT(ratio, 2.8) << worst[0] << " " << worst[1];
  EXPECT_LT(ratio, 5.5) << worst[0] << " " << worst[1];
}

TEST(GayBerneDynamics, LangevinEquipartitionOfTranslationAndRotation) {
  // One fixed seed: the statistics of many seeds are the
  // rotational-equipartition gate's; this checks the machinery end to end.
  const uint64_t seed = 20261127;
  const System sys = melted_gb(seed);
  RunParams rp;
  rp.integrator = Integrator::langevin;
  rp.kT = 2.0;
  rp.dt = 0.002;
  rp.gamma = 2.0;
  rp.gamma_r = 1.0;
  rp.seed = uint32_t(seed) + 1;
  Simulation sim(cpu(), sys, rp);
  std::vector<double> tt, tr;
  sim.run(3000, 10, [&](const ThermoSample& t) {
    tt.push_back(2.0 * t.kinetic_energy / (3.0 * kN));  // Langevin: all 3N
    tr.push_back(t.rotational_temperature);
  });
  const auto a = block_average(tt, 20), b = block_average(tr, 20);
  SCOPED_TRACE("T = " + std::to_string(a.mean) + " +/- " + std::to_string(a.sem) + ", T_rot = " +
               std::to_string(b.mean) + " +/- " + std::to_string(b.sem));
  EXPECT_EQ(sim.thermo().rotational_dof, 2.0 * kN);
  // Both at the bath's kT within 4 SEM; BAOAB's O(dt^2) bias is below that.
  EXPECT_NEAR(a.mean, 2.0, 4.0 * a.sem);
  EXPECT_NEAR(b.mean, 2.0, 4.0 * b.sem);
  EXPECT_LT(b.sem, 0.05);
}

TEST(GayBerneDynamics, RefusesWhatItCannotRun) {
  GbLiquidParams gp;
  gp.n = kN;
  const System sys = make_gb_liquid(gp);
  RunParams rp;
  rp.integrator = Integrator::nvt;
  EXPECT_THROW(Simulation(cpu(), sys, rp), InputError);
  System flat = sys;
  flat.particles.set_rotational(false);
  EXPECT_THROW(Simulation(cpu(), flat, RunParams{}), InputError);  // GB needs orientations
  System spun = sys;
  spun.particles.angmom[3].z = 0.1;  // no inertia about the axis
  EXPECT_THROW(Simulation(cpu(), spun, RunParams{}), InputError);
  System skewed = sys;
  skewed.particles.orientation[7].s = 1.1;
  EXPECT_THROW(Simulation(cpu(), skewed, RunParams{}), InputError);
  gp.rho = 2.0;  // no aligned lattice holds it
  EXPECT_THROW(make_gb_liquid(gp), InputError);
}

}  // namespace

// SSD/RF water on the reference backend: a free cluster keeps its total
// angular momentum (the pair loop balances forces and torques pair by pair,
// the asymmetric top's NO_SQUISH rotor keeps L), and the NVE energy error of
// the liquid at 298 K is second order in dt with rotation taking part.
#include <gtest/gtest.h>

#include <omp.h>

#include <cmath>

#include "meso/reference/cpu_backend.hpp"
#include "meso/run/simulation.hpp"
#include "meso/systems/water.hpp"

namespace {

using namespace meso;

std::unique_ptr<Backend> cpu() { return std::make_unique<reference::CpuBackend<double>>(Variant{}); }

TEST(SsdWaterDynamics, FreeClusterConservesAngularMomentum) {
  // A handful of particles: one thread. OpenMP's barriers would dominate,
  // and under ctest -j a descheduled thread stalls each for milliseconds.
  struct OneThread {
    int saved = omp_get_max_threads();
    OneThread() { omp_set_num_threads(1); }
    ~OneThread() { omp_set_num_threads(saved); }
  } one_thread;
  // Eight molecules from the lattice start, 3.1 A apart, in a box of 60 A.
  SsdWaterParams wp;
  wp.n = 8;
  System sys = make_ssd_water(wp);
  sys.box = Box(60.0);
  RunParams rp;
  rp.integrator = Integrator::nve;
  rp.dt = 0.02;  // ~1 fs
  rp.skin = 1.0;
  auto angular_momentum = [](const ParticleData<double>& p) {
    Vec3d j{0, 0, 0};
    for (std::size_t i = 0; i < p.n_local; ++i)
      j += 18.0153 * cross(p.position[i], p.velocity[i]) + rotate(p.orientation[i], p.angmom[i]);
    return j;
  };
  // The energy error at dt and dt/2 over the same 20 fs, largest deviation:
  // about 4 times smaller (second order; an energy that is not conserved
  // by the forces and torques would drift at O(dt)).
  double worst[2] = {0, 0};
  for (int k = 0; k < 2; ++k) {
    RunParams r = rp;
    r.dt = k == 0 ? 0.02 : 0.01;
    Simulation sim(cpu(), sys, r);
    const Vec3d j0 = angular_momentum(sim.particles());
    const double e0 = sim.thermo().total_energy();
    sim.run(k == 0 ? 1000 : 2000, 5, [&](const ThermoSample& t) {
      worst[k] = std::max(worst[k], std::abs(t.total_energy() - e0));
    });
    const Vec3d d = angular_momentum(sim.particles()) - j0;
    EXPECT_LT(std::sqrt(dot(d, d)), 1e-9 * (1.0 + std::sqrt(dot(j0, j0))));
  }
  EXPECT_GT(worst[0] / worst[1], 2.8) << worst[0] << " " << worst[1];
  EXPECT_LT(worst[0] / worst[1], 5.5) << worst[0] << " " << worst[1];
}

TEST(SsdWaterDynamics, NveEnergyErrorIsSecondOrder) {
  // 343 molecules (a box of 21.8 A holds r_c + skin = 10 A), melted at 298 K.
  SsdWaterParams wp;
  wp.n = 343;
  System sys = make_ssd_water(wp);
  RunParams rp;
  rp.integrator = Integrator::langevin;
  rp.kT = wp.kT();
  rp.dt = 0.02;
  rp.skin = 1.0;
  rp.gamma = 0.88;   // 1 ps damping of translation
  rp.gamma_r = 0.06;
  {
    Simulation melt(cpu(), sys, rp);
    melt.run(500);
    sys.particles = melt.particles();
  }
  double worst[2] = {0, 0}, k_rot = 0;
  for (int k = 0; k < 2; ++k) {
    RunParams nve = rp;
    nve.integrator = Integrator::nve;
    nve.dt = k == 0 ? 0.04 : 0.02;  // 2 fs and 1 fs
    Simulation sim(cpu(), sys, nve);
    const double e0 = sim.thermo().total_energy();
    sim.run(k == 0 ? 100 : 200, 2, [&](const ThermoSample& t) {
      worst[k] = std::max(worst[k], std::abs(t.total_energy() - e0));
      k_rot = t.rotational_kinetic_energy;
    });
  }
  EXPECT_GT(k_rot, 0.5 * 343 * 1.5 * wp.kT());  // rotation holds ~3/2 kT per molecule
  const double ratio = worst[0] / worst[1];
  EXPECT_GT(ratio, 2.8) << worst[0] << " " << worst[1];
  EXPECT_LT(ratio, 5.5) << worst[0] << " " << worst[1];
}

}  // namespace

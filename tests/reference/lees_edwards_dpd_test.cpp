// Lees-Edwards shear of a DPD fluid (meso/physics/lees_edwards.hpp) through
// the CPU reference: the forces of a sheared step against a brute-force sum
// over every pair and every image (fresh random inputs), a particle through
// a z face carried by the images' offset and speed, and the refusals.
#include <gtest/gtest.h>

#include <cmath>
#include <memory>
#include <random>

#include "meso/core/dpd_slit.hpp"
#include "meso/core/error.hpp"
#include "meso/physics/dpd_force.hpp"
#include "meso/physics/pair_noise.hpp"
#include "meso/reference/cpu_backend.hpp"
#include "meso/run/simulation.hpp"

namespace {

using namespace meso;

std::unique_ptr<Backend> cpu() { return std::make_unique<reference::CpuBackend<double>>(Variant{}); }

// A dpd-fluid box of 6 x 5 x 7 (N = 630), its particles placed afresh by
// `seed`, with velocities of a shear flow plus noise.
System sheared_fluid(double shear_rate, uint64_t seed) {
  DpdFluidParams f;
  f.lx = 6.0;
  f.ly = 5.0;
  f.lz = 7.0;
  f.seed = seed;
  System sys = make_dpd_fluid(f);
  std::mt19937_64 rng(seed);
  std::uniform_real_distribution<double> u(-0.5, 0.5);
  for (std::size_t i = 0; i < sys.particles.n_local; ++i) {
    sys.particles.position[i] = {6.0 * u(rng), 5.0 * u(rng), 7.0 * u(rng)};
    const double z = sys.particles.position[i].z;
    sys.particles.velocity[i] = {shear_rate * z + u(rng), u(rng), u(rng)};
  }
  sys.shear_rate = shear_rate;
  return sys;
}

RunParams steps_of(double dt) {
  RunParams rp;
  rp.dt = dt;
  rp.skin = 0.3;
  rp.seed = 11;
  return rp;
}

TEST(LeesEdwardsDpd, ForcesMatchABruteForceSumOverTheShearedImages) {
  for (uint64_t seed : {1u, 2u, 3u}) {
    const double gdot = 1.3, dt = 0.04;
    System sys = sheared_fluid(gdot, seed);
    const RunParams rp = steps_of(dt);
    Simulation sim(cpu(), sys, rp);
    const uint64_t steps = 2 + seed;  // offsets gdot L_z t = 0.73, 0.91, 1.09
    sim.run(steps);
    const ParticleData<double> p = sim.particles();
    const Vec3d L = sys.box.lengths();
    const double t = double(steps) * dt, offset = gdot * L.z * t, jump = gdot * L.z;
    ASSERT_LT(offset, 0.5 * L.x);
    const physics::DpdPairParams pp = sys.pair_table<physics::DpdPairParams>()(0, 0);
    const double inv_sqrt_dt = 1.0 / std::sqrt(dt);
    int across = 0;
    double worst = 0.0;
    for (std::size_t i = 0; i < p.n_local; ++i) {
      // The velocities the step's forces read: v(t + dt/2) = v(t + dt) - dt/2 f.
      const Vec3d vi = p.velocity[i] - (0.5 * dt) * p.force[i];
      Vec3d f{0.0, 0.0, 0.0};
      for (std::size_t j = 0; j < p.n_local; ++j) {
        if (j == i) continue;
        const Vec3d vj = p.velocity[j] - (0.5 * dt) * p.force[j];
        // Every image of j: n (offset, 0, L_z) + (a L_x, b L_y, 0).
        for (int n = -1; n <= 1; ++n)
          for (int a = -1; a <= 1; ++a)
            for (int b = -1; b <= 1; ++b) {
              const Vec3d e =
                  p.position[i] - p.position[j] - Vec3d{n * offset + a * L.x, b * L.y, n * L.z};
              const double rsq = dot(e, e);
              if (rsq >= 1.0) continue;
              across += n != 0;
              Vec3d dv = vi - vj;
              dv.x -= n * jump;
              const double xi = physics::pair_gaussian_philox(p.tag[i], p.tag[j], steps, rp.seed);
              f += physics::dpd_pair_force(rsq, dot(e, dv), xi, inv_sqrt_dt, pp).f_over_r * e;
            }
      }
      const Vec3d d = f - p.force[i];
      worst = std::max(worst, std::sqrt(dot(d, d)));
    }
    EXPECT_LT(worst, 1e-9) << "seed " << seed;
    EXPECT_GT(across, 200) << "too few pairs across the sheared faces to test them";
  }
}

TEST(LeesEdwardsDpd, ParticleThroughTheTopComesBackShifted) {
  System sys = sheared_fluid(0.5, 7);
  // No pair forces: free flights.
  physics::DpdPairParams free = sys.pair_table<physics::DpdPairParams>()(0, 0);
  free.a = 0.0;
  free.gamma = 0.0;
  free.sigma = 0.0;
  sys.pair_table<physics::DpdPairParams>().set(0, 0, free);
  sys.particles.position[0] = {2.9, 0.0, 3.49};
  sys.particles.velocity[0] = {0.3, 0.0, 1.0};
  const double dt = 0.02;
  Simulation sim(cpu(), sys, steps_of(dt));
  sim.run(1);
  const ParticleData<double> p = sim.particles();
  // At t = dt the upper image is offset by 0.5 * 7 * 0.02 = 0.07 and moves at 3.5.
  for (std::size_t i = 0; i < p.n_local; ++i) {
    if (p.tag[i] != 0) continue;
    EXPECT_NEAR(p.position[i].z, 3.49 + 0.02 - 7.0, 1e-12);
    EXPECT_NEAR(p.position[i].x, 2.9 + 0.006 - 0.07, 1e-12);
    EXPECT_NEAR(p.velocity[i].x, 0.3 - 3.5, 1e-12);
    EXPECT_NEAR(p.velocity[i].z, 1.0, 1e-15);
    EXPECT_EQ(p.image[i].z, 1);
  }
}

TEST(LeesEdwardsDpd, ShearFlowKeepsItsProfile) {
  // The flow u_x = gdot z the images impose, kept by the dissipation (it
  // starts on it): after 2 time units the mean velocity of the top and bottom thirds differ by
  // gdot (2 L_z / 3) within the noise, and the momentum is conserved.
  const double gdot = 0.4;
  System sys = sheared_fluid(gdot, 5);
  Simulation sim(cpu(), sys, steps_of(0.02));
  sim.run(100);
  const ParticleData<double> p = sim.particles();
  double top = 0.0, bottom = 0.0, px = 0.0;
  int nt = 0, nb = 0;
  for (std::size_t i = 0; i < p.n_local; ++i) {
    px += p.velocity[i].x;
    if (p.position[i].z > 7.0 / 6.0) top += p.velocity[i].x, ++nt;
    if (p.position[i].z < -7.0 / 6.0) bottom += p.velocity[i].x, ++nb;
  }
  // The thirds' centres are 2 L_z / 3 = 4.67 apart: 1.87 of velocity; the
  // noise of a mean over ~210 particles at kT = 1 is 0.07 each.
  EXPECT_NEAR(top / nt - bottom / nb, gdot * 14.0 / 3.0, 0.4);
  // Momentum is not conserved exactly (the images exchange it), but the
  // flow is symmetric about z = 0: its mean is zero within the noise.
  EXPECT_NEAR(px / double(p.n_local), 0.0, 0.15);
}

TEST(LeesEdwardsDpd, Refusals) {
  auto refused = [](const System& sys, const RunParams& rp, const char* what) {
    try {
      Simulation sim(cpu(), sys, rp);
      ADD_FAILURE() << "accepted: " << what;
    } catch (const InputError& e) {
      EXPECT_NE(std::string(e.what()).find("shear_rate"), std::string::npos) << e.what();
    }
  };
  {
    System sys = sheared_fluid(0.1, 1);
    sys.shear_rate = std::nan("");
    refused(sys, steps_of(0.01), "NaN");
  }
  {
    DpdSlitParams sp;
    sp.fluid.lx = sp.fluid.ly = 4.0;
    System sys = make_dpd_slit(sp);
    sys.shear_rate = 0.1;
    refused(sys, steps_of(0.01), "walls");
  }
  {
    System sys = sheared_fluid(0.1, 1);
    RunParams rp = steps_of(0.01);
    rp.integrator = Integrator::langevin;
    refused(sys, rp, "langevin");
  }
  {
    System sys = sheared_fluid(0.1, 1);
    physics::LjPairParams lj;
    lj.rcut = 1.5;
    sys.set_pair_style<physics::LjPairParams>(1, lj);
    refused(sys, steps_of(0.01), "lj");
  }
}

}  // namespace

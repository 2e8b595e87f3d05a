// The Lennard-Jones pair style (meso/physics/lj_force.hpp): the shared
// evaluator against values by hand, -dV/dr, and the continuity that each
// mode promises (HOOMD-blue's pair.lj conventions; styles_test, label unit);
// with MESO_TEST_GPU (styles_gpu_test, label gpu) the CUDA forces and the
// thermostatted integrators against the CPU reference on fresh random
// configurations (a lattice liquid with every particle displaced at random,
// then relaxed on the reference), shift and XPLOR, every precision;
// Nose-Hoover state export/import; skips (not passes) without a device.
#include <gtest/gtest.h>

#include <cmath>

#include "meso/physics/lj_force.hpp"

#ifndef MESO_TEST_GPU

namespace {

using meso::physics::lj_pair_force;
using meso::physics::LjMode;
using meso::physics::LjPairParams;

// Closed forms written out independently of the evaluator.
double v_lj(double r, double eps, double sigma, double alpha) {
  return 4.0 * eps * (std::pow(sigma / r, 12) - alpha * std::pow(sigma / r, 6));
}
double f_lj(double r, double eps, double sigma, double alpha) {  // -dV/dr
  return 4.0 * eps * (12.0 * std::pow(sigma, 12) / std::pow(r, 13) -
                      6.0 * alpha * std::pow(sigma, 6) / std::pow(r, 7));
}
double xplor_s(double r, double ron, double rc) {
  if (r < ron) return 1.0;
  const double a = rc * rc - r * r;
  return a * a * (rc * rc + 2 * r * r - 3 * ron * ron) / std::pow(rc * rc - ron * ron, 3);
}

TEST(LjPairForce, ByHandAtSigmaAndAtTheMinimum) {
  const LjPairParams p{1.5, 1.1, 1.0, 3.0, 0.0, LjMode::none};
  // r = sigma: V = 0, F = 24 eps / sigma (12 - 6 = 6 times 4 eps / sigma).
  auto f = lj_pair_force(1.21, p);
  EXPECT_NEAR(f.energy, 0.0, 1e-14);
  EXPECT_NEAR(f.f_over_r * 1.1, 24.0 * 1.5 / 1.1, 1e-12);
  EXPECT_NEAR(f.virial, f.f_over_r * 1.21, 1e-13);
  // r = 2^(1/6) sigma: V = -eps, F = 0.
  const double rmin = std::pow(2.0, 1.0 / 6.0) * 1.1;
  f = lj_pair_force(rmin * rmin, p);
  EXPECT_NEAR(f.energy, -1.5, 1e-13);
  EXPECT_NEAR(f.f_over_r, 0.0, 1e-12);
}

TEST(LjPairForce, AlphaScalesOnlyTheAttraction) {
  // alpha = 0 (purely repulsive r^-12): V = 4 eps (sigma/r)^12 at r = 1.2.
  const LjPairParams p{2.0, 1.0, 0.0, 2.5, 0.0, LjMode::none};
  const auto f = lj_pair_force(1.44, p);
  EXPECT_NEAR(f.energy, 8.0 * std::pow(1.2, -12), 1e-14);
  EXPECT_NEAR(f.f_over_r * 1.2, 8.0 * 12.0 * std::pow(1.2, -13), 1e-13);
  const LjPairParams half{2.0, 1.0, 0.5, 2.5, 0.0, LjMode::none};
  EXPECT_NEAR(lj_pair_force(1.44, half).energy, v_lj(1.2, 2.0, 1.0, 0.5), 1e-14);
}

TEST(LjPairForce, ForceIsMinusEnergyDerivativeInEveryMode) {
  for (LjMode mode : {LjMode::none, LjMode::shift, LjMode::xplor}) {
    const LjPairParams p{1.0, 1.0, 1.0, 2.5, 1.5, mode};
    for (double r : {0.95, 1.1, 1.3, 1.6, 2.0, 2.3, 2.45}) {
      const double h = 1e-6;
      const double dvdr = (lj_pair_force((r + h) * (r + h), p).energy -
                           lj_pair_force((r - h) * (r - h), p).energy) / (2 * h);
      const auto f = lj_pair_force(r * r, p);
      EXPECT_NEAR(f.f_over_r * r, -dvdr, 1e-7 * (1.0 + std::fabs(dvdr)))
          << "mode " << static_cast<int>(mode) << " r " << r;
    }
  }
}

TEST(LjPairForce, ShiftMakesEnergyContinuousAtCutoff) {
  const LjPairParams none{1.0, 1.0, 1.0, 2.5, 0.0, LjMode::none};
  const LjPairParams shift{1.0, 1.0, 1.0, 2.5, 0.0, LjMode::shift};
  const double vc = v_lj(2.5, 1.0, 1.0, 1.0);  // -0.016316891...
  EXPECT_NEAR(vc, -0.0163168911360, 1e-12);
  for (double r : {1.0, 1.7, 2.2}) {
    EXPECT_NEAR(lj_pair_force(r * r, shift).energy, v_lj(r, 1, 1, 1) - vc, 1e-14);
    // The shift leaves the force alone.
    EXPECT_EQ(lj_pair_force(r * r, shift).f_over_r, lj_pair_force(r * r, none).f_over_r);
  }
  const double below = 2.5 * (1.0 - 1e-10);
  EXPECT_NEAR(lj_pair_force(below * below, shift).energy, 0.0, 1e-11);
  EXPECT_NEAR(lj_pair_force(below * below, none).energy, vc, 1e-11);  // the jump shift removes
  // The force still jumps at r_cut: shift does not smooth it.
  EXPECT_NEAR(lj_pair_force(below * below, shift).f_over_r * 2.5, f_lj(2.5, 1, 1, 1), 1e-9);
  EXPECT_LT(lj_pair_force(below * below, shift).f_over_r, -1e-3);
  // At and beyond the cutoff: exactly nothing.
  for (double r : {2.5, 2.6}) {
    const auto f = lj_pair_force(r * r, shift);
    EXPECT_EQ(f.energy, 0.0);
    EXPECT_EQ(f.f_over_r, 0.0);
    EXPECT_EQ(f.virial, 0.0);
  }
}

TEST(LjPairForce, XplorByHandAndContinuousAtRonAndCutoff) {
  const double ron = 1.5, rc = 2.5;
  const LjPairParams x{1.0, 1.0, 1.0, rc, ron, LjMode::xplor};
  const LjPairParams none{1.0, 1.0, 1.0, rc, 0.0, LjMode::none};
  // Below r_on: S = 1, bitwise the plain potential.
  for (double r : {0.9, 1.2, 1.49}) {
    EXPECT_EQ(lj_pair_force(r * r, x).energy, lj_pair_force(r * r, none).energy);
    EXPECT_EQ(lj_pair_force(r * r, x).f_over_r, lj_pair_force(r * r, none).f_over_r);
  }
  // In the switching region: V S and S F - V dS/dr, by hand.
  const double r = 2.0;
  const double s = xplor_s(r, ron, rc);
  EXPECT_NEAR(s, 2.25 * 2.25 * (6.25 + 8.0 - 6.75) / std::pow(4.0, 3), 1e-15);  // 0.59326...
  const double ds_dr = 12.0 * r * (rc * rc - r * r) * (ron * ron - r * r) / std::pow(rc * rc - ron * ron, 3);
  const auto f = lj_pair_force(r * r, x);
  EXPECT_NEAR(f.energy, v_lj(r, 1, 1, 1) * s, 1e-15);
  EXPECT_NEAR(f.f_over_r * r, f_lj(r, 1, 1, 1) * s - v_lj(r, 1, 1, 1) * ds_dr, 1e-14);
  // Continuity at r_on: energy and force from both sides agree to O(delta).
  const double d = 1e-9;
  const auto lo = lj_pair_force((ron - d) * (ron - d), x);
  const auto hi = lj_pair_force((ron + d) * (ron + d), x);
  EXPECT_NEAR(lo.energy, hi.energy, 1e-8);
  EXPECT_NEAR(lo.f_over_r, hi.f_over_r, 1e-7);
  // Continuity at r_cut: energy and force both go to zero.
  const double below = rc - d;
  const auto c = lj_pair_force(below * below, x);
  EXPECT_NEAR(c.energy, 0.0, 1e-12);
  EXPECT_NEAR(c.f_over_r, 0.0, 1e-9);
}

TEST(LjPairForce, XplorWithoutSmoothingRegionShiftsLikeHoomd) {
  // r_on >= r_cut: HOOMD-blue shifts the energy instead of smoothing.
  const LjPairParams x{1.0, 1.0, 1.0, 2.5, 2.5, LjMode::xplor};
  const LjPairParams shift{1.0, 1.0, 1.0, 2.5, 0.0, LjMode::shift};
  for (double r : {1.0, 2.0, 2.49}) {
    EXPECT_EQ(lj_pair_force(r * r, x).energy, lj_pair_force(r * r, shift).energy);
    EXPECT_EQ(lj_pair_force(r * r, x).f_over_r, lj_pair_force(r * r, shift).f_over_r);
  }
}

TEST(LjPairForce, SinglePrecisionAgreesWithDouble) {
  for (LjMode mode : {LjMode::none, LjMode::shift, LjMode::xplor}) {
    const LjPairParams p{1.0, 1.0, 1.0, 2.5, 1.5, mode};
    for (double r : {0.9, 1.12, 1.7, 2.2}) {
      const auto d = lj_pair_force(r * r, p);
      const auto f = lj_pair_force<float>(static_cast<float>(r * r), p);
      const double scale = std::fabs(d.f_over_r) + 1e-3;
      EXPECT_NEAR(f.f_over_r, d.f_over_r, 2e-6 * scale + 1e-6) << r;
      EXPECT_NEAR(f.energy, d.energy, 2e-6 * (std::fabs(d.energy) + 1e-2)) << r;
    }
  }
}

}  // namespace

#else  // MESO_TEST_GPU

#include <random>
#include <string>
#include <vector>

#include "kernels/gpu_test_support.hpp"
#include "support/rel_l2.hpp"
#include "support/roundoff_growth.hpp"
#include "meso/reference/cpu_backend.hpp"
#include "meso/run/simulation.hpp"
#include "meso/testing/neighbor_list_probe.hpp"

namespace {

using namespace meso;

using test::fresh_seed;
using test::make_registry;
using test::probe;

// An LJ liquid (rho = 0.4, r_cut = 2.5) after 200 Langevin steps on the
// reference from a randomly displaced lattice: fresh, liquid-like, no
// overlapping pairs.
System lj_liquid(uint64_t seed, physics::LjMode mode, uint64_t n) {
  LjLiquidParams lp;
  lp.n = n;
  lp.mode = mode;
  lp.ron = mode == physics::LjMode::xplor ? 1.5 : 0.0;
  lp.seed = seed;
  System sys = make_lj_liquid(lp);
  std::mt19937_64 g(seed);
  std::uniform_real_distribution<double> u(-0.2, 0.2);
  for (auto& r : sys.particles.position) r += Vec3d{u(g), u(g), u(g)};
  RunParams rp;
  rp.integrator = Integrator::langevin;
  rp.seed = uint32_t(seed);
  Simulation s(std::make_unique<reference::CpuBackend<double>>(Variant{}), sys, rp);
  s.run(200);
  sys.particles = s.particles();
  return sys;
}

double tolerance(const std::string& precision) {
  // double: round-off of a 65-term sum, 1e-12 as for DPD. mixed and single
  // both evaluate each LJ pair in fp32 (isotropic_pair_force.cuh, IsotropicPairReal; mixed only
  // sums in fp64), so both get the fp32 bound of the DPD tests, 1e-4: the
  // measured error, ~1e-5, is fp32 rounding of positions and of r^-6 and
  // r^-12 amplified by the steep repulsion.
  if (precision == "double") return 1e-12;
  return 1e-4;
}

TEST(CudaLj, ForcesEnergyVirialMatchReference) {
  REQUIRE_GPU();
  const BackendRegistry reg = make_registry();
  const uint64_t seed = fresh_seed();
  SCOPED_TRACE("seed " + std::to_string(seed));
  for (physics::LjMode mode : {physics::LjMode::shift, physics::LjMode::xplor}) {
    const System sys = lj_liquid(seed, mode, 20000);
    RunParams rp;
    Simulation cpu(reg.create("cpu", Variant{}), sys, rp);
    const ParticleData<double> want = cpu.particles();
    const ThermoSample tc = cpu.thermo();
    // Every threads-per-particle count on the atomic list (tpp lanes build
    // it and then share each particle in the force kernel: the group's
    // butterfly sum, the partials of n x tpp threads, the row-major layout),
    // and the ballot list in either layout; cluster-pair tiles; the cells'
  // half stencil (no list) with 1, 4 and 32 lanes a particle.
    for (const char* prec : {"double", "mixed", "single"})
      for (const char* traversal : {"nlist=atomic,tpp=1", "nlist=atomic,tpp=2", "nlist=atomic,tpp=4",
                                    "nlist=atomic,tpp=8", "nlist=atomic,tpp=16", "nlist=atomic,tpp=32",
                                    "nlist=ballot,tpp=1", "nlist=ballot,tpp=4",
                                    "nlist=tiled,tpp=1", "nlist=tiled,tpp=4",
                                    "nlist=atomic,tpp=8,reorder=morton2,sort=100",
                                    "nlist=cluster,tpp=1,reorder=morton2,sort=0",
                                    "nlist=cluster,tpp=1,reorder=hilbert,sort=0",
                                    "nlist=cells,tpp=1", "nlist=cells,tpp=4,reorder=morton2,sort=100",
                                    "nlist=cells,tpp=32"}) {
        Variant v = Variant::parse(std::string("precision=") + prec + "," + traversal);
        Simulation gpu(reg.create("cuda", v), sys, rp);
        const ParticleData<double> got = gpu.particles();
        const double err = test::rel_l2(got.force, want.force);
        std::printf("LJ %s %s %s: force rel L2 = %.3e\n", to_string(mode), prec, traversal, err);
        EXPECT_LT(err, tolerance(prec));
        const ThermoSample tg = gpu.thermo();
        EXPECT_NEAR(tg.potential_energy, tc.potential_energy,
                    tolerance(prec) * std::fabs(tc.potential_energy));
        EXPECT_NEAR(tg.pressure, tc.pressure, 10 * tolerance(prec) * std::fabs(tc.pressure));
      }
  }
}

// The atomic builder's list does not depend on how many lanes build it:
// every tpp gives the rows of tpp = 1 entry for entry, in the same order
// (stencil order, then ascending member), and so does the tiled builder in
// either layout; as sets they are the reference's (double: distances round
// as on the CPU).
TEST(CudaLj, AtomicAndTiledListsAreTheSameForEveryTpp) {
  REQUIRE_GPU();
  const BackendRegistry reg = make_registry();
  const uint64_t seed = fresh_seed();
  SCOPED_TRACE("seed " + std::to_string(seed));
  const System sys = lj_liquid(seed, physics::LjMode::shift, 20000);
  RunParams rp;
  Simulation cpu(reg.create("cpu", Variant{}), sys, rp);
  const auto want = probe(cpu).neighbors_by_tag();
  for (const char* prec : {"double", "mixed"}) {
    std::vector<std::vector<uint32_t>> base;
    for (const char* list : {"nlist=atomic,tpp=1", "nlist=atomic,tpp=2", "nlist=atomic,tpp=4",
                             "nlist=atomic,tpp=8", "nlist=atomic,tpp=16", "nlist=atomic,tpp=32",
                             "nlist=tiled,tpp=1", "nlist=tiled,tpp=8"}) {
      const std::string v = std::string(list) + ",precision=" + prec;
      SCOPED_TRACE(v);
      Simulation gpu(reg.create("cuda", Variant::parse(v)), sys, rp);
      const auto* info = dynamic_cast<const meso::testing::NeighborListProbe*>(&gpu.plan().nlist());
      ASSERT_NE(info, nullptr);
      const auto rows = info->rows();
      if (base.empty()) base = rows;
      std::size_t differ = 0, entries = 0;
      for (std::size_t i = 0; i < rows.size(); ++i) {
        differ += rows[i] != base[i];
        entries += rows[i].size();
      }
      EXPECT_EQ(differ, 0u);
      // r_list = 2.5 + 0.3: about 4/3 pi 2.8^3 x 0.4 = 37 neighbors each.
      EXPECT_GT(entries, 30u * rows.size());
      if (std::string(prec) == "double") {
        const auto got = probe(gpu).neighbors_by_tag();
        std::size_t mismatched = 0;
        for (std::size_t t = 0; t < want.size(); ++t) mismatched += got[t] != want[t];
        EXPECT_EQ(mismatched, 0u);
      }
    }
  }
}

// Each integrator for 100 steps (with rebuilds) in double against the
// reference. Nose-Hoover's and Berendsen's kinetic energies are summed in
// another order on the GPU, so the trajectories separate by round-off amplified by the dynamics;
// the bound is 10x the separation of two reference runs whose starts differ
// by 1e-13 (as for DPD).
TEST(CudaLj, IntegratorsTrackReference) {
  REQUIRE_GPU();
  const BackendRegistry reg = make_registry();
  const uint64_t seed = fresh_seed();
  SCOPED_TRACE("seed " + std::to_string(seed));
  const System sys = lj_liquid(seed, physics::LjMode::shift, 5000);
  for (Integrator integ : {Integrator::nve, Integrator::nvt, Integrator::langevin, Integrator::berendsen}) {
    RunParams rp;
    rp.integrator = integ;
    rp.kT = 1.2;
    rp.seed = uint32_t(seed);
    Simulation ref(reg.create("cpu", Variant{}), sys, rp);
    ref.run(100);
    const System pert = test::perturbed_start(sys, seed + 1);
    Simulation ref2(reg.create("cpu", Variant{}), pert, rp);
    ref2.run(100);
    // One thread per particle, four, and (NVE only: fusion needs velocity
    // Verlet) eight with the second half-step fused into the force kernel.
    std::vector<std::string> variants = {"tpp=1", "tpp=4", "nlist=atomic,tpp=8,reorder=morton2,sort=20",
                                         "nlist=tiled,tpp=4,reorder=morton2,sort=20"};
    if (integ == Integrator::nve) variants.push_back("nlist=atomic,tpp=8,fuse=on");
    variants.push_back("nlist=cells,tpp=4");
    const auto a = ref.particles(), b = ref2.particles();
    const double growth = test::max_separation(sys.box, b, a);
    for (const std::string& variant : variants) {
      Simulation gpu(reg.create("cuda", Variant::parse(variant)), sys, rp);
      gpu.run(100);
      const double err = test::max_separation(sys.box, gpu.particles(), a);
      std::printf("LJ %s %s 100 steps: max |dx| GPU-CPU %.3e, perturbed-reference growth %.3e\n",
                  to_string(integ), variant.c_str(), err, growth);
      EXPECT_LT(err, 10.0 * growth + 1e-14) << to_string(integ) << " " << variant;
      const ThermoSample tg = gpu.thermo(), tr = ref.thermo();
      EXPECT_NEAR(tg.conserved_energy(), tr.conserved_energy(), 1e-9 * std::fabs(tr.conserved_energy()))
          << variant;
      if (integ == Integrator::nvt) {
        const IntegratorState sg = gpu.integrator_state(), sr = ref.integrator_state();
        EXPECT_NEAR(sg.xi, sr.xi, 1e-9) << variant;
        EXPECT_NEAR(sg.eta, sr.eta, 1e-9) << variant;
      }
    }
  }
}

// The Nose-Hoover variables live on the device (StepControl): export and
// import round-trip exactly, and the thermostat energy in thermo() follows
// them (H_NH = g kT (tau^2 xi^2 / 2 + eta), g = 3N - 3).
TEST(CudaLj, NoseHooverStateRoundTrip) {
  REQUIRE_GPU();
  const BackendRegistry reg = make_registry();
  const uint64_t seed = fresh_seed();
  const System sys = lj_liquid(seed, physics::LjMode::xplor, 4000);
  RunParams rp;
  rp.integrator = Integrator::nvt;
  rp.kT = 1.5;  // away from the initial temperature, so xi moves
  Simulation a(reg.create("cuda", Variant{}), sys, rp);
  a.run(100);
  const IntegratorState mid = a.integrator_state();
  EXPECT_NE(mid.xi, 0.0);
  Simulation c(reg.create("cuda", Variant{}), sys, rp);
  c.set_integrator_state(mid);
  const IntegratorState back = c.integrator_state();
  EXPECT_EQ(back.xi, mid.xi);
  EXPECT_EQ(back.eta, mid.eta);
  const double g = 3.0 * 4000 - 3.0;
  EXPECT_NEAR(c.thermo().thermostat_energy,
              g * rp.kT * (0.5 * rp.tau * rp.tau * mid.xi * mid.xi + mid.eta), 1e-9);
}

}  // namespace

#endif  // MESO_TEST_GPU

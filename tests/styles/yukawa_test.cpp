// The Yukawa pair style (meso/physics/yukawa.hpp), end to end: the evaluator
// against its closed form and its own energy's derivative, the checks, an
// NVE run of the CPU reference (label unit, in styles_test), and the CUDA
// force against the reference on fresh configurations in every precision
// (label gpu, in styles_gpu_test, built with MESO_TEST_GPU).
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <random>
#include <string>

#include "meso/core/error.hpp"
#include "meso/physics/yukawa.hpp"
#include "meso/reference/cpu_backend.hpp"
#include "meso/run/simulation.hpp"
#include "meso/core/system.hpp"
#ifdef MESO_TEST_GPU
#include "kernels/gpu_test_support.hpp"
#include "support/rel_l2.hpp"
#include "support/roundoff_growth.hpp"
#endif

namespace {

using namespace meso;
using physics::YukawaPair;
using physics::YukawaPairParams;

physics::IsotropicPairForce<double> yukawa(double r, const YukawaPairParams& p) {
  return YukawaPair::force<double>(r * r, YukawaPair::coeffs<double>(p));
}

// A Yukawa fluid of n particles: a lattice at rho = 0.4 (lj-liquid's start),
// every particle displaced by up to 0.2 at random, Maxwell-Boltzmann
// velocities at kT = 1; eps = 20, kappa = 1.5, r_cut = 3 (about 45
// neighbours within the cutoff).
System yukawa_fluid(uint64_t n, uint64_t seed, bool shift = true) {
  LjLiquidParams lp;
  lp.n = n;
  lp.seed = seed;
  System sys = make_lj_liquid(lp);
  YukawaPairParams p;
  p.epsilon = 20.0;
  p.kappa = 1.5;
  p.rcut = 3.0;
  p.shift = shift;
  sys.set_pair_style<YukawaPairParams>(1, p);
  std::mt19937_64 g(seed);
  std::uniform_real_distribution<double> u(-0.2, 0.2);
  auto& q = sys.particles;
  for (std::size_t i = 0; i < q.n_local; ++i) {
    q.position[i] += Vec3d{u(g), u(g), u(g)};
    sys.box.wrap(q.position[i], q.image[i]);
  }
  return sys;
}

#ifndef MESO_TEST_GPU

TEST(YukawaPair, ClosedFormAtOneScreeningLength) {
  // eps = 2, kappa = 1, r = 1, unshifted: V = 2/e, F = -dV/dr = 2 (1 + 1)/e.
  YukawaPairParams p{2.0, 1.0, 3.0, false};
  const auto f = yukawa(1.0, p);
  EXPECT_NEAR(f.energy, 2.0 * std::exp(-1.0), 1e-15);
  EXPECT_NEAR(f.f_over_r, 4.0 * std::exp(-1.0), 1e-15);  // F / r at r = 1
  EXPECT_NEAR(f.virial, f.f_over_r, 1e-15);               // f_over_r r^2
  // kappa = 0 is the bare Coulomb pair: V = eps / r.
  p.kappa = 0.0;
  EXPECT_NEAR(yukawa(2.0, p).energy, 1.0, 1e-15);
  EXPECT_NEAR(yukawa(2.0, p).f_over_r * 2.0, 0.5, 1e-15);
}

TEST(YukawaPair, ForceIsMinusTheEnergysDerivative) {
  for (const bool shift : {false, true})
    for (const double kappa : {0.0, 0.5, 2.0})
      for (const double r : {0.3, 0.9, 1.7, 2.6}) {
        const YukawaPairParams p{1.5, kappa, 3.0, shift};
        const double h = 1e-6;
        const double dvdr = (yukawa(r + h, p).energy - yukawa(r - h, p).energy) / (2 * h);
        const double force = yukawa(r, p).f_over_r * r;
        EXPECT_NEAR(force, -dvdr, 1e-7 * std::max(1.0, std::fabs(force))) << "kappa " << kappa << " r " << r;
      }
}

TEST(YukawaPair, ShiftZeroesTheEnergyAtTheCutoffAndNothingActsBeyond) {
  const YukawaPairParams p{3.0, 0.7, 2.5, true};
  EXPECT_NEAR(yukawa(2.5 - 1e-9, p).energy, 0.0, 1e-8);
  const auto at = yukawa(2.5, p), beyond = yukawa(2.6, p);
  EXPECT_EQ(at.f_over_r, 0.0);
  EXPECT_EQ(at.energy, 0.0);
  EXPECT_EQ(beyond.f_over_r, 0.0);
  EXPECT_EQ(beyond.virial, 0.0);
  // Unshifted, the energy inside is the bare one.
  EXPECT_NEAR(yukawa(1.0, {3.0, 0.7, 2.5, false}).energy - yukawa(1.0, p).energy,
              3.0 * std::exp(-0.7 * 2.5) / 2.5, 1e-15);
}

TEST(YukawaPair, TheStyleNamesABadParameter) {
  System sys = yukawa_fluid(1000, 1);
  EXPECT_STREQ(sys.pair_style(), "yukawa");
  EXPECT_DOUBLE_EQ(sys.max_rcut(), 3.0);
  EXPECT_NO_THROW(sys.validate(0.3));
  auto expect_bad = [&](YukawaPairParams p, const char* what) {
    System s = sys;
    s.pair_table<YukawaPairParams>().set(0, 0, p);
    try {
      s.validate(0.3);
      ADD_FAILURE() << "accepted " << what;
    } catch (const InputError& e) {
      EXPECT_NE(std::string(e.what()).find(what), std::string::npos) << e.what();
    }
  };
  expect_bad({1.0, -1.0, 3.0, true}, "Yukawa kappa = -1");
  expect_bad({1.0, 1.0, 0.0, true}, "Yukawa r_cut = 0");
  expect_bad({NAN, 1.0, 3.0, true}, "Yukawa epsilon");
  // A 1x1 table for a system of two types.
  System two_types = sys;
  two_types.type_names = {"A", "B"};
  two_types.type_mass = {1.0, 1.0};
  EXPECT_THROW(two_types.validate(0.3), InputError);
}

// The reference end to end: velocity Verlet conserves the energy of a
// Yukawa fluid (the shifted force jumps at r_cut by F(r_cut) = 0.02, so the
// energy random-walks by a little: measured -5.7e-7 relative over 1000
// steps, held to 1e-5) and the total momentum to round-off.
TEST(YukawaReference, NveConservesEnergyAndMomentum) {
  const System sys = yukawa_fluid(1000, 7);
  RunParams rp;
  rp.integrator = Integrator::nve;
  rp.dt = 0.002;
  Simulation sim(std::make_unique<reference::CpuBackend<double>>(Variant{}), sys, rp);
  const ThermoSample t0 = sim.thermo();
  EXPECT_GT(t0.potential_energy, 0.0);  // repulsive
  sim.run(1000);
  const ThermoSample t1 = sim.thermo();
  const double e0 = t0.conserved_energy(), e1 = t1.conserved_energy();
  std::printf("Yukawa NVE 1000 steps: E %.9g -> %.9g (relative %.2e)\n", e0, e1, (e1 - e0) / e0);
  EXPECT_LT(std::fabs(e1 - e0), 1e-5 * std::fabs(e0)) << e0 << " -> " << e1;
  Vec3d p{0, 0, 0};
  for (const Vec3d& v : sim.particles().velocity) p += v;
  EXPECT_LT(std::sqrt(dot(p, p)), 1e-10);
}

#else  // MESO_TEST_GPU

// Moves particles off the cutoff's shell: no pair of sys within delta of
// r_cut. The Yukawa force jumps there (by F(r_cut), 0.14 here; the shift
// moves the energy only), and fp32 positions (rounded by up to 2e-6 at
// |x| = 18) put a pair within about 2e-6 of r_cut on either side, so the
// fp32 and fp64 forces differed by that jump, not by round-off: seed
// 4404290402906617 had 19 pairs within 1e-5 of r_cut and a force rel L2 of
// 2.0e-4 in mixed. Each such pair's second particle steps 2 delta along the
// separation, until none is left (all pairs, O(N^2): about a second).
void keep_pairs_off_the_cutoff(System& sys, double r_cut, double delta) {
  auto& q = sys.particles;
  for (bool moved = true; moved;) {
    moved = false;
    for (std::size_t i = 0; i < q.n_local; ++i)
      for (std::size_t j = i + 1; j < q.n_local; ++j) {
        const Vec3d d = sys.box.min_image(q.position[j] - q.position[i]);
        const double r = std::sqrt(dot(d, d));
        if (std::fabs(r - r_cut) >= delta) continue;
        q.position[j] += (2.0 * delta / r) * d;
        sys.box.wrap(q.position[j], q.image[j]);
        moved = true;
      }
  }
}

// The CUDA force against the reference on a fresh configuration (no pair
// within 1e-5 of the cutoff: keep_pairs_off_the_cutoff), shifted and not,
// every precision and traversal: 1e-12 in double (round-off of a
// ~45-term sum; measured 7e-16 on an H200), 1e-5 in mixed and single (each
// pair in fp32: fp32 rounding of r and of exp; measured 3.5e-6).
TEST(CudaYukawa, ForcesEnergyVirialMatchReference) {
  REQUIRE_GPU();
  const BackendRegistry reg = test::make_registry();
  const uint64_t seed = test::fresh_seed();
  SCOPED_TRACE("seed " + std::to_string(seed));
  for (const bool shift : {true, false}) {
    System sys = yukawa_fluid(20000, seed, shift);
    keep_pairs_off_the_cutoff(sys, 3.0, 1e-5);
    RunParams rp;
    Simulation cpu(reg.create("cpu", Variant{}), sys, rp);
    const ParticleData<double> want = cpu.particles();
    const ThermoSample tc = cpu.thermo();
    for (const char* prec : {"double", "mixed", "single"})
      for (const char* traversal : {"nlist=ballot,tpp=1", "nlist=atomic,tpp=4", "nlist=tiled,tpp=8",
                                    "nlist=cluster,tpp=1,reorder=morton2,sort=0"}) {
        const std::string v = std::string("precision=") + prec + "," + traversal;
        SCOPED_TRACE(v);
        Simulation gpu(reg.create("cuda", Variant::parse(v)), sys, rp);
        const double tol = std::string(prec) == "double" ? 1e-12 : 1e-5;
        const double err = test::rel_l2(gpu.particles().force, want.force);
        std::printf("Yukawa shift=%d %s: force rel L2 = %.3e\n", int(shift), v.c_str(), err);
        EXPECT_LT(err, tol);
        const ThermoSample tg = gpu.thermo();
        EXPECT_NEAR(tg.potential_energy, tc.potential_energy, tol * std::fabs(tc.potential_energy));
        EXPECT_NEAR(tg.pressure, tc.pressure, 10 * tol * std::fabs(tc.pressure));
      }
  }
}

// 200 NVE steps with rebuilds in double: the GPU trajectory stays within 10
// times the separation of two reference runs whose starts differ by 1e-13.
TEST(CudaYukawa, TrajectoryTracksReference) {
  REQUIRE_GPU();
  const BackendRegistry reg = test::make_registry();
  const uint64_t seed = test::fresh_seed();
  SCOPED_TRACE("seed " + std::to_string(seed));
  const System sys = yukawa_fluid(5000, seed);
  RunParams rp;
  rp.integrator = Integrator::nve;
  rp.dt = 0.002;
  Simulation ref(reg.create("cpu", Variant{}), sys, rp);
  ref.run(200);
  const System pert = test::perturbed_start(sys, seed + 1);
  Simulation ref2(reg.create("cpu", Variant{}), pert, rp);
  ref2.run(200);
  const auto a = ref.particles(), b = ref2.particles();
  const double growth = test::max_separation(sys.box, b, a);
  Simulation gpu(reg.create("cuda", Variant::parse("precision=double")), sys, rp);
  gpu.run(200);
  const double err = test::max_separation(sys.box, gpu.particles(), a);
  std::printf("Yukawa NVE 200 steps: max |dx| GPU-CPU %.3e, perturbed-reference growth %.3e\n", err, growth);
  EXPECT_LT(err, 10.0 * growth + 1e-14);
}

#endif  // MESO_TEST_GPU

}  // namespace

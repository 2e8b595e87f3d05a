// GPU (label gpu): orientational particles on the CUDA backend against the
// CPU reference on fresh random configurations: Gay-Berne, SSD/RF and soft
// anisotropic (triblock and diblock Janus, disk, rod) forces, torques, energy and virial in every
// precision and list builder and at several threads per particle (tpp), the
// rotational integrators (nve/aniso, langevin/aniso, berendsen/aniso) over
// 100 steps with rebuilds and reordering, and the refusal of interpenetrating
// Gay-Berne cores; skips (not passes) without a device.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <random>
#include <string>
#include <vector>

#include "gpu_test_support.hpp"
#include "meso/core/error.hpp"
#include "meso/systems/gay_berne_liquid.hpp"
#include "meso/systems/janus_triblock.hpp"
#include "meso/systems/water.hpp"
#include "support/roundoff_growth.hpp"

namespace {

using namespace meso;

using test::fresh_seed;
using test::make_registry;

// A Gay-Berne liquid of n ellipsoids (GB(3, 5, 2, 1), rho = 0.3, kT = 2)
// melted from its aligned lattice by 400 Langevin steps on the reference:
// fresh, disordered orientations, no interpenetrating cores.
System gb_liquid(uint64_t seed, uint64_t n) {
  GbLiquidParams gp;
  gp.n = n;
  gp.seed = seed;
  System sys = make_gb_liquid(gp);
  RunParams rp;
  rp.integrator = Integrator::langevin;
  rp.kT = gp.kT;
  rp.dt = 0.002;
  rp.skin = 0.4;
  rp.seed = uint32_t(seed);
  Simulation s(make_registry().create("cpu", Variant{}), sys, rp);
  s.run(400);
  sys.particles = s.particles();
  return sys;
}

// n SSD/RF molecules on their lattice with uniformly random orientations
// (make_ssd_water), 0.997 g/cm^3, 298 K.
System ssd_water(uint64_t seed, uint64_t n) {
  SsdWaterParams wp;
  wp.n = n;
  wp.seed = seed;
  return make_ssd_water(wp);
}

// Soft Janus particles at rho = 3 in a box of L (make_janus_triblock:
// uniform random positions and axes) of any shape, melted by
// `melt` Langevin steps on the reference (the random start's overlaps
// relax in about 100).
System janus(uint64_t seed, double L, physics::SoftShape shape, uint64_t melt = 0) {
  JanusTriblockParams jp;
  jp.L = L;
  jp.seed = seed;
  jp.janus.shape = shape;
  System sys = make_janus_triblock(jp);
  if (!melt) return sys;
  RunParams rp;
  rp.integrator = Integrator::langevin;
  rp.dt = 0.005;
  rp.skin = 0.3;
  rp.gamma = 4.5;
  rp.gamma_r = 1.0;
  rp.seed = uint32_t(seed);
  Simulation s(make_registry().create("cpu", Variant{}), sys, rp);
  s.run(melt);
  sys.particles = s.particles();
  return sys;
}

double rel_l2(const std::vector<Vec3d>& got, const std::vector<Vec3d>& want) {
  double num = 0.0, den = 0.0;
  for (std::size_t i = 0; i < want.size(); ++i) {
    const Vec3d d = got[i] - want[i];
    num += dot(d, d);
    den += dot(want[i], want[i]);
  }
  return std::sqrt(num / den);
}

// double: the GPU's pow, exp and square roots differ from libm's by an ulp,
// and FMA contraction reorders the evaluator's products; the Gay-Berne
// well's derivatives (rho^13, the orientation powers mu and nu) carry that
// into ~1e-14 of a pair, below 1e-12 after the sums (the bound of the LJ and
// DPD tests). mixed and single store positions and orientations in fp32 and
// evaluate the pair in fp32 (sums in fp64): ~1e-7 of every input and of
// every operation, amplified by the r^-13 core to the ~1e-5 of the fp32 LJ
// forces, and the same bound, 1e-4.
double tolerance(const std::string& precision) { return precision == "double" ? 1e-12 : 1e-4; }

// `edges` (soft Janus particles): a pair near a patch's edge is
// ill-conditioned. f^nu's slope grows as delta^-1/2 at a distance delta (in
// cos theta) from the edge and its force's derivative as delta^-3/2, so an
// ulp of the GPU's acos, cos or pow becomes 1e-16 / delta of that pair's
// force; in fp32 the patch test itself flips for pairs within an ulp (1e-7)
// of an edge, where the force is 10 a^A / sqrt(delta) or more. The closest
// pair to an edge among ~30,000 is random and its error heavy-tailed: rel
// L2 of the double forces 2.7e-15, 5.6e-15, 4.2e-14, 7.5e-12 and 7.9e-11
// (torques up to 1.4e-10) in five seeds on an H100, of the fp32 ones 3.5e-6
// and 9.0e-4. So the bound is per
// particle: the median relative force and torque error at the precision's
// round-off (1e-12 double, 1e-5 fp32; measured 4e-7 fp32) and at most 1% of
// the particles beyond 1e-8 (double) or 1e-3 (fp32; measured 1-2 of 1536);
// the energy to 1e-10 (double) and 1e-4 (fp32): f^nu is continuous; the pressure not
// compared (a flipped pair's virial is that of its large force).
void expect_forces_match(const System& sys, const RunParams& rp, const char* what, bool edges = false) {
  const BackendRegistry reg = make_registry();
  Simulation cpu(reg.create("cpu", Variant{}), sys, rp);
  const ParticleData<double> want = cpu.particles();
  const ThermoSample tc = cpu.thermo();
  for (const char* prec : {"double", "mixed", "single"})
    for (const char* list : {"nlist=atomic", "nlist=ballot", "nlist=tiled", "nlist=tiled,reorder=morton2,sort=100",
                             "nlist=atomic,tpp=2", "nlist=ballot,tpp=4", "nlist=tiled,tpp=8", "nlist=ballot,tpp=16",
                             "nlist=atomic,tpp=32"}) {
      const std::string v = std::string("precision=") + prec + "," + list;
      SCOPED_TRACE(std::string(what) + " " + v);
      Simulation gpu(reg.create("cuda", Variant::parse(v)), sys, rp);
      const ParticleData<double> got = gpu.particles();
      ASSERT_TRUE(got.rotational);
      const double ef = rel_l2(got.force, want.force), et = rel_l2(got.torque, want.torque);
      std::printf("%s %s: force rel L2 %.3e, torque rel L2 %.3e\n", what, v.c_str(), ef, et);
      const bool fp32 = std::string(prec) != "double";
      const double tol = tolerance(prec);
      const ThermoSample tg = gpu.thermo();
      const double energy_tol = edges && !fp32 ? 1e-10 : tol;  // the edge pairs' round-off, as their forces'
      EXPECT_NEAR(tg.potential_energy, tc.potential_energy, energy_tol * std::fabs(tc.potential_energy));
      if (edges) {
        const double median_bound = fp32 ? 1e-5 : 1e-12, outlier = fp32 ? 1e-3 : 1e-8;
        for (const bool torque : {false, true}) {
          const std::vector<Vec3d>& g = torque ? got.torque : got.force;
          const std::vector<Vec3d>& w = torque ? want.torque : want.force;
          std::vector<double> err;
          for (std::size_t i = 0; i < want.n_local; ++i) {
            const Vec3d d = g[i] - w[i];
            err.push_back(std::sqrt(dot(d, d)) / std::max(std::sqrt(dot(w[i], w[i])), 1.0));
          }
          std::sort(err.begin(), err.end());
          const double median = err[err.size() / 2];
          const std::size_t beyond = std::size_t(err.end() - std::upper_bound(err.begin(), err.end(), outlier));
          std::printf("  per particle: median %.2e, %zu of %zu beyond %.0e\n", median, beyond, err.size(), outlier);
          EXPECT_LT(median, median_bound);
          EXPECT_LE(beyond, err.size() / 100);
        }
      } else {
        EXPECT_LT(ef, tol);
        EXPECT_LT(et, tol);
        EXPECT_NEAR(tg.pressure, tc.pressure, 10 * tol * std::fabs(tc.pressure));
      }
      // The orientations and angular momenta went to the device and back.
      for (std::size_t i = 0; i < want.n_local; ++i) {
        const Quatd a = got.orientation[i], b = want.orientation[i];
        ASSERT_NEAR(a.s, b.s, 1e-7) << i;
        ASSERT_NEAR(a.v.x, b.v.x, 1e-7) << i;
        ASSERT_NEAR(got.inertia[i].x, want.inertia[i].x, 1e-6 * std::fabs(want.inertia[i].x)) << i;
      }
    }
}

TEST(CudaAniso, GayBerneForcesTorquesEnergyVirialMatchReference) {
  REQUIRE_GPU();
  const uint64_t seed = fresh_seed();
  SCOPED_TRACE("seed " + std::to_string(seed));
  RunParams rp;
  rp.skin = 0.4;
  expect_forces_match(gb_liquid(seed, 1500), rp, "GB");
}

TEST(CudaAniso, SsdForcesTorquesEnergyVirialMatchReference) {
  REQUIRE_GPU();
  const uint64_t seed = fresh_seed();
  SCOPED_TRACE("seed " + std::to_string(seed));
  RunParams rp;
  rp.skin = 1.0;
  expect_forces_match(ssd_water(seed, 1000), rp, "SSD");
}

// Soft anisotropic particles of two shapes on fresh random starts (seed
// and seed + 1), 1536 in a box of 8.
void expect_shapes_match(physics::SoftShape a, const char* name_a, physics::SoftShape b, const char* name_b) {
  const uint64_t seed = fresh_seed();
  SCOPED_TRACE("seed " + std::to_string(seed));
  RunParams rp;
  rp.skin = 0.3;
  expect_forces_match(janus(seed, 8.0, a), rp, name_a, true);
  expect_forces_match(janus(seed + 1, 8.0, b), rp, name_b, true);
}

TEST(CudaAniso, JanusForcesTorquesEnergyVirialMatchReference) {
  REQUIRE_GPU();
  expect_shapes_match(physics::SoftShape::triblock, "Janus triblock", physics::SoftShape::janus, "Janus diblock");
}

// The disk and rod (the same operation): f^nu's slope is infinite where f
// -> 0 (an axis through the partner), the edge the Janus pairs have at
// theta_m, so the same per-particle bounds.
TEST(CudaAniso, DiskAndRodForcesTorquesEnergyVirialMatchReference) {
  REQUIRE_GPU();
  expect_shapes_match(physics::SoftShape::disk, "disk", physics::SoftShape::rod, "rod");
}

// max over particles of the distance between two runs' positions and of
// |q_a - q_b| (both hemispheres of the unit quaternions: q and -q are one
// orientation).
double separation(const Box& box, const ParticleData<double>& a, const ParticleData<double>& b) {
  double err = 0.0;
  for (std::size_t i = 0; i < a.n_local; ++i) {
    const Vec3d d = box.min_image(a.position[i] - b.position[i]);
    err = std::max(err, std::sqrt(dot(d, d)));
    const Quatd p = a.orientation[i], q = b.orientation[i];
    const double minus = std::hypot(p.s - q.s, std::sqrt(dot(p.v - q.v, p.v - q.v)));
    const double plus = std::hypot(p.s + q.s, std::sqrt(dot(p.v + q.v, p.v + q.v)));
    err = std::max(err, std::min(minus, plus));
  }
  return err;
}

// Each rotational integrator for 100 steps in double against the reference.
// The GPU sums each particle's pairs in its own list order and its libm
// differs by an ulp, so the trajectories separate by round-off amplified by
// the dynamics: the bound is 10x the separation of two reference runs whose
// starts differ by 1e-13 (as for LJ and DPD).
void expect_trajectories_track(const System& sys, RunParams rp, const char* what, uint64_t steps = 100) {
  const BackendRegistry reg = make_registry();
  for (Integrator integ : {Integrator::nve, Integrator::langevin, Integrator::berendsen}) {
    rp.integrator = integ;
    SCOPED_TRACE(std::string(what) + " " + to_string(integ));
    Simulation ref(reg.create("cpu", Variant{}), sys, rp);
    ref.run(steps);
    const System pert = test::perturbed_start(sys, rp.seed + 1);
    Simulation ref2(reg.create("cpu", Variant{}), pert, rp);
    ref2.run(steps);
    const auto a = ref.particles();
    const double growth = separation(sys.box, ref2.particles(), a);
    for (const char* variant : {"precision=double,nlist=atomic", "precision=double,nlist=tiled,reorder=morton2,sort=20",
                                "precision=double,nlist=ballot,tpp=4"}) {
      Simulation gpu(reg.create("cuda", Variant::parse(variant)), sys, rp);
      gpu.run(steps);
      const double err = separation(sys.box, gpu.particles(), a);
      std::printf("%s %s %s %llu steps: GPU-CPU %.3e, perturbed-reference growth %.3e\n", what,
                  to_string(integ), variant, static_cast<unsigned long long>(steps), err, growth);
      std::printf("  energy GPU-CPU %.3e (perturbed %.3e), rotational %.3e (perturbed %.3e)\n",
                  std::fabs(gpu.thermo().total_energy() - ref.thermo().total_energy()),
                  std::fabs(ref2.thermo().total_energy() - ref.thermo().total_energy()),
                  std::fabs(gpu.thermo().rotational_kinetic_energy - ref.thermo().rotational_kinetic_energy),
                  std::fabs(ref2.thermo().rotational_kinetic_energy - ref.thermo().rotational_kinetic_energy));
      EXPECT_LT(err, 10.0 * growth + 1e-14) << variant;
      // The energies likewise: within 1e-9 relative, or 10x what the
      // perturbed reference moved them where the dynamics amplify more (a
      // thermostat that scales by the system's own temperature, as
      // Berendsen does, carries a trajectory's round-off into every
      // particle's energy; f^nu's infinite slope at a Janus patch's edge
      // makes the torques of particles there far more sensitive).
      const ThermoSample tg = gpu.thermo(), tr = ref.thermo(), tp = ref2.thermo();
      const double e_tol = std::max(1e-9 * std::fabs(tr.total_energy()),
                                    10.0 * std::fabs(tp.total_energy() - tr.total_energy()));
      const double r_tol = std::max(1e-9 * tr.rotational_kinetic_energy,
                                    10.0 * std::fabs(tp.rotational_kinetic_energy - tr.rotational_kinetic_energy));
      EXPECT_NEAR(tg.total_energy(), tr.total_energy(), e_tol) << variant;
      EXPECT_NEAR(tg.rotational_kinetic_energy, tr.rotational_kinetic_energy, r_tol) << variant;
    }
  }
}

TEST(CudaAniso, GayBerneIntegratorsTrackReference) {
  REQUIRE_GPU();
  const uint64_t seed = fresh_seed();
  SCOPED_TRACE("seed " + std::to_string(seed));
  RunParams rp;
  rp.kT = 2.0;
  rp.dt = 0.002;
  rp.skin = 0.4;
  rp.seed = uint32_t(seed);
  expect_trajectories_track(gb_liquid(seed, 1500), rp, "GB");
}

TEST(CudaAniso, JanusIntegratorsTrackReference) {
  REQUIRE_GPU();
  const uint64_t seed = fresh_seed();
  SCOPED_TRACE("seed " + std::to_string(seed));
  RunParams rp;
  rp.dt = 0.005;  // the janus-triblock workload's
  rp.skin = 0.3;
  rp.gamma = 4.5;
  rp.gamma_r = 1.0;
  rp.seed = uint32_t(seed);
  // The melted liquid, 30 steps: the soft repulsion is stiff (a^R = 396)
  // and f^nu's slope is infinite at a patch's edge, so round-off grows
  // faster than in the Gay-Berne liquid (1e-13 to O(1) in 100 steps from
  // the random start).
  expect_trajectories_track(janus(seed, 7.0, physics::SoftShape::triblock, 400), rp, "Janus", 30);
}

TEST(CudaAniso, SsdIntegratorsTrackReference) {
  REQUIRE_GPU();
  const uint64_t seed = fresh_seed();
  SCOPED_TRACE("seed " + std::to_string(seed));
  SsdWaterParams wp;
  RunParams rp;
  rp.kT = wp.kT();
  rp.dt = 0.02;  // about 1 fs
  rp.skin = 1.0;
  rp.gamma = 0.88;
  rp.gamma_r = 0.06;
  rp.seed = uint32_t(seed);
  expect_trajectories_track(ssd_water(seed, 1000), rp, "SSD");
}

// Two parallel ellipsoids end to end at 1.5 sigma0, inside the pole at
// sigma - sigma0 = 2: refused by both backends, naming the pair (the
// reference names it from whichever side met it first).
TEST(CudaAniso, InterpenetratingGayBerneCoresAreRefused) {
  REQUIRE_GPU();
  System sys;
  sys.box = Box(12.0);
  sys.set_pair_style<physics::GayBerneParams>(1, physics::GayBerneParams{});
  auto& p = sys.particles;
  p.set_rotational(true);
  p.resize(2);
  p.position = {{0.0, 0.0, 0.0}, {0.0, 0.0, 1.5}};
  p.tag = {0, 1};
  p.type = {0, 0};
  p.inertia = {{0.5, 0.5, 0.0}, {0.5, 0.5, 0.0}};
  const BackendRegistry reg = make_registry();
  for (const char* backend : {"cpu", "cuda"}) {
    SCOPED_TRACE(backend);
    try {
      Simulation s(reg.create(backend, Variant{}), sys, RunParams{});
      ADD_FAILURE() << "no error";
    } catch (const InputError& e) {
      const std::string m = e.what();
      EXPECT_TRUE(m.find("particles 0 and 1 overlap") != std::string::npos ||
                  m.find("particles 1 and 0 overlap") != std::string::npos)
          << m;
    }
  }
}

// The axes of other pair styles are refused, naming them, not ignored: the
// DPD noise and gathers, half rows.
TEST(CudaAniso, RefusesTheAxesOfOtherPairStyles) {
  REQUIRE_GPU();
  const BackendRegistry reg = make_registry();
  const System sys = ssd_water(1, 1000);
  for (const char* v : {"precision=mixed,noise=fp32", "gather=masked", "nlist=half"}) {
    SCOPED_TRACE(v);
    try {
      Simulation s(reg.create("cuda", Variant::parse(v)), sys, RunParams{});
      ADD_FAILURE() << "accepted";
    } catch (const InputError& e) {
      EXPECT_NE(std::string(e.what()).find(std::string(v).substr(std::string(v).find_last_of(',') + 1)),
                std::string::npos)
          << e.what();
    }
  }
}

}  // namespace

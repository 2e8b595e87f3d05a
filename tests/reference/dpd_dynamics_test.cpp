// Dynamics of the reference backend: forces by hand through the full
// machinery, Newton's third law, momentum conservation, determinism.
#include <gtest/gtest.h>

#include <omp.h>

#include <cmath>
#include <random>

#include "meso/reference/cpu_backend.hpp"
#include "meso/run/simulation.hpp"

namespace {

using namespace meso;

// Four particles in a periodic box of 5 with conservative forces only
// (gamma = sigma = 0): A and B interact across the x boundary; C and D sit
// exactly r_c apart and must not interact.
System four_particles() {
  System sys;
  sys.box = Box(5.0);
  sys.pair_table<physics::DpdPairParams>().set(0, 0, {25.0, 0.0, 0.0, 1.0, 1.0});
  auto& p = sys.particles;
  p.resize(4);
  p.position = {{2.4, 0.0, 0.0}, {-2.4, 0.0, 0.0}, {0.0, -1.5, 1.0}, {0.0, -0.5, 1.0}};
  for (uint32_t i = 0; i < 4; ++i) {
    p.tag[i] = i;
    p.type[i] = 0;
    p.velocity[i] = {0.0, 0.0, 0.0};
    p.image[i] = {0, 0, 0};
  }
  return sys;
}

TEST(DpdDynamics, ForcesByHandAcrossBoundaryAndAtCutoff) {
  const System sys = four_particles();
  Simulation b(std::make_unique<reference::CpuBackend<double>>(Variant{}), sys, RunParams{});
  ParticleData<double> p;
  p = b.particles();
  // r_AB = 2.4 - (-2.4) = 4.8 -> minimum image -0.2: B is 0.2 to A's right
  // through the boundary. F_A = 25 (1 - 0.2) (-1, 0, 0) = (-20, 0, 0).
  EXPECT_NEAR(p.force[0].x, -20.0, 1e-12);
  EXPECT_NEAR(p.force[1].x, 20.0, 1e-12);
  EXPECT_EQ(p.force[0].y, 0.0);
  // C and D are exactly r_c = 1 apart: w_C = 0, no force.
  EXPECT_EQ(p.force[2].y, 0.0);
  EXPECT_EQ(p.force[3].y, 0.0);
  // Energy a r_c/2 (1 - r)^2 = 12.5 * 0.64 = 8; virial r.F = 0.2 * 20 = 4.
  const ThermoSample t = b.thermo();
  EXPECT_NEAR(t.potential_energy, 8.0, 1e-12);
  EXPECT_NEAR(t.pressure, 4.0 / (3.0 * 125.0), 1e-14);
}

TEST(DpdDynamics, DissipativeForceOpposesApproach) {
  System sys = four_particles();
  sys.pair_table<physics::DpdPairParams>().set(0, 0, {0.0, 4.5, 0.0, 1.0, 1.0});  // dissipation only
  sys.particles.velocity[0] = {1.0, 0.0, 0.0};   // A moves towards B (+x, through the boundary)
  Simulation b(std::make_unique<reference::CpuBackend<double>>(Variant{}), sys, RunParams{});
  ParticleData<double> p;
  p = b.particles();
  // w_D = 0.8^2, e = (-1,0,0), e.v = -1: F_A = -4.5 * 0.64 * (-1) e = (-2.88, 0, 0).
  EXPECT_NEAR(p.force[0].x, -2.88, 1e-12);
  EXPECT_NEAR(p.force[1].x, 2.88, 1e-12);
}

System random_fluid(uint64_t seed, double s, double L = 6.0) {
  DpdFluidParams fp;
  fp.rho = 3.0;
  fp.lx = fp.ly = fp.lz = L;
  fp.s = s;
  fp.seed = seed;
  return make_dpd_fluid(fp);
}

TEST(DpdDynamics, NewtonThirdLawAllTerms) {
  const uint64_t seed = std::random_device{}();
  SCOPED_TRACE("seed " + std::to_string(seed));
  for (const char* rng : {"rng=philox", "rng=tea"}) {
    Simulation b(std::make_unique<reference::CpuBackend<double>>(Variant::parse(rng)), random_fluid(seed, 0.5), RunParams{});
    b.plan().forces().front()->compute(ForceRequest{17, false, false});
    ParticleData<double> p;
    p = b.particles();
    Vec3d sum{0, 0, 0};
    double scale = 0.0;
    for (const auto& f : p.force) {
      sum += f;
      scale += std::sqrt(dot(f, f));
    }
    // Pair forces are bitwise antisymmetric; only the order of summation
    // differs, so the net force is round-off: ~eps * sum |F|.
    EXPECT_LT(std::fabs(sum.x) + std::fabs(sum.y) + std::fabs(sum.z), 1e-13 * scale) << rng;
  }
}

class MomentumConservation : public ::testing::TestWithParam<std::tuple<const char*, Integrator>> {};

TEST_P(MomentumConservation, ThousandSteps) {
  const auto [variant, integrator] = GetParam();
  const uint64_t seed = std::random_device{}();
  SCOPED_TRACE("seed " + std::to_string(seed));
  RunParams rp;
  rp.dt = 0.01;
  rp.integrator = integrator;
  const System sys = random_fluid(seed, 1.0);
  Simulation sim(std::make_unique<reference::CpuBackend<double>>(Variant::parse(variant)), sys, rp);
  const Vec3d p0 = total_momentum(sys, sys.particles);
  sim.run(1000);
  const auto state = sim.particles();
  const Vec3d p1 = total_momentum(sys, state);
  // Per step the net force is round-off (~1e-13 of sum |F| ~ 1e-9 here);
  // over 1000 steps it adds up to ~1e-8 at most. Thermal momentum per
  // particle is 1, so 1e-8 is round-off, while a single missing or
  // one-sided pair would change P by dt * F ~ 0.1.
  const double dp = std::fabs(p1.x - p0.x) + std::fabs(p1.y - p0.y) + std::fabs(p1.z - p0.z);
  EXPECT_LT(dp, 1e-8);
  EXPECT_GT(sim.neighbor_stats().builds, 1u);  // particles moved across lists
}

INSTANTIATE_TEST_SUITE_P(
    Variants, MomentumConservation,
    ::testing::Values(std::make_tuple("rng=philox", Integrator::velocity_verlet),
                      std::make_tuple("rng=tea", Integrator::velocity_verlet),
                      std::make_tuple("rng=philox", Integrator::groot_warren),
                      std::make_tuple("precision=single", Integrator::velocity_verlet),
                      std::make_tuple("reorder=cell,sort=50", Integrator::groot_warren)));

TEST(DpdDynamics, CellReorderingChangesOnlySummationOrder) {
  // Sorting particles into cell order permutes memory, not physics: the same
  // trajectory up to round-off from the different order of force summation.
  // DPD is chaotic, so compare after a short run (100 steps of 0.005) where
  // round-off (1e-16) has grown by far less than 1e8.
  const System sys = random_fluid(2024, 0.5, 7.0);
  RunParams rp;
  rp.integrator = Integrator::groot_warren;
  Simulation plain(std::make_unique<reference::CpuBackend<double>>(Variant{}), sys, rp);
  Simulation sorted(std::make_unique<reference::CpuBackend<double>>(Variant::parse("reorder=cell,sort=0")),
                    sys, rp);
  plain.run(100);
  sorted.run(100);
  const auto a = plain.particles();
  const auto b = sorted.particles();
  ASSERT_EQ(a.n_local, b.n_local);
  double max_dx = 0.0;
  for (std::size_t i = 0; i < a.n_local; ++i) {
    ASSERT_EQ(a.tag[i], b.tag[i]);  // both come back in tag order
    const Vec3d d = sys.box.min_image(a.position[i] - b.position[i]);
    max_dx = std::max(max_dx, std::sqrt(dot(d, d)));
    ASSERT_EQ(a.image[i].x + a.image[i].y + a.image[i].z, b.image[i].x + b.image[i].y + b.image[i].z);
  }
  EXPECT_LT(max_dx, 1e-8);
  EXPECT_GT(max_dx, 0.0);  // the order really changed
}

TEST(DpdDynamics, TrajectoryIndependentOfThreadCount) {
  const System sys = random_fluid(4242, 0.5);
  RunParams rp;
  auto run_with = [&](int threads) {
    omp_set_num_threads(threads);
    Simulation sim(std::make_unique<reference::CpuBackend<double>>(Variant{}), sys, rp);
    sim.run(200);
    return sim.particles();
  };
  const int saved = omp_get_max_threads();
  const auto a = run_with(1);
  const auto b = run_with(3);
  omp_set_num_threads(saved);
  for (std::size_t i = 0; i < a.n_local; ++i) {
    ASSERT_EQ(a.position[i].x, b.position[i].x) << i;
    ASSERT_EQ(a.velocity[i].z, b.velocity[i].z) << i;
  }
}

TEST(DpdDynamics, FixedPeriodRebuildAgreesWithDisplacementTrigger) {
  // With rebuild_every = 1 the list is always fresh: same trajectory bit for
  // bit as the displacement trigger, which must never have missed a pair.
  const System sys = random_fluid(777, 1.0);
  RunParams auto_rp;
  RunParams every_rp;
  every_rp.rebuild_every = 1;
  Simulation a(std::make_unique<reference::CpuBackend<double>>(Variant{}), sys, auto_rp);
  Simulation b(std::make_unique<reference::CpuBackend<double>>(Variant{}), sys, every_rp);
  a.run(300);
  b.run(300);
  const auto pa = a.particles();
  const auto pb = b.particles();
  for (std::size_t i = 0; i < pa.n_local; ++i) ASSERT_EQ(pa.position[i].y, pb.position[i].y) << i;
  EXPECT_EQ(b.neighbor_stats().dangerous_builds, 0u);
  EXPECT_LT(a.neighbor_stats().builds, b.neighbor_stats().builds);
}

}  // namespace

// The "pair_force/table" operation of the CPU reference against the
// analytic LJ it tabulates: forces, energy and virial of a melted liquid,
// an NVE run that conserves energy as the analytic one does, and a pair
// below the table's range refused by name.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <random>

#include "meso/core/error.hpp"
#include "meso/core/init.hpp"
#include "meso/tables/pair_potential_table.hpp"
#include "meso/reference/cpu_backend.hpp"
#include "meso/run/simulation.hpp"

namespace {

using namespace meso;

// The LJ liquid of the dynamics tests, melted, with the table of its own
// shifted LJ (2000 samples on [0.75, 2.5]) in place of the analytic one.
System liquid(uint64_t seed) {
  LjLiquidParams lp;
  lp.n = 1000;
  lp.rho = 0.4;
  lp.kT = 1.5;
  lp.rcut = 2.5;
  lp.seed = seed;
  System s = make_lj_liquid(lp);
  RunParams rp;
  rp.integrator = Integrator::langevin;
  rp.kT = 1.5;
  rp.seed = static_cast<uint32_t>(seed);
  Simulation melt(std::make_unique<reference::CpuBackend<double>>(Variant{}), s, rp);
  melt.run(300);
  s.particles = melt.particles();
  remove_net_momentum(s, s.particles);
  return s;
}

System tabulated(System s, double r_lo = 0.75, uint32_t n = 2000) {
  std::vector<double> r, v, f;
  // The last sample is the limit from below at r_cut (the evaluator gives 0
  // there): the shifted LJ by formula.
  auto v_lj = [](double x) { return 4.0 * (std::pow(x, -12) - std::pow(x, -6)) - 4.0 * (std::pow(2.5, -12) - std::pow(2.5, -6)); };
  for (uint32_t k = 0; k < n; ++k) {
    const double x = r_lo + (2.5 - r_lo) * k / (n - 1);
    r.push_back(x), v.push_back(v_lj(x)), f.push_back(24.0 * (2.0 * std::pow(x, -13) - std::pow(x, -7)));
  }
  s.emplace_pair_style<TabulatedPairs>(std::vector{table_from_samples("LJ", r, v, f, n)}, PairTable<int32_t>(1, 0));
  return s;
}

std::unique_ptr<Backend> cpu() { return std::make_unique<reference::CpuBackend<double>>(Variant{}); }

TEST(TableForceReference, TabulatedLjGivesTheAnalyticForces) {
  const uint64_t seed = std::random_device{}();
  SCOPED_TRACE("seed " + std::to_string(seed));
  const System lj = liquid(seed);
  const System tab = tabulated(lj);
  EXPECT_NEAR(tab.max_rcut(), 2.5, 1e-15);
  RunParams rp;
  rp.integrator = Integrator::nve;
  Simulation a(cpu(), lj, rp), b(cpu(), tab, rp);
  const ParticleData<double> pa = a.particles(), pb = b.particles();
  double worst = 0.0;
  for (std::size_t i = 0; i < pa.n_local; ++i) {
    const Vec3d d = pa.force[i] - pb.force[i];
    worst = std::max(worst, std::sqrt(dot(d, d)));
  }
  // Each pair's force is off by at most the table's largest error over its
  // range (1.0e-3 at r_min = 0.75, where |F| = 1850: 5.5e-7 of it), and a
  // particle has ~26 neighbours within 2.5 at rho = 0.4: the per-pair bound
  // times 30 (3.8e-5 was the worst particle of one liquid).
  double per_pair = 0.0;
  for (double r = 0.75; r < 2.5; r += 1e-4) {
    const double f = 24.0 * (2.0 * std::pow(r, -13) - std::pow(r, -7));
    per_pair = std::max(per_pair, std::fabs(tab.pair.as<TabulatedPairs>().tables[0].force(r) - f));
  }
  EXPECT_LT(per_pair, 2e-3);
  EXPECT_LT(worst, 30.0 * per_pair);
  const ThermoSample ta = a.thermo(), tb = b.thermo();
  EXPECT_NEAR(tb.potential_energy, ta.potential_energy, 1e-6 * std::fabs(ta.potential_energy) + 1e-4);
  EXPECT_NEAR(tb.pressure, ta.pressure, 1e-5);
  // The same trajectory over a short NVE run (it is chaotic: compared early;
  // a force error of 1e-4 moves a particle by 1e-7 in 10 steps).
  a.run(10);
  b.run(10);
  const ParticleData<double> qa = a.particles(), qb = b.particles();
  double dx = 0.0;
  for (std::size_t i = 0; i < qa.n_local; ++i) {
    const Vec3d d = lj.box.min_image(qa.position[i] - qb.position[i]);
    dx = std::max(dx, std::sqrt(dot(d, d)));
  }
  EXPECT_LT(dx, 1e-6);
}

// The total energy of the tabulated liquid over 400 steps at dt = 0.005
// fluctuates as the analytic one's does from the same start (the spline's
// force is minus the gradient of its energy, so no extra error). Over 400
// steps the two trajectories stay close; over thousands they decorrelate
// and the ranges of two random walks (the cutoff's force jump) would be
// compared instead.
TEST(TableForceReference, NveConservesEnergyAsTheAnalyticPotential) {
  const uint64_t seed = std::random_device{}();
  SCOPED_TRACE("seed " + std::to_string(seed));
  const System lj = liquid(seed);
  RunParams rp;
  rp.integrator = Integrator::nve;
  auto spread = [&](const System& s) {
    Simulation sim(cpu(), s, rp);
    double lo = 1e300, hi = -1e300;
    sim.run(400, 10, [&](const ThermoSample& t) {
      lo = std::min(lo, t.total_energy());
      hi = std::max(hi, t.total_energy());
    });
    return hi - lo;
  };
  const double analytic = spread(lj), table = spread(tabulated(lj));
  std::printf("range of E over 400 steps: analytic %.4g, tabulated %.4g\n", analytic, table);
  // Measured: the ranges agree to 0.1% (0.3261 and 0.3261, 0.4270 and
  // 0.4275 in two liquids).
  EXPECT_NEAR(table, analytic, 0.02 * analytic);
}

// Two particles at r = 0.7, below a table that starts at 0.75: refused with
// the table's name and range, not extrapolated.
TEST(TableForceReference, APairBelowTheTableIsRefused) {
  System s = tabulated(liquid(3));
  s.particles.position[1] = s.particles.position[0] + Vec3d{0.7, 0.0, 0.0};
  Image img{0, 0, 0};
  s.box.wrap(s.particles.position[1], img);
  try {
    Simulation sim(cpu(), s, RunParams{});
    sim.run(1);
    ADD_FAILURE() << "a pair at 0.7 was accepted";
  } catch (const InputError& e) {
    const std::string m = e.what();
    EXPECT_NE(m.find("below the range of table LJ"), std::string::npos) << m;
    EXPECT_NE(m.find("r_min = 0.75"), std::string::npos) << m;
  }
}

TEST(TableForceReference, SystemRefusesAMapWithoutItsTable) {
  System s = tabulated(liquid(5));
  s.pair.as<TabulatedPairs>().table_of = PairTable<int32_t>(1, 1);  // table 1 of 1
  EXPECT_THROW(s.validate(0.3), InputError);
  s.pair.as<TabulatedPairs>().table_of = PairTable<int32_t>(2, 0);  // 2 x 2 for one type
  EXPECT_THROW(s.validate(0.3), InputError);
  s.pair.as<TabulatedPairs>().table_of = PairTable<int32_t>(1, -1);  // no interaction: valid
  EXPECT_NO_THROW(s.validate(0.3));
  EXPECT_STREQ(s.pair_style(), "table");
}

}  // namespace

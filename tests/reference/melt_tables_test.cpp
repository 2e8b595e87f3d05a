// The melt with tabulated potentials (meso/systems/melt_tables.hpp): the analytic
// melt's tables against its formulas, the whole melt's forces and energy
// against the analytic melt's on the CPU reference, tables read from files,
// and the refusals.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <numbers>
#include <string>
#include <utility>

#include <unistd.h>

#include "meso/core/error.hpp"
#include "meso/systems/melt_tables.hpp"
#include "meso/reference/cpu_backend.hpp"
#include "meso/run/simulation.hpp"

namespace {

using namespace meso;

BeadSpringMeltParams small_melt() {
  BeadSpringMeltParams p;
  p.chains = 30;
  p.chain_length = 10;
  p.seed = 5;
  return p;
}

// The analytic pair potential (V, F) the table holds: the soft repulsion,
// continued below r_s as the quadratic in z = r^2 the header states.
std::pair<double, double> pair_formula(const BeadSpringMeltParams& p, double r) {
  const double rc = p.rcut, A = 0.5 * p.a * rc;
  auto soft = [&](double x) {
    const double w = 1.0 - x / rc;
    return std::pair{A * w * w, p.a * w};
  };
  const double rs = kMeltPairInnerBelow * rc, zs = rs * rs;
  if (r >= rs) return soft(r);
  const double v1 = A * (1.0 / (rc * rc) - 1.0 / (rc * rs)), v2 = A / (2.0 * rc * rs * zs);
  const double d = r * r - zs;
  return {soft(rs).first + v1 * d + 0.5 * v2 * d * d, -2.0 * r * (v1 + v2 * d)};
}

// The header's accuracy statement for 1000 points: the pair energy and
// force against the soft repulsion (continued below r_s as the header says),
// over the whole range; bonds and angles exact to round-off (a cubic spline
// reproduces the quadratics it samples).
TEST(MeltTables, AnalyticTablesFollowTheFormulas) {
  const BeadSpringMeltParams p = small_melt();
  const PairPotentialTable pair = analytic_melt_pair_table(p, 1000);
  EXPECT_NEAR(pair_formula(p, kMeltPairInnerBelow * (1 - 1e-12)).second,
              pair_formula(p, kMeltPairInnerBelow).second, 1e-9);  // C1 in r at r_s
  double worst_v = 0.0, worst_f = 0.0;
  for (int i = 0; i < 20000; ++i) {
    const double r = kMeltTableRIn + (0.999 - kMeltTableRIn) * (i + 0.5) / 20000.0;
    const auto [v, f] = pair_formula(p, r);
    worst_v = std::max(worst_v, std::fabs(pair.energy(r) - v));
    worst_f = std::max(worst_f, std::fabs(pair.force(r) - f));
  }
  std::printf("pair table, 1000 points: |dV| <= %.2e kT, |dF| <= %.2e kT/r_c\n", worst_v, worst_f);
  EXPECT_LT(worst_v, 3e-4);
  EXPECT_LT(worst_f, 0.08);
  EXPECT_NEAR(pair.r_max, p.rcut, 1e-12);
  EXPECT_NEAR(pair.r_min, kMeltTableRIn, 1e-12);

  const BondedTable bond = analytic_melt_bond_table(p, 1000);
  const BondedTable angle = analytic_melt_angle_table(p, 1000);
  const double t0 = p.angle_theta0 * std::numbers::pi / 180.0;
  for (int i = 0; i <= 1000; ++i) {
    const double r = 0.001 + (p.bond_r0 + 1.5 - 0.001) * i / 1000.0;
    EXPECT_NEAR(bond.energy(r), 0.5 * p.bond_k * (r - p.bond_r0) * (r - p.bond_r0), 1e-9) << r;
    EXPECT_NEAR(bond.derivative(r), p.bond_k * (r - p.bond_r0), 1e-7) << r;
    const double t = std::numbers::pi * i / 1000.0;
    EXPECT_NEAR(angle.energy(t), 0.5 * p.angle_k * (t - t0) * (t - t0), 1e-9) << t;
    EXPECT_NEAR(angle.derivative(t), p.angle_k * (t - t0), 1e-7) << t;
  }
}

ThermoSample forces_of(const System& s) {
  RunParams rp;
  Simulation sim(std::make_unique<reference::CpuBackend<double>>(Variant{}), s, rp);
  return sim.thermo();
}

// The tabulated melt is the analytic melt: the same start, and at t = 0 the
// same potential energy and pressure to the pair table's accuracy: 3e-4 kT
// a pair at most, 3e-5 relative here (a pair below r_s differs by up to
// 0.5 kT: the continuation).
TEST(MeltTables, TabulatedMeltHasTheAnalyticMeltsEnergy) {
  TableMeltParams tp;
  tp.melt = small_melt();
  const System tab = make_table_melt(tp);
  const System ana = make_bead_spring_melt(tp.melt);
  ASSERT_STREQ(tab.pair_style(), "table");
  EXPECT_EQ(tab.topology.bond_types[0].kind, BondKind::table);
  EXPECT_EQ(tab.topology.angle_types[0].kind, AngleKind::table);
  const ThermoSample a = forces_of(ana), t = forces_of(tab);
  std::printf("analytic U = %.6f, tabulated U = %.6f; P %.6f, %.6f\n", a.potential_energy, t.potential_energy,
              a.pressure, t.pressure);
  EXPECT_NEAR(t.potential_energy, a.potential_energy, 1e-4 * std::fabs(a.potential_energy));
  EXPECT_NEAR(t.pressure, a.pressure, 1e-4 * std::fabs(a.pressure));
}

// Writes `keyword` tables of the analytic potentials in the file formats:
// the pair table on its own r^2 grid (RSQ), 2000 entries.
void write_tables(const std::filesystem::path& dir, const BeadSpringMeltParams& p, const std::string& keyword) {
  std::ofstream pair(dir / "p.table"), bond(dir / "b.table"), angle(dir / "a.table");
  pair.precision(17), bond.precision(17), angle.precision(17);
  const int n = 2000, nb = 400;
  const double lo = kMeltTableRIn, hi = p.rcut;
  pair << "# soft repulsion\n" << keyword << "\nN " << n << " RSQ " << lo << ' ' << hi << "\n\n";
  bond << keyword << "\nN " << nb << "\n\n";
  angle << keyword << "\nN " << nb << "\n\n";
  for (int i = 0; i < n; ++i) {
    const double r = i + 1 == n ? hi : std::sqrt(lo * lo + (hi * hi - lo * lo) * i / (n - 1));
    const auto [v, f] = pair_formula(p, r);
    pair << i + 1 << ' ' << r << ' ' << v << ' ' << f << '\n';
  }
  for (int i = 0; i < nb; ++i) {
    const double b = 0.01 + 2.0 * i / (nb - 1), db = b - p.bond_r0;
    bond << i + 1 << ' ' << b << ' ' << 0.5 * p.bond_k * db * db << ' ' << -p.bond_k * db << '\n';
    const double deg = 180.0 * i / (nb - 1), th = deg * std::numbers::pi / 180.0;
    const double dt = th - p.angle_theta0 * std::numbers::pi / 180.0;
    angle << i + 1 << ' ' << deg << ' ' << 0.5 * p.angle_k * dt * dt << ' ' << -p.angle_k * dt << '\n';
  }
}

TEST(MeltTables, ReadsTablesFromFilesAndRefusesHalfASet) {
  const auto dir = std::filesystem::temp_directory_path() / ("melt_tables_" + std::to_string(::getpid()));
  std::filesystem::create_directories(dir);
  TableMeltParams tp;
  tp.melt = small_melt();
  write_tables(dir, tp.melt, "SOFT");
  tp.files = {(dir / "p.table").string(), (dir / "b.table").string(), (dir / "a.table").string(), "SOFT"};
  const System s = make_table_melt(tp);
  EXPECT_NEAR(s.pair.as<TabulatedPairs>().tables[0].r_max, tp.melt.rcut, 1e-9);
  EXPECT_NEAR(s.topology.bond_tables[0].x_max(), 2.01, 1e-9);
  // The files hold the analytic tables' potentials: the same energy.
  TableMeltParams analytic = tp;
  analytic.files = {};
  const double u_files = forces_of(s).potential_energy, u_tab = forces_of(make_table_melt(analytic)).potential_energy;
  EXPECT_NEAR(u_files, u_tab, 1e-6 * std::fabs(u_tab));

  auto refused = [&](const TableMeltParams& bad, const std::string& expect) {
    try {
      make_table_melt(bad);
      ADD_FAILURE() << "accepted; expected: " << expect;
    } catch (const InputError& e) {
      EXPECT_NE(std::string(e.what()).find(expect), std::string::npos) << e.what();
    }
  };
  TableMeltParams two = tp;
  two.files.angle.clear();
  refused(two, "2 of the three given");
  TableMeltParams kw = tp;
  kw.files.keyword = "IBI";
  refused(kw, "has no table IBI (it has SOFT)");
  TableMeltParams missing = tp;
  missing.files.bond = (dir / "none.table").string();
  refused(missing, "none.table");
  TableMeltParams points = tp;
  points.files = {};
  points.points = 1;
  refused(points, "points = 1");
  std::filesystem::remove_all(dir);
}

}  // namespace

// Tabulated bonds and angles on the reference backend (the "bonded/table"
// operation): a chain whose bonds and angles are tables of harmonic
// potentials has the analytic chain's forces and energy within the
// tables' interpolation error and follows its NVE trajectory; a bond that
// leaves its table stops the run, named.
#include <gtest/gtest.h>

#include <cmath>
#include <numbers>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include "meso/tables/bonded_table.hpp"
#include "meso/core/error.hpp"
#include "meso/reference/cpu_backend.hpp"
#include "meso/run/simulation.hpp"
#include "meso/testing/harmonic_tables.hpp"
#include "meso/core/topology.hpp"

namespace {

using namespace meso;
constexpr double kPi = std::numbers::pi;

std::unique_ptr<Backend> cpu() { return std::make_unique<reference::CpuBackend<double>>(Variant::parse("")); }

using meso::testing::harmonic_table;

// A 6-bead chain (tags 0 .. 5) with bonds k = 100, r0 = 0.8 and angles
// k = 20, theta0 = 110 degrees, analytic or tabulated, in a box of 12;
// pair style none. The beads start bent and stretched, with velocities.
System chain(bool tabulated) {
  System sys;
  sys.box = Box(12.0);
  sys.pair = {};
  std::mt19937_64 rng(17);
  std::normal_distribution<double> g(0.0, 1.0);
  auto& p = sys.particles;
  p.resize(6);
  Vec3d r{5.5, -5.5, 0.3};  // crosses the boundaries as it grows
  for (uint32_t i = 0; i < 6; ++i) {
    p.position[i] = r;
    p.image[i] = {0, 0, 0};
    sys.box.wrap(p.position[i], p.image[i]);
    p.velocity[i] = {0.5 * g(rng), 0.5 * g(rng), 0.5 * g(rng)};
    p.tag[i] = i;
    p.type[i] = 0;
    r += Vec3d{0.7 + 0.1 * g(rng), 0.4 * g(rng), 0.4 * g(rng)};
  }
  Topology& t = sys.topology;
  BondType b;
  b.name = "s";
  AngleType a;
  a.name = "a";
  if (tabulated) {
    b.kind = BondKind::table;
    a.kind = AngleKind::table;
    t.bond_tables = {harmonic_table(TableKind::bond, 100.0, 0.8, 0.2, 2.0, 2001)};
    t.angle_tables = {harmonic_table(TableKind::angle, 20.0, 110.0 * kPi / 180.0, 0.0, kPi, 1801)};
  } else {
    b.harmonic = {100.0, 0.8};
    a.harmonic = {20.0, 110.0 * kPi / 180.0};
  }
  t.bond_types = {b};
  t.angle_types = {a};
  for (uint32_t i = 0; i + 1 < 6; ++i) t.bonds.push_back({i, i + 1, 0});
  for (uint32_t i = 0; i + 2 < 6; ++i) t.angles.push_back({i, i + 1, i + 2, 0});
  return sys;
}

RunParams nve() {
  RunParams rp;
  rp.dt = 0.002;
  rp.integrator = Integrator::nve;
  rp.skin = 0.0;
  return rp;
}

TEST(BondedTableDynamics, MatchesTheAnalyticChain) {
  Simulation exact(cpu(), chain(false), nve());
  Simulation table(cpu(), chain(true), nve());
  EXPECT_EQ(table.plan().forces().front()->name(), "bonded/table");
  for (int block = 0; block < 5; ++block) {
    const ParticleData<double> a = exact.particles(), b = table.particles();
    for (std::size_t i = 0; i < 6; ++i) {
      EXPECT_NEAR(b.force[i].x, a.force[i].x, 1e-6) << "block " << block << " tag " << i;
      EXPECT_NEAR(b.force[i].y, a.force[i].y, 1e-6);
      EXPECT_NEAR(b.force[i].z, a.force[i].z, 1e-6);
      EXPECT_NEAR(b.position[i].x, a.position[i].x, 1e-8);
    }
    EXPECT_NEAR(table.thermo().potential_energy, exact.thermo().potential_energy, 1e-8);
    EXPECT_NEAR(table.thermo().pressure, exact.thermo().pressure, 1e-8);
    exact.run(100);
    table.run(100);
  }
  // NVE conserves the tabulated chain's energy as well as the analytic one's.
  const double e0 = table.thermo().total_energy();
  table.run(2000);
  EXPECT_NEAR(table.thermo().total_energy(), e0, 1e-3 * std::fabs(e0));
}

TEST(BondedTableDynamics, BondOutsideItsTableIsNamed) {
  System sys = chain(true);
  sys.topology.bond_tables = {harmonic_table(TableKind::bond, 100.0, 0.8, 0.2, 0.3, 101)};
  try {
    Simulation sim(cpu(), sys, nve());
    FAIL() << "a bond outside its table was accepted";
  } catch (const InputError& e) {
    const std::string m = e.what();
    EXPECT_NE(m.find("bond.table: bond 0 (type s) between tags 0 and 1 has r = "), std::string::npos) << m;
    EXPECT_NE(m.find("outside its table bond [0.2, 0.3]"), std::string::npos) << m;
    EXPECT_NE(m.find("at step 0"), std::string::npos) << m;
  }
}

}  // namespace

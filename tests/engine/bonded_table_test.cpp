// Tabulated bonds and angles (meso/tables/bonded_table.hpp,
// meso/physics/bonded_table.hpp): LAMMPS bond and angle table files read
// and refused with file, line and field; the spline against the tabulated
// function; the table evaluators against the analytic harmonic ones; the
// topology's `table FILE KEYWORD` types, with FILE relative to the
// topology's directory.
#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <numbers>
#include <random>
#include <sstream>
#include <string>

#include "meso/tables/bonded_table.hpp"
#include "meso/core/error.hpp"
#include "meso/physics/bonded_table.hpp"
#include "meso/core/topology.hpp"

namespace {

using namespace meso;
constexpr double kPi = std::numbers::pi;

// A harmonic bond k/2 (r - r0)^2 on n entries over [lo, hi] in LAMMPS's
// bond table format, under `keyword`.
std::string harmonic_bond_table(const std::string& keyword, double k, double r0, double lo, double hi, int n) {
  std::ostringstream os;
  os.precision(17);
  os << "# harmonic bond\n" << keyword << "\nN " << n << " FP 1 1 EQ " << r0 << "\n\n";
  for (int i = 0; i < n; ++i) {
    const double r = lo + (hi - lo) * i / (n - 1);
    os << i + 1 << " " << r << " " << 0.5 * k * (r - r0) * (r - r0) << " " << -k * (r - r0) << "\n";
  }
  return os.str();
}

// A harmonic angle k/2 (theta - theta0)^2 on n entries over 0 .. 180 degrees.
std::string harmonic_angle_table(const std::string& keyword, double k, double theta0_deg, int n) {
  std::ostringstream os;
  os.precision(17);
  os << keyword << "\nN " << n << "\n";
  for (int i = 0; i < n; ++i) {
    const double deg = 180.0 * i / (n - 1), d = (deg - theta0_deg) * kPi / 180.0;
    os << i + 1 << " " << deg << " " << 0.5 * k * d * d << " " << -k * d << "\n";
  }
  return os.str();
}

std::string error_of(const std::string& text, TableKind kind) {
  std::istringstream in(text);
  try {
    read_bonded_tables(in, "bad.table", kind);
  } catch (const InputError& e) {
    return e.what();
  }
  return "no error";
}

TEST(BondedTable, SplineFollowsTheTabulatedFunction) {
  std::istringstream in(harmonic_bond_table("B", 300.0, 0.9, 0.5, 1.5, 201));
  const std::vector<BondedTable> t = read_bonded_tables(in, "b.table", TableKind::bond);
  ASSERT_EQ(t.size(), 1u);
  EXPECT_DOUBLE_EQ(t[0].x_min, 0.5);
  EXPECT_NEAR(t[0].x_max(), 1.5, 1e-12);
  EXPECT_EQ(t[0].intervals, 200u);
  // A quadratic is reproduced by the clamped spline to round-off.
  for (double r : {0.5, 0.61234, 0.9, 1.2345, 1.5}) {
    EXPECT_NEAR(t[0].energy(r), 150.0 * (r - 0.9) * (r - 0.9), 1e-10) << r;
    EXPECT_NEAR(t[0].derivative(r), 300.0 * (r - 0.9), 1e-8) << r;
  }
  EXPECT_THROW(t[0].energy(1.6), InputError);
}

TEST(BondedTable, UnevenSamplesAreResampled) {
  // A cubic V = r^3 at uneven r: the Hermite resampling is exact for cubics
  // and so is the spline (clamped with the exact end slopes).
  std::ostringstream os;
  os << "C\nN 5\n";
  const double r[5] = {1.0, 1.1, 1.5, 1.6, 2.0};
  for (int i = 0; i < 5; ++i) os << i + 1 << " " << r[i] << " " << r[i] * r[i] * r[i] << " " << -3 * r[i] * r[i] << "\n";
  std::istringstream in(os.str());
  const BondedTable t = read_bonded_tables(in, "c.table", TableKind::bond).front();
  EXPECT_EQ(t.intervals, 4u);
  for (double x : {1.0, 1.13, 1.37, 1.99}) {
    EXPECT_NEAR(t.energy(x), x * x * x, 1e-12) << x;
    EXPECT_NEAR(t.derivative(x), 3 * x * x, 1e-11) << x;
  }
}

TEST(BondedTable, TableEvaluatorsMatchTheAnalyticOnes) {
  std::istringstream bonds(harmonic_bond_table("B", 100.0, 0.6, 0.1, 2.0, 1001));
  std::istringstream angles(harmonic_angle_table("A", 25.0, 120.0, 1801));
  const BondedTable bt = read_bonded_tables(bonds, "b", TableKind::bond).front();
  const BondedTable at = read_bonded_tables(angles, "a", TableKind::angle).front();
  std::mt19937_64 rng(3);
  std::uniform_real_distribution<double> u(-1.0, 1.0);
  for (int trial = 0; trial < 200; ++trial) {
    const Vec3d d{u(rng), u(rng), u(rng)};
    const double rsq = dot(d, d);
    if (rsq < 0.01) continue;
    const auto b = physics::table_bond<double>(rsq, bt.view());
    const auto h = physics::harmonic_bond<double>(rsq, {100.0, 0.6});
    ASSERT_TRUE(b.ok);
    EXPECT_NEAR(b.energy, h.energy, 1e-10);
    EXPECT_NEAR(b.f_over_r, h.f_over_r, 1e-8 * std::max(1.0, std::fabs(h.f_over_r)));
    const Vec3d e{u(rng), u(rng), u(rng)};
    const auto a = physics::table_angle<double>(d, e, at.view());
    const auto ha = physics::harmonic_angle<double>(d, e, {25.0, 120.0 * kPi / 180.0});
    EXPECT_NEAR(a.energy, ha.energy, 1e-10);
    EXPECT_NEAR(a.theta, ha.theta, 1e-15);
    EXPECT_NEAR(a.virial, ha.virial, 1e-8);
    for (const auto& [f, g] : {std::pair{a.fa, ha.fa}, std::pair{a.fb, ha.fb}, std::pair{a.fc, ha.fc}}) {
      EXPECT_NEAR(f.x, g.x, 1e-7);
      EXPECT_NEAR(f.y, g.y, 1e-7);
      EXPECT_NEAR(f.z, g.z, 1e-7);
    }
  }
  // Outside the bond table: no force can be given.
  EXPECT_FALSE(physics::table_bond<double>(2.1 * 2.1, bt.view()).ok);
  EXPECT_FALSE(physics::table_bond<double>(0.05 * 0.05, bt.view()).ok);
}

TEST(BondedTable, BadFilesAreRefusedWithLineAndField) {
  const std::string head = "B\nN 3\n";
  EXPECT_NE(error_of(head + "1 -0.1 1 1\n", TableKind::bond).find("bad.table:3: r = -0.1 is negative"),
            std::string::npos);
  EXPECT_NE(error_of(head + "1 1 1 1\n2 0.9 1 1\n", TableKind::bond).find("bad.table:4: r = 0.9 does not increase"),
            std::string::npos);
  EXPECT_NE(error_of(head + "1 1 nan 1\n", TableKind::bond).find("bad.table:3: V 'nan' is not a finite number"),
            std::string::npos);
  EXPECT_NE(error_of("B\nN 3 XX 1\n", TableKind::bond).find("bad.table:2: after N only 'FP lo hi' and 'EQ x0'"),
            std::string::npos);
  EXPECT_NE(error_of("B\nN 3 FP 1\n", TableKind::bond).find("bad.table:2: FP needs 2 values"), std::string::npos);
  EXPECT_NE(error_of(head + "1 1 1 1\n2 2 1 1\n", TableKind::bond).find("has 2 entries, its N line 3"),
            std::string::npos);
  EXPECT_NE(error_of("A\nN 3\n1 0 1 1\n2 90 1 1\n3 190 1 1\n", TableKind::angle)
                .find("bad.table:5: theta = 190 degrees is outside [0, 180]"),
            std::string::npos);
  EXPECT_NE(error_of("A\nN 3\n1 0 1 1\n2 90 1 1\n3 170 1 1\n", TableKind::angle)
                .find("angle table A (line 1) spans theta = 0 .. 170 degrees: it must span 0 .. 180"),
            std::string::npos);
}

TEST(BondedTable, TopologyTypesReadTablesBesideTheFile) {
  const std::filesystem::path dir = std::filesystem::temp_directory_path() / "meso_bonded_table_test";
  std::filesystem::create_directories(dir);
  std::ofstream(dir / "bonds.table") << harmonic_bond_table("SPRING", 100.0, 0.6, 0.2, 1.5, 101);
  std::ofstream(dir / "angles.table") << harmonic_angle_table("BEND", 25.0, 120.0, 181);
  std::ofstream(dir / "chain.top") << "bond_type s table bonds.table SPRING\n"
                                      "angle_type a table angles.table BEND\n"
                                      "angle_type h harmonic 10 180\n"
                                      "bond s 0 1\nbond s 1 2\nangle a 0 1 2\n";
  const Topology t = read_topology_file((dir / "chain.top").string());
  ASSERT_EQ(t.bond_tables.size(), 1u);
  ASSERT_EQ(t.angle_tables.size(), 1u);
  EXPECT_EQ(t.bond_types[0].kind, BondKind::table);
  EXPECT_EQ(t.angle_types[0].kind, AngleKind::table);
  EXPECT_EQ(t.angle_types[1].kind, AngleKind::harmonic);
  EXPECT_TRUE(t.has_tables());
  EXPECT_EQ(t.bond_tables[0].name, "SPRING");
  t.validate(3);
  // A missing keyword or file is named with the topology's line.
  std::ofstream(dir / "bad.top") << "# first line\nbond_type s table bonds.table NOPE\n";
  try {
    read_topology_file((dir / "bad.top").string());
    ADD_FAILURE() << "accepted a missing keyword";
  } catch (const InputError& e) {
    const std::string m = e.what();
    EXPECT_NE(m.find("bad.top:2:"), std::string::npos) << m;
    EXPECT_NE(m.find("has no table NOPE (it has SPRING)"), std::string::npos) << m;
  }
  std::filesystem::remove_all(dir);
}

}  // namespace

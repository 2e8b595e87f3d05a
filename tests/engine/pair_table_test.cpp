// Tabulated pair potentials from samples and from table files
// (meso/tables/pair_potential_table.hpp): a tabulated LJ against the analytic one,
// the LAMMPS table format, and every refusal naming file, line and field.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <fstream>
#include <sstream>

#include "meso/core/error.hpp"
#include "meso/tables/pair_potential_table.hpp"
#include "meso/physics/lj_force.hpp"

namespace {

using namespace meso;

physics::LjPairParams lj_shifted() {
  physics::LjPairParams p;
  p.rcut = 2.5;
  p.mode = physics::LjMode::shift;
  return p;
}

// LJ shifted at 2.5 by formula, V and F = -dV/dr, up to r = 2.5 itself
// (the evaluator's force is 0 at r_cut; the table's last sample is the
// limit from below).
double lj_v(double r) { return 4.0 * (std::pow(r, -12) - std::pow(r, -6)) - 4.0 * (std::pow(2.5, -12) - std::pow(2.5, -6)); }
double lj_f(double r) { return 24.0 * (2.0 * std::pow(r, -13) - std::pow(r, -7)); }

// LJ (shifted at 2.5) sampled at n points uniform in r from 0.8 to 2.5.
PairPotentialTable lj_table(uint32_t n, std::vector<double>* rs = nullptr) {
  std::vector<double> r, v, f;
  for (uint32_t k = 0; k < n; ++k) {
    const double x = 0.8 + (2.5 - 0.8) * k / (n - 1);
    r.push_back(x), v.push_back(lj_v(x)), f.push_back(lj_f(x));
  }
  if (rs) *rs = r;
  return table_from_samples("lj", r, v, f, n);
}

// The interpolation error of the tabulated LJ, stated in the header: with
// 2000 points on [0.8, 2.5] the energy is within 3e-7 of the analytic one
// and the force within 5e-4, where |F| reaches 1100 (r = 0.8): 5e-7 of it.
TEST(PairTable, TabulatedLjMatchesTheAnalyticForce) {
  auto worst = [](const PairPotentialTable& t) {
    double ef = 0.0, ee = 0.0;
    for (double r = 0.8; r < 2.5; r += 1e-4) {
      const auto e = physics::lj_pair_force<double>(r * r, lj_shifted());
      EXPECT_NEAR(e.f_over_r * r, lj_f(r), 1e-9 * std::fabs(lj_f(r)) + 1e-12);  // the formula is the evaluator's
      ef = std::max(ef, std::fabs(t.force(r) - lj_f(r)));
      ee = std::max(ee, std::fabs(t.energy(r) - lj_v(r)));
    }
    return std::make_pair(ef, ee);
  };
  const auto [f2000, e2000] = worst(lj_table(2000));
  const auto [f500, e500] = worst(lj_table(500));
  std::printf("tabulated LJ, largest error: 2000 points F %.3g V %.3g; 500 points F %.3g V %.3g\n", f2000, e2000,
              f500, e500);
  EXPECT_LT(f2000, 5e-4);
  EXPECT_LT(e2000, 3e-7);
  // The spline is fourth order in V and third in its derivative: 4x the
  // spacing, 4^4 = 256 and 4^3 = 64 times the error.
  EXPECT_GT(e500 / e2000, 150.0);
  EXPECT_LT(e500 / e2000, 350.0);
  EXPECT_GT(f500 / f2000, 40.0);
  EXPECT_LT(f500 / f2000, 90.0);
  const PairPotentialTable t = lj_table(2000);
  EXPECT_NEAR(t.r_min, 0.8, 1e-15);
  EXPECT_NEAR(t.r_max, 2.5, 1e-15);
}

std::string lj_file() {
  std::ostringstream os;
  os.precision(17);
  os << "# tabulated LJ, two ways\nLJ_R\nN 400 R 0.8 2.5\n\n";
  for (int k = 0; k < 400; ++k) {
    const double r = 0.8 + 1.7 * k / 399.0;
    os << k + 1 << " " << r << " " << lj_v(r) << " " << lj_f(r) << "  # entry\n";
  }
  os << "\nLJ_RSQ   # uniform in r^2\nN 400 RSQ 0.8 2.5\n\n";
  for (int k = 0; k < 400; ++k) {
    const double r = std::sqrt(0.64 + (6.25 - 0.64) * k / 399.0);
    os << k + 1 << " " << r << " " << lj_v(r) << " " << lj_f(r) << "\n";
  }
  return os.str();
}

TEST(PairTable, ReadsLammpsTables) {
  std::istringstream in(lj_file());
  const std::vector<PairPotentialTable> t = read_pair_tables(in, "lj.table");
  ASSERT_EQ(t.size(), 2u);
  EXPECT_EQ(t[0].name, "LJ_R");
  EXPECT_EQ(t[1].name, "LJ_RSQ");
  EXPECT_EQ(t[0].source, "lj.table");
  for (const PairPotentialTable& x : t) {
    EXPECT_EQ(x.intervals, 399u);
    EXPECT_NEAR(x.r_min, 0.8, 1e-12);
    EXPECT_NEAR(x.r_max, 2.5, 1e-12);
    EXPECT_NEAR(x.force(1.1), lj_f(1.1), 1e-3);
    EXPECT_NEAR(x.energy(1.1), lj_v(1.1), 1e-4);
  }
}

// One edit of the valid file, and the message it must give: the source,
// the line and what is wrong.
void expect_refused(const std::string& text, const std::string& want) {
  std::istringstream in(text);
  try {
    read_pair_tables(in, "bad.table");
    ADD_FAILURE() << "accepted; wanted: " << want << "\n" << text.substr(0, 200);
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find(want), std::string::npos) << e.what();
  }
}

TEST(PairTable, RefusalsNameFileLineAndField) {
  const std::string head = "T\nN 3\n";
  expect_refused(head + "1 1.0 2.0 3.0\n2 1.1 nan 3.0\n3 1.2 1 1\n", "bad.table:4: V 'nan' is not a finite number");
  expect_refused(head + "1 1.0 2.0 3.0\n2 1.0 2.0 3.0\n3 1.2 1 1\n", "bad.table:4: r = 1.0 does not increase");
  expect_refused(head + "1 1.0 2.0 3.0\n3 1.1 2.0 3.0\n", "bad.table:4: table T index 3 where 2 is due");
  expect_refused(head + "1 1.0 2.0\n", "bad.table:3: table T entry 1 has 3 fields");
  expect_refused(head + "1 -1.0 2.0 3.0\n", "bad.table:3: r = -1.0 is not positive");
  expect_refused(head + "1 1.0 2.0 3.0\n2 1.1 2 3\n", "table T (line 1) has 2 entries, its N line 3");
  expect_refused("T\nN 3 R 1.0 1.2\n1 1.0 1 1\n2 1.15 1 1\n3 1.2 1 1\n", "bad.table:4: r = 1.15 is off the R grid of line 2");
  expect_refused("T\nM 3\n", "bad.table:2: table T needs 'N count [R|RSQ lo hi]'");
  expect_refused("T\nN 1\n", "bad.table:2: N = 1 (a whole number from 2 to 1e7)");
  expect_refused("T\nN 2 FP 1 2\n", "bad.table:2: after N only 'R lo hi' or 'RSQ lo hi'");
  expect_refused("T\nN 2 R 2 1\n", "bad.table:2: R 2 1 (0 < lo < hi)");
  expect_refused("T\nN 2\n1 1 1 1\n2 2 1 1\nT\nN 2\n1 1 1 1\n2 2 1 1\n", "bad.table:5: table T appears twice");
  expect_refused("T\n", "bad.table:1: table T has no N line");
  expect_refused("T extra\n", "bad.table:1: 'T extra' where a table keyword (one word) is due");
  expect_refused("# nothing\n", "bad.table: no table in the file");
}

TEST(PairTable, FileWithoutTheKeywordNamesItsTables) {
  EXPECT_THROW(read_pair_table_file("/no/such/file.table", "LJ"), InputError);
  try {
    const std::string path = ::testing::TempDir() + "pair_table_test.table";
    {
      std::ofstream out(path);
      out << lj_file();
    }
    EXPECT_EQ(read_pair_table_file(path, "LJ_RSQ").name, "LJ_RSQ");
    read_pair_table_file(path, "LJ");
    ADD_FAILURE() << "no table LJ accepted";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("has no table LJ (it has LJ_R, LJ_RSQ)"), std::string::npos) << e.what();
  }
}

}  // namespace

// Iterative Boltzmann inversion (meso/tables/ibi.hpp) on distributions with known
// answers: the potential of mean force of g = exp(-V/kT), its wall, the
// update, the convergence measure and the table made of a binned potential.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <fstream>
#include <sstream>
#include <string>

#include "meso/core/error.hpp"
#include "meso/tables/ibi.hpp"
#include "meso/tables/ibi_bonded.hpp"
#include "meso/analysis/rdf.hpp"

namespace {

using namespace meso;

double v_model(double r) { return 4.0 * (std::pow(r, -12) - std::pow(r, -6)); }

// g = exp(-V/kT) of the LJ on 125 bins of 0.02 (no correlations: the PMF
// is V itself).
Rdf boltzmann_target(double kT) {
  Rdf t;
  t.bin_width = 0.02;
  for (int i = 0; i < 125; ++i) {
    const double r = 0.01 + 0.02 * i;
    t.r.push_back(r);
    t.g.push_back(std::exp(-v_model(r) / kT));
  }
  return t;
}

TEST(Ibi, PotentialOfMeanForceInvertsBoltzmann) {
  const double kT = 1.5;
  const Rdf t = boltzmann_target(kT);
  const BinnedPotential v = potential_of_mean_force(t, kT);
  const double last = v_model(t.r.back());
  std::size_t first = 0;
  while (!(t.g[first] > 1e-3)) ++first;
  EXPECT_NEAR(t.r[first], 0.89, 1e-9);  // g > 1e-3 where V < 10.4 (kT = 1.5): V(0.87) = 12.0, V(0.89) = 8.2
  for (std::size_t i = first; i < t.r.size(); ++i) EXPECT_NEAR(v.v[i], v_model(t.r[i]) - last, 1e-9) << t.r[i];
  EXPECT_EQ(v.v.back(), 0.0);
  // The wall: rises inwards, at least 50 kT per unit length.
  for (std::size_t i = first; i-- > 0;) EXPECT_GE(v.v[i] - v.v[i + 1], 50.0 * 0.02 - 1e-12) << t.r[i];
}

TEST(Ibi, UpdateMovesThePotentialByTheLogRatio) {
  const double kT = 1.5;
  const Rdf t = boltzmann_target(kT);
  BinnedPotential v = potential_of_mean_force(t, kT);
  const BinnedPotential v0 = v;
  ibi_update(v, t, t, kT, 0.5);
  for (std::size_t i = 0; i < v.v.size(); ++i) EXPECT_EQ(v.v[i], v0.v[i]);
  // g = g_t exp(0.1 r): V gains alpha kT 0.1 r, less its value at the last bin.
  Rdf g = t;
  for (std::size_t i = 0; i < g.g.size(); ++i) g.g[i] *= std::exp(0.1 * g.r[i]);
  ibi_update(v, g, t, kT, 0.5);
  for (std::size_t i = 0; i < v.v.size(); ++i) {
    if (!(t.g[i] > 1e-3)) {
      EXPECT_NEAR(v.v[i], v0.v[i] - 0.5 * kT * 0.1 * t.r.back(), 1e-12) << "the wall moves only by the shift";
      continue;
    }
    EXPECT_NEAR(v.v[i], v0.v[i] + 0.5 * kT * 0.1 * (t.r[i] - t.r.back()), 1e-12);
  }
  EXPECT_THROW(ibi_update(v, g, t, kT, 0.0), InputError);
  Rdf shorter = t;
  shorter.r.pop_back(), shorter.g.pop_back();
  EXPECT_THROW(ibi_update(v, shorter, t, kT, 1.0), InputError);
}

TEST(Ibi, DifferenceByHand) {
  Rdf a, b;
  a.r = b.r = {1.0, 2.0, 3.0};
  a.g = {1.0, 1.0, 1.0};
  b.g = {1.1, 0.8, 1.0};
  EXPECT_NEAR(rdf_difference(b, a), 0.3 / 3.0, 1e-15);
  EXPECT_EQ(rdf_difference(a, a), 0.0);
}

// A binned quadratic (central differences are exact for it) becomes a table
// with its energy and force, away from the two end bins, whose one-sided
// differences are first order (F off by 0.02 there).
TEST(Ibi, TableOfABinnedPotential) {
  BinnedPotential v;
  for (int i = 0; i < 100; ++i) {
    const double r = 0.5 + 0.02 * i;
    v.r.push_back(r);
    v.v.push_back((2.48 - r) * (2.48 - r));
  }
  const PairPotentialTable t = pair_table_from_ibi("q", v, 400);
  EXPECT_NEAR(t.r_min, 0.5, 1e-12);
  EXPECT_NEAR(t.r_max, 2.48, 1e-12);
  for (double r = 0.56; r < 2.42; r += 0.013) {
    EXPECT_NEAR(t.energy(r), (2.48 - r) * (2.48 - r), 1e-6) << r;
    EXPECT_NEAR(t.force(r), 2.0 * (2.48 - r), 1e-4) << r;
  }
  EXPECT_THROW(potential_of_mean_force(Rdf{{1.0, 2.0}, {1.0, 1.0}, 1.0}, 1.0), InputError);
  Rdf empty = boltzmann_target(1.0);
  for (double& g : empty.g) g = 0.0;
  EXPECT_THROW(potential_of_mean_force(empty, 1.0), InputError);
}

// The table file of a binned potential (mesobench ibi's output) reads back
// through the table reader as the very table the IBI runs used
// (pair_table_from_ibi): V and F agree everywhere to round-off of the 17
// digits written.
TEST(Ibi, WrittenTableReadsBack) {
  BinnedPotential v;
  for (int i = 0; i < 50; ++i) {
    const double r = 0.025 + 0.05 * i;
    v.r.push_back(r);
    v.v.push_back(v_model(std::max(r, 0.8)) + (2.475 - r) * (2.475 - r));
  }
  std::stringstream file;
  write_ibi_table(file, "Q", v, 300);
  const std::vector<PairPotentialTable> t = read_pair_tables(file, "written");
  const PairPotentialTable want = pair_table_from_ibi("Q", v, 300);
  ASSERT_EQ(t.size(), 1u);
  EXPECT_EQ(t[0].name, "Q");
  EXPECT_EQ(t[0].intervals, want.intervals);
  EXPECT_NEAR(t[0].r_min, 0.025, 1e-15);
  EXPECT_NEAR(t[0].r_max, 2.475, 1e-14);
  for (double r = 0.03; r < 2.47; r += 0.0137) {
    EXPECT_NEAR(t[0].energy(r), want.energy(r), 1e-9 * (1.0 + std::fabs(want.energy(r)))) << r;
    EXPECT_NEAR(t[0].force(r), want.force(r), 1e-8 * (1.0 + std::fabs(want.force(r)))) << r;
  }
}

// Values below 2.2e-308 are written as 0: the readers (std::stod) refuse a
// subnormal as out of range, so a table of them was written and then refused.
TEST(Ibi, WrittenTablesHoldNoSubnormals) {
  EXPECT_EQ(written_value(1e-310), 0.0);
  EXPECT_EQ(written_value(-4e-320), 0.0);
  EXPECT_EQ(written_value(2.3e-308), 2.3e-308);  // the smallest normals stay
  EXPECT_EQ(written_value(-1.5), -1.5);
  BinnedPotential v;
  for (int i = 0; i < 50; ++i) {
    v.r.push_back(0.025 + 0.05 * i);
    v.v.push_back(i % 2 ? 1e-310 : -3e-311);
  }
  std::stringstream pair;
  write_ibi_table(pair, "S", v, 100);
  EXPECT_EQ(pair.str().find("e-31"), std::string::npos) << pair.str();
  EXPECT_NO_THROW(read_pair_tables(pair, "subnormal pair"));
  BinnedPotential b = v;  // a bond potential on the same bins, and an angle one
  std::stringstream bond;
  write_bonded_ibi_table(bond, "S", TableKind::bond, b, 100);
  EXPECT_NO_THROW(read_bonded_tables(bond, "subnormal bond", TableKind::bond));
  for (std::size_t i = 0; i < b.r.size(); ++i) b.r[i] = (i + 0.5) * 3.14159265358979 / 50.0;
  std::stringstream angle;
  write_bonded_ibi_table(angle, "S", TableKind::angle, b, 181);
  EXPECT_NO_THROW(read_bonded_tables(angle, "subnormal angle", TableKind::angle));
}

// A g(r) file: comments, extra columns, the bins from r = 0; refusals name
// the file and line or bin.
TEST(Ibi, RdfFileReadsAndRefuses) {
  const std::string path = ::testing::TempDir() + "ibi_test_g.txt";
  auto write = [&](const std::string& text) { std::ofstream(path) << text; };
  write("# r g\n0.05 0 extra\n0.15 0.5\n\n0.25 1.5 # peak\n0.35 1.0\n");
  const Rdf g = read_rdf_file(path);
  ASSERT_EQ(g.r.size(), 4u);
  EXPECT_NEAR(g.bin_width, 0.1, 1e-15);
  EXPECT_DOUBLE_EQ(g.g[2], 1.5);
  auto refused = [&](const std::string& text, const std::string& needle) {
    write(text);
    try {
      read_rdf_file(path);
      ADD_FAILURE() << "accepted: " << text;
    } catch (const InputError& e) {
      EXPECT_NE(std::string(e.what()).find(needle), std::string::npos) << e.what();
    }
  };
  refused("0.05 0\n0.15 0.5\n0.25 1\n", "has 3 bins");
  refused("0.05 0\n0.15 x\n0.25 1\n0.35 1\n", ":2: expected two");
  refused("0.05 0\n0.15 -0.5\n0.25 1\n0.35 1\n", ":2: g(r) = -0.5");
  refused("0.05 0\n0.16 0.5\n0.25 1\n0.35 1\n", "bin 2: r = 0.16 is not the centre");
  refused("0.05 0\n0.15 nan\n0.25 1\n0.35 1\n", ":2: expected two finite");
  std::remove(path.c_str());
}

}  // namespace

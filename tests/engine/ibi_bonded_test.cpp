// The bonded half of IBI (meso/tables/ibi_bonded.hpp) and the intermolecular g(r)
// (meso/analysis/rdf.hpp): histograms of hand-placed bonds and angles, the Boltzmann
// inversion of an exactly harmonic distribution, the update's sign and
// size, the tables' ranges, and g(r) leaving out the pairs of one molecule.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <fstream>
#include <sstream>
#include <string>
#include <numbers>
#include <vector>

#include "meso/core/error.hpp"
#include "meso/tables/ibi_bonded.hpp"
#include "meso/analysis/rdf.hpp"

namespace {

using namespace meso;
constexpr double kPi = std::numbers::pi;

// Four particles: 0-1 0.55 apart along x, 1-2 0.75 along y (a right angle
// at 1), 2-3 1.25 along x (the angle 1-2-3 is 90 degrees too).
ParticleData<double> four() {
  ParticleData<double> p;
  p.resize(4);
  const Vec3d r[4] = {{0, 0, 0}, {0.55, 0, 0}, {0.55, 0.75, 0}, {1.8, 0.75, 0}};
  for (uint32_t i = 0; i < 4; ++i) {
    p.position[i] = r[i];
    p.tag[i] = 3 - i;  // stored in reverse tag order
  }
  return p;
}

Topology chain() {
  Topology t;
  t.bond_types.resize(1);
  t.angle_types.resize(1);
  t.bonds = {{3, 2, 0}, {2, 1, 0}, {1, 0, 0}};
  t.angles = {{3, 2, 1, 0}, {2, 1, 0, 0}};
  return t;
}

TEST(IbiBonded, HistogramsOfHandPlacedBondsAndAngles) {
  BondedHistogram bonds(TableKind::bond, 0, 0.0, 2.0, 20), angles(TableKind::angle, 0, 0.0, kPi, 18);
  const ParticleData<double> p = four();
  bonds.add(Box(10.0), p, chain());
  angles.add(Box(10.0), p, chain());
  const BondedDistribution b = bonds.result(), a = angles.result();
  EXPECT_EQ(bonds.samples(), 3u);
  // Bins of 0.1: 0.55, 0.75 and 1.25 land in bins 5, 7 and 12, each 1/3 / 0.1.
  EXPECT_NEAR(b.p[5], 1.0 / 0.3, 1e-12);
  EXPECT_NEAR(b.p[7], 1.0 / 0.3, 1e-12);
  EXPECT_NEAR(b.p[12], 1.0 / 0.3, 1e-12);
  EXPECT_DOUBLE_EQ(b.p[6], 0.0);
  // Both angles are 90 degrees: bin 9 of 10-degree bins.
  EXPECT_NEAR(a.p[9], 1.0 / (kPi / 18), 1e-9);
  EXPECT_THROW(BondedHistogram(TableKind::angle, 0, 0.0, 4.0, 10), InputError);
  EXPECT_THROW(BondedHistogram(TableKind::bond, 0, 0.0, 2.0, 20).result(), InputError);
}

// P(r) of a harmonic bond k/2 (r - r0)^2 at kT = 1 with its r^2 Jacobian,
// normalised on bins of `dx` from `lo`.
BondedDistribution harmonic_bond_distribution(double k, double r0, double lo, double dx, int bins) {
  BondedDistribution d;
  d.dx = dx;
  double sum = 0.0;
  for (int i = 0; i < bins; ++i) {
    const double r = lo + (i + 0.5) * dx;
    d.x.push_back(r);
    d.p.push_back(r * r * std::exp(-0.5 * k * (r - r0) * (r - r0)));
    sum += d.p.back() * dx;
  }
  for (double& p : d.p) p /= sum;
  return d;
}

TEST(IbiBonded, BoltzmannInversionRecoversAHarmonicBond) {
  const BondedDistribution t = harmonic_bond_distribution(100.0, 0.7, 0.2, 0.01, 100);
  const BinnedPotential v = bonded_potential_of_mean_force(t, 1.0);
  // Up to a constant (the minimum is 0): k/2 (r - r0)^2 where P is above
  // the floor, walls outside.
  const double c = v.v[50] - 50.0 * (v.r[50] - 0.7) * (v.r[50] - 0.7);
  const double top = *std::max_element(t.p.begin(), t.p.end());
  for (std::size_t i = 0; i < v.r.size(); ++i)
    if (t.p[i] > 1e-3 * top) EXPECT_NEAR(v.v[i] - c, 50.0 * (v.r[i] - 0.7) * (v.r[i] - 0.7), 1e-9) << v.r[i];
  EXPECT_GT(v.v.front(), 5.0);  // the walls keep a run inside
  EXPECT_GT(v.v.back(), 5.0);
  // One update with the target itself changes nothing; a distribution
  // twice the target in one bin raises V there by kT ln 2.
  BinnedPotential w = v;
  ibi_update(w, t, t, 1.0);
  for (std::size_t i = 0; i < v.v.size(); ++i) EXPECT_DOUBLE_EQ(w.v[i], v.v[i]);
  BondedDistribution twice = t;
  twice.p[50] *= 2.0;
  ibi_update(w, twice, t, 1.0);
  EXPECT_NEAR(w.v[50] - v.v[50], std::log(2.0), 1e-12);
  EXPECT_DOUBLE_EQ(w.v[49], v.v[49]);
  // sum |P - P_t| / sum P_t = P_t[50] / (1 / dx).
  EXPECT_NEAR(distribution_difference(twice, t), t.p[50] * 0.01, 1e-12);
}

TEST(IbiBonded, TablesReachPastTheBins) {
  const BondedDistribution t = harmonic_bond_distribution(100.0, 0.7, 0.2, 0.01, 100);
  const BondedTable bt = bonded_table_from_ibi("b", TableKind::bond, bonded_potential_of_mean_force(t, 1.0), 500);
  EXPECT_NEAR(bt.x_min, 0.001, 1e-15);
  EXPECT_NEAR(bt.x_max(), 2.0 * t.x.back(), 1e-12);
  EXPECT_NEAR(bt.derivative(0.75), 100.0 * 0.05, 0.05);  // the harmonic force
  BondedDistribution a;
  a.kind = TableKind::angle;
  a.dx = kPi / 90;
  for (int i = 0; i < 90; ++i) {
    const double th = (i + 0.5) * a.dx;
    a.x.push_back(th);
    a.p.push_back(std::sin(th) * std::exp(-2.5 * (th - 2.0) * (th - 2.0)));
  }
  const BondedTable at = bonded_table_from_ibi("a", TableKind::angle, bonded_potential_of_mean_force(a, 1.0), 400);
  EXPECT_DOUBLE_EQ(at.x_min, 0.0);
  EXPECT_NEAR(at.x_max(), kPi, 1e-12);
  EXPECT_NEAR(at.derivative(2.3), 5.0 * 0.3, 0.02);
}

TEST(Rdf, IntermolecularLeavesOutPairsOfOneMolecule) {
  // Two molecules of two particles: pairs (0, 1) and (2, 3) are within one
  // molecule; the four others cross.
  ParticleData<double> p;
  p.resize(4);
  const Vec3d r[4] = {{0, 0, 0}, {0.15, 0, 0}, {0, 0.35, 0}, {0, 0, 0.45}};
  for (uint32_t i = 0; i < 4; ++i) p.position[i] = r[i], p.tag[i] = i;
  const Box box(2.0);
  const Rdf all = compute_rdf(box, p, 1.0, 10);
  const Rdf inter = compute_rdf(box, p, 1.0, 10, {0, 0, 1, 1});
  // All pairs: 6 of them, bin 1 (0.1-0.2) holds (0, 1); intermolecular: 4
  // pairs, bin 1 empty, bin 3 (0.3-0.4) holds two, normalised by 4 pairs.
  EXPECT_GT(all.g[1], 0.0);
  EXPECT_DOUBLE_EQ(inter.g[1], 0.0);
  const double shell = 4.0 / 3.0 * kPi * (0.4 * 0.4 * 0.4 - 0.3 * 0.3 * 0.3);
  EXPECT_NEAR(inter.g[3], 2.0 / (4.0 * shell / 8.0), 1e-9);  // (0, 2) at 0.35, (1, 2) at 0.38
  EXPECT_NEAR(all.g[3], 2.0 / (6.0 * shell / 8.0), 1e-9);
  EXPECT_THROW(compute_rdf(box, p, 1.0, 10, {0, 0}), InputError);
}

// Targets from files: degrees become radians, any normalisation becomes
// sum P dx = 1, and the refusals name the file's line or the bad value.
TEST(IbiBonded, ReadsBondAndAngleTargets) {
  const std::string path = ::testing::TempDir() + "ibi_bonded_target.txt";
  auto write = [&](const std::string& text) { std::ofstream(path) << text; };
  write("# theta P\n5 0\n15 2 extra\n\n25 6 # peak\n35 2\n");
  const BondedDistribution a = read_bonded_distribution_file(path, TableKind::angle);
  ASSERT_EQ(a.x.size(), 4u);
  EXPECT_NEAR(a.x[2], 25.0 * kPi / 180.0, 1e-15);
  EXPECT_NEAR(a.dx, 10.0 * kPi / 180.0, 1e-15);
  EXPECT_NEAR(a.p[2], 0.6 / a.dx, 1e-12);  // 6 of 10
  write("0.35 1\n0.45 3\n0.55 3\n0.65 1\n");
  const BondedDistribution b = read_bonded_distribution_file(path, TableKind::bond);
  EXPECT_NEAR(b.p[1], 0.375 / 0.1, 1e-12);
  auto refused = [&](const std::string& text, TableKind kind, const std::string& needle) {
    write(text);
    try {
      read_bonded_distribution_file(path, kind);
      ADD_FAILURE() << "accepted: " << text;
    } catch (const InputError& e) {
      EXPECT_NE(std::string(e.what()).find(needle), std::string::npos) << e.what();
    }
  };
  refused("0.35 1\n0.45 3\n0.55 3\n", TableKind::bond, "has 3 bins");
  refused("0.35 1\n0.45 3\n0.56 3\n0.65 1\n", TableKind::bond, ":3: x = 0.56 is not the centre");
  refused("0.35 1\n0.45 -3\n0.55 3\n0.65 1\n", TableKind::bond, ":2: P = -3 is negative");
  refused("0.35 1\n0.45 nan\n0.55 3\n0.65 1\n", TableKind::bond, ":2: expected two finite");
  refused("0.35 0\n0.45 0\n0.55 0\n0.65 0\n", TableKind::bond, "every P is 0");
  refused("-0.05 1\n0.05 1\n0.15 1\n0.25 1\n", TableKind::bond, "below 0");
  refused("155 1\n165 1\n175 1\n185 1\n", TableKind::angle, "beyond 180");
}

// The written tables read back as the tables the loop ran.
TEST(IbiBonded, WrittenTablesReadBack) {
  const BondedDistribution t = harmonic_bond_distribution(100.0, 0.7, 0.2, 0.01, 100);
  const BinnedPotential v = bonded_potential_of_mean_force(t, 1.0);
  std::stringstream bond;
  write_bonded_ibi_table(bond, "B", TableKind::bond, v, 400);
  const BondedTable want = bonded_table_from_ibi("B", TableKind::bond, v, 400);
  const BondedTable got = read_bonded_tables(bond, "written", TableKind::bond).at(0);
  for (double r = want.x_min; r <= want.x_max(); r += 0.0137) {
    EXPECT_NEAR(got.energy(r), want.energy(r), 1e-9 * (1.0 + std::fabs(want.energy(r)))) << r;
    EXPECT_NEAR(got.derivative(r), want.derivative(r), 1e-7 * (1.0 + std::fabs(want.derivative(r)))) << r;
  }
  // An angle: harmonic about 110 degrees on 2-degree bins, in radians.
  BinnedPotential a;
  for (int i = 0; i < 90; ++i) {
    a.r.push_back((2.0 * i + 1.0) * kPi / 180.0);
    a.v.push_back(2.5 * std::pow(a.r.back() - 110.0 * kPi / 180.0, 2));
  }
  std::stringstream angle;
  write_bonded_ibi_table(angle, "A", TableKind::angle, a, 181);
  const BondedTable wa = bonded_table_from_ibi("A", TableKind::angle, a, 181);
  const BondedTable ga = read_bonded_tables(angle, "written", TableKind::angle).at(0);
  for (double th = 0.0; th <= kPi; th += 0.031)
    EXPECT_NEAR(ga.energy(th), wa.energy(th), 1e-9 * (1.0 + std::fabs(wa.energy(th)))) << th;
}

}  // namespace

#include "meso/systems/melt_tables.hpp"

#include <cmath>
#include <numbers>
#include <utility>
#include <vector>

#include "meso/core/error.hpp"

namespace meso {
namespace {

// Samples of V and F = -dV/dx at `n` evenly spaced x from lo to hi; the
// Hermite resampling of the table builders is exact for these quadratics.
template <class Potential>
void sample(double lo, double hi, uint32_t n, Potential vf, std::vector<double>& x, std::vector<double>& v,
            std::vector<double>& f) {
  x.resize(n), v.resize(n), f.resize(n);
  for (uint32_t i = 0; i < n; ++i) {
    x[i] = i + 1 == n ? hi : lo + (hi - lo) * double(i) / double(n - 1);
    const auto [vi, fi] = vf(x[i]);
    v[i] = vi, f[i] = fi;
  }
}

}  // namespace

void TableMeltParams::validate() const {
  melt.validate();
  if (points < 2 || points > 10000000u)
    throw_input_error("table-melt points = ", points, " is invalid: it must be in 2 .. 10^7");
  const int given = int(!files.pair.empty()) + int(!files.bond.empty()) + int(!files.angle.empty());
  if (given != 0 && given != 3)
    throw_input_error("table-melt: pair_table, bond_table and angle_table are given together (", given,
                      " of the three given)");
  if (given == 3 && (files.keyword.empty() || files.keyword.find_first_of(" \t#") != std::string::npos))
    throw_input_error("table-melt keyword '", files.keyword, "' must be one word without '#'");
}

PairPotentialTable analytic_melt_pair_table(const BeadSpringMeltParams& p, uint32_t points) {
  std::vector<double> r, v, f;
  const double a = p.a, rc = p.rcut;
  auto soft = [&](double x) {
    const double w = 1.0 - x / rc;
    return std::pair{0.5 * a * rc * w * w, a * w};
  };
  // Below r_s = kMeltPairInnerBelow rcut, V continues as the quadratic in
  // z = r^2 with V's value and first two z-derivatives at r_s: the r^2
  // grid's spline cannot follow V's sqrt(z) to z = 0 (dV/dz -> infinity),
  // and a continuation smooth to second order leaves it no kink to ring at.
  const double rs = kMeltPairInnerBelow * rc, zs = rs * rs, A = 0.5 * a * rc;
  const double vs = soft(rs).first;
  const double v1 = A * (1.0 / (rc * rc) - 1.0 / (rc * rs)), v2 = A / (2.0 * rc * rs * zs);
  sample(kMeltTableRIn, rc, 4 * points, [&](double x) {
    if (x >= rs) return soft(x);
    const double d = x * x - zs;
    return std::pair{vs + v1 * d + 0.5 * v2 * d * d, -2.0 * x * (v1 + v2 * d)};
  }, r, v, f);
  return table_from_samples("melt_pair", r, v, f, points);
}

BondedTable analytic_melt_bond_table(const BeadSpringMeltParams& p, uint32_t points) {
  std::vector<double> x, v, f;
  sample(0.001, p.bond_r0 + 1.5, points, [&](double r) {
    const double d = r - p.bond_r0;
    return std::pair{0.5 * p.bond_k * d * d, -p.bond_k * d};
  }, x, v, f);
  return bonded_table_from_samples("melt_bond", TableKind::bond, x, v, f, points);
}

BondedTable analytic_melt_angle_table(const BeadSpringMeltParams& p, uint32_t points) {
  std::vector<double> x, v, f;
  const double t0 = p.angle_theta0 * std::numbers::pi / 180.0;
  sample(0.0, std::numbers::pi, points, [&](double t) {
    const double d = t - t0;
    return std::pair{0.5 * p.angle_k * d * d, -p.angle_k * d};
  }, x, v, f);
  return bonded_table_from_samples("melt_angle", TableKind::angle, x, v, f, points);
}

System with_melt_tables(System sys, PairPotentialTable pair, BondedTable bond, BondedTable angle) {
  if (sys.topology.bond_types.size() != 1 || sys.topology.angle_types.size() != 1 || sys.type_names.size() != 1)
    throw_input_error("with_melt_tables: a melt of one bead type, one bond type and one angle type is needed");
  sys.emplace_pair_style<TabulatedPairs>(std::vector{std::move(pair)}, PairTable<int32_t>(1, 0));
  Topology& t = sys.topology;
  t.bond_tables = {std::move(bond)};
  t.angle_tables = {std::move(angle)};
  t.bond_types[0].kind = BondKind::table;
  t.bond_types[0].table = 0;
  t.angle_types[0].kind = AngleKind::table;
  t.angle_types[0].table = 0;
  return sys;
}

System make_table_melt(const TableMeltParams& p) {
  p.validate();
  System melt = make_bead_spring_melt(p.melt);
  if (p.files.empty())
    return with_melt_tables(std::move(melt), analytic_melt_pair_table(p.melt, p.points),
                            analytic_melt_bond_table(p.melt, p.points), analytic_melt_angle_table(p.melt, p.points));
  const MeltTableFiles& f = p.files;
  return with_melt_tables(std::move(melt), read_pair_table_file(f.pair, f.keyword),
                          read_bonded_table_file(f.bond, f.keyword, TableKind::bond),
                          read_bonded_table_file(f.angle, f.keyword, TableKind::angle));
}

}  // namespace meso

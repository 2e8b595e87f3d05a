#include "meso/tables/ibi.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>

#include "meso/core/error.hpp"

namespace meso {
namespace {

void require_same_bins(const Rdf& a, const Rdf& b, const char* what) {
  if (a.r.size() != b.r.size() || a.g.size() != a.r.size() || b.g.size() != b.r.size())
    throw_input_error(what, ": distributions of ", a.r.size(), " and ", b.r.size(), " bins");
  for (std::size_t i = 0; i < a.r.size(); ++i)
    if (std::fabs(a.r[i] - b.r[i]) > 1e-9 * std::max(1.0, std::fabs(b.r[i])))
      throw_input_error(what, ": bin ", i, " is at r = ", a.r[i], " and ", b.r[i]);
}

void shift_to_zero_at_cutoff(BinnedPotential& v) {
  const double last = v.v.back();
  for (double& x : v.v) x -= last;
}

}  // namespace

double written_value(double x) { return std::fpclassify(x) == FP_SUBNORMAL ? 0.0 : x; }

BinnedPotential potential_of_mean_force(const Rdf& target, double kT, double g_floor, double wall_slope) {
  const std::size_t n = target.r.size();
  if (n < 4 || target.g.size() != n) throw_input_error("potential_of_mean_force: ", n, " bins (at least 4)");
  require_positive("kT", kT);
  for (std::size_t i = 0; i < n; ++i) {
    if (!std::isfinite(target.g[i]) || target.g[i] < 0.0)
      throw_input_error("potential_of_mean_force: g(", target.r[i], ") = ", target.g[i], " (finite, >= 0)");
    if (i > 0 && !(target.r[i] > target.r[i - 1]))
      throw_input_error("potential_of_mean_force: bin ", i, " at r = ", target.r[i], " does not increase");
  }
  std::size_t first = 0;
  while (first < n && !(target.g[first] > g_floor)) ++first;
  if (first + 2 >= n) throw_input_error("potential_of_mean_force: the target has no bins above g = ", g_floor);
  BinnedPotential v;
  v.r = target.r;
  v.v.assign(n, 0.0);
  for (std::size_t i = first; i < n; ++i) v.v[i] = target.g[i] > g_floor ? -kT * std::log(target.g[i]) : 0.0;
  // Bins past `first` with g below the floor (holes in a noisy target) take
  // their inner neighbour's value.
  for (std::size_t i = first + 1; i < n; ++i)
    if (!(target.g[i] > g_floor)) v.v[i] = v.v[i - 1];
  const double r0 = v.r[first];
  const double slope = std::max(wall_slope, -(v.v[first + 1] - v.v[first]) / (v.r[first + 1] - v.r[first]));
  for (std::size_t i = 0; i < first; ++i) {
    const double d = r0 - v.r[i];
    v.v[i] = v.v[first] + slope * d + (slope / r0) * d * d;
  }
  shift_to_zero_at_cutoff(v);
  return v;
}

void ibi_update(BinnedPotential& v, const Rdf& g, const Rdf& target, double kT, double alpha, double g_floor) {
  require_same_bins(g, target, "ibi_update");
  if (v.r.size() != target.r.size()) throw_input_error("ibi_update: a potential of ", v.r.size(), " bins");
  if (!(alpha > 0.0 && alpha <= 1.0)) throw_input_error("ibi_update: alpha = ", alpha, " (in (0, 1])");
  require_positive("kT", kT);
  for (std::size_t i = 0; i < v.v.size(); ++i)
    if (g.g[i] > g_floor && target.g[i] > g_floor) v.v[i] += alpha * kT * std::log(g.g[i] / target.g[i]);
  shift_to_zero_at_cutoff(v);
}

double rdf_difference(const Rdf& g, const Rdf& target) {
  require_same_bins(g, target, "rdf_difference");
  double num = 0.0, den = 0.0;
  for (std::size_t i = 0; i < g.g.size(); ++i) {
    num += std::fabs(g.g[i] - target.g[i]);
    den += target.g[i];
  }
  if (!(den > 0.0)) throw_input_error("rdf_difference: the target is zero everywhere");
  return num / den;
}

std::vector<double> ibi_forces(const BinnedPotential& v) {
  const std::size_t n = v.r.size();
  if (n < 3 || v.v.size() != n) throw_input_error("ibi_forces: ", n, " bins (at least 3)");
  std::vector<double> f(n);
  for (std::size_t i = 0; i < n; ++i) {
    const std::size_t a = i == 0 ? 0 : i - 1, b = i + 1 == n ? n - 1 : i + 1;
    f[i] = -(v.v[b] - v.v[a]) / (v.r[b] - v.r[a]);
  }
  return f;
}

PairPotentialTable pair_table_from_ibi(std::string name, const BinnedPotential& v, uint32_t points, double r_in) {
  if (r_in == 0.0) return table_from_samples(std::move(name), v.r, v.v, ibi_forces(v), points);
  if (v.r.size() < 2 || v.v.size() != v.r.size() || !(r_in > 0.0 && r_in < v.r[0]))
    throw_input_error("pair_table_from_ibi: r_in = ", r_in, " must lie in (0, ", v.r.empty() ? 0.0 : v.r[0],
                      ") of a potential of >= 2 bins");
  // Inwards of the first bin, V linear in z = r^2 (the tables' grid) with
  // the slope dV/dz the first two bins have, and its force F = -2 r dV/dz,
  // which falls to 0 at r = 0. (Linear in r instead, dV/dz = (dV/dr) / 2r
  // would grow without bound there, and the spline in z clamped to it would
  // ring across the first intervals.)
  const double slope_z = (v.v[1] - v.v[0]) / (v.r[1] * v.r[1] - v.r[0] * v.r[0]);
  BinnedPotential w = v;
  w.r.insert(w.r.begin(), r_in);
  w.v.insert(w.v.begin(), v.v[0] - slope_z * (v.r[0] * v.r[0] - r_in * r_in));
  std::vector<double> f = ibi_forces(w);
  f[0] = -2.0 * r_in * slope_z;
  f[1] = -2.0 * v.r[0] * slope_z;
  return table_from_samples(std::move(name), w.r, w.v, f, points);
}

void write_ibi_table(std::ostream& out, const std::string& keyword, const BinnedPotential& v, uint32_t points,
                     double r_in) {
  const PairPotentialTable t = pair_table_from_ibi(keyword, v, points, r_in);
  char buf[160];
  out << keyword << '\n';
  std::snprintf(buf, sizeof buf, "N %u RSQ %.17g %.17g\n\n", t.intervals + 1, t.r_min, t.r_max);
  out << buf;
  for (uint32_t k = 0; k <= t.intervals; ++k) {
    // Grid point k: the start of interval k (c0, c1), or the end of the last.
    const uint32_t i = k < t.intervals ? k : k - 1;
    const double d = k < t.intervals ? 0.0 : t.dz;
    const double* c = t.coeff.data() + 4 * std::size_t(i);
    const double z = t.z_min + k * t.dz, r = std::sqrt(z);
    const double value = c[0] + d * (c[1] + d * (c[2] + d * c[3]));
    const double dv_dz = c[1] + d * (2.0 * c[2] + 3.0 * d * c[3]);
    std::snprintf(buf, sizeof buf, "%u %.17g %.17g %.17g\n", k + 1, r, written_value(value),
                  written_value(-2.0 * r * dv_dz));
    out << buf;
  }
}

}  // namespace meso

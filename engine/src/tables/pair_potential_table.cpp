#include "meso/tables/pair_potential_table.hpp"

#include <algorithm>
#include <cmath>
#include <fstream>
#include <sstream>

#include "meso/tables/cubic_spline.hpp"
#include "meso/core/error.hpp"
#include "meso/io/input_file.hpp"
#include "table_file.hpp"

namespace meso {

double TabulatedPairs::max_rcut() const {
  double rc = 0.0;
  for (int32_t k : table_of.data())
    if (k >= 0 && std::size_t(k) < tables.size()) rc = std::max(rc, tables[k].r_max);
  return rc;
}

void TabulatedPairs::validate(uint32_t ntypes, bool) const {
  if (table_of.ntypes() != ntypes)
    throw_input_error("pair table map is ", table_of.ntypes(), "x", table_of.ntypes(), " but there are ", ntypes,
                      " types");
  for (uint32_t a = 0; a < ntypes; ++a)
    for (uint32_t b = a; b < ntypes; ++b) {
      const int32_t k = table_of(a, b);
      if (k < -1 || k >= static_cast<int32_t>(tables.size()))
        throw_input_error("pair table of types ", a, "-", b, " is ", k, ": there are ", tables.size(),
                          " tables (-1: no interaction)");
    }
  for (const PairPotentialTable& t : tables)
    if (t.intervals < 1 || t.coeff.size() != 4 * std::size_t(t.intervals) || !(t.dz > 0.0) || !(t.z_min > 0.0))
      throw_input_error("pair table ", t.name, " is malformed (", t.intervals, " intervals, ", t.coeff.size(),
                        " coefficients)");
}

physics::TableView<double> PairPotentialTable::view() const {
  return {coeff.data(), z_min, 1.0 / dz, dz, z_min + double(intervals) * dz, intervals};
}

double PairPotentialTable::energy(double r) const {
  if (!(r >= r_min && r < r_max))
    throw_input_error("table ", name, ": r = ", r, " is outside [", r_min, ", ", r_max, ")");
  return physics::table_pair_force(r * r, view()).energy;
}

double PairPotentialTable::force(double r) const {
  if (!(r >= r_min && r < r_max))
    throw_input_error("table ", name, ": r = ", r, " is outside [", r_min, ", ", r_max, ")");
  return physics::table_pair_force(r * r, view()).f_over_r * r;
}

PairPotentialTable spline_on_rsq_grid(std::string name, double z_min, double dz, const std::vector<double>& v,
                                      double slope_lo, double slope_hi) {
  if (!(dz > 0.0) || !std::isfinite(dz) || !(z_min > 0.0))
    throw_input_error("table ", name, ": grid z_min = ", z_min, ", dz = ", dz, " (both positive)");
  PairPotentialTable t;
  t.coeff = clamped_spline(name, dz, v, slope_lo, slope_hi);
  t.name = std::move(name);
  t.z_min = z_min;
  t.dz = dz;
  t.intervals = static_cast<uint32_t>(v.size() - 1);
  t.r_min = std::sqrt(z_min);
  t.r_max = std::sqrt(z_min + double(t.intervals) * dz);
  return t;
}

PairPotentialTable table_from_samples(std::string name, const std::vector<double>& r, const std::vector<double>& v,
                                      const std::vector<double>& f, uint32_t points) {
  const std::size_t n = r.size();
  if (n < 2 || v.size() != n || f.size() != n)
    throw_input_error("table ", name, ": ", n, " r, ", v.size(), " V and ", f.size(), " F samples (2 or more, equal)");
  if (points < 2) throw_input_error("table ", name, ": ", points, " grid points (at least 2)");
  for (std::size_t i = 0; i < n; ++i) {
    if (!(r[i] > 0.0) || !std::isfinite(r[i]) || !std::isfinite(v[i]) || !std::isfinite(f[i]))
      throw_input_error("table ", name, ": sample ", i + 1, " (r = ", r[i], ", V = ", v[i], ", F = ", f[i],
                        ") is not finite with r > 0");
    if (i > 0 && !(r[i] > r[i - 1]))
      throw_input_error("table ", name, ": r = ", r[i], " at sample ", i + 1, " does not increase");
  }
  // V at z-grid points by the cubic Hermite in r (dV/dr = -F).
  const double z0 = r.front() * r.front(), z1 = r.back() * r.back();
  const double dz = (z1 - z0) / double(points - 1);
  std::vector<double> slope(n), vz(points);
  for (std::size_t i = 0; i < n; ++i) slope[i] = -f[i];
  for (uint32_t k = 0; k < points; ++k)
    vz[k] = hermite_at(r, v, slope, k + 1 == points ? r.back() : std::sqrt(z0 + double(k) * dz));
  PairPotentialTable t = spline_on_rsq_grid(std::move(name), z0, dz, vz, -f.front() / (2.0 * r.front()),
                                            -f.back() / (2.0 * r.back()));
  t.r_min = r.front();
  t.r_max = r.back();
  return t;
}

std::vector<PairPotentialTable> read_pair_tables(std::istream& in, const std::string& source) {
  std::vector<PairPotentialTable> out;
  char grid = 0;  // of the section being read: 0, 'R' or 'Q' (RSQ)
  double lo = 0.0, hi = 0.0;
  table_file::Format format;
  format.x_name = "r";
  format.n_usage = "N count [R|RSQ lo hi]";
  format.options = [&](const table_file::Section&, const std::vector<std::string>& w, std::size_t line) {
    grid = 0;
    if (w.size() == 2) return;
    if (w.size() != 5 || (w[2] != "R" && w[2] != "RSQ")) {
      std::string text = w[0];
      for (std::size_t k = 1; k < w.size(); ++k) text += " " + w[k];
      throw_input_error(source, ":", line, ": after N only 'R lo hi' or 'RSQ lo hi' is read, not '", text, "'");
    }
    grid = w[2] == "R" ? 'R' : 'Q';
    lo = table_file::number(w[3], "lo", source, line);
    hi = table_file::number(w[4], "hi", source, line);
    if (!(lo > 0.0 && hi > lo)) throw_input_error(source, ":", line, ": ", w[2], " ", w[3], " ", w[4], " (0 < lo < hi)");
  };
  format.check = [&](const table_file::Section& s, double r, const std::string& field, std::size_t line) {
    if (!(r > 0.0)) throw_input_error(source, ":", line, ": r = ", field, " is not positive");
    if (!grid) return;
    const double k = double(s.x.size()), last = double(s.n - 1);
    const double want = grid == 'R' ? lo + k * (hi - lo) / last : std::sqrt(lo * lo + k * (hi * hi - lo * lo) / last);
    if (std::fabs(r - want) > 1e-6 * hi)
      throw_input_error(source, ":", line, ": r = ", field, " is off the ", grid == 'R' ? "R" : "RSQ", " grid of line ",
                        s.n_line, " (", want, " due)");
  };
  format.done = [&](const table_file::Section& s) {
    const std::vector<double>& r = s.x;
    PairPotentialTable t =
        grid == 'Q' ? spline_on_rsq_grid(s.keyword, r.front() * r.front(),
                                         (r.back() * r.back() - r.front() * r.front()) / double(s.n - 1), s.v,
                                         -s.f.front() / (2.0 * r.front()), -s.f.back() / (2.0 * r.back()))
                    : table_from_samples(s.keyword, r, s.v, s.f, static_cast<uint32_t>(s.n));
    t.source = source;
    out.push_back(std::move(t));
  };
  table_file::read_sections(in, source, format);
  return out;
}

PairPotentialTable read_pair_table_file(const std::string& path, const std::string& keyword) {
  std::ifstream in = io::open_input_file(path, "table file");
  return table_file::pick(read_pair_tables(in, path), path, keyword);
}

}  // namespace meso

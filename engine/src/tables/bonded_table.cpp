#include "meso/tables/bonded_table.hpp"

#include <cmath>
#include <fstream>
#include <numbers>

#include "meso/tables/cubic_spline.hpp"
#include "meso/core/error.hpp"
#include "meso/io/input_file.hpp"
#include "table_file.hpp"

namespace meso {

physics::TableView<double> BondedTable::view() const {
  return {coeff.data(), x_min, 1.0 / dx, dx, x_max(), intervals};
}

double BondedTable::energy(double x) const {
  if (!(x >= x_min && x <= x_max()))
    throw_input_error("table ", name, ": x = ", x, " is outside [", x_min, ", ", x_max(), "]");
  return physics::table_value(x, view()).v;
}

double BondedTable::derivative(double x) const {
  if (!(x >= x_min && x <= x_max()))
    throw_input_error("table ", name, ": x = ", x, " is outside [", x_min, ", ", x_max(), "]");
  return physics::table_value(x, view()).dv;
}

BondedTable bonded_table_from_samples(std::string name, TableKind kind, const std::vector<double>& x,
                                      const std::vector<double>& v, const std::vector<double>& f, uint32_t points) {
  const std::size_t n = x.size();
  if (n < 2 || v.size() != n || f.size() != n)
    throw_input_error("table ", name, ": ", n, " x, ", v.size(), " V and ", f.size(), " F samples (2 or more, equal)");
  if (points < 2) throw_input_error("table ", name, ": ", points, " grid points (at least 2)");
  for (std::size_t i = 0; i < n; ++i) {
    if (!std::isfinite(x[i]) || !std::isfinite(v[i]) || !std::isfinite(f[i]))
      throw_input_error("table ", name, ": sample ", i + 1, " (x = ", x[i], ", V = ", v[i], ", F = ", f[i],
                        ") is not finite");
    if (i > 0 && !(x[i] > x[i - 1]))
      throw_input_error("table ", name, ": x = ", x[i], " at sample ", i + 1, " does not increase");
  }
  const double dx = (x.back() - x.front()) / double(points - 1);
  bool even = points == n;
  for (std::size_t i = 0; even && i < n; ++i) even = std::fabs(x[i] - (x.front() + double(i) * dx)) <= 1e-9 * dx;
  std::vector<double> slope(n), grid(points);
  for (std::size_t i = 0; i < n; ++i) slope[i] = -f[i];
  for (uint32_t k = 0; k < points; ++k)
    grid[k] = even ? v[k] : hermite_at(x, v, slope, k + 1 == points ? x.back() : x.front() + double(k) * dx);
  BondedTable t;
  t.coeff = clamped_spline(name, dx, grid, slope.front(), slope.back());
  t.name = std::move(name);
  t.kind = kind;
  t.x_min = x.front();
  t.dx = dx;
  t.intervals = points - 1;
  return t;
}

std::vector<BondedTable> read_bonded_tables(std::istream& in, const std::string& source, TableKind kind) {
  const bool angle = kind == TableKind::angle;
  std::vector<BondedTable> out;
  table_file::Format format;
  format.x_name = angle ? "theta" : "r";
  format.n_usage = "N count [FP lo hi] [EQ x0]";
  format.options = [&](const table_file::Section&, const std::vector<std::string>& w, std::size_t line) {
    for (std::size_t k = 2; k < w.size();) {
      const std::size_t values = w[k] == "FP" ? 2 : (w[k] == "EQ" ? 1 : 0);
      if (values == 0)
        throw_input_error(source, ":", line, ": after N only 'FP lo hi' and 'EQ x0' are read, not '", w[k], "'");
      if (k + values >= w.size())
        throw_input_error(source, ":", line, ": ", w[k], " needs ", values, values == 1 ? " value" : " values");
      for (std::size_t j = 1; j <= values; ++j) table_file::number(w[k + j], w[k].c_str(), source, line);
      k += 1 + values;
    }
  };
  format.check = [&](const table_file::Section&, double x, const std::string& field, std::size_t line) {
    if (angle && !(x >= 0.0 && x <= 180.0))
      throw_input_error(source, ":", line, ": theta = ", field, " degrees is outside [0, 180]");
    if (!angle && !(x >= 0.0)) throw_input_error(source, ":", line, ": r = ", field, " is negative");
  };
  format.done = [&](const table_file::Section& s) {
    std::vector<double> x = s.x, f = s.f;
    if (angle) {
      if (x.front() != 0.0 || x.back() != 180.0)
        throw_input_error(source, ": angle table ", s.keyword, " (line ", s.line, ") spans theta = ", x.front(),
                          " .. ", x.back(), " degrees: it must span 0 .. 180");
      for (double& t : x) t *= std::numbers::pi / 180.0;  // F stays per radian
    }
    BondedTable t = bonded_table_from_samples(s.keyword, kind, x, s.v, f, static_cast<uint32_t>(s.n));
    t.source = source;
    out.push_back(std::move(t));
  };
  table_file::read_sections(in, source, format);
  return out;
}

BondedTable read_bonded_table_file(const std::string& path, const std::string& keyword, TableKind kind) {
  std::ifstream in = io::open_input_file(path, "table file");
  return table_file::pick(read_bonded_tables(in, path, kind), path, keyword);
}

}  // namespace meso

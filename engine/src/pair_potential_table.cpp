#include "meso/pair_potential_table.hpp"

#include <algorithm>
#include <cmath>
#include <fstream>
#include <set>
#include <sstream>

#include "meso/error.hpp"

namespace meso {

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
  const std::size_t m = v.size();
  if (m < 2) throw_input_error("table ", name, ": ", m, " grid points (at least 2)");
  if (!(dz > 0.0) || !std::isfinite(dz) || !(z_min > 0.0))
    throw_input_error("table ", name, ": grid z_min = ", z_min, ", dz = ", dz, " (both positive)");
  const std::size_t n = m - 1;
  const double h = dz;
  // Second derivatives M by the Thomas algorithm on the clamped system.
  std::vector<double> a(m), b(m), c(m), d(m), M(m);
  for (std::size_t i = 0; i < m; ++i) {
    a[i] = (i == 0) ? 0.0 : h;
    c[i] = (i == n) ? 0.0 : h;
    b[i] = (i == 0 || i == n) ? 2.0 * h : 4.0 * h;
    if (i == 0) {
      d[i] = 6.0 * ((v[1] - v[0]) / h - slope_lo);
    } else if (i == n) {
      d[i] = 6.0 * (slope_hi - (v[n] - v[n - 1]) / h);
    } else {
      d[i] = 6.0 * ((v[i + 1] - v[i]) - (v[i] - v[i - 1])) / h;
    }
  }
  for (std::size_t i = 1; i < m; ++i) {
    const double w = a[i] / b[i - 1];
    b[i] -= w * c[i - 1];
    d[i] -= w * d[i - 1];
  }
  M[n] = d[n] / b[n];
  for (std::size_t i = n; i-- > 0;) M[i] = (d[i] - c[i] * M[i + 1]) / b[i];
  PairPotentialTable t;
  t.name = std::move(name);
  t.z_min = z_min;
  t.dz = dz;
  t.intervals = static_cast<uint32_t>(n);
  t.r_min = std::sqrt(z_min);
  t.r_max = std::sqrt(z_min + double(n) * dz);
  t.coeff.resize(4 * n);
  for (std::size_t i = 0; i < n; ++i) {
    t.coeff[4 * i + 0] = v[i];
    t.coeff[4 * i + 1] = (v[i + 1] - v[i]) / h - h * (2.0 * M[i] + M[i + 1]) / 6.0;
    t.coeff[4 * i + 2] = 0.5 * M[i];
    t.coeff[4 * i + 3] = (M[i + 1] - M[i]) / (6.0 * h);
  }
  for (double x : t.coeff)
    if (!std::isfinite(x)) throw_input_error("table ", t.name, ": its spline has a non-finite coefficient");
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
  std::vector<double> vz(points);
  for (uint32_t k = 0; k < points; ++k) {
    const double x = std::clamp(k + 1 == points ? r.back() : std::sqrt(z0 + double(k) * dz), r.front(), r.back());
    std::size_t i = static_cast<std::size_t>(std::upper_bound(r.begin(), r.end(), x) - r.begin());
    i = std::clamp<std::size_t>(i, 1, n - 1) - 1;
    const double h = r[i + 1] - r[i], t = (x - r[i]) / h, t2 = t * t, t3 = t2 * t;
    vz[k] = (2 * t3 - 3 * t2 + 1) * v[i] + (t3 - 2 * t2 + t) * h * (-f[i]) + (-2 * t3 + 3 * t2) * v[i + 1] +
            (t3 - t2) * h * (-f[i + 1]);
  }
  PairPotentialTable t = spline_on_rsq_grid(std::move(name), z0, dz, vz, -f.front() / (2.0 * r.front()),
                                            -f.back() / (2.0 * r.back()));
  t.r_min = r.front();
  t.r_max = r.back();
  return t;
}

namespace {

// The line without its comment, and whether anything is left.
std::string strip(const std::string& line) {
  const std::string s = line.substr(0, line.find('#'));
  const auto b = s.find_first_not_of(" \t\r");
  if (b == std::string::npos) return "";
  return s.substr(b, s.find_last_not_of(" \t\r") - b + 1);
}

double number(const std::string& field, const char* what, const std::string& source, std::size_t line) {
  std::size_t used = 0;
  double x = 0.0;
  try {
    x = std::stod(field, &used);
  } catch (const std::exception&) {
    used = 0;
  }
  if (used != field.size() || !std::isfinite(x))
    throw_input_error(source, ":", line, ": ", what, " '", field, "' is not a finite number");
  return x;
}

struct Section {
  std::string keyword;
  std::size_t line = 0;   // of the keyword
  std::size_t n_line = 0; // of the N line
  uint64_t n = 0;
  char grid = 0;  // 0, 'R' or 'Q' (RSQ)
  double lo = 0.0, hi = 0.0;
  std::vector<double> r, v, f;
};

void finish(const Section& s, const std::string& source, std::vector<PairPotentialTable>& out) {
  if (s.r.size() != s.n)
    throw_input_error(source, ": table ", s.keyword, " (line ", s.line, ") has ", s.r.size(), " entries, its N line ",
                      s.n);
  PairPotentialTable t = s.grid == 'Q'
                             ? spline_on_rsq_grid(s.keyword, s.r.front() * s.r.front(),
                                                  (s.r.back() * s.r.back() - s.r.front() * s.r.front()) / double(s.n - 1),
                                                  s.v, -s.f.front() / (2.0 * s.r.front()),
                                                  -s.f.back() / (2.0 * s.r.back()))
                             : table_from_samples(s.keyword, s.r, s.v, s.f, static_cast<uint32_t>(s.n));
  t.source = source;
  out.push_back(std::move(t));
}

}  // namespace

std::vector<PairPotentialTable> read_pair_tables(std::istream& in, const std::string& source) {
  std::vector<PairPotentialTable> out;
  std::set<std::string> seen;
  Section s;
  bool open = false;  // inside a section whose N line was read
  std::string raw;
  std::size_t line = 0;
  while (std::getline(in, raw)) {
    ++line;
    const std::string text = strip(raw);
    if (text.empty()) continue;
    std::istringstream fields(text);
    std::vector<std::string> w;
    for (std::string x; fields >> x;) w.push_back(x);
    if (open && s.r.size() < s.n) {
      if (w.size() != 4)
        throw_input_error(source, ":", line, ": table ", s.keyword, " entry ", s.r.size() + 1, " has ", w.size(),
                          " fields (index r V F)");
      const double index = number(w[0], "index", source, line);
      if (index != double(s.r.size() + 1))
        throw_input_error(source, ":", line, ": table ", s.keyword, " index ", w[0], " where ", s.r.size() + 1,
                          " is due");
      const double r = number(w[1], "r", source, line);
      const double v = number(w[2], "V", source, line);
      const double f = number(w[3], "F", source, line);
      if (!(r > 0.0)) throw_input_error(source, ":", line, ": r = ", w[1], " is not positive");
      if (!s.r.empty() && !(r > s.r.back()))
        throw_input_error(source, ":", line, ": r = ", w[1], " does not increase (the previous r is ", s.r.back(), ")");
      if (s.grid) {
        const double k = double(s.r.size()), last = double(s.n - 1);
        const double want = s.grid == 'R' ? s.lo + k * (s.hi - s.lo) / last
                                          : std::sqrt(s.lo * s.lo + k * (s.hi * s.hi - s.lo * s.lo) / last);
        if (std::fabs(r - want) > 1e-6 * s.hi)
          throw_input_error(source, ":", line, ": r = ", w[1], " is off the ", s.grid == 'R' ? "R" : "RSQ",
                            " grid of line ", s.n_line, " (", want, " due)");
      }
      s.r.push_back(r), s.v.push_back(v), s.f.push_back(f);
      continue;
    }
    if (open) {  // the section is complete: this line starts the next one
      finish(s, source, out);
      open = false;
    }
    if (s.keyword.empty() || s.n > 0 || open) {  // a keyword line
      if (w.size() != 1)
        throw_input_error(source, ":", line, ": '", text, "' where a table keyword (one word) is due");
      if (!seen.insert(w[0]).second) throw_input_error(source, ":", line, ": table ", w[0], " appears twice");
      s = Section{};
      s.keyword = w[0];
      s.line = line;
      continue;
    }
    // The N line of the section whose keyword was just read.
    if (w.size() < 2 || w[0] != "N")
      throw_input_error(source, ":", line, ": table ", s.keyword, " needs 'N count [R|RSQ lo hi]', not '", text, "'");
    const double n = number(w[1], "N", source, line);
    if (!(n >= 2.0 && n <= 1e7 && n == std::floor(n)))
      throw_input_error(source, ":", line, ": N = ", w[1], " (a whole number from 2 to 1e7)");
    s.n = static_cast<uint64_t>(n);
    if (w.size() > 2) {
      if (w.size() != 5 || (w[2] != "R" && w[2] != "RSQ"))
        throw_input_error(source, ":", line, ": after N only 'R lo hi' or 'RSQ lo hi' is read, not '", text, "'");
      s.grid = w[2] == "R" ? 'R' : 'Q';
      s.lo = number(w[3], "lo", source, line);
      s.hi = number(w[4], "hi", source, line);
      if (!(s.lo > 0.0 && s.hi > s.lo))
        throw_input_error(source, ":", line, ": ", w[2], " ", w[3], " ", w[4], " (0 < lo < hi)");
    }
    s.n_line = line;
    open = true;
  }
  if (!s.keyword.empty() && !open && s.n == 0)
    throw_input_error(source, ":", s.line, ": table ", s.keyword, " has no N line");
  if (open) finish(s, source, out);
  if (out.empty()) throw_input_error(source, ": no table in the file");
  return out;
}

PairPotentialTable read_pair_table_file(const std::string& path, const std::string& keyword) {
  std::ifstream in(path);
  if (!in) throw_input_error("table file '", path, "' cannot be opened");
  std::vector<PairPotentialTable> all = read_pair_tables(in, path);
  std::string names;
  for (PairPotentialTable& t : all) {
    if (t.name == keyword) return std::move(t);
    names += (names.empty() ? "" : ", ") + t.name;
  }
  throw_input_error("table file '", path, "' has no table ", keyword, " (it has ", names, ")");
}

}  // namespace meso

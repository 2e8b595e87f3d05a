#include "meso/tables/ibi_bonded.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <numbers>

#include "meso/core/error.hpp"
#include "meso/io/column_file.hpp"

namespace meso {
namespace {

constexpr double kPi = std::numbers::pi;

double jacobian(TableKind kind, double x) { return kind == TableKind::bond ? x * x : std::sin(x); }

double max_of(const std::vector<double>& p) { return *std::max_element(p.begin(), p.end()); }

void require_same_bins(const BondedDistribution& a, const BondedDistribution& b, const char* what) {
  if (a.x.size() != b.x.size() || a.p.size() != a.x.size() || b.p.size() != b.x.size() || a.kind != b.kind)
    throw_input_error(what, ": distributions of ", a.x.size(), " and ", b.x.size(), " bins");
  for (std::size_t i = 0; i < a.x.size(); ++i)
    if (std::fabs(a.x[i] - b.x[i]) > 1e-9 * std::max(1.0, std::fabs(b.x[i])))
      throw_input_error(what, ": bin ", i, " is at x = ", a.x[i], " and ", b.x[i]);
}

}  // namespace

BondedHistogram::BondedHistogram(TableKind kind, uint32_t type, double lo, double hi, int bins)
    : kind_(kind), type_(type), lo_(lo) {
  if (bins < 1 || !(hi > lo) || !(lo >= 0.0) || (kind == TableKind::angle && hi > kPi + 1e-12))
    throw_input_error("bonded histogram: range [", lo, ", ", hi, ") with ", bins, " bins is invalid");
  dx_ = (hi - lo) / bins;
  count_.assign(static_cast<std::size_t>(bins), 0.0);
}

void BondedHistogram::add(const Box& box, const ParticleData<double>& p, const Topology& t) {
  const std::size_t n = p.n_local;
  index_of_tag_.assign(n, 0);
  for (std::size_t i = 0; i < n; ++i) {
    if (p.tag[i] >= n) throw_input_error("bonded histogram: tag ", p.tag[i], " of ", n, " particles");
    index_of_tag_[p.tag[i]] = static_cast<uint32_t>(i);
  }
  auto sep = [&](uint32_t a, uint32_t b) {
    return box.min_image(p.position[index_of_tag_[a]] - p.position[index_of_tag_[b]]);
  };
  auto bin = [&](double x) {
    const double k = std::floor((x - lo_) / dx_);
    if (k < 0.0 || k >= double(count_.size())) return;
    count_[static_cast<std::size_t>(k)] += 1.0;
    ++inside_;
  };
  if (kind_ == TableKind::bond) {
    for (const Bond& b : t.bonds)
      if (b.type == type_) {
        const Vec3d d = sep(b.a, b.b);
        bin(std::sqrt(dot(d, d)));
      }
  } else {
    for (const Angle& a : t.angles)
      if (a.type == type_) {
        const Vec3d u = sep(a.a, a.b), w = sep(a.c, a.b);
        const double c = dot(u, w) / std::sqrt(dot(u, u) * dot(w, w));
        bin(std::acos(std::clamp(c, -1.0, 1.0)));
      }
  }
}

BondedDistribution BondedHistogram::result() const {
  if (inside_ == 0) throw_input_error("bonded histogram: no value fell in [", lo_, ", ", lo_ + dx_ * count_.size(), ")");
  BondedDistribution d;
  d.kind = kind_;
  d.dx = dx_;
  for (std::size_t k = 0; k < count_.size(); ++k) {
    d.x.push_back(lo_ + (k + 0.5) * dx_);
    d.p.push_back(count_[k] / (double(inside_) * dx_));
  }
  return d;
}

BinnedPotential bonded_potential_of_mean_force(const BondedDistribution& target, double kT, double floor,
                                               double wall_slope) {
  const std::size_t n = target.x.size();
  if (n < 4 || target.p.size() != n) throw_input_error("bonded_potential_of_mean_force: ", n, " bins (at least 4)");
  require_positive("kT", kT);
  const double cut = floor * max_of(target.p);
  std::size_t first = 0, last = n - 1;
  while (first < n && !(target.p[first] > cut)) ++first;
  while (last > first && !(target.p[last] > cut)) --last;
  if (first + 2 > last) throw_input_error("bonded_potential_of_mean_force: fewer than 3 bins above the floor");
  BinnedPotential v;
  v.r = target.x;
  v.v.assign(n, 0.0);
  for (std::size_t i = first; i <= last; ++i)
    v.v[i] = target.p[i] > cut ? -kT * std::log(target.p[i] / jacobian(target.kind, target.x[i])) : v.v[i - 1];
  // Walls beyond the sampled range: the edge's outward slope (at least
  // wall_slope) plus a quadratic term.
  const double span = target.x[last] - target.x[first];
  const double s_lo = std::max(wall_slope, -(v.v[first + 1] - v.v[first]) / (v.r[first + 1] - v.r[first]));
  const double s_hi = std::max(wall_slope, (v.v[last] - v.v[last - 1]) / (v.r[last] - v.r[last - 1]));
  for (std::size_t i = 0; i < first; ++i) {
    const double d = v.r[first] - v.r[i];
    v.v[i] = v.v[first] + s_lo * d + (s_lo / span) * d * d;
  }
  for (std::size_t i = last + 1; i < n; ++i) {
    const double d = v.r[i] - v.r[last];
    v.v[i] = v.v[last] + s_hi * d + (s_hi / span) * d * d;
  }
  const double lowest = *std::min_element(v.v.begin(), v.v.end());
  for (double& x : v.v) x -= lowest;
  return v;
}

void ibi_update(BinnedPotential& v, const BondedDistribution& p, const BondedDistribution& target, double kT,
                double alpha, double floor) {
  require_same_bins(p, target, "ibi_update");
  if (v.r.size() != target.x.size()) throw_input_error("ibi_update: a potential of ", v.r.size(), " bins");
  if (!(alpha > 0.0 && alpha <= 1.0)) throw_input_error("ibi_update: alpha = ", alpha, " (in (0, 1])");
  const double cp = floor * max_of(p.p), ct = floor * max_of(target.p);
  for (std::size_t i = 0; i < v.v.size(); ++i)
    if (p.p[i] > cp && target.p[i] > ct) v.v[i] += alpha * kT * std::log(p.p[i] / target.p[i]);
}

double distribution_difference(const BondedDistribution& p, const BondedDistribution& target) {
  require_same_bins(p, target, "distribution_difference");
  double num = 0.0, den = 0.0;
  for (std::size_t i = 0; i < p.p.size(); ++i) {
    num += std::fabs(p.p[i] - target.p[i]);
    den += target.p[i];
  }
  if (!(den > 0.0)) throw_input_error("distribution_difference: the target is zero everywhere");
  return num / den;
}

BondedTable bonded_table_from_ibi(std::string name, TableKind kind, const BinnedPotential& v, uint32_t points) {
  // The end bins' lines continued outwards (the walls are steep there): to
  // theta = 0 and pi for an angle, to r = 0.001 and twice the last bin for
  // a bond, so a run that strays past the bins meets the wall, not the
  // table's end.
  const std::size_t n = v.r.size();
  if (n < 3 || v.v.size() != n) throw_input_error("bonded_table_from_ibi: ", n, " bins (at least 3)");
  const double x_lo = kind == TableKind::angle ? 0.0 : std::min(0.001, 0.5 * v.r[0]);
  const double x_hi = kind == TableKind::angle ? kPi : 2.0 * v.r[n - 1];
  BinnedPotential s = v;
  if (x_lo < v.r[0]) {
    s.r.insert(s.r.begin(), x_lo);
    s.v.insert(s.v.begin(), v.v[0] - (v.v[1] - v.v[0]) / (v.r[1] - v.r[0]) * (v.r[0] - x_lo));
  }
  if (x_hi > v.r[n - 1]) {
    s.r.push_back(x_hi);
    s.v.push_back(v.v[n - 1] + (v.v[n - 1] - v.v[n - 2]) / (v.r[n - 1] - v.r[n - 2]) * (x_hi - v.r[n - 1]));
  }
  return bonded_table_from_samples(std::move(name), kind, s.r, s.v, ibi_forces(s), points);
}

BondedDistribution read_bonded_distribution_file(const std::string& path, TableKind kind) {
  const bool angle = kind == TableKind::angle;
  const char* what = angle ? "angle distribution file" : "bond distribution file";
  const io::TwoColumns c = io::read_two_columns(path, what, angle ? "theta (degrees)" : "r", "P");
  const std::size_t n = c.x.size();
  if (n < 4) throw_input_error(what, " '", path, "' has ", n, " bins (at least 4)");
  const double dx = (c.x.back() - c.x.front()) / double(n - 1);
  if (!(dx > 0.0)) throw_input_error(what, " '", path, "': its centres do not increase");
  for (std::size_t i = 0; i < n; ++i)
    if (std::fabs(c.x[i] - (c.x.front() + double(i) * dx)) > 1e-6 * dx)
      throw_input_error(path, ":", c.line[i], ": x = ", c.x[i], " is not the centre ", c.x.front() + double(i) * dx,
                        " of uniform bins of width ", dx);
  const double lo = c.x.front() - 0.5 * dx, hi = c.x.back() + 0.5 * dx, tol = 1e-6 * dx;
  if (lo < -tol) throw_input_error(what, " '", path, "': its first bin starts at ", lo, ", below 0");
  if (angle && hi > 180.0 + tol)
    throw_input_error(what, " '", path, "': its last bin ends at ", hi, " degrees, beyond 180");
  const double scale = angle ? kPi / 180.0 : 1.0;
  BondedDistribution d;
  d.kind = kind;
  d.dx = dx * scale;
  double sum = 0.0;
  for (std::size_t i = 0; i < n; ++i) {
    d.x.push_back(c.x[i] * scale);
    d.p.push_back(c.y[i]);
    sum += c.y[i] * d.dx;
  }
  if (!(sum > 0.0)) throw_input_error(what, " '", path, "': every P is 0");
  for (double& p : d.p) p /= sum;
  return d;
}

void write_bonded_ibi_table(std::ostream& out, const std::string& keyword, TableKind kind, const BinnedPotential& v,
                            uint32_t points) {
  const BondedTable t = bonded_table_from_ibi(keyword, kind, v, points);
  const bool angle = kind == TableKind::angle;
  char buf[160];
  out << keyword << '\n';
  std::snprintf(buf, sizeof buf, "N %u\n\n", t.intervals + 1);
  out << buf;
  for (uint32_t k = 0; k <= t.intervals; ++k) {
    const double x = k < t.intervals ? t.x_min + k * t.dx : t.x_max();
    // Angles in degrees on the same uniform grid, 0 and 180 exactly.
    const double shown = angle ? k * (180.0 / t.intervals) : x;
    std::snprintf(buf, sizeof buf, "%u %.17g %.17g %.17g\n", k + 1, written_value(shown), written_value(t.energy(x)),
                  written_value(-t.derivative(x)));
    out << buf;
  }
}

}  // namespace meso

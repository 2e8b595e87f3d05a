#include "meso/validation/polymer_fits.hpp"

#include <algorithm>
#include <cmath>

#include "meso/core/error.hpp"

namespace meso::validation {

MeanSem mean_sem(const std::vector<double>& x) {
  if (x.size() < 2) throw_input_error("mean_sem: ", x.size(), " values (at least 2)");
  MeanSem m;
  for (double v : x) m.mean += v;
  m.mean /= double(x.size());
  double var = 0.0;
  for (double v : x) var += (v - m.mean) * (v - m.mean);
  m.sem = std::sqrt(var / double(x.size() - 1) / double(x.size()));
  return m;
}

PowerFit power_fit(const std::vector<double>& n, const std::vector<MeanSem>& y) {
  if (n.size() != y.size() || n.size() < 2) throw_input_error("power_fit: ", n.size(), " and ", y.size(), " points");
  double s = 0, sx = 0, sy = 0, sxx = 0, sxy = 0;
  for (std::size_t i = 0; i < n.size(); ++i) {
    const double x = std::log(n[i]), v = std::log(y[i].mean), e = y[i].sem / y[i].mean, w = 1.0 / (e * e);
    s += w, sx += w * x, sy += w * v, sxx += w * x * x, sxy += w * x * v;
  }
  const double det = s * sxx - sx * sx;
  PowerFit f;
  f.exponent = (s * sxy - sx * sy) / det;
  f.se = std::sqrt(s / det);
  f.prefactor = std::exp((sxx * sy - sx * sxy) / det);
  return f;
}

namespace {

// The two amplitudes of y = a N^p + b N^(p - delta) at a given p, and chi^2.
struct Amplitudes {
  double a = 0.0, b = 0.0, chi2 = 0.0;
};
Amplitudes amplitudes(const std::vector<double>& n, const std::vector<MeanSem>& y, double p, double delta) {
  double uu = 0, uv = 0, vv = 0, uy = 0, vy = 0;
  for (std::size_t i = 0; i < n.size(); ++i) {
    const double w = 1.0 / (y[i].sem * y[i].sem), u = std::pow(n[i], p), v = std::pow(n[i], p - delta);
    uu += w * u * u, uv += w * u * v, vv += w * v * v, uy += w * u * y[i].mean, vy += w * v * y[i].mean;
  }
  const double det = uu * vv - uv * uv;
  Amplitudes r;
  r.a = (vv * uy - uv * vy) / det;
  r.b = (uu * vy - uv * uy) / det;
  for (std::size_t i = 0; i < n.size(); ++i) {
    const double f = r.a * std::pow(n[i], p) + r.b * std::pow(n[i], p - delta), z = (y[i].mean - f) / y[i].sem;
    r.chi2 += z * z;
  }
  return r;
}

}  // namespace

CorrectedPowerFit corrected_power_fit(const std::vector<double>& n, const std::vector<MeanSem>& y, double delta) {
  if (n.size() != y.size() || n.size() < 3)
    throw_input_error("corrected_power_fit: ", n.size(), " and ", y.size(), " points (at least 3)");
  for (const MeanSem& v : y)
    if (!(v.sem > 0.0)) throw_input_error("corrected_power_fit: a point's standard error is ", v.sem);
  if (!(delta > 0.0)) throw_input_error("corrected_power_fit: delta = ", delta, " (must be positive)");
  // Scan p over [0.05, 4] (exponents of R_g^2, D and the like), then narrow
  // the best step's neighbourhood by golden sections. Only laws whose
  // correction is a correction count: a > 0 and 1 + c N^-delta > 0 at every
  // N. Three points are also passed through exactly by far-off laws whose
  // "correction" flips the sign of the smallest chain's term (2 nu = 1.96
  // with c = -28 on the long form's noise).
  const double n_min = *std::min_element(n.begin(), n.end());
  auto admissible = [&](const Amplitudes& a) { return a.a > 0.0 && a.a + a.b * std::pow(n_min, -delta) > 0.0; };
  const double step = 5e-4;
  double best = -1.0, best_chi2 = 0.0;
  for (int k = 0; 0.05 + k * step <= 4.0; ++k) {
    const double p = 0.05 + k * step;
    const Amplitudes a = amplitudes(n, y, p, delta);
    if (admissible(a) && (best < 0.0 || a.chi2 < best_chi2)) best = p, best_chi2 = a.chi2;
  }
  if (best < 0.0) throw_input_error("corrected_power_fit: no law with a positive amplitude fits the points");
  const double g = 0.5 * (std::sqrt(5.0) - 1.0);
  double lo = best - step, hi = best + step;
  for (int it = 0; it < 80; ++it) {
    const double m1 = hi - g * (hi - lo), m2 = lo + g * (hi - lo);
    if (amplitudes(n, y, m1, delta).chi2 < amplitudes(n, y, m2, delta).chi2)
      hi = m2;
    else
      lo = m1;
  }
  const double p = 0.5 * (lo + hi);
  const Amplitudes amp = amplitudes(n, y, p, delta);
  // J^T W J over (a, b, p); var(p) is its inverse's last diagonal element,
  // the leading 2x2 minor over the determinant.
  double m[3][3] = {};
  for (std::size_t i = 0; i < n.size(); ++i) {
    const double w = 1.0 / (y[i].sem * y[i].sem), u = std::pow(n[i], p), v = std::pow(n[i], p - delta);
    const double j[3] = {u, v, std::log(n[i]) * (amp.a * u + amp.b * v)};
    for (int r = 0; r < 3; ++r)
      for (int c = 0; c < 3; ++c) m[r][c] += w * j[r] * j[c];
  }
  const double minor = m[0][0] * m[1][1] - m[0][1] * m[1][0];
  const double det = m[0][0] * (m[1][1] * m[2][2] - m[1][2] * m[2][1]) -
                     m[0][1] * (m[1][0] * m[2][2] - m[1][2] * m[2][0]) +
                     m[0][2] * (m[1][0] * m[2][1] - m[1][1] * m[2][0]);
  CorrectedPowerFit f;
  f.exponent = p;
  f.se = std::sqrt(minor / det);
  f.amplitude = amp.a;
  f.correction = amp.b / amp.a;
  f.delta = delta;
  f.chi2 = amp.chi2;
  f.dof = static_cast<int>(n.size()) - 3;
  return f;
}

std::vector<double> local_exponents(const std::vector<double>& n, const std::vector<double>& y) {
  if (n.size() != y.size()) throw_input_error("local_exponents: ", n.size(), " and ", y.size(), " points");
  std::vector<double> e;
  for (std::size_t i = 1; i < n.size(); ++i) e.push_back(std::log(y[i] / y[i - 1]) / std::log(n[i] / n[i - 1]));
  return e;
}

}  // namespace meso::validation

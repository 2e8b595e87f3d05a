#include "meso/tables/cubic_spline.hpp"

#include <algorithm>
#include <cmath>

#include "meso/core/error.hpp"

namespace meso {

std::vector<double> clamped_spline(const std::string& what, double dx, const std::vector<double>& v, double slope_lo,
                                   double slope_hi) {
  const std::size_t m = v.size();
  if (m < 2) throw_input_error("table ", what, ": ", m, " grid points (at least 2)");
  if (!(dx > 0.0) || !std::isfinite(dx)) throw_input_error("table ", what, ": grid spacing ", dx, " (positive)");
  const std::size_t n = m - 1;
  const double h = dx;
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
  std::vector<double> coeff(4 * n);
  for (std::size_t i = 0; i < n; ++i) {
    coeff[4 * i + 0] = v[i];
    coeff[4 * i + 1] = (v[i + 1] - v[i]) / h - h * (2.0 * M[i] + M[i + 1]) / 6.0;
    coeff[4 * i + 2] = 0.5 * M[i];
    coeff[4 * i + 3] = (M[i + 1] - M[i]) / (6.0 * h);
  }
  for (double x : coeff)
    if (!std::isfinite(x)) throw_input_error("table ", what, ": its spline has a non-finite coefficient");
  return coeff;
}

double hermite_at(const std::vector<double>& x, const std::vector<double>& v, const std::vector<double>& dv,
                  double at) {
  const std::size_t n = x.size();
  at = std::clamp(at, x.front(), x.back());
  std::size_t i = static_cast<std::size_t>(std::upper_bound(x.begin(), x.end(), at) - x.begin());
  i = std::clamp<std::size_t>(i, 1, n - 1) - 1;
  const double h = x[i + 1] - x[i], t = (at - x[i]) / h, t2 = t * t, t3 = t2 * t;
  return (2 * t3 - 3 * t2 + 1) * v[i] + (t3 - 2 * t2 + t) * h * dv[i] + (-2 * t3 + 3 * t2) * v[i + 1] +
         (t3 - t2) * h * dv[i + 1];
}

}  // namespace meso

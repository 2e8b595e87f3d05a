#include "meso/validation/polymer_fits.hpp"

#include <cmath>

#include "meso/error.hpp"

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

std::vector<double> local_exponents(const std::vector<double>& n, const std::vector<double>& y) {
  if (n.size() != y.size()) throw_input_error("local_exponents: ", n.size(), " and ", y.size(), " points");
  std::vector<double> e;
  for (std::size_t i = 1; i < n.size(); ++i) e.push_back(std::log(y[i] / y[i - 1]) / std::log(n[i] / n[i - 1]));
  return e;
}

}  // namespace meso::validation

#include "meso/analysis/linear_fit.hpp"

#include "meso/analysis/block_average.hpp"

#include <algorithm>
#include <cmath>
#include <stdexcept>

namespace meso {

LinearFit linear_fit(const std::vector<double>& x, const std::vector<double>& y, int blocks) {
  const std::size_t n = x.size();
  if (n != y.size() || n < 3) throw std::invalid_argument("linear_fit needs >= 3 (x, y) pairs");
  double mx = 0.0, my = 0.0;
  for (std::size_t i = 0; i < n; ++i) mx += x[i], my += y[i];
  mx /= static_cast<double>(n);
  my /= static_cast<double>(n);
  double sxx = 0.0, sxy = 0.0;
  for (std::size_t i = 0; i < n; ++i) {
    sxx += (x[i] - mx) * (x[i] - mx);
    sxy += (x[i] - mx) * (y[i] - my);
  }
  if (!(sxx > 0.0)) throw std::invalid_argument("linear_fit needs at least two distinct x");
  LinearFit f;
  f.slope = sxy / sxx;
  f.intercept = my - f.slope * mx;
  std::vector<double> res(n);
  double ss = 0.0;
  for (std::size_t i = 0; i < n; ++i) {
    res[i] = y[i] - f.intercept - f.slope * x[i];
    ss += res[i] * res[i];
  }
  const double var = ss / static_cast<double>(n - 2);
  f.residual_sd = std::sqrt(var);
  f.slope_se = std::sqrt(var / sxx);
  const std::size_t per = blocks >= 2 ? n / static_cast<std::size_t>(blocks) : 0;
  if (per >= 2) {
    const BlockAverage ba = block_average(res, blocks);
    // Var(block mean) = s Var / per  =>  s = per Var(block mean) / Var.
    if (var > 0.0)
      f.inefficiency = std::max(1.0, static_cast<double>(per) * ba.var_of_means / var);
    // Differences of consecutive block means of the residuals. For a walk
    // with Var(W(t)) = 2 D t they have variance (4/3) D T_b, so D = 3
    // Var(dmean) / (4 T_b) and Var(slope) = (6/5) 2 D / T. Differencing block
    // means (not endpoints) keeps white noise from posing as a walk: it
    // contributes only 2 Var / per to Var(dmean).
    const std::vector<double>& means = ba.means;
    double tb = 0.0;
    for (int b = 0; b < blocks; ++b) tb += (x[b * per + per - 1] - x[b * per]) / blocks;
    tb *= static_cast<double>(per) / static_cast<double>(per - 1);  // block length incl. last interval
    double md = 0.0, vd = 0.0;
    for (int b = 1; b < blocks; ++b) md += (means[b] - means[b - 1]) / (blocks - 1);
    for (int b = 1; b < blocks; ++b) {
      const double d = means[b] - means[b - 1] - md;
      vd += d * d / (blocks - 2 > 0 ? blocks - 2 : 1);
    }
    const double span = x[n - 1] - x[0];
    if (tb > 0.0 && span > 0.0) f.slope_se_walk = std::sqrt(1.8 * vd / (tb * span));
  }
  f.slope_se_correlated = f.slope_se * std::sqrt(f.inefficiency);
  f.slope_se_robust = std::max(f.slope_se_correlated, f.slope_se_walk);
  return f;
}

}  // namespace meso

#include "meso/validation/index_of_dispersion.hpp"

#include <cmath>

#include "meso/core/error.hpp"

namespace meso::validation {

DispersionTest index_of_dispersion(const std::vector<uint32_t>& counts, double expected) {
  if (counts.size() < 2) throw_input_error("index of dispersion: ", counts.size(), " counts, at least 2");
  DispersionTest t;
  t.n = counts.size();
  for (uint32_t c : counts) t.mean += c;
  t.mean /= double(t.n);
  if (!(t.mean > 0.0)) throw_input_error("index of dispersion: every count is 0");
  double ss = 0.0;
  for (uint32_t c : counts) ss += (c - t.mean) * (c - t.mean);
  t.index = ss / double(t.n - 1) / t.mean;
  t.expected = expected;
  t.se = std::sqrt(2.0 / double(t.n));
  t.z = (t.index - expected) / t.se;
  t.p_value = std::erfc(std::fabs(t.z) / std::sqrt(2.0));
  return t;
}

double poisson_binomial_dispersion(const std::vector<double>& free, double ends, std::size_t attempts) {
  if (attempts + 1 > free.size() || !(ends > 0.0))
    throw_input_error("poisson_binomial_dispersion: ", attempts, " attempts of a curve of ", free.size(),
                      " points, ", ends, " ends");
  double sum = 0.0, sum2 = 0.0;
  for (std::size_t k = 0; k < attempts; ++k) {
    const double p = (free[k] - free[k + 1]) / ends;
    sum += p;
    sum2 += p * p;
  }
  return sum > 0.0 ? 1.0 - sum2 / sum : 1.0;
}

}  // namespace meso::validation

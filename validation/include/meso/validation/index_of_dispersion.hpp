// The index-of-dispersion test of living-polymerization: are the monomers
// each chain added as spread as independent Bernoulli attempts at one rate
// make them, or more (chains that grow at different rates) or less?
#pragma once

#include <cstdint>
#include <vector>

namespace meso::validation {

// The index of dispersion D = s^2 / mean of counts (monomers added per
// chain) against `expected`, its value for growth at one rate: 1 for a
// Poisson count, 1 - sum p_k^2 / sum p_k for the Poisson binomial of
// attempts k with probabilities p_k (poisson_binomial_dispersion). To first
// order D has standard error sqrt(2 / n) for Poisson-like counts of any mean
// (the delta method: var s^2 = (lambda + 2 lambda^2) / n, cov(s^2, mean) =
// lambda / n), the classical (n - 1) D ~ chi^2(n - 1). A spread of the
// chains' rates adds var(lambda_i) / lambda to D: rates uniform within
// +-10% add lambda / 300, the chi-square's blind spot.
struct DispersionTest {
  std::size_t n = 0;
  double mean = 0.0, index = 0.0, expected = 1.0, se = 0.0;
  double z = 0.0;        // (index - expected) / se
  double p_value = 1.0;  // two-sided, normal
};
DispersionTest index_of_dispersion(const std::vector<uint32_t>& counts, double expected);

// 1 - sum p_k^2 / sum p_k of the per-attempt reaction probabilities p_k of
// a chain end, from the rate equation's free monomers after each attempt
// (free[k], k = 0 .. attempts) and the number of ends: p_k = (free[k] -
// free[k + 1]) / ends.
double poisson_binomial_dispersion(const std::vector<double>& free, double ends, std::size_t attempts);

}  // namespace meso::validation

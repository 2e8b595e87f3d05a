// The fits of polymer-hydrodynamics: a mean with its standard error over
// independent chains, power laws y ~ N^x fitted to such means, and the
// local exponents between chain lengths (how far from its asymptote a power
// law still is).
#pragma once

#include <vector>

namespace meso::validation {

struct MeanSem {
  double mean = 0.0, sem = 0.0;
};
// Mean and standard error of independent values (at least 2).
MeanSem mean_sem(const std::vector<double>& x);

// y = prefactor N^exponent by weighted least squares of ln y on ln N (the
// error of ln y is sem / mean); se from the weights.
struct PowerFit {
  double exponent = 0.0, se = 0.0, prefactor = 0.0;
};
PowerFit power_fit(const std::vector<double>& n, const std::vector<MeanSem>& y);

// The exponent between consecutive points: ln(y2/y1) / ln(n2/n1).
std::vector<double> local_exponents(const std::vector<double>& n, const std::vector<double>& y);

}  // namespace meso::validation

// The fits of polymer-hydrodynamics: a mean with its standard error over
// independent chains, power laws y ~ N^x fitted to such means, and the
// local exponents between chain lengths (how far from its asymptote a power
// law still is), and a power law with its leading correction to scaling.
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

// y = amplitude N^exponent (1 + correction N^-delta): the power law with
// Wegner's leading correction to scaling, delta given (for R_g^2 of a
// self-avoiding chain, 2 nu = 1.176 and delta = 0.528). Weighted least
// squares on y itself (weights 1/sem^2): for a given exponent the two
// amplitudes are linear, so chi^2 is minimised over the exponent alone (a
// scan, then golden sections); se from the Jacobian of all three parameters
// at the minimum, (J^T W J)^-1. At least 3 points; with exactly 3 the curve
// passes through them (chi2 = 0, dof = 0).
struct CorrectedPowerFit {
  double exponent = 0.0, se = 0.0, amplitude = 0.0, correction = 0.0, delta = 0.0, chi2 = 0.0;
  int dof = 0;
};
CorrectedPowerFit corrected_power_fit(const std::vector<double>& n, const std::vector<MeanSem>& y, double delta);

// The exponent between consecutive points: ln(y2/y1) / ln(n2/n1).
std::vector<double> local_exponents(const std::vector<double>& n, const std::vector<double>& y);

}  // namespace meso::validation

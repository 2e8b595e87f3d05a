// Least-squares straight line y = a + b x with the standard error of the
// slope, for drift measurements (the HOOMD-blue protocol fits X(t) = X(0) +
// X_drift t). The ordinary error assumes independent residuals; a time series
// of energies is correlated over many samples, so slope_se_correlated scales
// it by the square root of the residuals' statistical inefficiency from block
// averaging (Flyvbjerg & Petersen 1989): s = n SEM_blocks^2 / Var.
//
// Conserved quantities under finite-precision or discontinuous dynamics are
// often not "line plus stationary noise" but line plus a random walk: every
// pair crossing a shifted (force-discontinuous) cutoff, and every rounding of
// a velocity, moves E or P by a random amount that is never undone. Block
// averages of the residuals then underestimate the error (by ~2x with 20
// blocks). slope_se_walk models the noise as a walk W with Var W(t) = 2 D t:
// D from the differences of consecutive block means (variance (4/3) D T_b),
// then Var(slope) = (6/5) 2 D / T for the least-squares slope over span T.
// For stationary noise it overestimates (by ~blocks/4 for white noise), so
// slope_se_robust = max(correlated, walk) is conservative; drift gates use it.
#pragma once

#include <vector>

namespace meso {

struct LinearFit {
  double intercept = 0.0;
  double slope = 0.0;
  double slope_se = 0.0;             // OLS, independent residuals
  double slope_se_correlated = 0.0;  // scaled by sqrt(statistical inefficiency), >= slope_se
  double slope_se_walk = 0.0;        // random-walk model of the noise (see above)
  double slope_se_robust = 0.0;      // max(slope_se_correlated, slope_se_walk)
  double residual_sd = 0.0;
  double inefficiency = 1.0;         // s >= 1; samples per independent sample
};

// x and y of equal length >= 3 (throws std::invalid_argument otherwise);
// blocks (>= 2) for the correlated error; with fewer than 2 samples per block
// the inefficiency is taken as 1.
LinearFit linear_fit(const std::vector<double>& x, const std::vector<double>& y, int blocks = 20);

}  // namespace meso

// Least-squares fit of a parabola u(x) = c0 + c1 (x - x0) + c2 (x - x0)^2 to
// points (x_i, u_i): the steady profile of a body-force-driven channel is a
// parabola whose curvature c2 = -rho g / (2 eta) gives the viscosity. x0 is
// the mean of the x_i, so that the normal equations stay well conditioned
// for a channel far from the origin.
#pragma once

#include <array>
#include <vector>

namespace meso {

struct ParabolaFit {
  double x0 = 0.0;                  // expansion point (mean of the x_i)
  std::array<double, 3> c{};        // c0, c1, c2
  std::array<double, 3> se{};       // standard errors (see fit_parabola)
  double residual_rms = 0.0;        // sqrt(mean squared residual)
  int dof = 0;                      // points - 3

  double curvature() const { return c[2]; }
  double operator()(double x) const {
    const double d = x - x0;
    return c[0] + d * (c[1] + d * c[2]);
  }
};

// Without sigma, the points are weighted equally and the standard errors come
// from the residual scatter, s^2 (X^T X)^-1 with s^2 = RSS / (n - 3); with
// sigma (one per point), the fit is weighted by 1/sigma^2 and the standard
// errors are sqrt(diag((X^T W X)^-1)), i.e. they trust the given sigma.
// Throws InputError for mismatched sizes, fewer than 3 distinct x (4 points
// without sigma, so that the scatter has a degree of freedom), non-finite
// values or a non-positive sigma.
ParabolaFit fit_parabola(const std::vector<double>& x, const std::vector<double>& u,
                         const std::vector<double>& sigma = {});

// The fitted curvature is linear in the data, c2 = sum_i w_i u_i; these are
// the w_i of the unweighted fit (for propagating correlated noise models).
std::vector<double> parabola_curvature_weights(const std::vector<double>& x);

}  // namespace meso

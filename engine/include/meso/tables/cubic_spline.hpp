// The two interpolation steps every table of mesobench takes (pair tables on
// a grid of r^2, bond tables on r, angle tables on theta; docs/tables.md):
// samples given with their derivative are resampled onto a uniform grid by
// the cubic Hermite through them, and a clamped cubic spline through the
// grid values gives, per interval k, V(x) = c0 + c1 d + c2 d^2 + c3 d^3 with
// d = x - x_k (the layout of physics::TableView).
#pragma once

#include <string>
#include <vector>

namespace meso {

// The clamped cubic spline through v[k] at x_k = x_0 + k dx (k = 0 .. n,
// n >= 1) with dV/dx = slope_lo and slope_hi at the ends: 4 n coefficients.
// Throws InputError naming `what` for fewer than 2 values, dx not positive
// and finite, or a non-finite coefficient.
std::vector<double> clamped_spline(const std::string& what, double dx, const std::vector<double>& v, double slope_lo,
                                   double slope_hi);

// The cubic Hermite through the samples (x_i, v_i) with slopes dv_i (x
// strictly increasing, at least 2 samples), evaluated at `at` (clamped to
// [x_0, x_last]): exact for cubics.
double hermite_at(const std::vector<double>& x, const std::vector<double>& v, const std::vector<double>& dv, double at);

}  // namespace meso

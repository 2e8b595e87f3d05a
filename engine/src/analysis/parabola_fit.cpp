#include "meso/analysis/parabola_fit.hpp"

#include <algorithm>
#include <cmath>
#include <set>

#include <Eigen/Dense>

#include "meso/core/error.hpp"

namespace meso {

namespace {

// Design matrix of the centred monomials 1, (x - x0), (x - x0)^2.
Eigen::MatrixXd design(const std::vector<double>& x, double x0) {
  Eigen::MatrixXd X(static_cast<Eigen::Index>(x.size()), 3);
  for (std::size_t i = 0; i < x.size(); ++i) {
    const double d = x[i] - x0;
    X(i, 0) = 1.0;
    X(i, 1) = d;
    X(i, 2) = d * d;
  }
  return X;
}

double mean_of(const std::vector<double>& x) {
  double m = 0.0;
  for (double v : x) m += v;
  return m / static_cast<double>(x.size());
}

void check_abscissae(const std::vector<double>& x, std::size_t min_points) {
  for (double v : x) require_finite("parabola fit x", v);
  if (x.size() < min_points)
    throw_input_error("parabola fit with ", x.size(), " points is invalid: it needs at least ", min_points);
  if (std::set<double>(x.begin(), x.end()).size() < 3)
    throw_input_error("parabola fit with ", std::set<double>(x.begin(), x.end()).size(),
                      " distinct x values is invalid: it needs at least 3");
}

}  // namespace

ParabolaFit fit_parabola(const std::vector<double>& x, const std::vector<double>& u,
                         const std::vector<double>& sigma) {
  const bool weighted = !sigma.empty();
  if (u.size() != x.size())
    throw_input_error("parabola fit: ", u.size(), " values for ", x.size(), " abscissae; they must match");
  if (weighted && sigma.size() != x.size())
    throw_input_error("parabola fit: ", sigma.size(), " sigmas for ", x.size(), " points; they must match");
  check_abscissae(x, weighted ? 3 : 4);
  for (double v : u) require_finite("parabola fit u", v);
  for (double s : sigma) require_positive("parabola fit sigma", s);

  ParabolaFit f;
  f.x0 = mean_of(x);
  const Eigen::Index n = static_cast<Eigen::Index>(x.size());
  Eigen::MatrixXd X = design(x, f.x0);
  Eigen::VectorXd y = Eigen::Map<const Eigen::VectorXd>(u.data(), n);
  Eigen::VectorXd w = Eigen::VectorXd::Ones(n);
  if (weighted)
    for (Eigen::Index i = 0; i < n; ++i) w(i) = 1.0 / sigma[i];
  // Solve the row-scaled problem by QR rather than the normal equations: the
  // same answer, without squaring the condition number.
  const Eigen::MatrixXd Xw = w.asDiagonal() * X;
  const Eigen::VectorXd yw = w.asDiagonal() * y;
  const Eigen::ColPivHouseholderQR<Eigen::MatrixXd> qr(Xw);
  const Eigen::Vector3d c = qr.solve(yw);
  const Eigen::VectorXd r = y - X * c;
  f.residual_rms = std::sqrt(r.squaredNorm() / static_cast<double>(n));
  f.dof = static_cast<int>(n) - 3;
  Eigen::Matrix3d cov = (Xw.transpose() * Xw).inverse();
  if (!weighted) cov *= r.squaredNorm() / f.dof;
  for (int k = 0; k < 3; ++k) {
    f.c[k] = c(k);
    f.se[k] = std::sqrt(std::max(0.0, cov(k, k)));
  }
  return f;
}

std::vector<double> parabola_curvature_weights(const std::vector<double>& x) {
  check_abscissae(x, 3);
  const Eigen::MatrixXd X = design(x, mean_of(x));
  // c = (X^T X)^-1 X^T u; the weights of c2 are the third row of that operator.
  const Eigen::MatrixXd op = (X.transpose() * X).inverse() * X.transpose();
  std::vector<double> w(x.size());
  for (std::size_t i = 0; i < x.size(); ++i) w[i] = op(2, static_cast<Eigen::Index>(i));
  return w;
}

}  // namespace meso

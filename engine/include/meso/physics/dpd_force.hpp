// The DPD pair force (Groot & Warren 1997; Tang & Karniadakis, CPC 2014,
// sec. 2), written once for every backend in HOOMD-blue's evaluator style:
//
//   F_ij = [ a w_C - gamma w_D (e.v) + sigma w_R xi dt^-1/2 ] e_ij,  r < r_c
//   w_C = 1 - r/r_c,  w_R = w_C^s,  w_D = w_R^2,  sigma^2 = 2 gamma kT
//
// with e_ij = r_ij / r, r_ij = r_i - r_j, v_ij = v_i - v_j. The conservative
// potential is U = a r_c/2 (1 - r/r_c)^2. Backends differ only in how they
// find (i, j) and load r_ij, v_ij, never in this formula.
#pragma once

#include <cmath>

#include "meso/core/error.hpp"
#include "meso_hd.hpp"

namespace meso::physics {

// Parameters of one type pair. sigma is stored, not recomputed per pair, so a
// backend can also run with sigma decoupled from gamma (e.g. kT = 0 tests).
struct DpdPairParams {
  double a = 0.0;       // conservative amplitude a_ij
  double gamma = 0.0;   // dissipative strength gamma_ij
  double sigma = 0.0;   // random amplitude, sqrt(2 gamma kT)
  double rcut = 1.0;    // cutoff r_c
  double s = 1.0;       // weight exponent, w_R = (1 - r/r_c)^s

  // The pair style (meso/core/pair_style.hpp).
  static constexpr const char* kStyle = "dpd";
  static constexpr bool kOrientational = false;
  void check() const {
    require_positive("r_c", rcut);
    require_finite("a", a);
    require_non_negative("gamma", gamma);
    require_non_negative("sigma", sigma);
    require_positive("s", s);
  }
};

// The parameters of a pair thermostatted at kT: sigma^2 = 2 gamma kT (the
// fluctuation-dissipation theorem of Espanol & Warren 1995).
inline DpdPairParams dpd_pair_params(double a, double gamma, double kT, double rcut, double s) {
  return {a, gamma, std::sqrt(2.0 * gamma * kT), rcut, s};
}

// pow as the C library computes it. Tang & Karniadakis' branchless fastpow is
// a drop-in alternative policy with the same call signature (fast_math.hpp).
struct LibmPow {
  MESO_HD double operator()(double x, double y) const { return pow(x, y); }
  MESO_HD float operator()(float x, float y) const { return powf(x, y); }
};

template <class T>
struct DpdPairForceT {
  T f_over_r;  // force on i is f_over_r * r_ij
  T energy;    // conservative pair energy U(r)
};
using DpdPairForce = DpdPairForceT<double>;

namespace dpd_detail {
MESO_HD double hd_sqrt(double x) { return sqrt(x); }
MESO_HD float hd_sqrt(float x) { return sqrtf(x); }
}  // namespace dpd_detail

// rsq = |r_ij|^2 (must be > 0 and < rcut^2; the caller applies the cutoff so
// that neighbor-list traversal and cutoff test stay in the backend), rdotv =
// r_ij . v_ij, xi = the pair's unit Gaussian (symmetric in i, j), inv_sqrt_dt
// = 1/sqrt(dt). The s == 1 and s == 1/2 branches are uniform per type pair,
// so they cost no divergence on the GPU: standard DPD (s = 1) needs no pow,
// and s = 1/2 (the dpd-fluid benchmark, Tang & Karniadakis' s = 0.5) takes
// sqrt, which is correctly rounded, so w_R is at least as accurate as any pow
// policy gives it (libm pow is within 1 ULP, fastpow within ~1 ULP) at a
// fraction of the cost (on the GPU one fp64 sqrt instead of ~100 fp64
// instructions of pow, the largest single term of a pair before this branch).
//
// T is the arithmetic type: double everywhere except the `single` precision
// variant of the CUDA backend, which evaluates the same formula in float.
template <class T = double, class Pow = LibmPow>
MESO_HD DpdPairForceT<T> dpd_pair_force(T rsq, T rdotv, T xi, T inv_sqrt_dt,
                                        const DpdPairParams& p, Pow pow_fn = Pow{}) {
  const T r = dpd_detail::hd_sqrt(rsq);
  const T inv_r = T(1) / r;
  const T rcut = T(p.rcut);
  const T wc = T(1) - r / rcut;
  const T wr = (p.s == 1.0) ? wc : (p.s == 0.5) ? dpd_detail::hd_sqrt(wc) : pow_fn(wc, T(p.s));
  const T wd = wr * wr;
  const T e_dot_v = rdotv * inv_r;
  const T f = T(p.a) * wc - T(p.gamma) * wd * e_dot_v + T(p.sigma) * wr * xi * inv_sqrt_dt;
  return {f * inv_r, T(0.5) * T(p.a) * rcut * wc * wc};
}

}  // namespace meso::physics

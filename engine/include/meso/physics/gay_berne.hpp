// The Gay-Berne pair potential between identical uniaxial ellipsoids, in its
// original form (Gay & Berne, J. Chem. Phys. 74, 3316 (1981)), with the
// exponents mu and nu of the generalised form (Berardi, Fava & Zannoni 1993;
// de Miguel et al. 1991). For unit axes u_i, u_j and r = r_i - r_j:
//
//   U = 4 eps(r^, u_i, u_j) [rho^12 - rho^6],
//   rho = sigma0 / (|r| - sigma(r^, u_i, u_j) + sigma0),
//   sigma = sigma0 [1 - (chi/2) H(chi)]^-1/2,
//   eps   = eps0 [1 - chi^2 c^2]^(-nu/2) [1 - (chi'/2) H(chi')]^mu,
//   H(X)  = (a + b)^2 / (1 + X c) + (a - b)^2 / (1 - X c),
//   a = r^.u_i, b = r^.u_j, c = u_i.u_j,
//   chi = (kappa^2 - 1)/(kappa^2 + 1), chi' = (kappa'^(1/mu) - 1)/(kappa'^(1/mu) + 1),
//
// kappa = sigma_end/sigma_side (length over breadth), kappa' =
// eps_side/eps_end (well depth side by side over end to end). The
// standard liquid-crystal parametrisation is GB(kappa = 3, kappa' = 5,
// mu = 2, nu = 1), cut at 4 sigma0.
//
// U is a function of (|r|, a, b, c); the evaluator returns U and its four
// partial derivatives, from which the force on i and the torques follow:
//
//   F_i   = -[U_r r^ + U_a (u_i - a r^)/|r| + U_b (u_j - b r^)/|r|],
//   tau_i = -u_i x (U_a r^ + U_c u_j),   tau_j = -u_j x (U_b r^ + U_c u_i).
//
// shift = true subtracts U(r_cut, a, b, c), the energy at the cutoff of the
// pair's current orientation, so the energy is continuous where the pair
// leaves the cutoff; the derivatives are those of the shifted function (the
// shift depends on a, b and c), so forces and torques stay conservative.
#pragma once

#include <cmath>

#include "meso/core/error.hpp"
#include "meso_hd.hpp"
#include "quaternion.hpp"
#include "rigid_body.hpp"
#include "vec3.hpp"

namespace meso::physics {

namespace gay_berne_detail {

// x^y with the common integer exponents exact and cheap.
template <class T>
MESO_HD T power(T x, T y) {
  using std::pow;
  using std::sqrt;
  if (y == T(1)) return x;
  if (y == T(2)) return x * x;
  if (y == T(0.5)) return sqrt(x);
  return pow(x, y);
}

}  // namespace gay_berne_detail

struct GayBerneParams {
  double epsilon = 1.0;      // eps0
  double sigma = 1.0;        // sigma0, the breadth (side-by-side contact)
  double kappa = 3.0;        // length / breadth
  double kappa_prime = 5.0;  // side-by-side well depth / end-to-end well depth
  double mu = 2.0;
  double nu = 1.0;
  double rcut = 4.0;
  bool shift = true;

  MESO_HD double chi() const { return (kappa * kappa - 1.0) / (kappa * kappa + 1.0); }
  MESO_HD double chi_prime() const {
    const double k = gay_berne_detail::power(kappa_prime, 1.0 / mu);
    return (k - 1.0) / (k + 1.0);
  }

  // The pair style (meso/core/pair_style.hpp).
  static constexpr const char* kStyle = "gay_berne";
  static constexpr bool kOrientational = true;
  void check() const {
    require_non_negative("Gay-Berne epsilon", epsilon);
    require_positive("Gay-Berne sigma", sigma);
    require_positive("Gay-Berne kappa", kappa);
    require_positive("Gay-Berne kappa'", kappa_prime);
    require_positive("Gay-Berne mu", mu);
    require_non_negative("Gay-Berne nu", nu);
    // The shifted energy is evaluated at r_cut for every orientation: r_cut
    // must lie beyond the longest contact distance, max(kappa, 1) sigma0.
    const double contact = (kappa > 1.0 ? kappa : 1.0) * sigma;
    if (!(rcut > contact))
      throw_input_error("Gay-Berne r_cut = ", rcut, " is invalid: it must exceed the end-to-end contact ",
                        "max(kappa, 1) sigma = ", contact);
  }
};

// U and its partial derivatives in (|r|, a, b, c); `overlap` when
// |r| - sigma + sigma0 <= 0 (the ellipsoids' cores interpenetrate: the
// function has a pole there and a run that gets there is broken).
template <class T = double>
struct GayBerneTerms {
  T u, u_r, u_a, u_b, u_c;
  bool overlap;
};

namespace gay_berne_detail {

// g = 4 (rho^12 - rho^6), rho = sigma0 / hh, and dg/dhh.
template <class T>
struct Radial {
  T g, d;
};
template <class T>
MESO_HD Radial<T> radial(T hh, T s0) {
  const T rho = s0 / hh, rho6 = rho * rho * rho * rho * rho * rho, rho12 = rho6 * rho6;
  return {T(4) * (rho12 - rho6), -(T(48) * rho12 - T(24) * rho6) / hh};
}

}  // namespace gay_berne_detail

// U and its derivatives in the arithmetic T (double on the reference; the
// GPU's fp32 storage precisions take float). The orientation-dependent
// sigma and eps are computed once; the radial factor at r (and, shifted,
// at r_cut) multiplies them:  U = eps g(hh),  dU/dr = eps g',  dU/dy =
// eps (g dln(eps)/dy - g' dsigma/dy) for y = a, b, c, with hh = r - sigma +
// sigma0.
template <class T>
MESO_HD GayBerneTerms<T> gay_berne_terms(T r, T a, T b, T c, const GayBerneParams& p) {
  using gay_berne_detail::power;
  using std::sqrt;
  const T chi = T(p.chi()), chip = T(p.chi_prime());
  const T s0 = T(p.sigma), mu = T(p.mu), nu = T(p.nu);
  const T ap = a + b, am = a - b;
  // H(chi) and its derivatives.
  const T dp = T(1) / (T(1) + chi * c), dm = T(1) / (T(1) - chi * c);
  const T h = ap * ap * dp + am * am * dm;
  const T h_a = T(2) * (ap * dp + am * dm), h_b = T(2) * (ap * dp - am * dm);
  const T h_c = chi * (am * am * dm * dm - ap * ap * dp * dp);
  // H(chi') and its derivatives.
  const T ep = T(1) / (T(1) + chip * c), em = T(1) / (T(1) - chip * c);
  const T hp = ap * ap * ep + am * am * em;
  const T hp_a = T(2) * (ap * ep + am * em), hp_b = T(2) * (ap * ep - am * em);
  const T hp_c = chip * (am * am * em * em - ap * ap * ep * ep);

  const T S = T(1) - T(0.5) * chi * h;
  const T sigma = s0 / sqrt(S);
  const T ds = T(0.25) * chi * sigma * sigma * sigma / (s0 * s0);  // dsigma/dH
  const T e1sq = T(1) / (T(1) - chi * chi * c * c);                // eps1^2
  const T e2 = T(1) - T(0.5) * chip * hp;
  const T eps = T(p.epsilon) * power(e1sq, T(0.5) * nu) * power(e2, mu);
  // d ln(eps)/d(a, b, c)
  const T le_a = -T(0.5) * chip * mu * hp_a / e2;
  const T le_b = -T(0.5) * chip * mu * hp_b / e2;
  const T le_c = -T(0.5) * chip * mu * hp_c / e2 + nu * chi * chi * c * e1sq;

  GayBerneTerms<T> t{};
  const T hh = r - sigma + s0;
  t.overlap = !(hh > T(0));
  if (t.overlap) return t;
  gay_berne_detail::Radial<T> at = gay_berne_detail::radial(hh, s0);
  t.u_r = eps * at.d;
  if (p.shift) {
    // The shift U(r_cut, a, b, c) is a function of the orientations too.
    const gay_berne_detail::Radial<T> cut = gay_berne_detail::radial(T(p.rcut) - sigma + s0, s0);
    at.g -= cut.g;
    at.d -= cut.d;
  }
  t.u = eps * at.g;
  t.u_a = eps * (at.g * le_a - at.d * ds * h_a);
  t.u_b = eps * (at.g * le_b - at.d * ds * h_b);
  t.u_c = eps * (at.g * le_c - at.d * ds * h_c);
  return t;
}

// Force on i, torques on i and j, energy and virial r.F_i of one pair.
template <class T = double>
struct GayBernePair {
  Vec3<T> force_i;
  Vec3<T> torque_i;
  Vec3<T> torque_j;
  T energy;
  T virial;
  bool overlap;
};

// dr = r_i - r_j (minimum image), 0 < |dr| < rcut; u_i, u_j unit axes.
template <class T>
MESO_HD GayBernePair<T> gay_berne_pair(const Vec3<T>& dr, const Vec3<T>& ui, const Vec3<T>& uj,
                                       const GayBerneParams& p) {
  using std::sqrt;
  const T r = sqrt(dot(dr, dr));
  const Vec3<T> rh = (T(1) / r) * dr;
  const T a = dot(rh, ui), b = dot(rh, uj), c = dot(ui, uj);
  const GayBerneTerms<T> t = gay_berne_terms(r, a, b, c, p);
  GayBernePair<T> out{};
  out.overlap = t.overlap;
  if (t.overlap) return out;
  const T inv_r = T(1) / r;
  out.force_i = T(-1) * ((t.u_r - (t.u_a * a + t.u_b * b) * inv_r) * rh + (t.u_a * inv_r) * ui + (t.u_b * inv_r) * uj);
  out.torque_i = T(-1) * cross(ui, t.u_a * rh + t.u_c * uj);
  out.torque_j = T(-1) * cross(uj, t.u_b * rh + t.u_c * ui);
  out.energy = t.u;
  out.virial = dot(dr, out.force_i);
  return out;
}

}  // namespace meso::physics

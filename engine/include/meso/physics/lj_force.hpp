// The Lennard-Jones pair force in HOOMD-blue's conventions (Anderson, Lorenz &
// Travesset, J. Comput. Phys. 227 (2008) 5342; HOOMD-blue pair.lj), written
// once for every backend:
//
//   V(r) = 4 eps [ (sigma/r)^12 - alpha (sigma/r)^6 ],  r < r_cut
//
// Modes (HOOMD's `mode` of a pair potential):
//   none:  V as is, truncated at r_cut (energy jumps by V(r_cut)).
//   shift: V(r) - V(r_cut): energy continuous at r_cut, force still jumps.
//   xplor: V(r) S(r), with the XPLOR switch
//            S = 1                                                  r <  r_on
//            S = (rc^2 - r^2)^2 (rc^2 + 2r^2 - 3ron^2) / (rc^2 - ron^2)^3,  r_on <= r < r_cut
//          energy and force continuous at r_on and r_cut.
//          When r_on >= r_cut there is no smoothing region; HOOMD-blue then
//          shifts the energy instead (PotentialPair: xplor with r_on > r_cut
//          sets the energy shift), and so do we, for r_on == r_cut as well, so
//          the energy stays continuous. System::validate rejects r_on > r_cut
//          for xplor as almost certainly a typo; r_on == r_cut is accepted.
//
// The evaluator returns the force as f_over_r (force on i is f_over_r r_ij,
// r_ij = r_i - r_j), the pair energy and the pair virial r_ij . F_ij =
// f_over_r rsq. Scalar is the arithmetic type: double for the reference and
// `double`/`mixed` kernels, float for a `single` build.
#pragma once

#include "isotropic_pair.hpp"
#include "meso/core/error.hpp"
#include "meso_hd.hpp"

namespace meso::physics {

enum class LjMode : int { none = 0, shift = 1, xplor = 2 };

struct LjPairParams {
  double epsilon = 1.0;
  double sigma = 1.0;
  double alpha = 1.0;  // weight of the attractive term (HOOMD's alpha)
  double rcut = 2.5;
  double ron = 0.0;    // XPLOR turn-on radius (xplor only)
  LjMode mode = LjMode::shift;

  // The pair style (meso/core/pair_style.hpp).
  static constexpr const char* kStyle = "lj";
  static constexpr bool kOrientational = false;
  void check() const {
    require_positive("LJ r_cut", rcut);
    require_non_negative("LJ epsilon", epsilon);
    require_positive("LJ sigma", sigma);
    require_finite("LJ alpha", alpha);
    require_non_negative("LJ r_on", ron);
    const int m = static_cast<int>(mode);
    if (m < 0 || m > 2) throw_input_error("LJ mode = ", m, " is invalid: allowed 0 (none), 1 (shift), 2 (xplor)");
    if (mode == LjMode::xplor && ron > rcut)
      throw_input_error("LJ r_on = ", ron, " is invalid for mode xplor: it must be <= r_cut = ", rcut,
                        " (use mode shift for a plain energy shift)");
  }
};

// Force (f_over_r), energy (after shift / smoothing) and virial of a pair.
template <class Scalar>
using LjPairForce = IsotropicPairForce<Scalar>;

// Unshifted V(r) and -dV/dr / r from 1/r^2 (no sqrt needed).
template <class Scalar>
MESO_HD void lj_raw(Scalar r2inv, Scalar lj1, Scalar lj2, Scalar& energy, Scalar& f_over_r) {
  const Scalar r6inv = r2inv * r2inv * r2inv;
  energy = r6inv * (lj1 * r6inv - lj2);
  f_over_r = r2inv * r6inv * (Scalar(12) * lj1 * r6inv - Scalar(6) * lj2);
}

// The per-type-pair constants of the evaluator, computed once per table
// (HOOMD-blue's param_type holds lj1, lj2 the same way) instead of once per
// pair: a kernel's inner loop then loads six numbers and does no division
// other than 1/r^2.
template <class Scalar>
struct LjPairCoeffs {
  Scalar lj1;      // 4 eps sigma^12
  Scalar lj2;      // 4 eps alpha sigma^6
  Scalar rcsq;     // r_cut^2
  Scalar ronsq;    // r_on^2 (xplor)
  Scalar e_cut;    // V(r_cut), subtracted when shift
  Scalar inv_den;  // 1 / (r_cut^2 - r_on^2)^3 (xplor with a smoothing region)
  int shift;       // shift mode, or xplor with r_on >= r_cut
  int smooth;      // xplor with r_on < r_cut
};

template <class Scalar = double>
MESO_HD LjPairCoeffs<Scalar> lj_pair_coeffs(const LjPairParams& p) {
  LjPairCoeffs<Scalar> c{};
  c.rcsq = Scalar(p.rcut) * Scalar(p.rcut);
  const Scalar s2 = Scalar(p.sigma) * Scalar(p.sigma);
  const Scalar s6 = s2 * s2 * s2;
  c.lj1 = Scalar(4) * Scalar(p.epsilon) * s6 * s6;
  c.lj2 = Scalar(4) * Scalar(p.epsilon) * Scalar(p.alpha) * s6;
  c.ronsq = Scalar(p.ron) * Scalar(p.ron);
  c.smooth = p.mode == LjMode::xplor && c.ronsq < c.rcsq;
  c.shift = p.mode == LjMode::shift || (p.mode == LjMode::xplor && !(c.ronsq < c.rcsq));
  Scalar f_cut;
  lj_raw(Scalar(1) / c.rcsq, c.lj1, c.lj2, c.e_cut, f_cut);
  c.inv_den = c.smooth ? Scalar(1) / ((c.rcsq - c.ronsq) * (c.rcsq - c.ronsq) * (c.rcsq - c.ronsq))
                       : Scalar(0);
  return c;
}

// rsq = |r_ij|^2 > 0. Pairs at or beyond r_cut give exactly zero; the caller
// may test the cutoff itself (cheaper in a neighbor loop) but need not.
template <class Scalar>
MESO_HD LjPairForce<Scalar> lj_pair_force(Scalar rsq, const LjPairCoeffs<Scalar>& c) {
  if (!(rsq < c.rcsq)) return {Scalar(0), Scalar(0), Scalar(0)};
  Scalar energy, f_over_r;
  lj_raw(Scalar(1) / rsq, c.lj1, c.lj2, energy, f_over_r);
  if (c.shift) {
    energy -= c.e_cut;
  } else if (c.smooth && rsq >= c.ronsq) {
    // S and dS/dr / r (HOOMD-blue PotentialPair, xplor branch).
    const Scalar d = c.rcsq - rsq;
    const Scalar s = d * d * (c.rcsq + Scalar(2) * rsq - Scalar(3) * c.ronsq) * c.inv_den;
    const Scalar ds_dr_over_r = Scalar(12) * d * (c.ronsq - rsq) * c.inv_den;
    // F = -d(V S)/dr = S (-dV/dr) - V dS/dr.
    f_over_r = s * f_over_r - ds_dr_over_r * energy;
    energy *= s;
  }
  return {f_over_r, energy, f_over_r * rsq};
}

// The same from the user's parameters (the reference's form; identical
// results to the coefficient form, which it calls).
template <class Scalar = double>
MESO_HD LjPairForce<Scalar> lj_pair_force(Scalar rsq, const LjPairParams& p) {
  return lj_pair_force<Scalar>(rsq, lj_pair_coeffs<Scalar>(p));
}

// The isotropic pair style's evaluator (isotropic_pair.hpp): LJ's
// coefficients and force in Scalar.
struct LjPair {
  using Params = LjPairParams;
  template <class Scalar>
  using Coeffs = LjPairCoeffs<Scalar>;
  template <class Scalar>
  MESO_HD static Coeffs<Scalar> coeffs(const Params& p) {
    return lj_pair_coeffs<Scalar>(p);
  }
  template <class Scalar>
  MESO_HD static LjPairForce<Scalar> force(Scalar rsq, const Coeffs<Scalar>& c) {
    return lj_pair_force<Scalar>(rsq, c);
  }
};

}  // namespace meso::physics

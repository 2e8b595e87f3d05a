// The Yukawa (screened Coulomb) pair force of charged colloids in an
// electrolyte, in HOOMD-blue's pair.Yukawa and LAMMPS's pair_style yukawa
// form, written once for every backend:
//
//   V(r) = eps exp(-kappa r) / r,   r < r_cut
//   F(r) = -dV/dr = eps exp(-kappa r) (1 + kappa r) / r^2
//
// kappa is the inverse Debye screening length. shift subtracts V(r_cut)
// (HOOMD's mode "shift", LAMMPS's offset), so the energy is continuous at
// the cutoff; the force still jumps there, by F(r_cut).
#pragma once

#include <cmath>

#include "isotropic_pair.hpp"
#include "meso/core/error.hpp"
#include "meso_hd.hpp"

namespace meso::physics {

struct YukawaPairParams {
  double epsilon = 1.0;  // eps: the amplitude (charge^2 / (4 pi eps_0 eps_r) in reduced units)
  double kappa = 1.0;    // inverse screening length
  double rcut = 3.0;
  bool shift = true;

  // The pair style (meso/core/pair_style.hpp).
  static constexpr const char* kStyle = "yukawa";
  static constexpr bool kOrientational = false;
  void check() const {
    require_finite("Yukawa epsilon", epsilon);
    require_non_negative("Yukawa kappa", kappa);
    require_positive("Yukawa r_cut", rcut);
  }
};

// The isotropic pair style's evaluator (isotropic_pair.hpp).
struct YukawaPair {
  using Params = YukawaPairParams;
  template <class Scalar>
  struct Coeffs {
    Scalar epsilon, kappa, rcsq;
    Scalar e_cut;  // V(r_cut) when shifted, else 0
  };
  template <class Scalar>
  MESO_HD static Coeffs<Scalar> coeffs(const Params& p) {
    using std::exp;
    const Scalar eps = Scalar(p.epsilon), kappa = Scalar(p.kappa), rc = Scalar(p.rcut);
    return {eps, kappa, rc * rc, p.shift ? eps * exp(-kappa * rc) / rc : Scalar(0)};
  }
  // rsq = |r_ij|^2 > 0; exact zeros at and beyond r_cut.
  template <class Scalar>
  MESO_HD static IsotropicPairForce<Scalar> force(Scalar rsq, const Coeffs<Scalar>& c) {
    using std::exp;
    using std::sqrt;
    if (!(rsq < c.rcsq)) return {Scalar(0), Scalar(0), Scalar(0)};
    const Scalar r = sqrt(rsq), rinv = Scalar(1) / r;
    const Scalar v = c.epsilon * exp(-c.kappa * r) * rinv;
    const Scalar f_over_r = v * (Scalar(1) + c.kappa * r) * rinv * rinv;
    return {f_over_r, v - c.e_cut, f_over_r * rsq};
  }
};

}  // namespace meso::physics

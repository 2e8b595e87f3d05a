// GALAMOST's soft anisotropic one-site Janus particles (Zhu et al., J.
// Comput. Chem. 34, 2197 (2013), sec. "Soft anisotropic particle model";
// the potential of Li, Gu, Zhu, Lu et al.): a DPD-type soft repulsion and a
// soft attraction between the particles' patches. Each particle has an
// orientation n (its body z axis) and, uniaxial, two rotational degrees of
// freedom. For the pair (i, j) with d = r_j - r_i, r = |d| < r_c,
// rho = r / r_c and e = d / r:
//
//   U = (a^R / 2) (1 - rho)^2 - (a^A / 2) f^nu (rho - rho^2)
//   f = cos(pi theta_i / (2 theta_m)) cos(pi theta_j / (2 theta_m))
//       if theta_i < theta_m and theta_j < theta_m, else 0
//
// where theta_i is the angle between n_i and the direction to its partner
// (cos theta_i = n_i . e) and theta_j the angle between n_j and the
// direction to i (cos theta_j = -n_j . e): two patches that face each other
// within theta_m attract. A triblock Janus particle has a patch at each
// pole: cos theta = |n . e| (and |n_j . e|), so n and -n are the same
// particle. f is continuous; f^nu (nu = 1/2 in GALAMOST's benchmark) has an
// infinite slope at a patch's edge (theta -> theta_m), as published.
//
// Forces and torques are the exact derivatives of U: F_i = dU/dd (d holds
// -r_i), torque_i = -n_i x dU/dn_i; the pair conserves momentum and, U
// being invariant under rotations of the pair, angular momentum (torque_i +
// torque_j = d x F_i). Arithmetic in T: double on the reference, float for
// the GPU's fp32 storage precisions.
#pragma once

#include <cmath>
#include <cstdint>

#include "meso/core/error.hpp"
#include "meso_hd.hpp"
#include "quaternion.hpp"
#include "vec3.hpp"

namespace meso::physics {

// The particle's kind: one patch (diblock Janus), a patch at each pole
// (triblock, |cos theta|), or the repulsive disk and rod.
enum class SoftShape : uint8_t { janus, triblock, disk, rod };

struct JanusParams {
  double a_rep = 396.0;  // a^R: the soft repulsion
  double a_att = 132.0;  // a^A: the patches' attraction (Janus shapes)
  double theta_m = 65.0 * 3.14159265358979323846 / 180.0;  // the patch's half angle, radians (Janus)
  double nu = 0.5;
  double mu = 1.0;  // the side-by-side softening, 0 .. 1 (disk and rod)
  double rcut = 1.0;
  SoftShape shape = SoftShape::triblock;
  MESO_HD bool two_patches() const { return shape == SoftShape::triblock; }

  // The pair style (meso/core/pair_style.hpp).
  static constexpr const char* kStyle = "janus";
  static constexpr bool kOrientational = true;
  void check() const {
    const int s = static_cast<int>(shape);
    if (s < 0 || s > 3)
      throw_input_error("soft anisotropic shape = ", s, " is invalid: allowed janus, triblock, disk, rod");
    require_non_negative("Janus a^R", a_rep);
    require_positive("Janus nu", nu);
    require_positive("Janus r_cut", rcut);
    if (shape == SoftShape::disk || shape == SoftShape::rod) {
      // 1 - mu f^nu >= 0 for every f in [0, 1]: the repulsion stays a repulsion.
      if (!(mu >= 0.0 && mu <= 1.0))
        throw_input_error("mu = ", mu, " is invalid for the ", shape == SoftShape::disk ? "disk" : "rod",
                          ": allowed 0 .. 1");
      return;
    }
    require_non_negative("Janus a^A", a_att);
    const double half_pi = 0.5 * std::acos(-1.0);
    if (!(theta_m > 0.0 && theta_m <= (two_patches() ? half_pi : 2.0 * half_pi)))
      throw_input_error("Janus theta_m = ", theta_m * 90.0 / half_pi, " degrees is invalid: it must lie in (0, ",
                        two_patches() ? 90 : 180, "] (", two_patches() ? "a triblock's two patches" : "one patch",
                        ")");
  }
};

// Force on i, torques on i and j, energy and virial (r_i - r_j) . F_i of one pair.
template <class T = double>
struct JanusPair {
  Vec3<T> force_i, torque_i, torque_j;
  T energy;
  T virial;
};

namespace janus_detail {

// g = cos(k theta) with theta = acos(c), k = pi / (2 theta_m), and dg/dc =
// k sin(k theta) / sin(theta) (its limit k^2 at theta = 0).
template <class T>
struct Lobe {
  T g, dg;
};
template <class T>
MESO_HD Lobe<T> lobe(T c, T k) {
  c = c > T(1) ? T(1) : c;
  const T theta = acos(c), s = sin(theta);
  const T dg = s > T(1e-4) ? k * sin(k * theta) / s : k * k;
  return {cos(k * theta), dg};
}

}  // namespace janus_detail

// The patch factor f of the pair (0 unless both patches face the partner),
// as janus_pair weighs the attraction: the structure analysis's measure of
// a patch bond (meso/analysis/janus_assembly.hpp).
template <class T>
MESO_HD T janus_factor(const Vec3<T>& d, const Vec3<T>& n_i, const Vec3<T>& n_j, const JanusParams& p) {
  using janus_detail::lobe;
  const T r = sqrt(dot(d, d));
  const T ci_raw = dot(n_i, d) / r, cj_raw = -dot(n_j, d) / r;
  const T ci = p.two_patches() && ci_raw < T(0) ? -ci_raw : ci_raw;
  const T cj = p.two_patches() && cj_raw < T(0) ? -cj_raw : cj_raw;
  const T cm = T(cos(p.theta_m)), k = T(3.14159265358979323846) / (T(2) * T(p.theta_m));
  if (!(ci > cm && cj > cm)) return T(0);
  const T gi = lobe(ci, k).g, gj = lobe(cj, k).g;
  return gi > T(0) && gj > T(0) ? gi * gj : T(0);
}

template <class T>
MESO_HD JanusPair<T> janus_pair(const Vec3<T>& d, const Vec3<T>& n_i, const Vec3<T>& n_j, const JanusParams& p) {
  using janus_detail::lobe;
  const T rc = T(p.rcut), r = sqrt(dot(d, d));
  const Vec3<T> e = (T(1) / r) * d;
  const T rho = r / rc, w = T(1) - rho;
  // Patch cosines and the signs that make them |n . e| for a triblock.
  const T ci_raw = dot(n_i, e), cj_raw = -dot(n_j, e);
  const T si = p.two_patches() && ci_raw < T(0) ? T(-1) : T(1);
  const T sj = p.two_patches() && cj_raw < T(0) ? T(-1) : T(1);
  const T ci = si * ci_raw, cj = sj * cj_raw;
  const T cm = T(cos(p.theta_m));
  const T a_rep = T(p.a_rep), a_att = T(p.a_att);
  T energy = T(0.5) * a_rep * w * w;
  T du_drho = -a_rep * w;
  Vec3<T> grad{T(0), T(0), T(0)};  // dU/dd beyond the radial part
  JanusPair<T> out;
  out.torque_i = out.torque_j = Vec3<T>{T(0), T(0), T(0)};
  const T k = T(3.14159265358979323846) / (T(2) * T(p.theta_m));
  const janus_detail::Lobe<T> li = ci > cm ? lobe(ci, k) : janus_detail::Lobe<T>{T(0), T(0)};
  const janus_detail::Lobe<T> lj = cj > cm && li.g > T(0) ? lobe(cj, k) : janus_detail::Lobe<T>{T(0), T(0)};
  // Inside both patches. The lobes' own sign decides at the edge: in fp32 a
  // cosine just above cos(theta_m) can give acos(c) = theta_m, g <= 0, where
  // f^nu / f would be 0 / 0 or a root of a negative.
  if (li.g > T(0) && lj.g > T(0)) {
    const T f = li.g * lj.g;
    const T fnu = pow(f, T(p.nu));
    energy -= T(0.5) * a_att * fnu * rho * w;
    du_drho -= T(0.5) * a_att * fnu * (T(1) - T(2) * rho);
    // dU/df^nu . d(f^nu)/df, and the two lobes' weights.
    const T du_df = -T(0.5) * a_att * rho * w * T(p.nu) * fnu / f;
    const T wi = du_df * lj.g * li.dg * si, wj = du_df * li.g * lj.dg * sj;
    // d(n_i . e)/dd = (n_i - (n_i . e) e) / r; d(-n_j . e)/dd = -(n_j - (n_j . e) e) / r.
    grad = (wi / r) * (n_i - ci_raw * e) - (wj / r) * (n_j + cj_raw * e);
    // torque = -n x dU/dn; dU/dn_i = wi e, dU/dn_j = -wj e.
    out.torque_i = -wi * cross(n_i, e);
    out.torque_j = wj * cross(n_j, e);
  }
  out.energy = energy;
  out.force_i = (du_drho / rc) * e + grad;
  out.virial = -dot(d, out.force_i);
  return out;
}

// The disk's and rod's pair: U = (a^R / 2) (1 - mu phi) (1 - rho)^2 with
// phi = f^nu a function of c_i = n_i . e, c_j = n_j . e and n_i . n_j.
// Where f = 0 (on the measure-zero set where phi's slope is infinite for
// nu < 1) only the repulsion acts.
template <class T>
MESO_HD JanusPair<T> disk_rod_pair(const Vec3<T>& d, const Vec3<T>& n_i, const Vec3<T>& n_j, const JanusParams& p) {
  const T rc = T(p.rcut), r = sqrt(dot(d, d));
  const Vec3<T> e = (T(1) / r) * d;
  const T rho = r / rc, w = T(1) - rho, half_a = T(0.5) * T(p.a_rep);
  const T ci = dot(n_i, e), cj = dot(n_j, e);
  // phi and its partial derivatives in c_i, c_j and n_i . n_j.
  T phi = T(0), phi_ci = T(0), phi_cj = T(0), phi_nn = T(0);
  if (p.shape == SoftShape::rod) {
    const T si2 = T(1) - ci * ci, sj2 = T(1) - cj * cj;  // sin^2 theta
    if (si2 > T(0) && sj2 > T(0)) {
      phi = pow(si2 * sj2, T(0.5) * T(p.nu));  // (sin_i sin_j)^nu
      phi_ci = -T(p.nu) * phi * ci / si2;
      phi_cj = -T(p.nu) * phi * cj / sj2;
    }
  } else {
    const T h = dot(n_i, n_j) - ci * cj;  // (n_i x e) . (n_j x e)
    if (h != T(0)) {
      const T ah = h < T(0) ? -h : h;
      phi = pow(ah, T(p.nu));
      const T dphi_dh = T(p.nu) * phi / h;  // sign(h) nu |h|^(nu - 1)
      phi_ci = -dphi_dh * cj;
      phi_cj = -dphi_dh * ci;
      phi_nn = dphi_dh;
    }
  }
  const T soft = T(1) - T(p.mu) * phi;
  JanusPair<T> out;
  out.energy = half_a * soft * w * w;
  // dU/dphi, then dU/dd: the radial part and phi's through e
  // (d c_i / dd = (n_i - c_i e) / r).
  const T du_dphi = -half_a * T(p.mu) * w * w;
  const T wi = du_dphi * phi_ci, wj = du_dphi * phi_cj, wn = du_dphi * phi_nn;
  out.force_i = (-T(2) * half_a * soft * w / rc) * e + (wi / r) * (n_i - ci * e) + (wj / r) * (n_j - cj * e);
  // torque = -n x dU/dn: dU/dn_i = wi e + wn n_j, dU/dn_j = wj e + wn n_i.
  out.torque_i = -T(1) * cross(n_i, wi * e + wn * n_j);
  out.torque_j = -T(1) * cross(n_j, wj * e + wn * n_i);
  out.virial = -dot(d, out.force_i);
  return out;
}

// The pair of any shape (GALAMOST's LZWForce): what the CPU and CUDA
// evaluators call.
template <class T>
MESO_HD JanusPair<T> soft_aniso_pair(const Vec3<T>& d, const Vec3<T>& n_i, const Vec3<T>& n_j,
                                     const JanusParams& p) {
  if (p.shape == SoftShape::disk || p.shape == SoftShape::rod) return disk_rod_pair(d, n_i, n_j, p);
  return janus_pair(d, n_i, n_j, p);
}

}  // namespace meso::physics

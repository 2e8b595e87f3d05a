// Soft Sticky Dipole water in its reaction-field form, SSD/RF (Liu & Ichiye,
// J. Phys. Chem. 100, 2723 (1996); Fennell & Gezelter, J. Chem. Phys. 120,
// 9175 (2004)), as OpenMD (Gezelter's code, forceFields/Water.frc,
// nonbonded/Sticky.cpp) implements it. One site per molecule, a rigid body
// with three moments of inertia; its body frame has the dipole along +z,
// the H-H direction along y and x normal to the molecular plane. For the
// pair (i, j) with d = r_j - r_i:
//
//   U = sw(r) [U_LJ(r) + U_dd] + U_sp
//   U_LJ = 4 eps [(sigma/r)^12 - (sigma/r)^6]
//   U_dd = C mu^2 [(u_i.u_j - 3 (u_i.d^)(u_j.d^)) / r^3 - k_rf u_i.u_j],
//          k_rf = 2 (eps_rf - 1) / ((2 eps_rf + 1) r_c^3)
//   U_sp = (v0 / 2) [s(r) (w_i + w_j) + s'(r) (w'_i + w'_j)]
//   w_i  = 2 (x^2 - y^2) z / r^3              (sin th sin 2th cos 2ph)
//   w'_i = (z/r - 0.6)^2 (z/r + 0.8)^2 - w0
//
// with (x, y, z) the partner's direction in i's body frame (d for i, -d
// for j), u the dipole axes (body z), sw the cubic switch from r_sw to r_c
// (OpenMD's switched cutoff), s and s' cubic switches from r_l to r_u and
// r_l' to r_u'. The reaction field's self term (a constant per molecule)
// is left out: it moves no particle.
//
// Units: Angstrom, kcal/mol, amu (time unit A sqrt(amu mol/kcal) =
// 48.888 fs), dipoles in Debye: C = 14.39325 kcal/mol A^3 / D^2.
//
// The pair is computed in the arithmetic T: double on the reference, float
// for the GPU's fp32 storage precisions.
#pragma once

#include <cmath>

#include "meso/core/error.hpp"
#include "meso_hd.hpp"
#include "quaternion.hpp"
#include "rigid_body.hpp"
#include "vec3.hpp"

namespace meso::physics {

struct SsdParams {
  double epsilon = 0.152;  // kcal/mol
  double sigma = 3.019;    // A
  double mu = 2.48;        // D
  double v0 = 3.90;        // kcal/mol, both sticky terms (OpenMD's v0 = v0p)
  double w0 = 0.07715;
  double rl = 2.40, ru = 3.80;     // s(r), A
  double rlp = 2.75, rup = 3.35;   // s'(r), A
  double rsw = 7.7, rcut = 9.0;    // the switched cutoff, A
  double eps_rf = 80.0;            // dielectric of the reaction field
  double coulomb = 14.39325;       // kcal/mol A^3 / D^2
  // The switches' polynomial: 3, OpenMD's cubic (the force continuous, its
  // derivative not: the published model), or 5, the quintic
  // 1 - 10 x^3 + 15 x^4 - 6 x^5 (continuous to the force's derivative), a
  // diagnostic of the energy drift (validation/nve-drift-rigid/README.md).
  int switch_order = 3;

  // The pair style (meso/core/pair_style.hpp).
  static constexpr const char* kStyle = "ssd";
  static constexpr bool kOrientational = true;
  void check() const {
    require_non_negative("SSD epsilon", epsilon);
    require_positive("SSD sigma", sigma);
    require_finite("SSD mu", mu);
    require_finite("SSD v0", v0);
    require_finite("SSD w0", w0);
    require_positive("SSD eps_rf", eps_rf);
    if (!(0.0 < rl && rl < ru) || !(0.0 < rlp && rlp < rup))
      throw_input_error("SSD sticky switches (r_l, r_u) = (", rl, ", ", ru, ") and (", rlp, ", ", rup,
                        ") must satisfy 0 < r_l < r_u");
    if (switch_order != 3 && switch_order != 5)
      throw_input_error("SSD switch order ", switch_order, " is invalid: 3 (cubic, as published) or 5 (quintic)");
    if (!(rsw > 0.0 && rsw < rcut) || ru > rcut || rup > rcut)
      throw_input_error("SSD cutoffs r_sw = ", rsw, ", r_c = ", rcut,
                        " must satisfy 0 < r_sw < r_c, with the sticky switches inside r_c");
  }
};

namespace ssd_detail {

// The cubic switch 1 -> 0 between lo and hi, and its derivative.
template <class T>
struct Switch {
  T s, ds;
};
template <class T>
MESO_HD Switch<T> cubic_switch(T r, T lo, T hi) {
  if (r <= lo) return {T(1), T(0)};
  if (r >= hi) return {T(0), T(0)};
  const T w = hi - lo, w3 = w * w * w;
  return {(hi + T(2) * r - T(3) * lo) * (hi - r) * (hi - r) / w3, T(6) * (r - hi) * (r - lo) / w3};
}

// The quintic switch 1 -> 0 between lo and hi (S, S' and S'' vanish at both
// ends but S(lo) = 1), and its derivative.
template <class T>
MESO_HD Switch<T> quintic_switch(T r, T lo, T hi) {
  if (r <= lo) return {T(1), T(0)};
  if (r >= hi) return {T(0), T(0)};
  const T w = hi - lo, x = (r - lo) / w, x2 = x * x, y = T(1) - x;
  return {T(1) - x2 * x * (T(10) - T(15) * x + T(6) * x2), T(-30) * x2 * y * y / w};
}

template <class T>
MESO_HD Switch<T> switch_of(T r, T lo, T hi, int order) {
  return order == 5 ? quintic_switch(r, lo, hi) : cubic_switch(r, lo, hi);
}

// One molecule's sticky terms for the partner at body-frame position b
// (|b| = r): f = s(r) w + s'(r) w', and its gradient in b.
template <class T>
struct Sticky {
  T f;
  Vec3<T> grad;
};
template <class T>
MESO_HD Sticky<T> sticky(const Vec3<T>& b, T r, const Switch<T>& s, const Switch<T>& sp, T w0) {
  const T r2 = r * r, r3 = r2 * r, ir = T(1) / r;
  const T x = b.x, y = b.y, z = b.z;
  // w = 2 (x^2 - y^2) z / r^3
  const T w = T(2) * (x * x - y * y) * z / r3;
  const T wr = T(-3) * w / r2;  // from d(r^-3)/db = -3 b / r^5, times r^3 w / r^3
  const Vec3<T> gw{T(4) * x * z / r3 + wr * x, T(-4) * y * z / r3 + wr * y, T(2) * (x * x - y * y) / r3 + wr * z};
  // w' = (c - 0.6)^2 (c + 0.8)^2 - w0, c = z / r
  const T c = z * ir, cm = c - T(0.6), cp = c + T(0.8);
  const T wp = cm * cm * cp * cp - w0;
  const T dwp_dc = T(2) * cm * cp * (cp + cm);
  // dc/db = (e_z - c b / r) / r
  const Vec3<T> gc{-c * x * ir * ir, -c * y * ir * ir, (T(1) - c * c) * ir};
  // f = s w + s' w'; the switches depend on r: df/db += (ds w + ds' w') b / r
  const T radial = (s.ds * w + sp.ds * wp) * ir;
  Sticky<T> out;
  out.f = s.s * w + sp.s * wp;
  out.grad = s.s * gw + (sp.s * dwp_dc) * gc + radial * b;
  return out;
}

}  // namespace ssd_detail

// Force on i, torques on i and j, energy and virial of one pair.
template <class T = double>
struct SsdPair {
  Vec3<T> force_i;
  Vec3<T> torque_i;
  Vec3<T> torque_j;
  T energy;
  T virial;
};

// d = r_j - r_i (minimum image), 0 < |d| < rcut; qi, qj the orientations.
template <class T>
MESO_HD SsdPair<T> ssd_pair(const Vec3<T>& d, const Quat<T>& qi, const Quat<T>& qj, const SsdParams& p) {
  using std::sqrt;
  const T r2 = dot(d, d), r = sqrt(r2), ir = T(1) / r;
  // Gradient of U with respect to d (so F_i = +grad, F_j = -grad since
  // d = r_j - r_i), and with respect to each dipole axis.
  const Vec3<T> zero{T(0), T(0), T(0)};
  Vec3<T> grad = zero, gui = zero, guj = zero;
  T u = T(0);
  // Switched LJ and dipole-dipole with the reaction field.
  const ssd_detail::Switch<T> sw = ssd_detail::switch_of(r, T(p.rsw), T(p.rcut), p.switch_order);
  if (sw.s > T(0)) {
    const T sig = T(p.sigma), eps = T(p.epsilon), rc = T(p.rcut), erf = T(p.eps_rf);
    const T sr2 = sig * sig / r2, sr6 = sr2 * sr2 * sr2;
    const T ulj = T(4) * eps * (sr6 * sr6 - sr6);
    const T dulj = T(-4) * eps * (T(12) * sr6 * sr6 - T(6) * sr6) * ir;  // dU/dr
    const Vec3<T> ui = body_axis_z(qi), uj = body_axis_z(qj);
    const T cmu = T(p.coulomb) * T(p.mu) * T(p.mu);
    const T krf = T(2) * (erf - T(1)) / ((T(2) * erf + T(1)) * rc * rc * rc);
    const T ir3 = ir * ir * ir, ir5 = ir3 * ir * ir;
    const T a = dot(ui, d), b = dot(uj, d), c = dot(ui, uj);
    const T udd = cmu * (c * ir3 - T(3) * a * b * ir5 - krf * c);
    // d(udd)/dd at fixed axes, and d(udd)/du_i, d(udd)/du_j
    const Vec3<T> gdd =
        cmu * ((T(-3) * c * ir5 + T(15) * a * b * ir5 * ir * ir) * d - (T(3) * ir5) * (b * ui + a * uj));
    const T ur = ulj + udd;
    u += sw.s * ur;
    grad += (sw.s * dulj * ir + sw.ds * ur * ir) * d + sw.s * gdd;
    gui += (sw.s * cmu) * ((ir3 - krf) * uj - (T(3) * b * ir5) * d);
    guj += (sw.s * cmu) * ((ir3 - krf) * ui - (T(3) * a * ir5) * d);
  }
  // Sticky: each molecule sees the other in its own body frame.
  const ssd_detail::Switch<T> s = ssd_detail::switch_of(r, T(p.rl), T(p.ru), p.switch_order);
  const ssd_detail::Switch<T> sp = ssd_detail::switch_of(r, T(p.rlp), T(p.rup), p.switch_order);
  Vec3<T> gsi = zero, gsj = zero;  // space-frame gradients through i's and j's terms (in d)
  if (s.s > T(0) || sp.s > T(0)) {
    const T w0 = T(p.w0), half_v0 = T(0.5) * T(p.v0);
    const ssd_detail::Sticky<T> ti = ssd_detail::sticky(rotate_inverse(qi, d), r, s, sp, w0);
    const ssd_detail::Sticky<T> tj = ssd_detail::sticky(rotate_inverse(qj, T(-1) * d), r, s, sp, w0);
    u += half_v0 * (ti.f + tj.f);
    gsi = half_v0 * rotate(qi, ti.grad);
    gsj = -half_v0 * rotate(qj, tj.grad);  // j's term depends on -d
    grad += gsi + gsj;
  }
  SsdPair<T> out;
  out.energy = u;
  out.force_i = grad;
  out.virial = dot(T(-1) * d, grad);  // (r_i - r_j) . F_i
  // Torques: an axis term tau = u x (-dU/du); a body-frame term from
  // turning the molecule against its view of the partner, tau_i = d x g_i
  // (g_i the gradient through i's frame) and tau_j = (-d) x (-g_j) for j.
  out.torque_i = cross(body_axis_z(qi), T(-1) * gui) + cross(d, gsi);
  out.torque_j = cross(body_axis_z(qj), T(-1) * guj) + cross(d, gsj);
  return out;
}

}  // namespace meso::physics

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
#pragma once

#include <cmath>

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
};

namespace ssd_detail {

// The cubic switch 1 -> 0 between lo and hi, and its derivative.
struct Switch {
  double s, ds;
};
MESO_HD Switch cubic_switch(double r, double lo, double hi) {
  if (r <= lo) return {1.0, 0.0};
  if (r >= hi) return {0.0, 0.0};
  const double w = hi - lo, w3 = w * w * w;
  return {(hi + 2.0 * r - 3.0 * lo) * (hi - r) * (hi - r) / w3, 6.0 * (r - hi) * (r - lo) / w3};
}

// One molecule's sticky terms for the partner at body-frame position b
// (|b| = r): f = s(r) w + s'(r) w', and its gradient in b.
struct Sticky {
  double f;
  Vec3d grad;
};
MESO_HD Sticky sticky(const Vec3d& b, double r, const Switch& s, const Switch& sp, double w0) {
  const double r2 = r * r, r3 = r2 * r, ir = 1.0 / r;
  const double x = b.x, y = b.y, z = b.z;
  // w = 2 (x^2 - y^2) z / r^3
  const double w = 2.0 * (x * x - y * y) * z / r3;
  const double wr = -3.0 * w / r2;  // from d(r^-3)/db = -3 b / r^5, times r^3 w / r^3
  const Vec3d gw{4.0 * x * z / r3 + wr * x, -4.0 * y * z / r3 + wr * y, 2.0 * (x * x - y * y) / r3 + wr * z};
  // w' = (c - 0.6)^2 (c + 0.8)^2 - w0, c = z / r
  const double c = z * ir, cm = c - 0.6, cp = c + 0.8;
  const double wp = cm * cm * cp * cp - w0;
  const double dwp_dc = 2.0 * cm * cp * (cp + cm);
  // dc/db = (e_z - c b / r) / r
  const Vec3d gc{-c * x * ir * ir, -c * y * ir * ir, (1.0 - c * c) * ir};
  // f = s w + s' w'; the switches depend on r: df/db += (ds w + ds' w') b / r
  const double radial = (s.ds * w + sp.ds * wp) * ir;
  Sticky out;
  out.f = s.s * w + sp.s * wp;
  out.grad = s.s * gw + (sp.s * dwp_dc) * gc + radial * b;
  return out;
}

}  // namespace ssd_detail

// Force on i, torques on i and j, energy and virial of one pair.
struct SsdPair {
  Vec3d force_i;
  Vec3d torque_i;
  Vec3d torque_j;
  double energy;
  double virial;
};

// d = r_j - r_i (minimum image), 0 < |d| < rcut; qi, qj the orientations.
MESO_HD SsdPair ssd_pair(const Vec3d& d, const Quatd& qi, const Quatd& qj, const SsdParams& p) {
  using std::sqrt;
  const double r2 = dot(d, d), r = sqrt(r2), ir = 1.0 / r;
  // Gradient of U with respect to d (so F_i = +grad, F_j = -grad since
  // d = r_j - r_i), and with respect to each dipole axis.
  Vec3d grad{0.0, 0.0, 0.0}, gui{0.0, 0.0, 0.0}, guj{0.0, 0.0, 0.0};
  double u = 0.0;
  // Switched LJ and dipole-dipole with the reaction field.
  const ssd_detail::Switch sw = ssd_detail::cubic_switch(r, p.rsw, p.rcut);
  if (sw.s > 0.0) {
    const double sr2 = p.sigma * p.sigma / r2, sr6 = sr2 * sr2 * sr2;
    const double ulj = 4.0 * p.epsilon * (sr6 * sr6 - sr6);
    const double dulj = -4.0 * p.epsilon * (12.0 * sr6 * sr6 - 6.0 * sr6) * ir;  // dU/dr
    const Vec3d ui = body_axis_z(qi), uj = body_axis_z(qj);
    const double cmu = p.coulomb * p.mu * p.mu;
    const double krf = 2.0 * (p.eps_rf - 1.0) / ((2.0 * p.eps_rf + 1.0) * p.rcut * p.rcut * p.rcut);
    const double ir3 = ir * ir * ir, ir5 = ir3 * ir * ir;
    const double a = dot(ui, d), b = dot(uj, d), c = dot(ui, uj);
    const double udd = cmu * (c * ir3 - 3.0 * a * b * ir5 - krf * c);
    // d(udd)/dd at fixed axes, and d(udd)/du_i, d(udd)/du_j
    const Vec3d gdd = cmu * ((-3.0 * c * ir5 + 15.0 * a * b * ir5 * ir * ir) * d - (3.0 * ir5) * (b * ui + a * uj));
    const double ur = ulj + udd;
    u += sw.s * ur;
    grad += (sw.s * dulj * ir + sw.ds * ur * ir) * d + sw.s * gdd;
    gui += (sw.s * cmu) * ((ir3 - krf) * uj - (3.0 * b * ir5) * d);
    guj += (sw.s * cmu) * ((ir3 - krf) * ui - (3.0 * a * ir5) * d);
  }
  // Sticky: each molecule sees the other in its own body frame.
  const ssd_detail::Switch s = ssd_detail::cubic_switch(r, p.rl, p.ru);
  const ssd_detail::Switch sp = ssd_detail::cubic_switch(r, p.rlp, p.rup);
  Vec3d gsi{0.0, 0.0, 0.0}, gsj{0.0, 0.0, 0.0};  // space-frame gradients through i's and j's terms (in d)
  if (s.s > 0.0 || sp.s > 0.0) {
    const ssd_detail::Sticky ti = ssd_detail::sticky(rotate_inverse(qi, d), r, s, sp, p.w0);
    const ssd_detail::Sticky tj = ssd_detail::sticky(rotate_inverse(qj, -1.0 * d), r, s, sp, p.w0);
    u += 0.5 * p.v0 * (ti.f + tj.f);
    gsi = (0.5 * p.v0) * rotate(qi, ti.grad);
    gsj = (-0.5 * p.v0) * rotate(qj, tj.grad);  // j's term depends on -d
    grad += gsi + gsj;
  }
  SsdPair out;
  out.energy = u;
  out.force_i = grad;
  out.virial = dot(-1.0 * d, grad);  // (r_i - r_j) . F_i
  // Torques: an axis term tau = u x (-dU/du); a body-frame term from
  // turning the molecule against its view of the partner, tau_i = d x g_i
  // (g_i the gradient through i's frame) and tau_j = (-d) x (-g_j) for j.
  out.torque_i = cross(body_axis_z(qi), -1.0 * gui) + cross(d, gsi);
  out.torque_j = cross(body_axis_z(qj), -1.0 * guj) + cross(d, gsj);
  return out;
}

}  // namespace meso::physics

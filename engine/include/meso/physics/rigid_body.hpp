// Rotational dynamics of a rigid particle with principal moments of inertia
// I = (I_x, I_y, I_z) in its body frame: the orientation q (body to space),
// the body-frame angular momentum L, and the NO_SQUISH free-rotor splitting
// of Miller, Eleftheriou, Pattnaik, Ndirango, Newns and Martyna,
// J. Chem. Phys. 116, 8649 (2002), as HOOMD-blue and LAMMPS integrate
// anisotropic particles.
//
// The free rotor's kinetic energy sum_k L_k^2 / (2 I_k) is split per body
// axis; each part is integrated exactly: a rotation of the body by
// theta = L_k t / I_k about axis k (q <- q (cos theta/2, sin theta/2 e_k)),
// under which the body-frame L turns by -theta about the same axis (the
// space-frame L is constant). The symmetric sequence z(t/2) y(t/2) x(t)
// y(t/2) z(t/2) is time reversible and symplectic, so with a velocity-Verlet
// kick of the torque the energy error stays bounded and O(dt^2).
//
// An axis with I_k = 0 carries no rotation (a linear particle such as a
// Gay-Berne ellipsoid or a soft rod: two rotational degrees of freedom); its
// L_k is held at 0. Symmetric tops are rotated exactly (free_rotation).
#pragma once

#include <cmath>

#include "meso_hd.hpp"
#include "quaternion.hpp"
#include "vec3.hpp"

namespace meso::physics {

namespace rigid_body_detail {

MESO_HD double component(const Vec3d& a, int k) { return k == 0 ? a.x : (k == 1 ? a.y : a.z); }

// Turns the body by theta about its axis k: q <- q (cos theta/2, sin
// theta/2 e_k), and the body-frame L by -theta about the same axis.
MESO_HD void turn_about_axis(Quatd& q, Vec3d& L, int k, double theta) {
  using std::cos;
  using std::sin;
  const double c = cos(0.5 * theta), s = sin(0.5 * theta);
  const Vec3d axis{k == 0 ? 1.0 : 0.0, k == 1 ? 1.0 : 0.0, k == 2 ? 1.0 : 0.0};
  q = q * Quatd{c, s * axis};
  // cos(theta) = c^2 - s^2, sin(theta) = 2 s c.
  const double ct = c * c - s * s, st = 2.0 * s * c;
  if (k == 0)
    L = {L.x, ct * L.y + st * L.z, -st * L.y + ct * L.z};
  else if (k == 1)
    L = {ct * L.x - st * L.z, L.y, st * L.x + ct * L.z};
  else
    L = {ct * L.x + st * L.y, -st * L.x + ct * L.y, L.z};
}

// One exact free rotation of duration t about body axis k (the flow of
// L_k^2 / (2 I_k) alone); nothing for an axis without inertia.
MESO_HD void rotate_about_axis(Quatd& q, Vec3d& L, const Vec3d& inertia, int k, double t) {
  const double I = component(inertia, k);
  if (I > 0.0) turn_about_axis(q, L, k, component(L, k) * t / I);
}

}  // namespace rigid_body_detail

// The free rotor for a time t; q is renormalised after it.
//
// A symmetric top about body z (I_x == I_y, which includes the linear
// particles with I_z = 0) is integrated exactly instead: its kinetic energy
// |L|^2 / (2 I_x) + L_z^2 (1/I_z - 1/I_x) / 2 splits into two commuting
// parts, a rotation of the body about L itself by |L| t / I_x (L_body
// unchanged) and a spin about body z by L_z t (1/I_z - 1/I_x). NO_SQUISH's
// per-axis splitting would instead leak body-frame L into z through the x
// and y rotations, where a linear particle has no inertia to carry it.
MESO_HD void free_rotation(Quatd& q, Vec3d& L, const Vec3d& inertia, double t) {
  using rigid_body_detail::rotate_about_axis;
  if (inertia.x == inertia.y && inertia.x > 0.0) {
    using std::cos;
    using std::sin;
    using std::sqrt;
    const double l = sqrt(dot(L, L));
    if (l > 0.0) {
      const double phi = l * t / inertia.x;
      q = q * Quatd{cos(0.5 * phi), (sin(0.5 * phi) / l) * L};
    }
    if (inertia.z > 0.0) rigid_body_detail::turn_about_axis(q, L, 2, L.z * t * (1.0 / inertia.z - 1.0 / inertia.x));
  } else {
    rotate_about_axis(q, L, inertia, 2, 0.5 * t);
    rotate_about_axis(q, L, inertia, 1, 0.5 * t);
    rotate_about_axis(q, L, inertia, 0, t);
    rotate_about_axis(q, L, inertia, 1, 0.5 * t);
    rotate_about_axis(q, L, inertia, 2, 0.5 * t);
  }
  q = normalized(q);
}

// L += h tau for a space-frame torque (turned into the body frame); axes
// without inertia keep L_k = 0.
MESO_HD Vec3d torque_kick(const Quatd& q, Vec3d L, const Vec3d& inertia, const Vec3d& torque, double h) {
  L += h * rotate_inverse(q, torque);
  if (!(inertia.x > 0.0)) L.x = 0.0;
  if (!(inertia.y > 0.0)) L.y = 0.0;
  if (!(inertia.z > 0.0)) L.z = 0.0;
  return L;
}

// Rotational kinetic energy sum_k L_k^2 / (2 I_k) over axes with I_k > 0.
MESO_HD double rotational_kinetic_energy(const Vec3d& L, const Vec3d& inertia) {
  double k = 0.0;
  if (inertia.x > 0.0) k += 0.5 * L.x * L.x / inertia.x;
  if (inertia.y > 0.0) k += 0.5 * L.y * L.y / inertia.y;
  if (inertia.z > 0.0) k += 0.5 * L.z * L.z / inertia.z;
  return k;
}

// Rotational degrees of freedom: the number of axes with I_k > 0.
MESO_HD int rotational_dof(const Vec3d& inertia) {
  return (inertia.x > 0.0 ? 1 : 0) + (inertia.y > 0.0 ? 1 : 0) + (inertia.z > 0.0 ? 1 : 0);
}

// Body z turned into the space frame: the symmetry axis of a uniaxial
// particle, the dipole of an SSD water molecule.
template <class T>
MESO_HD Vec3<T> body_axis_z(const Quat<T>& q) {
  return rotate(q, Vec3<T>{T(0), T(0), T(1)});
}

// The space-frame angular velocity (L_k / I_k per body axis, turned into
// the space frame).
MESO_HD Vec3d angular_velocity(const Quatd& q, const Vec3d& L, const Vec3d& inertia) {
  const Vec3d w{inertia.x > 0.0 ? L.x / inertia.x : 0.0, inertia.y > 0.0 ? L.y / inertia.y : 0.0,
                inertia.z > 0.0 ? L.z / inertia.z : 0.0};
  return rotate(q, w);
}

}  // namespace meso::physics

// Tabulated bonds and angles (GALAMOST's numerical potentials; tables built
// by meso/tables/bonded_table.hpp), in the results of meso/physics/bonded.hpp:
//
//   bond:   V(r) on a grid of r; f_over_r = -(dV/dr) / r, and outside the
//           table's [r_min, r_max] no force can be given (ok = false: the
//           caller names the bond);
//   angle:  V(theta) on a grid of theta over [0, pi] (every angle is in it).
#pragma once

#include "bonded.hpp"
#include "meso_hd.hpp"
#include "table_force.hpp"

namespace meso::physics {

template <class Scalar>
MESO_HD BondForce<Scalar> table_bond(Scalar rsq, const TableView<Scalar>& t) {
  const Scalar r = sqrt(rsq);
  if (!(r >= t.z_min && r <= t.z_max)) return {Scalar(0), Scalar(0), false};
  const TableValue<Scalar> e = table_value(r, t);
  return {r > Scalar(0) ? -e.dv / r : Scalar(0), e.v, true};
}

// The forces of an angle depend on V only through dV/dtheta at its theta,
// and harmonic_angle with k = 1 and theta0 = theta - dV/dtheta has that
// derivative: its forces and virial are the table's (its sin clamp
// included); the energy is the table's V(theta).
template <class Scalar>
MESO_HD AngleForce<Scalar> table_angle(Vec3<Scalar> r_ab, Vec3<Scalar> r_cb, const TableView<Scalar>& t) {
  // theta as harmonic_angle computes it, bit for bit.
  const Scalar theta = angle_geometry(r_ab, r_cb).theta;
  const TableValue<Scalar> e = table_value(theta, t);
  AngleForce<Scalar> a = harmonic_angle<Scalar>(r_ab, r_cb, HarmonicAngleParams{1.0, double(theta - e.dv)});
  a.energy = e.v;
  return a;
}

}  // namespace meso::physics

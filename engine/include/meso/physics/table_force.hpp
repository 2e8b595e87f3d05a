// A tabulated pair potential on a grid of z = r^2 (GALAMOST's numerical
// potentials, Zhu et al., J. Comput. Chem. 34, 2197 (2013), Algorithm 2),
// written once for every backend:
//
//   V(z) = c0 + c1 d + c2 d^2 + c3 d^3,  d = z - z_k,  z_k <= z < z_k + dz,
//
// one cubic per interval of a uniform grid z_k = z_min + k dz, k = 0 .. n,
// with V, dV/dz and d2V/dz2 continuous at the grid points (a cubic spline:
// meso/tables/pair_potential_table.hpp builds the coefficients). No square root is
// taken: the interval and d come from r^2, and the force follows from
// dV/dz as F = -dV/dr r_hat = -2 (dV/dz) r_vec, so
//
//   f_over_r = -2 (c1 + 2 c2 d + 3 c3 d^2)   (force on i: f_over_r r_ij).
//
// Pairs at z >= z_max = z_min + n dz do not interact; pairs below z_min are
// outside the table, which the caller reports (a run that brings two
// particles closer than the table reaches is not extrapolated).
#pragma once

#include <cstdint>

#include "meso_hd.hpp"

namespace meso::physics {

// What an evaluator reads of one table: the grid and the coefficients, four
// per interval (c0 c1 c2 c3), stored contiguously.
template <class Scalar>
struct TableView {
  const Scalar* coeff = nullptr;  // 4 n values
  Scalar z_min = 0;
  Scalar inv_dz = 0;
  Scalar dz = 0;
  Scalar z_max = 0;
  uint32_t intervals = 0;
};

template <class Scalar>
struct TablePairForce {
  Scalar f_over_r;  // force on i is f_over_r * r_ij
  Scalar energy;
  Scalar virial;  // r_ij . F_ij = f_over_r * rsq
};

// The force and energy at rsq, z_min <= rsq < z_max (the caller checks).
template <class Scalar>
MESO_HD TablePairForce<Scalar> table_pair_force(Scalar rsq, const TableView<Scalar>& t) {
  const Scalar x = (rsq - t.z_min) * t.inv_dz;
  uint32_t k = static_cast<uint32_t>(x);
  if (k >= t.intervals) k = t.intervals - 1;  // rsq a rounding below z_max
  const Scalar d = rsq - (t.z_min + Scalar(k) * t.dz);
  const Scalar* c = t.coeff + 4 * k;
  const Scalar v = c[0] + d * (c[1] + d * (c[2] + d * c[3]));
  const Scalar dv = c[1] + d * (Scalar(2) * c[2] + Scalar(3) * d * c[3]);
  const Scalar f = Scalar(-2) * dv;
  return {f, v, f * rsq};
}

// V and dV/dx of a table on a grid of x itself (bond tables on r, angle
// tables on theta: meso/tables/bonded_table.hpp), z_min <= x <= z_max (the caller
// checks; x at z_max takes the last interval's end).
template <class Scalar>
struct TableValue {
  Scalar v, dv;
};

template <class Scalar>
MESO_HD TableValue<Scalar> table_value(Scalar x, const TableView<Scalar>& t) {
  uint32_t k = static_cast<uint32_t>((x - t.z_min) * t.inv_dz);
  k = k < t.intervals ? k : t.intervals - 1;
  const Scalar* c = t.coeff + 4 * k;
  const Scalar d = x - (t.z_min + Scalar(k) * t.dz);
  return {c[0] + d * (c[1] + d * (c[2] + d * c[3])), c[1] + d * (Scalar(2) * c[2] + Scalar(3) * d * c[3])};
}

}  // namespace meso::physics

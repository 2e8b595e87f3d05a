// Bonded interactions, written once for every backend (the CPU reference and
// the CUDA kernels), in HOOMD-blue's conventions (md.bond.Harmonic,
// md.bond.FENEWCA, md.angle.Harmonic) and GALAMOST's parameter forms:
//
//   harmonic bond   V(r) = k/2 (r - r0)^2
//   FENE bond       V(r) = -k R0^2 / 2 ln(1 - (r/R0)^2)
//                          + 4 eps [(sigma/r)^12 - (sigma/r)^6] + eps   for r < 2^(1/6) sigma
//                   (the Kremer-Grest WCA core; eps = 0 leaves the FENE part
//                   alone). r >= R0 has no finite energy: the evaluator
//                   reports it (ok = false) and the caller refuses the
//                   configuration, as HOOMD-blue does ("bond.fene: bond out
//                   of bounds").
//   harmonic angle  V(theta) = k/2 (theta - theta0)^2, theta in radians.
//
// Angle convention: for the angle (a, b, c), b is the vertex and theta the
// angle between the bond vectors r_ab = r_a - r_b and r_cb = r_c - r_b, in
// [0, pi]: a straight chain has theta = pi (GALAMOST's and HOOMD-blue's
// convention; the DPPC angles "P-G-C 180" of docs/reference.md are straight).
//
// Vectors are minimum-image differences computed by the caller; the
// evaluators return forces, energies and the virial (sum over the
// particles of r . F in the frame of the vertex, which is translation
// invariant because the forces sum to zero).
#pragma once

#include <cmath>

#include "meso_hd.hpp"
#include "vec3.hpp"

namespace meso::physics {

struct HarmonicBondParams {
  double k = 0.0;   // energy / length^2
  double r0 = 0.0;  // rest length
};

struct FeneBondParams {
  double k = 0.0;        // energy / length^2
  double r_max = 1.5;    // R0: the bond's largest extension
  double epsilon = 0.0;  // WCA core; 0: none
  double sigma = 1.0;
};

struct HarmonicAngleParams {
  double k = 0.0;       // energy / rad^2
  double theta0 = 0.0;  // rest angle, radians
};

// A two-body bonded result: the force on the first particle is f_over_r d
// (d = r_i - r_j), on the second -f_over_r d.
template <class Scalar>
struct BondForce {
  Scalar f_over_r;
  Scalar energy;
  bool ok;  // false: outside the potential's domain (FENE r >= R0)
};

template <class Scalar>
MESO_HD BondForce<Scalar> harmonic_bond(Scalar rsq, const HarmonicBondParams& p) {
  const Scalar r = sqrt(rsq);
  const Scalar dr = r - Scalar(p.r0);
  // r = 0 with r0 > 0: the direction is undefined; no force (the energy
  // is still k r0^2 / 2). It never happens in a sane configuration.
  const Scalar f_over_r = r > Scalar(0) ? -Scalar(p.k) * dr / r : Scalar(0);
  return {f_over_r, Scalar(0.5) * Scalar(p.k) * dr * dr, true};
}

template <class Scalar>
MESO_HD BondForce<Scalar> fene_bond(Scalar rsq, const FeneBondParams& p) {
  const Scalar r0sq = Scalar(p.r_max) * Scalar(p.r_max);
  if (rsq >= r0sq) return {Scalar(0), Scalar(0), false};
  const Scalar x = Scalar(1) - rsq / r0sq;
  Scalar f_over_r = -Scalar(p.k) / x;
  Scalar energy = -Scalar(0.5) * Scalar(p.k) * r0sq * log(x);
  const Scalar sig2 = Scalar(p.sigma) * Scalar(p.sigma);
  // WCA: the LJ repulsion cut at its minimum 2^(1/6) sigma and shifted by eps.
  if (p.epsilon > 0.0 && rsq < Scalar(1.2599210498948732) * sig2) {
    const Scalar s6 = sig2 * sig2 * sig2 / (rsq * rsq * rsq);
    const Scalar eps = Scalar(p.epsilon);
    energy += Scalar(4) * eps * (s6 * s6 - s6) + eps;
    f_over_r += Scalar(24) * eps * (Scalar(2) * s6 * s6 - s6) / rsq;
  }
  return {f_over_r, energy, true};
}

// A three-body result: forces on a, b (the vertex) and c, the energy, the
// angle, and the virial sum_k r_kb . F_k.
template <class Scalar>
struct AngleForce {
  Vec3<Scalar> fa, fb, fc;
  Scalar energy;
  Scalar theta;
  Scalar virial;
};

// The angle at b of r_ab = r_a - r_b and r_cb = r_c - r_b: cos, sin and
// theta. sin is |r_ab x r_cb| / (|r_ab||r_cb|) and theta = atan2(sin, cos),
// not sqrt(1 - cos^2) and acos(cos): near theta = 0 or pi those lose
// sqrt(eps) of their digits (in fp32, cos rounds to -1 once sin < 2.4e-4 and
// sin to 0), and a bent rest angle's force k (theta - theta0) / sin then
// blew a soft melt's bond apart in single precision (docs/tables.md).
template <class Scalar>
struct AngleGeometry {
  Scalar c, s, theta, inv_ra, inv_rc, raa, rcc;
};

template <class Scalar>
MESO_HD AngleGeometry<Scalar> angle_geometry(Vec3<Scalar> r_ab, Vec3<Scalar> r_cb) {
  AngleGeometry<Scalar> g;
  g.raa = dot(r_ab, r_ab), g.rcc = dot(r_cb, r_cb);
  g.inv_ra = Scalar(1) / sqrt(g.raa), g.inv_rc = Scalar(1) / sqrt(g.rcc);
  const Vec3<Scalar> n = {r_ab.y * r_cb.z - r_ab.z * r_cb.y, r_ab.z * r_cb.x - r_ab.x * r_cb.z,
                          r_ab.x * r_cb.y - r_ab.y * r_cb.x};
  g.c = dot(r_ab, r_cb) * g.inv_ra * g.inv_rc;
  g.c = g.c > Scalar(1) ? Scalar(1) : (g.c < Scalar(-1) ? Scalar(-1) : g.c);
  g.s = sqrt(dot(n, n)) * g.inv_ra * g.inv_rc;
  g.theta = atan2(g.s, g.c);
  return g;
}

// dV/dtheta times dtheta/dr: with c = cos(theta), dtheta/dr_a = -1/sin(theta)
// dc/dr_a and dc/dr_a = (r_cb/(|r_ab||r_cb|) - c r_ab/|r_ab|^2). At theta = 0
// or pi, sin(theta) -> 0 while (theta - theta0)/sin(theta) stays finite only
// for theta0 at that end; sin is clamped at 1e-6 (HOOMD-blue clamps at
// 1e-3), so a straight rest angle (theta0 = pi) is exact away from the clamp
// and its force vanishes there, as it must.
template <class Scalar>
MESO_HD AngleForce<Scalar> harmonic_angle(Vec3<Scalar> r_ab, Vec3<Scalar> r_cb,
                                          const HarmonicAngleParams& p) {
  const AngleGeometry<Scalar> g = angle_geometry(r_ab, r_cb);
  const Scalar raa = g.raa, rcc = g.rcc, inv_ra = g.inv_ra, inv_rc = g.inv_rc, c = g.c, theta = g.theta;
  const Scalar s = g.s < Scalar(1e-6) ? Scalar(1e-6) : g.s;
  const Scalar dtheta = theta - Scalar(p.theta0);
  // F_a = -dV/dr_a = k dtheta / s * dc/dr_a.
  const Scalar a = Scalar(p.k) * dtheta / s;
  const Scalar a11 = a * c / raa, a12 = -a * inv_ra * inv_rc, a22 = a * c / rcc;
  const Vec3<Scalar> fa = {-(a11 * r_ab.x + a12 * r_cb.x), -(a11 * r_ab.y + a12 * r_cb.y),
                           -(a11 * r_ab.z + a12 * r_cb.z)};
  const Vec3<Scalar> fc = {-(a22 * r_cb.x + a12 * r_ab.x), -(a22 * r_cb.y + a12 * r_ab.y),
                           -(a22 * r_cb.z + a12 * r_ab.z)};
  const Vec3<Scalar> fb = {-(fa.x + fc.x), -(fa.y + fc.y), -(fa.z + fc.z)};
  return {fa, fb, fc, Scalar(0.5) * Scalar(p.k) * dtheta * dtheta, theta,
          dot(r_ab, fa) + dot(r_cb, fc)};
}

}  // namespace meso::physics

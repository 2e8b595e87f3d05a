// Multiparticle collision dynamics (MPCD) by stochastic rotation (SRD;
// Malevanets & Kapral, J. Chem. Phys. 110, 8605 (1999)) and the Andersen-
// thermostat rule (MPC-AT; Allahyarov & Gompper, PRE 66, 036702 (2002)), as in
// HOOMD-blue's MPCD package (Howard, Panagiotopoulos & Nikoubashman, CPC 230,
// 10 (2018)). Written once for the CPU reference and the CUDA kernels.
//
// Every random number is a pure function of (what it is for, global cell
// index or tag, collision step, seed): Philox4x32-10 with a stream id per use
// in key word 1, so any backend and any domain decomposition draw the same
// grid shift, the same axes and the same thermostat factors.
#pragma once

#include <cmath>
#include <cstdint>

#include "box_muller.hpp"
#include "fixed_point_sum.hpp"
#include "meso_hd.hpp"
#include "philox.hpp"
#include "vec3.hpp"

namespace meso::physics {

namespace srd_detail {
inline constexpr uint32_t kShiftStream = 0x53484654u;   // "SHFT": grid shift
inline constexpr uint32_t kAxisStream = 0x53524421u;    // "SRD!": rotation axis
inline constexpr uint32_t kThermoStream = 0x4d425448u;  // "MBTH": cell thermostat
inline constexpr uint32_t kAtStream = 0x4154434cu;      // "ATCL": MPC-AT velocities
inline constexpr uint32_t kAtEmbedStream = 0x41544d44u; // "ATMD": ... of embedded MD particles

MESO_HD Philox4x32Ctr draw(uint32_t stream, uint32_t seed, uint32_t id, uint64_t step,
                           uint32_t k) {
  return philox4x32_10(Philox4x32Ctr{{id, static_cast<uint32_t>(step),
                                      static_cast<uint32_t>(step >> 32), k}},
                       Philox4x32Key{{seed, stream}});
}
}  // namespace srd_detail

// The random grid shift of collision `step`, uniform in [-a/2, a/2)^3
// (Ihle & Kroll, PRE 63, 020201 (2001): restores Galilean invariance).
MESO_HD Vec3d srd_grid_shift(uint64_t step, uint32_t seed, double a) {
  const Philox4x32Ctr r = srd_detail::draw(srd_detail::kShiftStream, seed, 0u, step, 0u);
  const Philox4x32Ctr s = srd_detail::draw(srd_detail::kShiftStream, seed, 0u, step, 1u);
  // uniform_open01 is in (0, 1]: 1 - u is in [0, 1), and minus 1/2 in
  // [-1/2, 1/2).
  return {a * (0.5 - uniform_open01(r.v[0], r.v[1])), a * (0.5 - uniform_open01(r.v[2], r.v[3])),
          a * (0.5 - uniform_open01(s.v[0], s.v[1]))};
}

// The rotation axis of global cell `cell` at collision `step`: uniform on the
// unit sphere by the cylindrical projection (z uniform in [-1, 1], azimuth
// uniform in [0, 2 pi): Archimedes' hat-box theorem).
MESO_HD Vec3d srd_rotation_axis(uint32_t cell, uint64_t step, uint32_t seed) {
  const Philox4x32Ctr r = srd_detail::draw(srd_detail::kAxisStream, seed, cell, step, 0u);
  const double z = 2.0 * uniform_open01(r.v[0], r.v[1]) - 1.0;
  const double phi = 2.0 * 3.14159265358979323846 * uniform_open01(r.v[2], r.v[3]);
  const double s = sqrt(fmax(0.0, 1.0 - z * z));
  return {s * cos(phi), s * sin(phi), z};
}

// Rodrigues' rotation of u by the angle with (cos_a, sin_a) about the unit
// axis n: u cos a + (n x u) sin a + n (n . u)(1 - cos a). Always fp64.
MESO_HD Vec3d srd_rotate(const Vec3d& u, const Vec3d& n, double cos_a, double sin_a) {
  const double nu = dot(n, u);
  const Vec3d nxu{n.y * u.z - n.z * u.y, n.z * u.x - n.x * u.z, n.x * u.y - n.y * u.x};
  return cos_a * u + sin_a * nxu + ((1.0 - cos_a) * nu) * n;
}

// A Gamma(shape k, scale 1) deviate by Marsaglia & Tsang (ACM TOMS 26, 363
// (2000)) for k >= 1, from Philox draws keyed like the axes; the rejection
// loop takes 1.02 to 1.1 tries on average and at most 16 here (the cap is
// never reached in practice: a rejection has probability < 0.1 each).
MESO_HD double srd_gamma(double k, uint32_t cell, uint64_t step, uint32_t seed) {
  const double d = k - 1.0 / 3.0, c = 1.0 / sqrt(9.0 * d);
  double x = 0.0;
  for (uint32_t t = 0; t < 16u; ++t) {
    const Philox4x32Ctr r = srd_detail::draw(srd_detail::kThermoStream, seed, cell, step, t);
    const double g = box_muller(uniform_open01(r.v[0], r.v[1]), uniform_open01(r.v[2], 0u));
    const double u = uniform_open01(r.v[3]);
    const double v1 = 1.0 + c * g;
    if (v1 <= 0.0) continue;
    const double v = v1 * v1 * v1;
    x = d * v;
    if (log(u) < 0.5 * g * g + d - d * v + d * log(v)) return x;
  }
  return x;
}

// The Maxwell-Boltzmann cell thermostat (Huang, Varghese, Gompper & Winkler,
// PRE 91, 013310 (2015); HOOMD-blue's mpcd thermostat): the relative
// velocities of a cell of n >= 2 particles with kinetic energy ke_rel are
// scaled by sqrt(E / ke_rel), E drawn from the distribution of the kinetic
// energy of 3(n - 1) Maxwellian degrees of freedom at kT: Gamma(3(n - 1)/2,
// kT). Returns 1 for cells it leaves alone (n < 2 or ke_rel == 0).
MESO_HD double srd_thermostat_factor(uint32_t n, double ke_rel, double kT, uint32_t cell,
                                     uint64_t step, uint32_t seed) {
  if (n < 2 || !(ke_rel > 0.0)) return 1.0;
  const double e = kT * srd_gamma(1.5 * double(n - 1), cell, step, seed);
  return sqrt(e / ke_rel);
}

// MPC-AT: a fresh Maxwellian velocity (three unit normals, times
// sqrt(kT/m) by the caller) for particle `tag` at collision `step`; MD
// particles embedded in the collision (whose tags are a separate numbering)
// draw from their own stream.
MESO_HD Vec3d mpcd_at_gaussian3(uint32_t tag, uint64_t step, uint32_t seed, bool embedded = false) {
  const uint32_t stream = embedded ? srd_detail::kAtEmbedStream : srd_detail::kAtStream;
  const Philox4x32Ctr a = srd_detail::draw(stream, seed, tag, step, 0u);
  const Philox4x32Ctr b = srd_detail::draw(stream, seed, tag, step, 1u);
  const GaussianPair g01 = box_muller2(uniform_open01(a.v[0], a.v[1]), uniform_open01(a.v[2], a.v[3]));
  return {g01.z0, g01.z1, box_muller(uniform_open01(b.v[0], b.v[1]), uniform_open01(b.v[2], b.v[3]))};
}

// The MPC-AT rule for a cell of members with masses m_j (solvent and
// embedded MD particles; Allahyarov & Gompper 2002, Goetze et al. PRE 76,
// 046705 (2007)): random velocities w_j = sqrt(kT/m_j) xi_j, and
//   v_j' = u + w_j - (sum_k m_k w_k) / M,
// which keeps the cell momentum M u. The sum is over the random momenta
// m_j w_j = sqrt(kT m_j) xi_j.
MESO_HD Vec3d mpcd_at_random_momentum(double kT, double mass, const Vec3d& xi) {
  return sqrt(kT * mass) * xi;
}
MESO_HD Vec3d mpcd_at_velocity(const Vec3d& u, double kT, double mass, const Vec3d& xi,
                               const Vec3d& mean_random_velocity) {
  return u + (sqrt(kT / mass) * xi - mean_random_velocity);
}

// The cell sums (HOOMD-blue's CellThermoCompute): the momentum sum m v, the
// kinetic energy about the cell velocity u, sum m |v - u|^2 / 2 (summed over
// relative velocities rather than as sum m v^2 / 2 - M u^2 / 2, which cancels
// when the flow is fast against the thermal speed), and the MPC-AT draws.
// Each is an order-independent fixed-point sum (fixed_point_sum.hpp) whose
// scale comes from a bound on its terms: vmax, the largest velocity
// component in the cell (mpcd_max_abs_component, combined with nan_max, so
// that a NaN anywhere makes the bound and hence the sum NaN).
MESO_HD double nan_max(double a, double b) {
  return (a == a && b == b) ? (a > b ? a : b) : a + b;  // a + b: NaN when either is
}
MESO_HD double mpcd_max_abs_component(const Vec3d& v) {
  return nan_max(nan_max(fabs(v.x), fabs(v.y)), fabs(v.z));
}
// |m v_alpha| <= m vmax.
MESO_HD double mpcd_momentum_bound(double mass, double vmax) { return mass * vmax; }
MESO_HD double mpcd_ke_rel_term(double mass, const Vec3d& v, const Vec3d& u) {
  const Vec3d d = v - u;
  return 0.5 * mass * dot(d, d);
}
// u is a mean of the members' velocities, so |v_alpha - u_alpha| <= 2 vmax
// and m |v - u|^2 / 2 <= 6 m vmax^2.
MESO_HD double mpcd_ke_rel_bound(double mass, double vmax) { return 6.0 * mass * vmax * vmax; }
// A unit normal from mpcd_at_gaussian3 is below sqrt(-2 ln 2^-53) ~ 8.6 in
// magnitude (uniform_open01's 53-bit resolution), so a random momentum
// component is below 16 sqrt(kT m_max).
inline constexpr double kMpcdAtDrawBound = 16.0;
MESO_HD double mpcd_at_momentum_bound(double kT, double mmax) {
  return kMpcdAtDrawBound * sqrt(kT * mmax);
}
// With members of different masses (embedded MD particles): the momentum
// terms are bounded by the largest m_j |v_j,alpha| (the caller's max over
// members of mass * mpcd_max_abs_component(v)), the kinetic-energy terms by
// 6 m_max vmax^2 (mpcd_ke_rel_bound with m_max), the masses by m_max.

// The sum of a cell's fixed-point terms as a double, or NaN when the bound
// was not finite (bound * 0: NaN for NaN and infinity).
MESO_HD double mpcd_cell_sum(int64_t q, int shift, double bound) {
  return finite_bound(bound) ? from_fixed_point(q, shift) : bound * 0.0;
}

// The MPCD cell grid: cubic cells of edge a tiling the periodic box (L/a an
// integer), shifted by `shift`; global row-major index (z ny + y) nx + x.
struct MpcdGrid {
  int nx, ny, nz;
  double a;
  double lo_x, lo_y, lo_z;  // box lower corner

  MESO_HD uint32_t ncells() const { return uint32_t(nx) * uint32_t(ny) * uint32_t(nz); }
  MESO_HD static int wrap(int c, int n) { return c < 0 ? c + n : (c >= n ? c - n : c); }
  // r inside the box [lo, lo + L); shift in [-a/2, a/2): the shifted cell
  // floor((x - lo - shift)/a) lies in [-1, n], brought back periodically.
  MESO_HD uint32_t cell_of(const Vec3d& r, const Vec3d& shift) const {
    int cx = int(floor((r.x - lo_x - shift.x) / a));
    int cy = int(floor((r.y - lo_y - shift.y) / a));
    int cz = int(floor((r.z - lo_z - shift.z) / a));
    cx = wrap(cx, nx);
    cy = wrap(cy, ny);
    cz = wrap(cz, nz);
    return uint32_t((cz * ny + cy) * nx + cx);
  }
};

}  // namespace meso::physics

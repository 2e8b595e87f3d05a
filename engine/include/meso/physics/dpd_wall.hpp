// The planar slit walls of a DPD fluid: two walls normal to z at z = -h and
// z = +h (the box stays periodic in x and y), written once for the CPU
// reference and the CUDA kernels.
//
// Each wall is a continuum of DPD particles of density rho_w filling the
// half-space behind it and moving with the wall (Revenga, Zuniga & Espanol,
// Comput. Phys. Commun. 121-122, 309 (1999); Pivkin & Karniadakis, J.
// Comput. Phys. 207, 114 (2005) use the same mean-field force with a frozen
// wall's density). A fluid particle at distance d < r_c from the wall feels
// the DPD pair forces of that continuum integrated over the half-space:
//
//   conservative  a_w rho_w C(d) away from the wall,
//                 C(d) = pi int_d^rc (1 - r/rc) (r^2 - d^2) dr;
//   dissipative   -gamma_w rho_w diag(T, T, N)(d) (v - u_wall),
//                 N(d) = (2 pi / 3) int_d^rc w_D(r) (r^2 - d^3 / r) dr,
//                 T(d) = pi int_d^rc w_D(r) (2 r^2 / 3 - d r + d^3 / (3 r)) dr,
//                 w_D = (1 - r/rc)^(2s), the fluid's own weight;
//   random        sqrt(2 kT gamma_w rho_w diag(T, T, N)(d) / dt) xi,
//                 xi three unit Gaussians per particle and step,
//
// the random force being the sum of the wall particles' independent kicks
// (Gaussian, with the variance fluctuation-dissipation asks of the friction
// tensor), so the wall is a heat bath at kT and leaves the equilibrium
// density alone where its conservative part is zero (a = 0 fluids). With
// rho_w, gamma_w equal to the fluid's, the wall carries the dissipative
// stress the missing half of the fluid would, but with the wall's velocity
// instead of the fluid's continued profile: the mean-field slip length of a
// linear profile is then eta_D / (2 K), K = (gamma rho^2 / 2) int w_D e_x^2
// |r_z| d^3r, which is 0.15 r_c for s = 1 (docs/walls.md).
//
// A particle that the drift carries across a wall is reflected there at the
// exact crossing time (the drift of velocity Verlet is a straight line):
// bounce-back, v -> 2 u_wall - v, or specular reflection (the slip
// control), srd_slit.hpp's slit_stream with no acceleration.
#pragma once

#include <cmath>
#include <cstdint>

#include "meso_hd.hpp"
#include "srd.hpp"
#include "srd_slit.hpp"
#include "box_muller.hpp"
#include "vec3.hpp"

namespace meso::physics {

namespace dpd_wall_detail {
inline constexpr uint32_t kWallNoiseStream = 0x4457414cu;  // "DWAL": the walls' random force
}

struct DpdWall {
  double h = 0.0;        // walls at z = -h and z = +h; 0: no walls (periodic in z)
  double speed = 0.0;    // the upper wall moves at +speed along x, the lower at -speed
  double a = 0.0;        // conservative amplitude a_w of the wall particles
  double gamma = 0.0;    // dissipative strength gamma_w
  double kT = 1.0;       // the walls' temperature
  double density = 0.0;  // rho_w of the continuum behind each wall (0: bounce-back only)
  double rcut = 1.0;     // r_c of the wall-fluid interaction
  double s = 1.0;        // weight exponent: w_R = (1 - r/r_c)^s, w_D = w_R^2
  bool bounce_back = true;  // off: specular reflection (v_z -> -v_z), the slip control

  MESO_HD bool active() const { return h > 0.0; }
  MESO_HD bool forces() const { return density > 0.0 && (a != 0.0 || gamma > 0.0); }
  // The reflection's geometry: SlitWall's h, speed and rule.
  MESO_HD SlitWall slit() const {
    SlitWall w;
    w.h = h;
    w.speed = speed;
    w.bounce_back = bounce_back;
    return w;
  }
};

// The half-space integrals at distance d from a wall (per unit a rho_w or
// gamma_w rho_w): C the conservative push, N and T the normal and tangential
// friction. 0 at d >= r_c.
// Walls that only reflect MD particles (no wall force: density 0) at the
// slit of an MPCD solvent, with its speed and rule: the walls of the solutes
// embedded in it (require_embeddable checks that they match).
inline DpdWall reflecting_wall(const SlitWall& s) {
  DpdWall w;
  w.h = s.h;
  w.speed = s.speed;
  w.bounce_back = s.bounce_back;
  w.density = 0.0;
  return w;
}

struct DpdWallIntegrals {
  double c = 0.0, n = 0.0, t = 0.0;
};

MESO_HD DpdWallIntegrals dpd_wall_integrals(double d, double rcut, double s) {
  DpdWallIntegrals out;
  if (d >= rcut) return out;
  if (d < 0.0) d = 0.0;
  const double pi = 3.14159265358979323846;
  // C: a polynomial, integrated exactly.
  const double x = rcut;
  const double d2 = d * d;
  out.c = pi * (((x * x * x - d2 * d) / 3.0 - d2 * (x - d)) -
                ((x * x * x * x - d2 * d2) / 4.0 - 0.5 * d2 * (x * x - d2)) / x);
  // N, T: 12-point Gauss-Legendre on [d, rc] (w_D is not a polynomial for
  // s != 1, and the integrands have a d^3 / r term); the error is below
  // 1e-9 of the value for s = 1 (tests/physics/dpd_wall_test.cpp).
  const double nodes[6] = {0.1252334085114689, 0.3678314989981802, 0.5873179542866175,
                           0.7699026741943047, 0.9041172563704748, 0.9815606342467192};
  const double weights[6] = {0.2491470458134027, 0.2334925365383546, 0.2031674267230657,
                             0.1600783285433464, 0.1069393259953191, 0.0471753363865114};
  const double mid = 0.5 * (x + d), half = 0.5 * (x - d);
  double in = 0.0, it = 0.0;
  for (int k = 0; k < 12; ++k) {
    const double r = mid + (k < 6 ? -half : half) * nodes[k % 6];
    const double wr = 1.0 - r / x;
    const double wd = s == 1.0 ? wr * wr : pow(wr, 2.0 * s);
    // The integrands factored so that they are >= 0 in floating point too
    // (r >= d): r^2 - d^3/r = (r - d)(r^2 + r d + d^2) / r and
    // 2r^2/3 - d r + d^3/(3r) = (r - d)^2 (2r + d) / (3r). Summed term by
    // term, the latter cancelled to about -1e-16 when d lies within ~1e-6 of
    // r_c, T came out about -1e-39, and sqrt(T) in the random force made a
    // NaN (a double run of dpd-slit-poiseuille's long form on a GPU died of
    // it; fp32 positions never land on such a d).
    const double e = r - d;
    in += weights[k % 6] * wd * (e * (r * r + r * d + d2) / r);
    it += weights[k % 6] * wd * (e * e * (2.0 * r + d) / (3.0 * r));
  }
  out.n = (2.0 * pi / 3.0) * half * in;
  out.t = pi * half * it;
  return out;
}

// The particle's three unit Gaussians of step `step`, keyed by its global
// tag like every other draw (own Philox stream "DWAL"), so any backend and
// particle order draw the same numbers.
MESO_HD Vec3d dpd_wall_noise(uint32_t tag, uint64_t step, uint32_t seed) {
  const Philox4x32Ctr a = srd_detail::draw(dpd_wall_detail::kWallNoiseStream, seed, tag, step, 0u);
  const Philox4x32Ctr b = srd_detail::draw(dpd_wall_detail::kWallNoiseStream, seed, tag, step, 1u);
  const GaussianPair g01 = box_muller2(uniform_open01(a.v[0], a.v[1]), uniform_open01(a.v[2], a.v[3]));
  return {g01.z0, g01.z1, box_muller(uniform_open01(b.v[0], b.v[1]), uniform_open01(b.v[2], b.v[3]))};
}

// The force both walls exert on a particle at r with velocity v (the one the
// pair dissipation reads), xi its dpd_wall_noise, inv_sqrt_dt = 1/sqrt(dt).
MESO_HD Vec3d dpd_wall_force(const DpdWall& w, const Vec3d& r, const Vec3d& v, const Vec3d& xi,
                             double inv_sqrt_dt) {
  Vec3d f{0.0, 0.0, 0.0};
  if (!w.active() || !w.forces()) return f;
  double fric_t = 0.0, fric_n = 0.0;
  for (int side = 0; side < 2; ++side) {
    const bool upper = side == 1;
    const double d = upper ? w.h - r.z : r.z + w.h;
    if (d >= w.rcut) continue;
    const DpdWallIntegrals q = dpd_wall_integrals(d, w.rcut, w.s);
    const double push = w.a * w.density * q.c;
    f.z += upper ? -push : push;
    const double gt = w.gamma * w.density * q.t, gn = w.gamma * w.density * q.n;
    const double ux = upper ? w.speed : -w.speed;
    f.x -= gt * (v.x - ux);
    f.y -= gt * v.y;
    f.z -= gn * v.z;
    fric_t += gt;
    fric_n += gn;
  }
  const double amp = sqrt(2.0 * w.kT) * inv_sqrt_dt;
  f.x += amp * sqrt(fric_t) * xi.x;
  f.y += amp * sqrt(fric_t) * xi.y;
  f.z += amp * sqrt(fric_n) * xi.z;
  return f;
}

}  // namespace meso::physics

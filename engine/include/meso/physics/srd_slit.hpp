// The planar slit wall of the MPCD/SRD solvent: two walls normal to z at
// z = -h and z = +h (the box stays periodic in x and y), written once for the
// CPU reference and the CUDA kernels.
//
// No-slip needs two pieces (Lamura, Gompper, Ihle & Kroll, Europhys. Lett.
// 56, 319 (2001); Gompper, Ihle, Kroll & Winkler, Adv. Polym. Sci. 221, 1
// (2009), sec. 4.1; Whitmer & Luijten, J. Phys.: Condens. Matter 22, 104106
// (2010)):
//
// 1. Streaming: a particle that reaches a wall within the period is moved
//    to it at the exact crossing time, its velocity is reversed about the
//    wall's (bounce-back, v -> 2 u_wall - v), and it streams the rest of the
//    period. Bounce-back alone gives no-slip only when the cell faces lie on
//    the walls, which the random grid shift (Ihle & Kroll 2001) undoes.
// 2. Collision: a cell cut by a wall holds fewer particles than the bulk's n
//    on average, and its mean velocity does not see the wall. Lamura et al.
//    fill it with n - n_c virtual particles of the wall's velocity and the
//    solvent's temperature. Only their total momentum enters the rotation
//    (the virtual particles are not rotated and not kept), and the sum of
//    n_v Maxwellian momenta is Gaussian with mean n_v m u_wall and variance
//    n_v m kT per component, so one three-vector draw per cell replaces them
//    (Gompper et al. 2009, sec. 4.1).
//
// The grid stays the periodic MpcdGrid: the box is taller than the slit by
// at least one cell (a padding of >= a/2 above and below, checked by
// MpcdSystem::validate), so a shifted cell that wraps across the box face
// holds fluid from one wall's side only, and its lower face is
// lo_z + shift_z + c_z a for its wrapped index c_z in [0, nz).
#pragma once

#include <cmath>
#include <cstdint>

#include "meso_hd.hpp"
#include "philox.hpp"
#include "box_muller.hpp"
#include "srd.hpp"
#include "vec3.hpp"

namespace meso::physics {

namespace srd_slit_detail {
inline constexpr uint32_t kVirtualStream = 0x57414c4cu;  // "WALL": virtual-particle momenta
}

struct SlitWall {
  double h = 0.0;           // walls at z = -h and z = +h; 0: no walls (periodic in z)
  double speed = 0.0;       // the upper wall moves at +speed along x, the lower at -speed (Couette)
  double density = 10.0;    // n: particles per cell volume a^3 the virtual particles fill a cut cell to
  bool virtual_particles = true;  // off: the negative control of the slit gates (slip appears)
  bool bounce_back = true;        // off: specular reflection (v_z -> -v_z), full slip

  MESO_HD bool active() const { return h > 0.0; }
  // The velocity of the wall at z = +h (upper) or z = -h.
  MESO_HD Vec3d velocity(bool upper) const { return {upper ? speed : -speed, 0.0, 0.0}; }
  // The whole number of particles a cut cell is filled to (n rounded).
  MESO_HD uint32_t fill_count() const { return uint32_t(floor(density + 0.5)); }
};

// One collision period dt of particle (r, v) under the constant acceleration
// g (g.z == 0: the free flight along z is linear, so the crossing time is
// exact) between the walls: r += v t + g t^2 / 2 and v += g t piecewise,
// reflected at each wall it reaches moving outwards (a particle that fp32
// storage rounded just beyond a wall and that moves inwards flies on).
// Returns the number of reflections. A particle reaches at most one wall per
// period when |v_z| dt < 2h; the loop is bounded regardless, and z is kept
// in [-h, h].
MESO_HD int slit_stream(Vec3d& r, Vec3d& v, const Vec3d& g, double dt, const SlitWall& w) {
  double left = dt;
  int hits = 0;
  for (; hits < 4; ++hits) {
    const double z_end = r.z + v.z * left;
    const bool upper = v.z > 0.0 && z_end > w.h;
    if (!upper && !(v.z < 0.0 && z_end < -w.h)) break;
    const double z_wall = upper ? w.h : -w.h;
    const double t = fmin(fmax((z_wall - r.z) / v.z, 0.0), left);
    r += t * v + (0.5 * t * t) * g;
    r.z = z_wall;
    v += t * g;
    if (w.bounce_back) {
      v = 2.0 * w.velocity(upper) - v;
    } else {
      v.z = -v.z;
    }
    left -= t;
  }
  r += left * v + (0.5 * left * left) * g;
  v += left * g;
  r.z = fmin(fmax(r.z, -w.h), w.h);
  return hits;
}

// Which wall cuts the cell whose lower face is z0 (edge a): +1 the upper,
// -1 the lower, 0 none. A face exactly on a wall is no cut.
MESO_HD int slit_cut(const SlitWall& w, double z0, double a) {
  if (!w.active()) return 0;
  if (z0 < w.h && w.h < z0 + a) return 1;
  if (z0 < -w.h && -w.h < z0 + a) return -1;
  return 0;
}

// The lower face of the cell with global index `cell` on grid g shifted by
// shift_z along z (MpcdGrid's row-major index: c_z = cell / (nx ny)).
MESO_HD double slit_cell_lower_z(const MpcdGrid& g, uint32_t cell, double shift_z) {
  const uint32_t cz = cell / (uint32_t(g.nx) * uint32_t(g.ny));
  return g.lo_z + shift_z + double(cz) * g.a;
}

// The virtual particles of one cell: how many, their total mass and momentum.
struct SlitFill {
  uint32_t count = 0;
  double mass = 0.0;
  Vec3d momentum{0.0, 0.0, 0.0};
};

// Lamura et al.'s fill of cell `cell` (global index; keys the draw with the
// collision `step` and `seed`), holding n_real solvent particles of mass m:
// a cell cut by a wall gets n - n_real virtual particles (none when it holds
// n or more), whose momentum is n_v m u_wall + sqrt(n_v m kT) xi.
MESO_HD SlitFill slit_fill(const SlitWall& w, const MpcdGrid& g, uint32_t cell, double shift_z,
                           uint32_t n_real, double mass, double kT, uint64_t step, uint32_t seed) {
  SlitFill f;
  if (!w.virtual_particles) return f;
  const int cut = slit_cut(w, slit_cell_lower_z(g, cell, shift_z), g.a);
  const uint32_t n = w.fill_count();
  if (cut == 0 || n_real >= n) return f;
  f.count = n - n_real;
  f.mass = double(f.count) * mass;
  const Philox4x32Ctr a = srd_detail::draw(srd_slit_detail::kVirtualStream, seed, cell, step, 0u);
  const Philox4x32Ctr b = srd_detail::draw(srd_slit_detail::kVirtualStream, seed, cell, step, 1u);
  const GaussianPair g01 = box_muller2(uniform_open01(a.v[0], a.v[1]), uniform_open01(a.v[2], a.v[3]));
  const Vec3d xi{g01.z0, g01.z1, box_muller(uniform_open01(b.v[0], b.v[1]), uniform_open01(b.v[2], b.v[3]))};
  f.momentum = f.mass * w.velocity(cut > 0) + sqrt(f.mass * kT) * xi;
  return f;
}

// The velocity the rotation of a cell is taken about: the centre of mass of
// its members (momentum, mass) and its virtual particles.
MESO_HD Vec3d slit_cell_velocity(const Vec3d& momentum, double mass, const SlitFill& f) {
  return (1.0 / (mass + f.mass)) * (momentum + f.momentum);
}

}  // namespace meso::physics

// Lees-Edwards boundaries: the sheared periodic images of a box under simple
// shear (Lees & Edwards, J. Phys. C 5, 1921 (1972)), written once for both
// engines (DPD and the MPCD/SRD solvent) and both backends.
//
// Convention: flow along x, gradient along z, vorticity along y. The box
// stays the orthorhombic Box centred on the origin; the image of the box at
// z + n L_z is displaced by n delta(t) along x and moves at n gdot L_z along
// x, so the mean flow u_x(z) = gdot z is continuous across the z faces. z is
// the gradient axis because the slit walls (dpd_wall.hpp, srd_slit.hpp) are
// normal to z, so a Couette flow between walls and under Lees-Edwards has the
// same profile u_x(z) and the same analysis (velocity_profile bins along z),
// and because the MPCD grid's cell index has z slowest (row-major), so the
// cells next to a sheared face are one contiguous slab.
//
// Within the box nothing changes: particles stream and interact as in the
// periodic box. Only what crosses a z face sees the shear:
//   - a pair's separation takes the sheared minimum image (le_min_image), and
//     the image's velocity is shifted by n gdot L_z (le_relative_velocity);
//   - a particle leaving through the top face comes back through the bottom
//     at x - delta with v_x - gdot L_z, and the reverse (le_wrap).
// The cell or neighbour search across the z faces must look for the shifted
// images; delta is no multiple of a cell, so a stencil across a z face spans
// one more cell along x (le_cell_shift).
#pragma once

#include <cmath>

#include "meso_hd.hpp"
#include "vec3.hpp"

namespace meso::physics {

// The shear at one time: the rate and, from it, the images' offset and speed.
struct LeesEdwards {
  double shear_rate = 0.0;  // gdot = du_x/dz; 0: the ordinary periodic box
  double offset = 0.0;      // delta(t) in [-L_x/2, L_x/2): x of the upper image's origin
  double jump = 0.0;        // gdot L_z: the upper image's velocity along x

  MESO_HD bool active() const { return shear_rate != 0.0; }
};

// delta(t) = gdot L_z t wrapped into [-L_x/2, L_x/2). fmod first keeps the
// offset exact to the last bits of L_x however long the run.
MESO_HD double le_offset(double shear_rate, double l_grad, double l_flow, double t) {
  double d = fmod(shear_rate * l_grad * t, l_flow);
  d -= l_flow * floor(d / l_flow + 0.5);
  if (d >= 0.5 * l_flow) d -= l_flow;  // rounding at the interval's top
  return d;
}

// The shear of a box of lengths L at time t.
MESO_HD LeesEdwards lees_edwards_at(double shear_rate, Vec3d L, double t) {
  LeesEdwards le;
  le.shear_rate = shear_rate;
  le.offset = le_offset(shear_rate, L.z, L.x, t);
  le.jump = shear_rate * L.z;
  return le;
}

// Moves (r, v) to its n-th image along z: r += n (delta, 0, L_z), v_x += n gdot L_z.
MESO_HD void le_image(Vec3d& r, Vec3d& v, int n, double l_grad, const LeesEdwards& le) {
  r.x += n * le.offset;
  r.z += n * l_grad;
  v.x += n * le.jump;
}

// Folds z back into [-L_z/2, L_z/2) as Box::wrap does and carries x and v_x
// with the images crossed: leaving through the top, x -= delta and
// v_x -= gdot L_z, and the reverse. Returns the signed number of crossings
// (add it to the image counter along z). x is left unfolded: Box::wrap folds
// it next (and leaves z alone, already inside).
MESO_HD int le_wrap(Vec3d& r, Vec3d& v, Vec3d L, const LeesEdwards& le) {
  int n = static_cast<int>(floor((r.z + 0.5 * L.z) / L.z));
  r.z -= n * L.z;
  // Rounding can leave z == +L_z/2 or just below -L_z/2; fold it as Box::wrap.
  if (r.z >= 0.5 * L.z) {
    r.z -= L.z;
    ++n;
  }
  if (r.z < -0.5 * L.z) {
    r.z += L.z;
    --n;
  }
  r.x -= n * le.offset;
  v.x -= n * le.jump;
  return n;
}

// The sheared minimum image of d = r_i - r_j: the image of j at
// r_j + n (delta, 0, L_z) nearest along z, then the nearest along x and y.
// Returns n (le_relative_velocity needs it). rint is symmetric, so the image
// of -d is exactly -(the image of d) with -n: pair forces from either side
// are bitwise opposite, as with Box::min_image. Any pair closer than L_z / 2
// along z and closer than min(L_x, L_y) / 2 in its plane is found.
MESO_HD int le_min_image(Vec3d& d, Vec3d L, const LeesEdwards& le) {
  const double nz = rint(d.z / L.z);
  d.z -= nz * L.z;
  d.x -= nz * le.offset;
  d.x -= L.x * rint(d.x / L.x);
  d.y -= L.y * rint(d.y / L.y);
  return static_cast<int>(nz);
}

// v_i - v_j of the pair whose separation le_min_image gave with n: the image
// of j moves at v_j + n gdot L_z along x.
MESO_HD Vec3d le_relative_velocity(Vec3d vi, Vec3d vj, int n, const LeesEdwards& le) {
  Vec3d dv = vi - vj;
  dv.x -= n * le.jump;
  return dv;
}

// The cells along x to search for a particle's neighbours in the layer of
// cells across a z face. The neighbour's image across the face (n = +1:
// above, -1: below) is shifted by n delta along x, so the neighbours of a
// particle in column c lie in columns c - shift - 2 ... c - shift + 1 of the
// other layer (periodic in x), shift = floor(n delta / w), w the cell width
// along x (at least the search radius): four columns where the periodic
// stencil has three, distinct when the grid has four columns or more.
MESO_HD int le_cell_shift(int n, double cell_width, const LeesEdwards& le) {
  return static_cast<int>(floor(n * le.offset / cell_width));
}

}  // namespace meso::physics

// The MPCD/SRD solvent under Lees-Edwards shear (docs/walls.md, "SRD under
// Lees-Edwards shear"): what streaming and the collision cells add to the
// sheared images of lees_edwards.hpp (flow along x, gradient along z),
// written once for the CPU reference and the CUDA kernels.
//
// Streaming: a particle that leaves through a z face comes back through the
// other at x -+ delta(t) with v_x -+ gdot L_z (le_wrap), delta taken at the
// end of the streaming, the time of the collision that follows.
//
// Collision cells: the grid is the periodic MpcdGrid, shifted at random
// (Ihle & Kroll 2001). Its images along z are the box's, so they are offset
// by delta along x too: a cell whose shifted z range crosses a z face holds
// the particles of one side in the box's frame and those of the other side
// in their sheared image (Kikuchi, Pooley, Ryder & Yeomans, J. Chem. Phys.
// 119, 6388 (2003), who measured the SRD viscosity this way; Gompper, Ihle,
// Kroll & Winkler, Adv. Polym. Sci. 221, 1 (2009), sec. 4.2). The cut cells
// are taken to be the box's first or last layer, whichever the shift wraps
// to: a particle whose unwrapped layer is below the first (shift_z > 0, the
// bottom sliver of the box) joins the last layer as its upper image,
// (x + delta, z + L_z) moving at v_x + gdot L_z; one above the last
// (shift_z < 0, the top sliver) joins the first layer as its lower image.
// Every member of a cell is then in one frame: the cell's mean velocity, the
// rotation and the cell thermostat (which scales velocities relative to that
// mean, so it leaves the shear flow alone) act on the image velocities, and
// the member keeps its new velocity less the image's jump.
#pragma once

#include <cmath>
#include <cstdint>

#include "lees_edwards.hpp"
#include "meso_hd.hpp"
#include "srd.hpp"
#include "vec3.hpp"

namespace meso::physics {

// The solvent's shear: a rate, and the switch of the gates' negative control.
struct SrdShear {
  double rate = 0.0;          // gdot = du_x/dz; 0: periodic in z
  bool velocity_jump = true;  // off: images offset along x but not moving (the control; no shear)

  MESO_HD bool active() const { return rate != 0.0; }
  // The images at time t (the end of streaming period c: t = c dt_c) in a box
  // of lengths L.
  MESO_HD LeesEdwards at(const Vec3d& L, double t) const {
    LeesEdwards le = lees_edwards_at(rate, L, t);
    if (!velocity_jump) le.jump = 0.0;
    return le;
  }
};

// The image, +1 (upper), -1 (lower) or 0 (the box's own), in which a
// particle at r (inside the box) joins the collision on the grid shifted by
// `shift`: +1 when its shifted layer lies below the first (it completes the
// last layer's cells across the top face), -1 above the last.
MESO_HD int srd_le_image(const MpcdGrid& g, const Vec3d& r, const Vec3d& shift) {
  const int cz = int(floor((r.z - g.lo_z - shift.z) / g.a));
  return cz < 0 ? 1 : (cz >= g.nz ? -1 : 0);
}

// The cell of that image: x moved by n delta and folded back into the box
// (delta is up to half the box), then the periodic grid's cell, whose z
// index wraps the image into the first or last layer.
MESO_HD uint32_t srd_le_cell_of(const MpcdGrid& g, Vec3d r, const Vec3d& shift, int n, const LeesEdwards& le) {
  if (n != 0) {
    const double lx = double(g.nx) * g.a;
    r.x += double(n) * le.offset;
    if (r.x >= g.lo_x + lx) r.x -= lx;
    if (r.x < g.lo_x) r.x += lx;
  }
  return g.cell_of(r, shift);
}

// The velocity of a particle in image n (jump: LeesEdwards::jump): v_x +
// n gdot L_z; and back, the velocity to store for an image velocity.
MESO_HD Vec3d srd_le_image_velocity(Vec3d v, int n, double jump) {
  v.x += double(n) * jump;
  return v;
}
MESO_HD Vec3d srd_le_own_velocity(Vec3d v, int n, double jump) {
  v.x -= double(n) * jump;
  return v;
}

// A particle whose stored coordinate rounding moved across a z face (dn =
// +1: through the top, Box::wrap's image count) after le_wrap placed it in
// the box takes the image's offset and velocity with it, and x is folded
// back into [lo_x, lo_x + L_x).
MESO_HD void srd_le_carry(double& x, double& vx, int dn, double lo_x, double lx, const LeesEdwards& le) {
  x -= double(dn) * le.offset;
  vx -= double(dn) * le.jump;
  if (x >= lo_x + lx) x -= lx;
  if (x < lo_x) x += lx;
}

}  // namespace meso::physics

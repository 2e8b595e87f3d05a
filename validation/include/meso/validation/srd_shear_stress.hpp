// The xz shear stress of an SRD solvent under Lees-Edwards shear (flow x,
// gradient z; meso/physics/srd_lees_edwards.hpp) from two states of the
// solvent one collision period apart, as Kikuchi, Pooley, Ryder & Yeomans
// (J. Chem. Phys. 119, 6388 (2003)) measured it: the flux of x momentum
// through the planes z = const, averaged over every plane of the box.
//
// Kinetic part (streaming): a particle that streams dz = v_z dt carries its
// x momentum, relative to the mean flow gdot z0 at each plane z0 it
// crosses, through |dz| of planes:
//   int m (v_x - gdot z0) dz0 over [z, z + dz] = m dz (c_x - gdot dz / 2),
// c_x = v_x - gdot z its velocity relative to the shear profile, which is the
// same in every sheared image (so crossing a face changes nothing). The
// -gdot dz / 2 term is the -1/2 of the kinetic viscosity.
// Collisional part: a collision changes the momenta of a cell's members by
// dp_i (sum zero); what the members above a plane z0 inside the cell gained
// crossed it, and over the planes of the cell that is sum dp_x,i z_i, z_i
// the member's height above its cell's lower face (in the image it joined
// the cell as).
// The flux through a plane averaged over the box is (kinetic + collisional)
// / (V dt), and the viscosity is eta = -flux / gdot.
#pragma once

#include <cstdint>

#include "meso/core/mpcd.hpp"

namespace meso::validation {

struct SrdShearFlux {
  double kinetic = 0.0;      // sum m dz (c_x - gdot dz / 2)
  double collisional = 0.0;  // sum dp_x z_in_cell
};

// The momentum moved across the planes between `before` (after collision
// `step` - 1) and `after` (after collision `step`), both in tag order, of
// the solvent `sys` (its box, parameters and shear): streaming without a
// body force along z, then the collision numbered `step` on its grid shift.
// The velocity jump of a particle that crossed a z face is read from its
// image count along z.
SrdShearFlux srd_shear_flux(const MpcdSystem& sys, const MpcdParticles& before, const MpcdParticles& after,
                            uint64_t step);

}  // namespace meso::validation

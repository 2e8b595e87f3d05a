#include "meso/validation/srd_shear_stress.hpp"

#include <cmath>
#include <stdexcept>

namespace meso::validation {

SrdShearFlux srd_shear_flux(const MpcdSystem& sys, const MpcdParticles& before, const MpcdParticles& after,
                            uint64_t step) {
  const std::size_t n = before.size();
  if (after.size() != n) throw std::invalid_argument("srd_shear_flux: the two states differ in size");
  const MpcdParams& prm = sys.params;
  if (prm.body_force.active() && prm.body_force.g.z != 0.0)
    throw std::invalid_argument("srd_shear_flux: a body force along z bends the flights");
  const double m = prm.mass, dt = prm.dt, gdot = prm.shear.rate, a = prm.cell_size;
  const double jump = prm.shear.at(sys.box.lengths(), static_cast<double>(step) * dt).jump;
  const double shift_z = prm.grid_shift ? physics::srd_grid_shift(step, prm.seed, a).z : 0.0;
  const double lo_z = sys.box.lo().z;
  SrdShearFlux f;
  for (std::size_t i = 0; i < n; ++i) {
    if (before.tag[i] != after.tag[i]) throw std::invalid_argument("srd_shear_flux: the states are not in tag order");
    const Vec3d& v0 = before.velocity[i];
    const double dz = v0.z * dt;
    f.kinetic += m * dz * ((v0.x - gdot * before.position[i].z) - 0.5 * gdot * dz);
    // The velocity the collision started from: v0 less the jumps of the
    // faces crossed while streaming.
    const int crossed = after.image[i].z - before.image[i].z;
    const double dvx = after.velocity[i].x - (v0.x - crossed * jump);
    // The height in its cell, which is the height in the image it joined the
    // cell as (the image's cell face is L_z away).
    const double s = (after.position[i].z - lo_z - shift_z) / a;
    f.collisional += m * dvx * a * (s - std::floor(s));
  }
  return f;
}

}  // namespace meso::validation

#include "meso/analysis/full_step_temperature.hpp"

#include "meso/physics/quaternion.hpp"

namespace meso {

FullStepBias full_step_bias(const System& sys, const ParticleData<double>& p, double dt) {
  FullStepBias b;
  const double quarter_h2 = 0.25 * dt * dt;
  for (std::size_t i = 0; i < p.n_local; ++i) {
    b.twice_kinetic += quarter_h2 * dot(p.force[i], p.force[i]) / sys.type_mass[p.type[i]];
    if (!p.rotational) continue;
    const Vec3d tau = rotate_inverse(p.orientation[i], p.torque[i]);  // the body frame's
    const Vec3d I = p.inertia[i];
    if (I.x > 0.0) b.twice_rotational += quarter_h2 * tau.x * tau.x / I.x;
    if (I.y > 0.0) b.twice_rotational += quarter_h2 * tau.y * tau.y / I.y;
    if (I.z > 0.0) b.twice_rotational += quarter_h2 * tau.z * tau.z / I.z;
  }
  return b;
}

}  // namespace meso

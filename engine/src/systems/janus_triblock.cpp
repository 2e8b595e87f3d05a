#include "meso/systems/janus_triblock.hpp"

#include "meso/core/error.hpp"
#include "meso/systems/gay_berne_liquid.hpp"
#include "meso/core/init.hpp"

namespace meso {

void JanusTriblockParams::validate() const {
  require_positive("L", L);
  require_positive("rho", rho);
  require_positive("kT", kT);
  require_positive("mass", mass);
  if (n() < 2 || n() > 0xffffffffull)
    throw_input_error("rho L^3 = ", n(), " particles is invalid: allowed 2 .. 2^32 - 1");
  if (L < 2.0 * janus.rcut)
    throw_input_error("L = ", L, " is shorter than 2 r_cut = ", 2.0 * janus.rcut);
}

System make_janus_triblock(const JanusTriblockParams& p) {
  p.validate();
  System sys;
  sys.box = Box(p.L);
  sys.kT = p.kT;
  sys.type_names = {"J"};
  sys.type_mass = {p.mass};
  sys.set_pair_style<physics::JanusParams>(1, p.janus);
  ParticleData<double>& q = sys.particles;
  q.set_rotational(true);
  const uint64_t n = p.n();
  q.resize(n);
  for (uint64_t i = 0; i < n; ++i) {
    q.tag[i] = static_cast<uint32_t>(i);
    q.type[i] = 0;
    q.image[i] = {0, 0, 0};
    q.force[i] = {0, 0, 0};
    q.inertia[i] = {p.inertia_perp(), p.inertia_perp(), 0.0};
  }
  place_uniform_random(sys, p.seed);
  // Patch axes uniform on the sphere: uniform random rotations of body z.
  for (uint64_t i = 0; i < n; ++i) q.orientation[i] = random_orientation(q.tag[i], p.seed);
  draw_maxwell_boltzmann(sys, p.kT, p.seed);
  draw_angular_momenta(q, p.kT, p.seed);
  return sys;
}

}  // namespace meso

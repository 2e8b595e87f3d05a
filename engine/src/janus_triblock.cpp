#include "meso/janus_triblock.hpp"

#include <cmath>
#include <numbers>

#include "meso/error.hpp"
#include "meso/gay_berne_liquid.hpp"
#include "meso/init.hpp"
#include "meso/physics/philox.hpp"
#include "meso/physics/quaternion.hpp"

namespace meso {
namespace {

constexpr uint32_t kStreamAxis = 0x4a414e53u;  // "JANS": not the position, velocity or angular draws

}  // namespace

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
  sys.pair_style = PairStyle::janus;
  sys.janus = PairTable<physics::JanusParams>(1, p.janus);
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
  // The patch axis n uniform on the sphere (cos theta = 2u - 1, phi = 2 pi
  // v), as the rotation of body z onto n about z x n.
  const physics::Philox4x32Key key{{static_cast<uint32_t>(p.seed), static_cast<uint32_t>(p.seed >> 32)}};
  for (uint64_t i = 0; i < n; ++i) {
    const auto r = physics::philox4x32_10({{q.tag[i], 0u, kStreamAxis, 0u}}, key);
    const double ct = 2.0 * physics::uniform_open01(r.v[0], r.v[1]) - 1.0;
    const double phi = 2.0 * std::numbers::pi * physics::uniform_open01(r.v[2], r.v[3]);
    const double theta = std::acos(std::fmax(-1.0, std::fmin(1.0, ct)));
    const Vec3d axis{-std::sin(phi), std::cos(phi), 0.0};  // z x n, normalised
    q.orientation[i] = quat_from_axis_angle(axis, theta);
  }
  draw_maxwell_boltzmann(sys, p.kT, p.seed);
  draw_angular_momenta(q, p.kT, p.seed);
  return sys;
}

}  // namespace meso

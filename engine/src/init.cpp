#include "meso/init.hpp"

#include <cmath>

#include "meso/error.hpp"
#include "meso/physics/box_muller.hpp"
#include "meso/physics/philox.hpp"

namespace meso {
namespace {

// Stream identifiers keep initial-configuration draws independent of the
// pair noise, which uses the same generator with other keys.
constexpr uint32_t kStreamPosition = 0x504f5331u;  // "POS1"
constexpr uint32_t kStreamVelocity = 0x56454c31u;  // "VEL1"

physics::Philox4x32Ctr draw(uint32_t tag, uint32_t word, uint64_t seed, uint32_t stream) {
  return physics::philox4x32_10({{tag, word, stream, 0u}},
                                {{static_cast<uint32_t>(seed), static_cast<uint32_t>(seed >> 32)}});
}

}  // namespace

void place_uniform_random(System& sys, uint64_t seed) {
  auto& p = sys.particles;
  const Vec3d L = sys.box.lengths();
  const Vec3d lo = sys.box.lo();
  for (std::size_t i = 0; i < p.n_local; ++i) {
    const auto a = draw(p.tag[i], 0, seed, kStreamPosition);
    const auto b = draw(p.tag[i], 1, seed, kStreamPosition);
    // uniform_open01 is in (0, 1]; 1 - u is in [0, 1), i.e. [lo, lo + L).
    Vec3d r{lo.x + (1.0 - physics::uniform_open01(a.v[0], a.v[1])) * L.x,
            lo.y + (1.0 - physics::uniform_open01(a.v[2], a.v[3])) * L.y,
            lo.z + (1.0 - physics::uniform_open01(b.v[0], b.v[1])) * L.z};
    Image img{0, 0, 0};
    sys.box.wrap(r, img);  // guards lo + (1 - 2^-53) L rounding up to +L/2
    p.position[i] = r;
    p.image[i] = {0, 0, 0};
  }
}

void draw_maxwell_boltzmann(System& sys, double kT, uint64_t seed) {
  require_positive("kT", kT);
  auto& p = sys.particles;
  const std::size_t n = p.n_local;
  for (std::size_t i = 0; i < n; ++i) {
    const double s = std::sqrt(kT / sys.type_mass[p.type[i]]);
    const auto a = draw(p.tag[i], 0, seed, kStreamVelocity);
    const auto b = draw(p.tag[i], 1, seed, kStreamVelocity);
    const auto g01 = physics::box_muller2(physics::uniform_open01(a.v[0], a.v[1]),
                                          physics::uniform_open01(a.v[2], a.v[3]));
    const auto g23 = physics::box_muller2(physics::uniform_open01(b.v[0], b.v[1]),
                                          physics::uniform_open01(b.v[2], b.v[3]));
    p.velocity[i] = {s * g01.z0, s * g01.z1, s * g23.z0};
  }
  if (n == 0) return;
  remove_net_momentum(sys, p);
  double twice_ke = 0.0;
  for (std::size_t i = 0; i < n; ++i)
    twice_ke += sys.type_mass[p.type[i]] * dot(p.velocity[i], p.velocity[i]);
  // A single particle has no thermal degrees of freedom once its momentum is 0.
  if (n < 2 || twice_ke == 0.0) return;
  const double scale = std::sqrt(kT * (3.0 * static_cast<double>(n) - 3.0) / twice_ke);
  for (std::size_t i = 0; i < n; ++i) p.velocity[i] = scale * p.velocity[i];
}

Vec3d remove_net_momentum(const System& sys, ParticleData<double>& p) {
  Vec3d momentum{0, 0, 0};
  double mass_total = 0.0;
  for (std::size_t i = 0; i < p.n_local; ++i) {
    const double m = sys.type_mass[p.type[i]];
    momentum += m * p.velocity[i];
    mass_total += m;
  }
  if (p.n_local == 0) return momentum;
  const Vec3d v_cm = (1.0 / mass_total) * momentum;
  for (std::size_t i = 0; i < p.n_local; ++i) p.velocity[i] -= v_cm;
  return momentum;
}

}  // namespace meso

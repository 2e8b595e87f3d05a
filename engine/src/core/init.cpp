#include "meso/core/init.hpp"

#include <algorithm>
#include <cmath>

#include "meso/core/error.hpp"
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
  draw_maxwell_boltzmann(sys.particles, sys.type_mass, kT, seed, sys.particles.n_local,
                         [](double x) { return x; });
}

void draw_maxwell_boltzmann(ParticleData<double>& p, const std::vector<double>& type_mass, double kT,
                            uint64_t seed, uint64_t n_total, const std::function<double(double)>& sum) {
  require_positive("kT", kT);
  const std::size_t n = p.n_local;
  for (std::size_t i = 0; i < n; ++i) {
    const double s = std::sqrt(kT / type_mass[p.type[i]]);
    const auto a = draw(p.tag[i], 0, seed, kStreamVelocity);
    const auto b = draw(p.tag[i], 1, seed, kStreamVelocity);
    const auto g01 = physics::box_muller2(physics::uniform_open01(a.v[0], a.v[1]),
                                          physics::uniform_open01(a.v[2], a.v[3]));
    const auto g23 = physics::box_muller2(physics::uniform_open01(b.v[0], b.v[1]),
                                          physics::uniform_open01(b.v[2], b.v[3]));
    p.velocity[i] = {s * g01.z0, s * g01.z1, s * g23.z0};
  }
  if (n_total == 0) return;
  // The centre-of-mass velocity removed (remove_net_momentum's sums, over
  // the ranks), then the kinetic temperature with 3N - 3 degrees of freedom
  // set to kT exactly.
  Vec3d momentum{0, 0, 0};
  double mass_total = 0.0;
  for (std::size_t i = 0; i < n; ++i) {
    const double m = type_mass[p.type[i]];
    momentum += m * p.velocity[i];
    mass_total += m;
  }
  momentum = {sum(momentum.x), sum(momentum.y), sum(momentum.z)};
  mass_total = sum(mass_total);
  const Vec3d v_cm = (1.0 / mass_total) * momentum;
  for (std::size_t i = 0; i < n; ++i) p.velocity[i] -= v_cm;
  double twice_ke = 0.0;
  for (std::size_t i = 0; i < n; ++i) twice_ke += type_mass[p.type[i]] * dot(p.velocity[i], p.velocity[i]);
  twice_ke = sum(twice_ke);
  // A single particle has no thermal degrees of freedom once its momentum is 0.
  if (n_total < 2 || twice_ke == 0.0) return;
  const double scale = std::sqrt(kT * (3.0 * static_cast<double>(n_total) - 3.0) / twice_ke);
  for (std::size_t i = 0; i < n; ++i) p.velocity[i] = scale * p.velocity[i];
}

ParticleData<double> place_stratified(uint64_t n, uint32_t types, uint64_t seed, const Domain& d) {
  if (types == 0) throw_input_error("place_stratified: no particle types");
  const Box& box = d.global;
  const Vec3d L = box.lengths(), lo = box.lo();
  const double len[3] = {L.x, L.y, L.z}, box_lo[3] = {lo.x, lo.y, lo.z};
  const double dom_lo[3] = {d.lo.x, d.lo.y, d.lo.z}, dom_hi[3] = {d.hi.x, d.hi.y, d.hi.z};
  // Blocks of about kStratumParticles: an edge of (kStratumParticles V / N)^(1/3).
  const double edge = std::cbrt(double(kStratumParticles) * L.x * L.y * L.z / double(std::max<uint64_t>(n, 1)));
  uint64_t nb[3], first[3], last[3];
  for (int a = 0; a < 3; ++a) {
    nb[a] = std::max<uint64_t>(1, uint64_t(len[a] / edge));
    first[a] = 0;
    last[a] = nb[a] - 1;
    if (d.whole_box || d.grid[a] == 1) continue;
    // The blocks the owned interval [lo, hi) overlaps.
    auto block = [&](double x) {
      const double f = std::floor((x - box_lo[a]) * double(nb[a]) / len[a]);
      return uint64_t(std::clamp(f, 0.0, double(nb[a] - 1)));
    };
    first[a] = block(dom_lo[a]);
    last[a] = block(dom_hi[a]);
  }
  const uint64_t blocks = nb[0] * nb[1] * nb[2], q = n / blocks, r = n % blocks;
  ParticleData<double> p;
  std::size_t k = 0;
  for (uint64_t bz = first[2]; bz <= last[2]; ++bz)
    for (uint64_t by = first[1]; by <= last[1]; ++by)
      for (uint64_t bx = first[0]; bx <= last[0]; ++bx) {
        const uint64_t b = (bz * nb[1] + by) * nb[0] + bx;
        const uint64_t start = b * q + std::min(b, r), count = q + (b < r ? 1 : 0);
        const Vec3d w{L.x / double(nb[0]), L.y / double(nb[1]), L.z / double(nb[2])};
        const Vec3d corner{lo.x + double(bx) * w.x, lo.y + double(by) * w.y, lo.z + double(bz) * w.z};
        p.resize(k + count);
        for (uint64_t t = start; t < start + count; ++t) {
          const uint32_t tag = static_cast<uint32_t>(t);
          const auto u = draw(tag, 0, seed, kStreamPosition);
          const auto v = draw(tag, 1, seed, kStreamPosition);
          // uniform_open01 is in (0, 1]; 1 - u is in [0, 1).
          Vec3d x{corner.x + (1.0 - physics::uniform_open01(u.v[0], u.v[1])) * w.x,
                  corner.y + (1.0 - physics::uniform_open01(u.v[2], u.v[3])) * w.y,
                  corner.z + (1.0 - physics::uniform_open01(v.v[0], v.v[1])) * w.z};
          Image img{0, 0, 0};
          box.wrap(x, img);  // a block's upper face rounding onto +L/2
          if (!d.whole_box && !d.owns(x)) continue;
          p.position[k] = x;
          p.velocity[k] = {0.0, 0.0, 0.0};
          p.force[k] = {0.0, 0.0, 0.0};
          p.image[k] = {0, 0, 0};
          p.tag[k] = tag;
          p.type[k] = static_cast<uint32_t>(t % types);
          ++k;
        }
      }
  p.resize(k);
  return p;
}

ParticleData<double> place_lattice(uint64_t n, const Box& box, const Domain& d) {
  const auto m = static_cast<uint64_t>(std::ceil(std::cbrt(static_cast<double>(n)) - 1e-9));
  const uint64_t sites = m * m * m;
  const Vec3d L = box.lengths(), lo = box.lo();
  const double len[3] = {L.x, L.y, L.z}, box_lo[3] = {lo.x, lo.y, lo.z};
  const double dom_lo[3] = {d.lo.x, d.lo.y, d.lo.z}, dom_hi[3] = {d.hi.x, d.hi.y, d.hi.z};
  uint64_t first[3], last[3];
  for (int a = 0; a < 3; ++a) {
    first[a] = 0;
    last[a] = m - 1;
    if (d.whole_box || d.grid[a] == 1) continue;
    // The site columns whose centres may lie in [lo, hi), one more each way
    // for round-off (ownership is decided on the position itself below).
    const double w = len[a] / double(m);
    const double f = std::floor((dom_lo[a] - box_lo[a]) / w - 0.5) - 1.0;
    const double l = std::ceil((dom_hi[a] - box_lo[a]) / w - 0.5) + 1.0;
    first[a] = uint64_t(std::clamp(f, 0.0, double(m - 1)));
    last[a] = uint64_t(std::clamp(l, 0.0, double(m - 1)));
  }
  ParticleData<double> p;
  std::size_t k = 0;
  for (uint64_t iz = first[2]; iz <= last[2]; ++iz)
    for (uint64_t iy = first[1]; iy <= last[1]; ++iy)
      for (uint64_t ix = first[0]; ix <= last[0]; ++ix) {
        // The particle of site s, if any: the least i with floor(i sites / n) >= s.
        const uint64_t s = (iz * m + iy) * m + ix;
        const auto i = static_cast<uint64_t>((static_cast<unsigned __int128>(s) * n + sites - 1) / sites);
        if (i >= n || static_cast<uint64_t>((static_cast<unsigned __int128>(i) * sites) / n) != s) continue;
        // As make_lj_liquid always placed them (bitwise).
        const double a = L.x / double(m);
        Vec3d r{-0.5 * L.x + (double(ix) + 0.5) * a, -0.5 * L.x + (double(iy) + 0.5) * a,
                -0.5 * L.x + (double(iz) + 0.5) * a};
        Image img{0, 0, 0};
        box.wrap(r, img);
        if (!d.whole_box && !d.owns(r)) continue;
        p.resize(k + 1);
        p.position[k] = r;
        p.velocity[k] = {0.0, 0.0, 0.0};
        p.force[k] = {0.0, 0.0, 0.0};
        p.image[k] = {0, 0, 0};
        p.tag[k] = static_cast<uint32_t>(i);
        p.type[k] = 0;
        ++k;
      }
  return p;
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

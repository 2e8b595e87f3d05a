#include "meso/systems/vesicle.hpp"

#include <cmath>
#include <numbers>

#include "meso/core/error.hpp"
#include "meso/core/init.hpp"
#include "meso/physics/philox.hpp"

namespace meso {
namespace {

constexpr uint32_t kStreamChain = 0x43484e31u;  // "CHN1": chain starts and bond directions

// Two uniforms in [0, 1) for (tag, word): independent of the other streams
// of the initial configuration.
std::pair<double, double> uniform2(uint32_t tag, uint32_t word, uint64_t seed) {
  const auto r = physics::philox4x32_10({{tag, word, kStreamChain, 0u}},
                                        {{static_cast<uint32_t>(seed), static_cast<uint32_t>(seed >> 32)}});
  return {1.0 - physics::uniform_open01(r.v[0], r.v[1]), 1.0 - physics::uniform_open01(r.v[2], r.v[3])};
}

uint32_t bead_type(char c) {
  switch (c) {
    case 'A': return kVesicleA;
    case 'B': return kVesicleB;
    default: return kVesicleS;
  }
}

}  // namespace

uint64_t VesicleParams::chains() const {
  return static_cast<uint64_t>(std::llround(concentration * double(n) / double(chain_length())));
}

void VesicleParams::validate() const {
  if (n < 8) throw_input_error("dpd-vesicle: N = ", n, " beads are too few");
  require_positive("rho", rho);
  if (!(concentration >= 0.0 && concentration <= 1.0))
    throw_input_error("dpd-vesicle: concentration = ", concentration, " is not a fraction in [0, 1]");
  if (sequence.empty()) throw_input_error("dpd-vesicle: the chain sequence is empty");
  for (char c : sequence)
    if (c != 'A' && c != 'B') throw_input_error("dpd-vesicle: sequence \"", sequence, "\" has '", c, "' (A or B only)");
  for (double a : {a_aa, a_ab, a_as, a_bb, a_bs, a_ss})
    if (!(a >= 0.0) || !std::isfinite(a)) throw_input_error("dpd-vesicle: a_ij = ", a, " (>= 0 and finite)");
  require_positive("gamma", gamma);
  require_positive("kT", kT);
  require_positive("rc", rcut);
  require_positive("s", s);
  require_positive("mass", mass);
  require_positive("bond K", bond_k);
  require_positive("bond r0", bond_r0);
  if (chains() * chain_length() > n)
    throw_input_error("dpd-vesicle: ", chains(), " chains of ", chain_length(), " beads exceed N = ", n);
}

System make_dpd_vesicle(const VesicleParams& p) {
  p.validate();
  System sys;
  sys.box = Box(std::cbrt(double(p.n) / p.rho));
  sys.kT = p.kT;
  sys.type_names = {"A", "B", "S"};
  sys.type_mass.assign(kVesicleNumTypes, p.mass);
  auto& dpd = sys.set_pair_style<physics::DpdPairParams>(kVesicleNumTypes);
  auto set = [&](uint32_t a, uint32_t b, double aij) {
    dpd.set(a, b, physics::dpd_pair_params(aij, p.gamma, p.kT, p.rcut, p.s));
  };
  set(kVesicleA, kVesicleA, p.a_aa);
  set(kVesicleA, kVesicleB, p.a_ab);
  set(kVesicleA, kVesicleS, p.a_as);
  set(kVesicleB, kVesicleB, p.a_bb);
  set(kVesicleB, kVesicleS, p.a_bs);
  set(kVesicleS, kVesicleS, p.a_ss);

  ParticleData<double>& q = sys.particles;
  q.resize(p.n);
  for (uint64_t i = 0; i < p.n; ++i) {
    q.tag[i] = static_cast<uint32_t>(i);
    q.type[i] = kVesicleS;
    q.image[i] = {0, 0, 0};
    q.velocity[i] = {0.0, 0.0, 0.0};
    q.force[i] = {0.0, 0.0, 0.0};
  }
  place_uniform_random(sys, p.seed);  // the solvent's places; chain beads are placed again below
  const uint32_t len = p.chain_length();
  const Vec3d L = sys.box.lengths(), lo = sys.box.lo();
  Topology& t = sys.topology;
  t.bond_types.push_back({"backbone", BondKind::harmonic, {p.bond_k, p.bond_r0}, {}});
  for (uint64_t c = 0; c < p.chains(); ++c) {
    Vec3d at{0, 0, 0};  // unwrapped
    for (uint32_t k = 0; k < len; ++k) {
      const uint64_t i = c * len + k;
      const uint32_t tag = static_cast<uint32_t>(i);
      const auto [u, v] = uniform2(tag, 0, p.seed);
      if (k == 0) {
        const auto [w, unused] = uniform2(tag, 1, p.seed);
        at = {lo.x + u * L.x, lo.y + v * L.y, lo.z + w * L.z};
      } else {
        // A uniform direction: cos(theta) = 2u - 1, phi = 2 pi v.
        const double ct = 2.0 * u - 1.0, st = std::sqrt(std::max(0.0, 1.0 - ct * ct));
        const double phi = 2.0 * std::numbers::pi * v;
        at = at + p.bond_r0 * Vec3d{st * std::cos(phi), st * std::sin(phi), ct};
        t.bonds.push_back({tag - 1, tag, 0});
      }
      Vec3d r = at;
      Image img{0, 0, 0};
      sys.box.wrap(r, img);
      q.position[i] = r;
      q.image[i] = img;
      q.type[i] = bead_type(p.sequence[k]);
    }
  }
  draw_maxwell_boltzmann(sys, p.kT, p.seed);
  return sys;
}

}  // namespace meso

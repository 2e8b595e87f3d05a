#include "meso/tables/ibi_melt.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <numbers>
#include <utility>

#include "meso/core/error.hpp"
#include "meso/core/init.hpp"
#include "meso/systems/melt_tables.hpp"
#include "meso/physics/philox.hpp"
#include "meso/run/simulation.hpp"

namespace meso {
namespace {

constexpr uint32_t kStreamMelt = 0x4d454c54u;  // "MELT": chain starts and steps

// Three uniforms in [0, 1) for (tag, seed).
std::array<double, 3> uniform3(uint32_t tag, uint64_t seed) {
  const auto r = physics::philox4x32_10({{tag, 0u, kStreamMelt, 0u}},
                                        {{static_cast<uint32_t>(seed), static_cast<uint32_t>(seed >> 32)}});
  return {1.0 - physics::uniform_open01(r.v[0]), 1.0 - physics::uniform_open01(r.v[1]),
          1.0 - physics::uniform_open01(r.v[2])};
}

}  // namespace

void BeadSpringMeltParams::validate() const {
  if (chains < 1) throw_input_error("melt chains = ", chains, " is invalid: it must be >= 1");
  if (chain_length < 3)
    throw_input_error("melt chain_length = ", chain_length, " is invalid: it must be >= 3 (bonds and angles)");
  require_positive("melt rho", rho);
  require_positive("melt kT", kT);
  require_non_negative("melt a", a);
  require_positive("melt rcut", rcut);
  require_positive("melt bond_k", bond_k);
  require_positive("melt bond_r0", bond_r0);
  require_positive("melt angle_k", angle_k);
  require_finite("melt angle_theta0", angle_theta0);
  if (!(angle_theta0 > 0.0 && angle_theta0 <= 180.0))
    throw_input_error("melt angle_theta0 = ", angle_theta0, " degrees is invalid: it must be in (0, 180]");
}

System make_bead_spring_melt(const BeadSpringMeltParams& p) {
  p.validate();
  const uint64_t n = p.beads();
  const double L = std::cbrt(static_cast<double>(n) / p.rho);
  System sys;
  sys.box = Box(L, L, L);
  sys.kT = p.kT;
  sys.type_names = {"B"};
  sys.type_mass = {1.0};
  physics::DpdPairParams soft;
  soft.a = p.a;
  soft.rcut = p.rcut;
  sys.set_pair_style<physics::DpdPairParams>(1, soft);
  Topology& t = sys.topology;
  BondType bond;
  bond.name = "bond";
  bond.harmonic = {p.bond_k, p.bond_r0};
  t.bond_types = {bond};
  AngleType angle;
  angle.name = "angle";
  angle.harmonic = {p.angle_k, p.angle_theta0 * std::numbers::pi / 180.0};
  t.angle_types = {angle};
  ParticleData<double>& q = sys.particles;
  q.resize(n);
  const Vec3d lo = sys.box.lo();
  Vec3d r{0.0, 0.0, 0.0};
  for (uint32_t c = 0; c < p.chains; ++c)
    for (uint32_t k = 0; k < p.chain_length; ++k) {
      const uint32_t tag = c * p.chain_length + k;
      const auto u = uniform3(tag, p.seed);
      if (k == 0) {
        r = lo + Vec3d{u[0] * L, u[1] * L, u[2] * L};
      } else {
        // A uniform direction: cos(theta) = 2u - 1, phi = 2 pi v.
        const double ct = 2.0 * u[0] - 1.0, st = std::sqrt(std::max(0.0, 1.0 - ct * ct));
        const double phi = 2.0 * std::numbers::pi * u[1];
        r = r + p.bond_r0 * Vec3d{st * std::cos(phi), st * std::sin(phi), ct};
        t.bonds.push_back({tag - 1, tag, 0});
        if (k >= 2) t.angles.push_back({tag - 2, tag - 1, tag, 0});
      }
      Vec3d w = r;
      Image img{0, 0, 0};
      sys.box.wrap(w, img);
      q.position[tag] = w;
      q.image[tag] = img;
      q.tag[tag] = tag;
      q.type[tag] = 0;
      q.velocity[tag] = {0.0, 0.0, 0.0};
      q.force[tag] = {0.0, 0.0, 0.0};
    }
  draw_maxwell_boltzmann(sys, p.kT, p.seed);
  return sys;
}

std::vector<uint32_t> chain_of_tag(uint32_t chains, uint32_t length) {
  std::vector<uint32_t> out(uint64_t(chains) * length);
  for (std::size_t i = 0; i < out.size(); ++i) out[i] = static_cast<uint32_t>(i / length);
  return out;
}

MeltDistributions sample_melt(const System& sys, const RunParams& rp,
                              const std::function<std::unique_ptr<Backend>()>& make_backend,
                              const std::vector<uint32_t>& molecule_of_tag, const MeltSampling& s,
                              ParticleData<double>* last) {
  if (s.samples < 1 || s.every < 1) throw_input_error("melt sampling: samples and every must be >= 1");
  Simulation sim(make_backend(), sys, rp);
  sim.run(s.equilibrate);
  BondedHistogram bonds(TableKind::bond, 0, s.bond_lo, s.bond_hi, s.bond_bins);
  BondedHistogram angles(TableKind::angle, 0, s.angle_lo, s.angle_hi, s.angle_bins);
  MeltDistributions out;
  for (uint64_t k = 0; k < s.samples; ++k) {
    sim.run(s.every);
    const ParticleData<double> p = sim.particles();
    const Rdf one = compute_rdf(sys.box, p, s.r_max, s.pair_bins, molecule_of_tag);
    if (out.pair.r.empty()) out.pair = one, std::fill(out.pair.g.begin(), out.pair.g.end(), 0.0);
    for (std::size_t b = 0; b < one.g.size(); ++b) out.pair.g[b] += one.g[b] / static_cast<double>(s.samples);
    bonds.add(sys.box, p, sys.topology);
    angles.add(sys.box, p, sys.topology);
  }
  out.bond = bonds.result();
  out.angle = angles.result();
  if (last) *last = sim.particles();
  return out;
}

double MeltDifference::largest() const { return std::max({pair, bond, angle}); }

MeltDifference melt_difference(const MeltDistributions& d, const MeltDistributions& target) {
  return {rdf_difference(d.pair, target.pair), distribution_difference(d.bond, target.bond),
          distribution_difference(d.angle, target.angle)};
}

MeltPotentials melt_potentials_of_mean_force(const MeltDistributions& target, double kT, const MeltFloors& f) {
  return {potential_of_mean_force(target.pair, kT, f.pair), bonded_potential_of_mean_force(target.bond, kT, f.bonded),
          bonded_potential_of_mean_force(target.angle, kT, f.bonded)};
}

System with_melt_tables(System sys, const MeltPotentials& v, uint32_t points) {
  return with_melt_tables(std::move(sys), pair_table_from_ibi("pair", v.pair, points, kMeltTableRIn),
                          bonded_table_from_ibi("bond", TableKind::bond, v.bond, points),
                          bonded_table_from_ibi("angle", TableKind::angle, v.angle, points));
}

void ibi_update(MeltPotentials& v, const MeltDistributions& measured, const MeltDistributions& target, double kT,
                double alpha, const MeltFloors& f) {
  ibi_update(v.pair, measured.pair, target.pair, kT, alpha, f.pair);
  ibi_update(v.bond, measured.bond, target.bond, kT, alpha, f.bonded);
  ibi_update(v.angle, measured.angle, target.angle, kT, alpha, f.bonded);
}

}  // namespace meso

#include "meso/systems/polymer_solution.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <numbers>

#include "meso/core/error.hpp"
#include "meso/core/init.hpp"
#include "meso/physics/philox.hpp"

namespace meso {
namespace {

constexpr uint32_t kStreamWalk = 0x50534157u;  // "PSAW": chain starts and steps
constexpr double kBondLength = 0.97;            // Kremer-Grest mean bond length, in sigma
constexpr double kMinDistance = 0.9;            // closest approach at placement, in sigma
constexpr uint32_t kStepTries = 64;             // draws for one step before the chain starts again
constexpr uint32_t kChainTries = 4096;          // starts of one chain before giving up

// Two uniforms in [0, 1) for (tag, try, restart).
std::pair<double, double> uniform2(uint32_t tag, uint32_t attempt, uint32_t restart, uint64_t seed) {
  const auto r = physics::philox4x32_10({{tag, attempt, kStreamWalk, restart}},
                                        {{static_cast<uint32_t>(seed), static_cast<uint32_t>(seed >> 32)}});
  return {1.0 - physics::uniform_open01(r.v[0], r.v[1]), 1.0 - physics::uniform_open01(r.v[2], r.v[3])};
}

// Placed beads by cell of edge >= kMinDistance sigma, for the overlap test.
class PlacedBeads {
 public:
  PlacedBeads(const Box& box, double reach) : box_(box), reach_(reach) {
    const Vec3d L = box.lengths();
    n_[0] = std::max(1, int(L.x / reach));
    n_[1] = std::max(1, int(L.y / reach));
    n_[2] = std::max(1, int(L.z / reach));
    cells_.resize(std::size_t(n_[0]) * n_[1] * n_[2]);
  }
  bool clear_of(const Vec3d& r) const {
    const auto c = cell_of(r);
    // With fewer than 3 cells a side the 27 neighbours repeat: visit each once.
    const int reach[3] = {std::min(1, (n_[0] - 1) / 2), std::min(1, (n_[1] - 1) / 2),
                          std::min(1, (n_[2] - 1) / 2)};
    const bool all[3] = {n_[0] < 3, n_[1] < 3, n_[2] < 3};
    for (int dz = all[2] ? 0 : -reach[2]; dz <= (all[2] ? n_[2] - 1 : reach[2]); ++dz)
      for (int dy = all[1] ? 0 : -reach[1]; dy <= (all[1] ? n_[1] - 1 : reach[1]); ++dy)
        for (int dx = all[0] ? 0 : -reach[0]; dx <= (all[0] ? n_[0] - 1 : reach[0]); ++dx) {
          const int x = (c[0] + dx + n_[0]) % n_[0], y = (c[1] + dy + n_[1]) % n_[1],
                    z = (c[2] + dz + n_[2]) % n_[2];
          for (const Vec3d& q : cells_[index(x, y, z)]) {
            const Vec3d d = box_.min_image(r - q);
            if (dot(d, d) < reach_ * reach_) return false;
          }
        }
    return true;
  }
  void add(const Vec3d& r) {
    const auto c = cell_of(r);
    cells_[index(c[0], c[1], c[2])].push_back(r);
  }
  void remove_last(const Vec3d& r) {
    const auto c = cell_of(r);
    cells_[index(c[0], c[1], c[2])].pop_back();
  }

 private:
  std::array<int, 3> cell_of(const Vec3d& r) const {
    const Vec3d L = box_.lengths(), lo = box_.lo();
    auto one = [](double x, double lo_, double l, int n) {
      return std::clamp(int((x - lo_) / l * n), 0, n - 1);
    };
    return {one(r.x, lo.x, L.x, n_[0]), one(r.y, lo.y, L.y, n_[1]), one(r.z, lo.z, L.z, n_[2])};
  }
  std::size_t index(int x, int y, int z) const { return (std::size_t(z) * n_[1] + y) * n_[0] + x; }

  Box box_;
  double reach_;
  int n_[3];
  std::vector<std::vector<Vec3d>> cells_;
};

}  // namespace

void PolymerSolutionParams::validate() const {
  if (chains < 1) throw_input_error("polymer solution: chains = ", chains, " (at least 1)");
  if (chain_length < 2) throw_input_error("polymer solution: chain length = ", chain_length, " (at least 2)");
  require_positive("L", L);
  require_positive("rho", rho);
  require_positive("kT", kT);
  require_positive("epsilon", epsilon);
  require_positive("sigma", sigma);
  require_positive("FENE K", fene_k);
  require_positive("monomer mass", monomer_mass);
  if (!(fene_r0 > kBondLength * sigma) || !std::isfinite(fene_r0))
    throw_input_error("polymer solution: FENE R0 = ", fene_r0, " must exceed the start's bond length ",
                      kBondLength * sigma);
  // The walk needs room: refuse a melt (a volume fraction of the monomers'
  // spheres of diameter sigma above 0.3, ten times the densest benchmark).
  const double phi = double(monomers()) * std::numbers::pi / 6.0 * sigma * sigma * sigma / (L * L * L);
  if (phi > 0.3)
    throw_input_error("polymer solution: ", monomers(), " monomers fill ", phi,
                      " of the box (L = ", L, "); a dilute or semidilute solution is below 0.3");
}

System make_polymer_chains(const PolymerSolutionParams& p) {
  p.validate();
  System sys;
  sys.box = Box(p.L, p.L, p.L);
  sys.kT = p.kT;
  sys.type_names = {"M"};
  sys.type_mass = {p.monomer_mass};
  physics::LjPairParams wca;
  wca.epsilon = p.epsilon;
  wca.sigma = p.sigma;
  wca.alpha = 1.0;
  wca.rcut = std::pow(2.0, 1.0 / 6.0) * p.sigma;
  wca.mode = physics::LjMode::shift;
  sys.set_pair_style<physics::LjPairParams>(1, wca);
  Topology& t = sys.topology;
  // The WCA core comes from the pair table (it acts on bonded pairs too).
  t.bond_types.push_back({"fene", BondKind::fene, {}, {p.fene_k, p.fene_r0, 0.0, p.sigma}});

  const uint64_t n = p.monomers();
  ParticleData<double>& q = sys.particles;
  q.resize(n);
  const double b = kBondLength * p.sigma;
  const Vec3d L = sys.box.lengths(), lo = sys.box.lo();
  PlacedBeads placed(sys.box, kMinDistance * p.sigma);
  std::vector<Vec3d> walk(p.chain_length);  // unwrapped
  for (uint32_t c = 0; c < p.chains; ++c) {
    const uint32_t first = c * p.chain_length;
    bool done = false;
    for (uint32_t restart = 0; restart < kChainTries && !done; ++restart) {
      uint32_t k = 0;
      for (; k < p.chain_length; ++k) {
        const uint32_t tag = first + k;
        bool ok = false;
        for (uint32_t attempt = 0; attempt < kStepTries && !ok; ++attempt) {
          const auto [u, v] = uniform2(tag, 2 * attempt, restart, p.seed);
          if (k == 0) {
            const auto [w, unused] = uniform2(tag, 2 * attempt + 1, restart, p.seed);
            walk[0] = {lo.x + u * L.x, lo.y + v * L.y, lo.z + w * L.z};
          } else {
            // A uniform direction: cos(theta) = 2u - 1, phi = 2 pi v.
            const double ct = 2.0 * u - 1.0, st = std::sqrt(std::max(0.0, 1.0 - ct * ct));
            const double phi = 2.0 * std::numbers::pi * v;
            walk[k] = walk[k - 1] + b * Vec3d{st * std::cos(phi), st * std::sin(phi), ct};
          }
          Vec3d r = walk[k];
          Image img{0, 0, 0};
          sys.box.wrap(r, img);
          if (!placed.clear_of(r)) continue;
          ok = true;
          placed.add(r);
          q.position[tag] = r;
          q.image[tag] = img;
        }
        if (!ok) break;
      }
      if (k == p.chain_length) {
        done = true;
      } else {
        for (uint32_t j = k; j-- > 0;) placed.remove_last(q.position[first + j]);
      }
    }
    if (!done)
      throw_input_error("polymer solution: chain ", c, " of ", p.chains, " found no room after ", kChainTries,
                        " starts (L = ", p.L, ")");
    for (uint32_t k = 1; k < p.chain_length; ++k) t.bonds.push_back({first + k - 1, first + k, 0});
  }
  for (uint64_t i = 0; i < n; ++i) {
    q.tag[i] = static_cast<uint32_t>(i);
    q.type[i] = 0;
    q.velocity[i] = {0.0, 0.0, 0.0};
    q.force[i] = {0.0, 0.0, 0.0};
  }
  draw_maxwell_boltzmann(sys, p.kT, p.seed);
  return sys;
}

MpcdSystem make_polymer_solvent(const PolymerSolutionParams& p, MpcdParams params) {
  p.validate();
  params.embed_types = 1u;
  params.kT = p.kT;
  SrdFluidParams f;
  f.L = p.L;
  f.rho = p.rho;
  // A stream apart from the chains' (both keyed by tag from 0).
  f.seed = p.seed ^ 0x536f6c76656e7431ull;
  return make_srd_fluid(f, params);
}

ChainConformations chain_conformations(const Box& box, const ParticleData<double>& p, uint32_t chains,
                                       uint32_t length) {
  if (uint64_t(chains) * length > p.n_local)
    throw_input_error("chain_conformations: ", chains, " chains of ", length, " beads exceed the ", p.n_local,
                      " particles");
  ChainConformations out;
  out.com.resize(chains);
  out.rg2.resize(chains);
  std::vector<Vec3d> r(length);
  for (uint32_t c = 0; c < chains; ++c) {
    Vec3d com{0.0, 0.0, 0.0};
    for (uint32_t k = 0; k < length; ++k) {
      const std::size_t i = std::size_t(c) * length + k;
      if (p.tag[i] != i) throw_input_error("chain_conformations: particle ", i, " has tag ", p.tag[i], " (tag order)");
      r[k] = box.unwrap(p.position[i], p.image[i]);
      com += r[k];
    }
    com = (1.0 / length) * com;
    double s = 0.0;
    for (const Vec3d& x : r) s += dot(x - com, x - com);
    out.com[c] = com;
    out.rg2[c] = s / length;
  }
  return out;
}

double zimm_diffusion(double kT, double eta, double rg) {
  const double pi = std::numbers::pi;
  return 8.0 / (3.0 * std::sqrt(6.0 * pi * pi * pi)) * kT / (eta * std::sqrt(6.0) * rg);
}

double periodic_box_correction(double kT, double eta, double L) {
  return 2.837 * kT / (6.0 * std::numbers::pi * eta * L);
}

double rouse_matched_gamma(double kT, uint32_t n, double d) { return kT / (double(n) * d); }

}  // namespace meso

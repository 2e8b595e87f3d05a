#include "meso/systems/surface_polymerization.hpp"

#include <algorithm>
#include <cmath>
#include <numbers>
#include <random>
#include <vector>

#include "meso/core/error.hpp"
#include "meso/core/init.hpp"

namespace meso {
namespace {

constexpr double kInitiatorShell = 0.5;  // initiators at R + this
constexpr double kMonomerGap = 1.5;      // monomers from R + this on
// The ball's lattice spacing: (4/3 pi 5^3 / 1086)^(1/3), Table 2's first row.
const double kBallSpacing = std::cbrt(4.0 / 3.0 * std::numbers::pi * 125.0 / 1086.0);

// Table 2 of GALAMOST (C2050): R, initiators, frozen, total N, box edge.
struct Row {
  double radius;
  uint64_t initiators, frozen, total;
  double box;
};
constexpr Row kTable2[] = {{5, 166, 1086, 48210, 38.25},
                           {10, 639, 4381, 192876, 60.91},
                           {15, 1431, 9932, 434046, 80.06},
                           {25, 3982, 28120, 1206216, 113.22},
                           {45, 12926, 90561, 3907593, 169.53}};

// The sites of a cubic lattice of n per axis filling a box of edge l (centred on the origin).
std::vector<Vec3d> cubic_sites(uint64_t n, double l) {
  std::vector<Vec3d> out;
  out.reserve(n * n * n);
  const double a = l / double(n);
  for (uint64_t z = 0; z < n; ++z)
    for (uint64_t y = 0; y < n; ++y)
      for (uint64_t x = 0; x < n; ++x)
        out.push_back({-0.5 * l + (double(x) + 0.5) * a, -0.5 * l + (double(y) + 0.5) * a,
                       -0.5 * l + (double(z) + 0.5) * a});
  return out;
}

}  // namespace

void SurfacePolymerizationParams::validate() const {
  require_positive("ball radius", ball_radius);
  require_positive("box", box);
  if (frozen == 0) throw_input_error("frozen = 0 is invalid: the ball needs particles");
  if (initiators == 0) throw_input_error("initiators = 0 is invalid: nothing would grow");
  if (total > 0xffffffffull) throw_input_error("total = ", total, " particles is too many: tags are 32-bit");
  if (total <= frozen + initiators)
    throw_input_error("total = ", total, " leaves no monomers beside ", frozen, " frozen and ", initiators,
                      " initiators");
  if (!(2.0 * (ball_radius + kMonomerGap) < box))
    throw_input_error("ball radius ", ball_radius, " does not fit the box ", box, " with its monomer gap");
  require_positive("capture radius", capture_radius);
  if (!(capture_radius < 1.5))
    throw_input_error("capture radius ", capture_radius, " is invalid: bonds form within it and FENE R0 is 1.5");
  if (!(probability >= 0.0 && probability <= 1.0))
    throw_input_error("probability ", probability, " is invalid: it must lie in [0, 1]");
  if (period == 0) throw_input_error("period = 0 is invalid: reactions are attempted every period >= 1 steps");
  require_positive("frozen mass", frozen_mass);
  require_positive("kT", kT);
}

SurfacePolymerizationParams surface_polymerization_table2(double ball_radius) {
  for (const Row& r : kTable2)
    if (r.radius == ball_radius) {
      SurfacePolymerizationParams p;
      p.ball_radius = r.radius;
      p.initiators = r.initiators;
      p.frozen = r.frozen;
      p.total = r.total;
      p.box = r.box;
      return p;
    }
  throw_input_error("ball radius ", ball_radius, " is not a row of GALAMOST's Table 2 (5, 10, 15, 25, 45)");
}

System make_surface_polymerization(const SurfacePolymerizationParams& p) {
  p.validate();
  System sys;
  sys.box = Box(p.box);
  sys.kT = p.kT;
  sys.type_names = {"B", "I", "M", "P"};
  sys.type_mass = {p.frozen_mass, p.frozen_mass, 1.0, 1.0};
  physics::LjPairParams wca;
  wca.epsilon = 1.0;
  wca.sigma = 1.0;
  wca.alpha = 1.0;
  wca.rcut = std::pow(2.0, 1.0 / 6.0);
  wca.mode = physics::LjMode::shift;
  auto& lj = sys.set_pair_style<physics::LjPairParams>(4, wca);
  physics::LjPairParams none = wca;
  none.epsilon = 0.0;  // frozen among themselves: no force to compute
  lj.set(0, 0, none);
  lj.set(0, 1, none);
  lj.set(1, 1, none);
  sys.topology.bond_types = {{"growth", BondKind::fene, {}, {30.0, 1.5, 0.0, 1.0}}};

  const double r = p.ball_radius;
  const uint64_t monomers = p.monomers();
  ParticleData<double>& q = sys.particles;
  q.resize(p.total);
  uint64_t next = 0;
  auto add = [&](const Vec3d& x, uint32_t type) {
    q.position[next] = x;
    q.image[next] = {0, 0, 0};
    q.tag[next] = uint32_t(next);
    q.type[next] = type;
    ++next;
  };
  // The ball: a shell of the outermost `frozen` sites of a cubic lattice
  // within R + a / 2 (kBallSpacing: 1086 sites fill Table 2's R = 5 sphere
  // at it). Table 2's frozen counts grow as R^2, so every row's ball is a
  // shell 1.7-2.2 thick, dense enough (spacing 0.78) that no monomer
  // passes.
  const double a = kBallSpacing;
  const uint64_t side = 2 * uint64_t(std::ceil(r / a)) + 4;
  std::vector<Vec3d> ball;
  for (const Vec3d& x : cubic_sites(side, double(side) * a))
    if (std::sqrt(dot(x, x)) <= r + 0.5 * a) ball.push_back(x);
  if (ball.size() < p.frozen)
    throw_input_error("frozen = ", p.frozen, " particles do not fit a ball of radius ", r, " (", ball.size(),
                      " lattice sites of spacing ", a, ")");
  std::sort(ball.begin(), ball.end(), [](const Vec3d& u, const Vec3d& v) { return dot(u, u) > dot(v, v); });
  for (uint64_t k = 0; k < p.frozen; ++k) add(ball[k], 0);
  // The initiators: a Fibonacci lattice on the sphere of radius R + 0.5.
  const double shell = r + kInitiatorShell, golden = std::numbers::pi * (3.0 - std::sqrt(5.0));
  for (uint64_t k = 0; k < p.initiators; ++k) {
    const double z = 1.0 - (2.0 * double(k) + 1.0) / double(p.initiators);
    const double s = std::sqrt(std::max(0.0, 1.0 - z * z)), phi = golden * double(k);
    add({shell * s * std::cos(phi), shell * s * std::sin(phi), shell * z}, 1);
  }
  // The monomers: a cubic lattice outside R + 1.5, the finest one with room
  // for them all, then `monomers` of its sites at random.
  const double free_volume = p.box * p.box * p.box - 4.0 / 3.0 * std::numbers::pi * std::pow(r + kMonomerGap, 3);
  uint64_t n = std::max<uint64_t>(1, uint64_t(p.box / std::cbrt(free_volume / double(monomers))));
  std::vector<Vec3d> sites;
  for (;; ++n) {
    sites.clear();
    for (const Vec3d& x : cubic_sites(n, p.box))
      if (std::sqrt(dot(x, x)) >= r + kMonomerGap) sites.push_back(x);
    if (sites.size() >= monomers) break;
  }
  std::mt19937_64 g(p.seed ^ 0x5350u);
  std::shuffle(sites.begin(), sites.end(), g);
  for (uint64_t k = 0; k < monomers; ++k) add(sites[k], 2);

  Polymerization& z = sys.polymerization;
  z.period = p.period;
  z.capture_radius = p.capture_radius;
  z.probability = p.probability;
  z.monomer_type = 2;
  z.reacted_type = 3;
  z.bond_type = 0;
  z.initiators.resize(p.initiators);
  for (uint64_t k = 0; k < p.initiators; ++k) z.initiators[k] = uint32_t(p.frozen + k);
  // Maxwell-Boltzmann for the monomers with their net momentum removed; the
  // frozen particles at rest (their thermal velocity, sqrt(kT / m) = 1e-10,
  // would carry them 1e-10 a unit of time).
  draw_maxwell_boltzmann(sys, p.kT, p.seed);
  Vec3d mean{0.0, 0.0, 0.0};
  for (std::size_t i = p.frozen + p.initiators; i < p.total; ++i) mean += q.velocity[i];
  mean = (1.0 / double(monomers)) * mean;
  for (std::size_t i = 0; i < p.total; ++i)
    q.velocity[i] = i < p.frozen + p.initiators ? Vec3d{0.0, 0.0, 0.0} : q.velocity[i] - mean;
  return sys;
}

}  // namespace meso

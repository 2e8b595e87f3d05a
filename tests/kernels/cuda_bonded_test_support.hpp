// Shared by the CUDA bonded force tests (cuda_bonded_test.cpp,
// cuda_bonded_fene_test.cpp): the bond and angle types, the storage index of
// each tag, and the random polymer solution they run.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <numbers>
#include <numeric>
#include <random>
#include <vector>

#include "meso/tables/bonded_table.hpp"
#include "meso/testing/harmonic_tables.hpp"
#include "meso/core/init.hpp"
#include "meso/run/simulation.hpp"
#include "meso/core/topology.hpp"

namespace meso::test {

constexpr double kPi = std::numbers::pi;

// Every kind of term: FENE with the WCA core (Kremer-Grest) and without,
// two harmonic bonds, and harmonic angles straight, bent and tight.
inline void add_types(Topology& t) {
  t.bond_types = {{"kg", BondKind::fene, {}, {30.0, 1.5, 1.0, 1.0}},
                  {"soft", BondKind::fene, {}, {20.0, 2.0, 0.0, 1.0}},
                  {"s", BondKind::harmonic, {100.0, 0.97}, {}},
                  {"np", BondKind::harmonic, {400.0, 0.9}, {}}};
  t.angle_types = {{"line", {4.0, kPi}}, {"bent", {6.0, 2.0 * kPi / 3.0}}, {"tight", {12.0, 70.0 * kPi / 180.0}}};
}

// The same topology with its harmonic bonds and its angles as tables
// (meso/tables/bonded_table.hpp) sampled from their own potentials: bonds on
// r in [0.3, 2.0] (1701 points), angles on theta in [0, pi] (1801 points),
// so that the tabulated kernel path meets every kind of term the analytic
// one does (the FENE bonds stay analytic). The types keep their harmonic
// parameters (term_magnitudes reads them).
inline System with_tables(System sys) {
  using meso::testing::harmonic_table;
  Topology& t = sys.topology;
  for (BondType& b : t.bond_types)
    if (b.kind == BondKind::harmonic) {
      b.kind = BondKind::table;
      b.table = uint32_t(t.bond_tables.size());
      t.bond_tables.push_back(harmonic_table(TableKind::bond, b.harmonic.k, b.harmonic.r0, 0.3, 2.0, 1701));
    }
  for (AngleType& a : t.angle_types) {
    a.kind = AngleKind::table;
    a.table = uint32_t(t.angle_tables.size());
    t.angle_tables.push_back(harmonic_table(TableKind::angle, a.harmonic.k, a.harmonic.theta0, 0.0, kPi, 1801));
  }
  return sys;
}

// Storage index of each tag.
inline std::vector<uint32_t> index_of_tags(const ParticleData<double>& p) {
  std::vector<uint32_t> idx(p.n_local);
  for (uint32_t i = 0; i < p.n_local; ++i) idx[p.tag[i]] = i;
  return idx;
}

// A DPD solution of random chains at rho = 3 (make_dpd_fluid: uniform
// positions, Maxwell-Boltzmann velocities), N = n, two bead types at random
// with their own a_ij (a = 0: no conservative pair force; thermostat:
// gamma = 4.5, else no dissipative or random force). 60% of the tags, drawn
// at random (so a chain's tags are scattered and its beads far apart in the
// given order), form chains of 2 to 40 beads: persistent random walks of
// steps 0.8 to 1.2 wrapped across the box, with angles between 60 and 162
// degrees (away from 0 and 180, where acos is ill-conditioned and the
// comparison would measure the conditioning, not the kernel); each bond and
// angle of a random type, the angle's end tags in random order. The rest is
// solvent with no bonded rows. The particles are then stored in a random
// permutation of the tags.
inline System polymer_solution(uint64_t seed, uint64_t n, double a, bool thermostat) {
  DpdFluidParams fp;
  fp.n = n;
  fp.seed = seed;
  System sys = make_dpd_fluid(fp);
  sys.type_names = {"A", "B"};
  sys.type_mass = {1.0, 1.5};
  const double gamma = thermostat ? 4.5 : 0.0, sigma = std::sqrt(2.0 * gamma * sys.kT);
  PairTable<physics::DpdPairParams> t(2);
  t.set(0, 0, {a, gamma, sigma, 1.0, 1.0});
  t.set(1, 1, {1.2 * a, gamma, sigma, 1.0, 1.0});
  t.set(0, 1, {1.5 * a, gamma, sigma, 1.0, 1.0});
  sys.pair_table<physics::DpdPairParams>() = t;
  std::mt19937_64 g(seed ^ 0x5bd1e995u);
  auto& p = sys.particles;
  for (auto& ty : p.type) ty = uint32_t(g() & 1u);
  draw_maxwell_boltzmann(sys, 1.0, seed);

  std::vector<uint32_t> tags(n);
  std::iota(tags.begin(), tags.end(), 0u);
  std::shuffle(tags.begin(), tags.end(), g);
  const std::vector<uint32_t> idx = index_of_tags(p);
  Topology& top = sys.topology;
  add_types(top);
  std::uniform_real_distribution<double> uni(0.0, 1.0);
  std::normal_distribution<double> gauss;
  const Vec3d L = sys.box.lengths();
  const std::size_t bonded = std::size_t(0.6 * double(n));
  for (std::size_t c0 = 0; c0 + 1 < bonded;) {
    const std::size_t len = std::min<std::size_t>(2 + g() % 39, bonded - c0);
    if (len < 2) break;
    Vec3d r{(uni(g) - 0.5) * L.x, (uni(g) - 0.5) * L.y, (uni(g) - 0.5) * L.z};
    Vec3d u{gauss(g), gauss(g), gauss(g)};
    u = (1.0 / std::sqrt(dot(u, u))) * u;
    for (std::size_t k = 0; k < len; ++k) {
      const uint32_t tag = tags[c0 + k];
      if (k > 0) {
        Vec3d v;
        double c;
        do {
          v = u + 0.8 * Vec3d{gauss(g), gauss(g), gauss(g)};
          v = (1.0 / std::sqrt(dot(v, v))) * v;
          c = dot(u, v);
        } while (k > 1 && (c <= -0.5 || c >= 0.95));
        u = v;
        r += (0.8 + 0.4 * uni(g)) * u;
        top.bonds.push_back({tags[c0 + k - 1], tag, uint32_t(g() % top.bond_types.size())});
      }
      if (k > 1) {
        uint32_t ta = tags[c0 + k - 2], tc = tag;
        if (g() & 1u) std::swap(ta, tc);
        top.angles.push_back({ta, tags[c0 + k - 1], tc, uint32_t(g() % top.angle_types.size())});
      }
      const uint32_t i = idx[tag];
      p.position[i] = r;
      p.image[i] = {0, 0, 0};
      sys.box.wrap(p.position[i], p.image[i]);
    }
    c0 += len;
  }
  // A random storage order.
  std::vector<uint32_t> order(n);
  std::iota(order.begin(), order.end(), 0u);
  std::shuffle(order.begin(), order.end(), g);
  ParticleData<double> q;
  q.resize(n);
  for (std::size_t k = 0; k < n; ++k) {
    const uint32_t i = order[k];
    q.position[k] = p.position[i];
    q.velocity[k] = p.velocity[i];
    q.force[k] = p.force[i];
    q.type[k] = p.type[i];
    q.tag[k] = p.tag[i];
    q.image[k] = p.image[i];
  }
  p = q;
  return sys;
}

}  // namespace meso::test

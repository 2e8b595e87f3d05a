// Test inputs for the MPCD reference tests: a random solvent with shuffled
// tags and a velocity drift (so that storage order, tag order and the cell
// frame all differ from the trivial ones), fresh seeds, loading into a
// CpuMpcd, and per-cell sums binned independently of MpcdCellList.
#pragma once

#include <gtest/gtest.h>

#include <algorithm>
#include <numeric>
#include <random>
#include <vector>

#include "meso/core/mpcd.hpp"
#include "meso/core/system.hpp"
#include "meso/reference/cpu_context.hpp"

namespace meso::testing {

// Componentwise |a - b| <= tol (GoogleTest EXPECT_NEAR on each).
inline void expect_vec_near(const Vec3d& a, const Vec3d& b, double tol) {
  EXPECT_NEAR(a.x, b.x, tol);
  EXPECT_NEAR(a.y, b.y, tol);
  EXPECT_NEAR(a.z, b.z, tol);
}

inline uint64_t fresh_seed() {
  return (uint64_t{std::random_device{}()} << 32) | std::random_device{}();
}

// nx x ny x nz cells of edge prm.cell_size, rho particles per cell on average,
// uniform positions, Gaussian velocities of width sqrt(kT/m) plus `drift`.
inline MpcdSystem random_solvent(uint64_t seed, const MpcdParams& prm, int nx, int ny, int nz,
                                 double rho, Vec3d drift = {0.3, -0.2, 0.1}) {
  std::mt19937_64 gen(seed);
  MpcdSystem s;
  const double a = prm.cell_size;
  s.box = Box(nx * a, ny * a, nz * a);
  s.params = prm;
  const auto n = static_cast<std::size_t>(rho * nx * ny * nz);
  s.particles.resize(n);
  const Vec3d lo = s.box.lo(), L = s.box.lengths();
  std::uniform_real_distribution<double> u01(0.0, 1.0);
  std::normal_distribution<double> g(0.0, std::sqrt(prm.kT / prm.mass));
  std::vector<uint32_t> tags(n);
  std::iota(tags.begin(), tags.end(), 1000u);  // not 0..N-1: tags are ids, not indices
  std::shuffle(tags.begin(), tags.end(), gen);
  for (std::size_t i = 0; i < n; ++i) {
    Vec3d r{lo.x + L.x * u01(gen), lo.y + L.y * u01(gen), lo.z + L.z * u01(gen)};
    Image img{0, 0, 0};
    s.box.wrap(r, img);  // u01 * L can round to L
    s.particles.position[i] = r;
    s.particles.velocity[i] = Vec3d{g(gen), g(gen), g(gen)} + drift;
    s.particles.type[i] = 0;
    s.particles.tag[i] = tags[i];
    s.particles.image[i] = {0, 0, 0};
  }
  s.validate();
  return s;
}

// MD solute for the coupling tests: n particles in the solvent's box, two
// types (0: mass m0, embedded; 1: mass m1, not), soft conservative DPD
// repulsion a between all (no DPD thermostat: gamma = 0), velocities
// Gaussian of width sqrt(kT / m) times v_scale.
inline System random_solute(uint64_t seed, const MpcdSystem& solvent, std::size_t n, double m0,
                            double m1, double a = 5.0, double v_scale = 1.0) {
  std::mt19937_64 gen(seed ^ 0x5017u);
  System s;
  s.box = solvent.box;
  s.type_names = {"S", "X"};
  s.type_mass = {m0, m1};
  s.set_pair_style<physics::DpdPairParams>(2);
  physics::DpdPairParams pp;
  pp.a = a;
  pp.gamma = 0.0;
  pp.rcut = 1.0;
  for (uint32_t i = 0; i < 2; ++i)
    for (uint32_t j = i; j < 2; ++j) s.pair_table<physics::DpdPairParams>().set(i, j, pp);
  s.kT = solvent.params.kT;
  s.particles.resize(n);
  const Vec3d lo = s.box.lo(), L = s.box.lengths();
  std::uniform_real_distribution<double> u01(0.0, 1.0);
  std::normal_distribution<double> g(0.0, 1.0);
  for (std::size_t i = 0; i < n; ++i) {
    Vec3d r{lo.x + L.x * u01(gen), lo.y + L.y * u01(gen), lo.z + L.z * u01(gen)};
    Image img{0, 0, 0};
    s.box.wrap(r, img);
    const uint32_t t = i % 4 == 3 ? 1u : 0u;  // a quarter not embedded
    const double w = v_scale * std::sqrt(s.kT / s.type_mass[t]);
    s.particles.position[i] = r;
    s.particles.velocity[i] = Vec3d{w * g(gen), w * g(gen), w * g(gen)};
    s.particles.type[i] = t;
    s.particles.tag[i] = static_cast<uint32_t>(i);
    s.particles.image[i] = {0, 0, 0};
  }
  return s;
}

template <class Real>
reference::CpuMpcd<Real> load(const MpcdSystem& sys) {
  reference::CpuMpcd<Real> s;
  s.assign(sys);
  return s;
}

template <class Real>
MpcdParticles by_tag(const reference::CpuMpcd<Real>& s) {
  MpcdParticles p;
  s.copy_out(p);
  return p;
}

// Momentum and kinetic energy of each cell of the grid under `shift`,
// binned with MpcdGrid::cell_of directly (not through the cell list).
struct CellSum {
  uint32_t n = 0;
  Vec3d momentum{0.0, 0.0, 0.0};
  double ke = 0.0;
};

template <class Real>
std::vector<CellSum> cell_sums(const reference::CpuMpcd<Real>& s, const Vec3d& shift) {
  std::vector<CellSum> out(s.grid.ncells());
  const double m = s.params.mass;
  for (std::size_t i = 0; i < s.size(); ++i) {
    const Vec3d v = vec_cast<double>(s.vel[i]);
    CellSum& c = out[s.grid.cell_of(vec_cast<double>(s.pos[i]), shift)];
    ++c.n;
    c.momentum += m * v;
    c.ke += 0.5 * m * dot(v, v);
  }
  return out;
}

inline bool bitwise_equal(const MpcdParticles& a, const MpcdParticles& b) {
  if (a.size() != b.size()) return false;
  for (std::size_t i = 0; i < a.size(); ++i) {
    const auto& ra = a.position[i];
    const auto& rb = b.position[i];
    const auto& va = a.velocity[i];
    const auto& vb = b.velocity[i];
    if (a.tag[i] != b.tag[i] || ra.x != rb.x || ra.y != rb.y || ra.z != rb.z || va.x != vb.x ||
        va.y != vb.y || va.z != vb.z || a.image[i].x != b.image[i].x ||
        a.image[i].y != b.image[i].y || a.image[i].z != b.image[i].z)
      return false;
  }
  return true;
}

}  // namespace meso::testing

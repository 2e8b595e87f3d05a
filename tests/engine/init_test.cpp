#include <gtest/gtest.h>

#include <algorithm>
#include <barrier>
#include <cmath>
#include <thread>
#include <vector>

#include "meso/core/init.hpp"
#include "meso/analysis/thermo.hpp"

namespace {

TEST(Init, UniformPositionsInsideBoxAndReproducible) {
  meso::DpdFluidParams p;
  p.n = 20000;
  p.seed = 99;
  const auto a = meso::make_dpd_fluid(p);
  const auto b = meso::make_dpd_fluid(p);
  const double h = 0.5 * a.box.lengths().x;
  double mean_x = 0.0;
  for (std::size_t i = 0; i < a.particles.n_local; ++i) {
    const auto r = a.particles.position[i];
    ASSERT_GE(r.x, -h);
    ASSERT_LT(r.x, h);
    ASSERT_GE(r.z, -h);
    ASSERT_LT(r.z, h);
    ASSERT_EQ(r.x, b.particles.position[i].x);
    mean_x += r.x;
  }
  // Uniform on [-h, h): mean 0, standard error h / sqrt(3 N); 5 sigma bound.
  mean_x /= static_cast<double>(p.n);
  EXPECT_LT(std::fabs(mean_x), 5.0 * h / std::sqrt(3.0 * p.n));
}

TEST(Init, MaxwellBoltzmannExactTemperatureZeroMomentum) {
  meso::DpdFluidParams p;
  p.n = 5000;
  p.kT = 1.7;
  p.mass = 2.0;
  const auto sys = meso::make_dpd_fluid(p);
  const auto t = meso::compute_thermo(sys, sys.particles, {}, 0);
  EXPECT_NEAR(t.temperature, 1.7, 1e-12);
  EXPECT_LT(std::fabs(t.momentum.x) + std::fabs(t.momentum.y) + std::fabs(t.momentum.z), 1e-10);
  // Gaussian components: <v_x^4> / <v_x^2>^2 = 3 (5 sigma: kurtosis SE ~ sqrt(24/N)).
  double m2 = 0, m4 = 0;
  for (const auto& v : sys.particles.velocity) {
    m2 += v.x * v.x;
    m4 += v.x * v.x * v.x * v.x;
  }
  m2 /= p.n;
  m4 /= p.n;
  EXPECT_NEAR(m4 / (m2 * m2), 3.0, 5.0 * std::sqrt(24.0 / p.n));
}

TEST(Init, DifferentSeedsGiveDifferentConfigurations) {
  meso::DpdFluidParams p;
  p.n = 100;
  p.seed = 1;
  const auto a = meso::make_dpd_fluid(p);
  p.seed = 2;
  const auto b = meso::make_dpd_fluid(p);
  EXPECT_NE(a.particles.position[0].x, b.particles.position[0].x);
}

}  // namespace

namespace {

// The domains of a 2 x 3 x 1 rank grid over box (as MpiCommunicator cuts it).
std::vector<meso::Domain> grid_domains(const meso::Box& box) {
  std::vector<meso::Domain> out;
  const meso::Vec3d L = box.lengths(), lo = box.lo();
  for (int j = 0; j < 3; ++j)
    for (int i = 0; i < 2; ++i) {
      meso::Domain d;
      d.global = box;
      d.whole_box = false;
      d.grid = {2, 3, 1};
      d.coords = {i, j, 0};
      d.lo = {lo.x + i * L.x / 2, lo.y + j * L.y / 3, lo.z};
      d.hi = {lo.x + (i + 1) * L.x / 2, lo.y + (j + 1) * L.y / 3, lo.z + L.z};
      d.ghost_width = 1.3;
      out.push_back(d);
    }
  return out;
}

TEST(Init, StratifiedPlacementByDomainsIsTheWholeBoxPlacement) {
  // Blocks of about 4096: an edge of (4096 V / N)^(1/3) = 16.6, so 3 x 2 x 1
  // blocks of 3600 (the first one more), which the 2 x 3 x 1 domains cut.
  const meso::Box box(50.0, 40.0, 12.0);
  const uint64_t n = 21601;
  meso::SingleRankCommunicator one(box, 1.3);
  const meso::ParticleData<double> whole = meso::place_stratified(n, 3, 7, one.domain());
  ASSERT_EQ(whole.n_local, n);
  std::vector<int> seen(n, 0);
  std::size_t in_parts = 0;
  for (const meso::Domain& d : grid_domains(box)) {
    const meso::ParticleData<double> mine = meso::place_stratified(n, 3, 7, d);
    in_parts += mine.n_local;
    for (std::size_t i = 0; i < mine.n_local; ++i) {
      ASSERT_TRUE(d.owns(mine.position[i]));
      ASSERT_LT(mine.tag[i], n);
      ++seen[mine.tag[i]];
      // The same particle as in the whole-box placement (tags index it).
      ASSERT_EQ(mine.position[i].x, whole.position[mine.tag[i]].x);
      ASSERT_EQ(mine.position[i].z, whole.position[mine.tag[i]].z);
      EXPECT_EQ(mine.type[i], mine.tag[i] % 3);
    }
  }
  EXPECT_EQ(in_parts, n);
  EXPECT_EQ(std::count(seen.begin(), seen.end(), 1), static_cast<std::ptrdiff_t>(n));
  // Uniform: each half of the box along x holds N/2 within 5 sigma of a
  // binomial (stratification only narrows it).
  std::size_t left = 0;
  for (std::size_t i = 0; i < n; ++i) left += whole.position[i].x < 0.0;
  EXPECT_LT(std::fabs(double(left) - 0.5 * n), 5.0 * std::sqrt(0.25 * n));
}

TEST(Init, LatticeByDomainsIsTheWholeLjLiquid) {
  // lj-liquid's start (make_lj_liquid) cut by a 2 x 3 x 1 grid: every
  // particle once, bitwise where the whole-box build puts it. N = 3001 on
  // m = 15 (3375 sites): sites left empty, and domain faces between sites.
  meso::LjLiquidParams l;
  l.n = 3001;
  l.rho = 0.4;
  l.seed = 5;
  const meso::System whole = meso::make_lj_liquid(l);
  ASSERT_EQ(whole.particles.n_local, l.n);
  std::vector<int> seen(l.n, 0);
  std::size_t in_parts = 0;
  for (const meso::Domain& d : grid_domains(whole.box)) {
    const meso::ParticleData<double> mine = meso::place_lattice(l.n, whole.box, d);
    in_parts += mine.n_local;
    for (std::size_t i = 0; i < mine.n_local; ++i) {
      ASSERT_TRUE(d.owns(mine.position[i]));
      ASSERT_LT(mine.tag[i], l.n);
      ++seen[mine.tag[i]];
      const meso::Vec3d& w = whole.particles.position[mine.tag[i]];
      ASSERT_EQ(mine.position[i].x, w.x);
      ASSERT_EQ(mine.position[i].y, w.y);
      ASSERT_EQ(mine.position[i].z, w.z);
    }
  }
  EXPECT_EQ(in_parts, l.n);
  EXPECT_EQ(std::count(seen.begin(), seen.end(), 1), static_cast<std::ptrdiff_t>(l.n));
  // Tags in order in the whole box, and no two particles on one site.
  for (std::size_t i = 0; i < l.n; ++i) ASSERT_EQ(whole.particles.tag[i], i);
  const double a = whole.box.lengths().x / 15.0;
  for (std::size_t i = 1; i < l.n; ++i) {
    const meso::Vec3d d = whole.particles.position[i] - whole.particles.position[i - 1];
    ASSERT_GT(d.x * d.x + d.y * d.y + d.z * d.z, 0.99 * a * a);
  }
}

TEST(Init, MaxwellBoltzmannOverRanksIsExactWithGlobalSums) {
  const meso::Box box(50.0, 40.0, 12.0);
  const uint64_t n = 21601;
  const double kT = 1.5;
  const std::vector<double> mass = {1.0, 2.0, 0.5};
  std::vector<meso::ParticleData<double>> parts;
  for (const meso::Domain& d : grid_domains(box)) parts.push_back(meso::place_stratified(n, 3, 7, d));
  // One thread a part, the sums an all-reduce between them (as MPI's).
  const std::size_t ranks = parts.size();
  std::vector<double> slot(ranks, 0.0);
  std::barrier sync(static_cast<std::ptrdiff_t>(ranks));
  std::vector<std::thread> threads;
  for (std::size_t r = 0; r < ranks; ++r)
    threads.emplace_back([&, r] {
      meso::draw_maxwell_boltzmann(parts[r], mass, kT, 3, n, [&](double x) {
        slot[r] = x;
        sync.arrive_and_wait();
        double total = 0.0;
        for (double v : slot) total += v;
        sync.arrive_and_wait();
        return total;
      });
    });
  for (auto& t : threads) t.join();
  // Zero momentum and kT exactly, over every part together.
  meso::Vec3d momentum{0, 0, 0};
  double twice_ke = 0.0;
  for (const auto& p : parts)
    for (std::size_t i = 0; i < p.n_local; ++i) {
      momentum += mass[p.type[i]] * p.velocity[i];
      twice_ke += mass[p.type[i]] * meso::dot(p.velocity[i], p.velocity[i]);
    }
  EXPECT_LT(std::fabs(momentum.x) + std::fabs(momentum.y) + std::fabs(momentum.z), 1e-9);
  EXPECT_NEAR(twice_ke / (3.0 * double(n) - 3.0), kT, 1e-12);
}

TEST(Init, MaxwellBoltzmannOfAPartWithIdentitySumsIsTheSystemDraw) {
  meso::DpdFluidParams f;
  f.n = 3000;
  f.types = 2;
  f.mass = 1.5;
  const meso::System sys = meso::make_dpd_fluid(f);
  meso::ParticleData<double> p = sys.particles;
  meso::draw_maxwell_boltzmann(p, sys.type_mass, f.kT, f.seed, p.n_local, [](double x) { return x; });
  for (std::size_t i = 0; i < p.n_local; ++i) {
    ASSERT_EQ(p.velocity[i].x, sys.particles.velocity[i].x);
    ASSERT_EQ(p.velocity[i].z, sys.particles.velocity[i].z);
  }
}

}  // namespace

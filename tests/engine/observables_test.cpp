// MSD with image flags, g(r) normalisation, and the drift fit with its errors.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <numbers>
#include <random>
#include <vector>

#include "meso/core/mpcd.hpp"
#include "meso/core/error.hpp"
#include "meso/analysis/linear_fit.hpp"
#include "meso/analysis/msd.hpp"
#include "meso/analysis/rdf.hpp"
#include "meso/core/system.hpp"

namespace {

using namespace meso;

TEST(Msd, CountsPeriodicCrossingsThroughImages) {
  const Box box(10.0);
  ParticleData<double> p;
  p.resize(2);
  p.position = {{4.5, 0.0, 0.0}, {0.0, 0.0, 0.0}};
  p.image = {{0, 0, 0}, {0, 0, 0}};
  const MsdTracker msd(box, p);
  // Particle 0 moves +1 in x: it crosses +L/2 and is wrapped to -4.5 with
  // image +1; particle 1 moves (0, 3, 4). Minimum image alone would call
  // particle 0's move 1 as well, so make it travel a full box more: +11.
  Vec3d r0{4.5 + 11.0, 0.0, 0.0};
  Image i0{0, 0, 0};
  box.wrap(r0, i0);
  EXPECT_EQ(i0.x, 2);
  p.position = {r0, {0.0, 3.0, 4.0}};
  p.image = {i0, {0, 0, 0}};
  EXPECT_NEAR(msd(p), (121.0 + 25.0) / 2.0, 1e-12);
}

TEST(Rdf, IdealGasIsOne) {
  const Box box(12.0);
  ParticleData<double> p;
  p.resize(4000);
  std::mt19937_64 rng(std::random_device{}());
  std::uniform_real_distribution<double> u(-6.0, 6.0);
  for (auto& r : p.position) r = {u(rng), u(rng), u(rng)};
  const Rdf g = compute_rdf(box, p, 5.0, 10);
  // Each bin's pair count is Poisson about N(N-1)/2 V_shell / V (2,400 pairs
  // in the first bin, 0-0.5: 2.0% noise; 650,000 in the last: 0.12%), so g
  // is held to 5 of its own standard deviations per bin (a false alarm in
  // about 1 of 10^5 runs). A flat 6% was 3 sigma in the first bin and
  // failed a fresh seed in CI.
  const double n = double(p.n_local), pairs = n * (n - 1.0) / 2.0;
  for (std::size_t b = 0; b < g.g.size(); ++b) {
    const double lo = g.r[b] - 0.5 * g.bin_width, hi = g.r[b] + 0.5 * g.bin_width;
    const double shell = 4.0 / 3.0 * std::numbers::pi * (hi * hi * hi - lo * lo * lo);
    const double expected = pairs * shell / box.volume();
    EXPECT_NEAR(g.g[b], 1.0, 5.0 / std::sqrt(expected)) << g.r[b] << " (" << expected << " pairs expected)";
  }
  EXPECT_THROW(compute_rdf(box, p, 6.5, 10), InputError);
}

// The cell path (3 or more cells of r_max a side) counts what all pairs
// count: a fresh random configuration, some particles outside the box
// (unwrapped) and molecules of 4, against a brute-force count here.
TEST(Rdf, CellsCountWhatAllPairsCount) {
  const Box box(9.0, 7.5, 11.0);
  ParticleData<double> p;
  p.resize(1500);
  std::mt19937_64 rng(std::random_device{}());
  std::uniform_real_distribution<double> u(-6.0, 6.0);
  std::vector<uint32_t> molecule(p.n_local);
  for (std::size_t i = 0; i < p.n_local; ++i) {
    p.position[i] = {u(rng), u(rng), u(rng)};
    p.tag[i] = static_cast<uint32_t>(i);
    molecule[i] = static_cast<uint32_t>(i / 4);
  }
  const double r_max = 2.4;  // 3 cells along y (7.5 / 2.4)
  const int bins = 48;
  for (const bool inter : {false, true}) {
    std::vector<double> count(bins, 0.0);
    for (std::size_t i = 0; i < p.n_local; ++i)
      for (std::size_t j = i + 1; j < p.n_local; ++j) {
        if (inter && molecule[i] == molecule[j]) continue;
        const Vec3d d = box.min_image(p.position[i] - p.position[j]);
        const double r = std::sqrt(dot(d, d));
        if (r < r_max) count[static_cast<std::size_t>(r / (r_max / bins))] += 1.0;
      }
    const Rdf g = compute_rdf(box, p, r_max, bins, inter ? molecule : std::vector<uint32_t>{});
    // The ideal count of a shell: all pairs (less those within a molecule
    // of 4: 6 each) times the shell's share of the box.
    const double n = static_cast<double>(p.n_local);
    const double pairs = 0.5 * n * (n - 1.0) - (inter ? 6.0 * n / 4.0 : 0.0);
    double total = 0.0;
    for (int b = 0; b < bins; ++b) {
      const double lo = b * r_max / bins, hi = lo + r_max / bins;
      const double shell = 4.0 / 3.0 * std::numbers::pi * (hi * hi * hi - lo * lo * lo);
      EXPECT_NEAR(g.g[b], count[b] / (pairs * shell / box.volume()), 1e-12 * (1.0 + g.g[b])) << b << " " << inter;
      total += count[b];
    }
    EXPECT_GT(total, 1e4);
  }
}

TEST(Rdf, LatticeHasPeakAtSpacing) {
  LjLiquidParams lp;
  lp.n = 1000;
  lp.rho = 0.4;
  const System sys = make_lj_liquid(lp);
  const Rdf g = compute_rdf(sys.box, sys.particles, 2.0, 40);
  const double a = std::cbrt(1.0 / 0.4);  // 10^3 sites: spacing = rho^(-1/3)
  for (std::size_t b = 0; b < g.g.size(); ++b) {
    if (g.r[b] + 0.5 * g.bin_width < a - 1e-9) {
      EXPECT_EQ(g.g[b], 0.0) << g.r[b];
    }
    if (std::fabs(g.r[b] - a) < 0.5 * g.bin_width) {
      EXPECT_GT(g.g[b], 5.0);
    }
  }
}

TEST(LinearFit, ExactLine) {
  std::vector<double> x, y;
  for (int i = 0; i < 50; ++i) x.push_back(0.1 * i), y.push_back(2.0 - 0.5 * 0.1 * i);
  const auto f = linear_fit(x, y);
  EXPECT_NEAR(f.slope, -0.5, 1e-14);
  EXPECT_NEAR(f.intercept, 2.0, 1e-14);
  EXPECT_LT(f.slope_se, 1e-13);
  EXPECT_THROW(linear_fit({1.0, 2.0}, {1.0, 2.0}), std::invalid_argument);
}

TEST(LinearFit, SlopeErrorMatchesScatterForWhiteAndCorrelatedNoise) {
  // Over many independent series the fitted slopes scatter by slope_se
  // (white noise) and by slope_se_correlated (AR(1) noise, where the plain
  // OLS error is too small by sqrt((1 + phi)/(1 - phi)) = 3 for phi = 0.8).
  std::mt19937_64 rng(12345);
  std::normal_distribution<double> n01;
  for (double phi : {0.0, 0.8}) {
    double sum_sq = 0.0, se = 0.0, se_ols = 0.0;
    const int trials = 200, n = 2000;
    std::vector<double> x(n), y(n);
    for (int t = 0; t < trials; ++t) {
      double e = 0.0;
      for (int i = 0; i < n; ++i) {
        e = phi * e + std::sqrt(1 - phi * phi) * n01(rng);
        x[i] = i;
        y[i] = 1.0 + 1e-3 * i + e;
      }
      const auto f = linear_fit(x, y, 20);
      sum_sq += (f.slope - 1e-3) * (f.slope - 1e-3);
      se += f.slope_se_correlated / trials;
      se_ols += f.slope_se / trials;
    }
    const double scatter = std::sqrt(sum_sq / trials);
    // 200 trials: the scatter is known to ~5% (1/sqrt(2*200)); block
    // estimates of the inefficiency add ~15%.
    EXPECT_NEAR(se / scatter, 1.0, 0.25) << "phi " << phi;
    if (phi > 0) {
      EXPECT_LT(se_ols / scatter, 0.5);
    }
  }
}

TEST(LinearFit, RandomWalkNoiseNeedsTheWalkError) {
  // Line plus a random walk (a conserved quantity under round-off or a
  // force-discontinuous cutoff): the block-residual error is far too small,
  // the walk error matches the scatter of fitted slopes.
  std::mt19937_64 rng(777);
  std::normal_distribution<double> n01;
  const int trials = 200, n = 2000;
  double sum_sq = 0.0, se_walk = 0.0, se_corr = 0.0;
  std::vector<double> x(n), y(n);
  for (int t = 0; t < trials; ++t) {
    double w = 0.0;
    for (int i = 0; i < n; ++i) {
      w += n01(rng);
      x[i] = i;
      y[i] = 5e-3 * i + w;
    }
    const auto f = linear_fit(x, y, 20);
    sum_sq += (f.slope - 5e-3) * (f.slope - 5e-3);
    se_walk += f.slope_se_walk / trials;
    se_corr += f.slope_se_correlated / trials;
    EXPECT_EQ(f.slope_se_robust, std::max(f.slope_se_walk, f.slope_se_correlated));
  }
  const double scatter = std::sqrt(sum_sq / trials);
  EXPECT_NEAR(se_walk / scatter, 1.0, 0.3);
  EXPECT_LT(se_corr / scatter, 0.7);
}

}  // namespace

// The solvent's momentum is summed with compensation: a plain running sum of
// (1e16, 1, -1e16) loses the 1 entirely.
TEST(MpcdThermo, MomentumSumIsCompensated) {
  meso::MpcdParticles p;
  p.resize(3);
  p.velocity = {{1e16, 0.0, 0.0}, {1.0, 0.0, 0.0}, {-1e16, 0.0, 0.0}};
  const meso::MpcdThermo t = meso::mpcd_thermo(p, 2.0, 7);
  EXPECT_EQ(t.momentum.x, 2.0);
  EXPECT_EQ(t.step, 7u);
}

// analyse_morphology (meso/analysis/morphology.hpp) on configurations built by hand:
// a hollow shell is one closed vesicle of the shell's radius (also fused with
// a micelle or another vesicle, whose beads its thickness leaves out), a
// pocket in a ball has a wall thicker than it is wide, a membrane
// across the periodic box is a sheet with no pocket (two stacked membranes
// too: the solvent between them reaches its own image), a ball of beads is a
// micelle, scattered beads are no aggregate. And make_dpd_vesicle builds
// what the paper states.
#include <gtest/gtest.h>

#include <cmath>
#include <numbers>
#include <random>

#include "meso/analysis/morphology.hpp"
#include "meso/systems/vesicle.hpp"

namespace meso {
namespace {

constexpr uint32_t kB = 1, kS = 2;

// Beads of type B filling the region `inside` at density 5 on a jittered
// lattice, the rest of the box solvent S at the same density; tags in order
// (no chains).
template <class Inside>
ParticleData<double> fill(const Box& box, Inside inside, uint64_t seed = 1) {
  std::mt19937_64 rng(seed);
  std::uniform_real_distribution<double> jitter(-0.1, 0.1);
  const double a = std::cbrt(1.0 / 5.0);
  const Vec3d L = box.lengths(), lo = box.lo();
  ParticleData<double> p;
  std::size_t k = 0;
  for (double z = lo.z + 0.5 * a; z < lo.z + L.z; z += a)
    for (double y = lo.y + 0.5 * a; y < lo.y + L.y; y += a)
      for (double x = lo.x + 0.5 * a; x < lo.x + L.x; x += a) {
        Vec3d r{x + jitter(rng), y + jitter(rng), z + jitter(rng)};
        Image im{0, 0, 0};
        box.wrap(r, im);
        p.resize(k + 1);
        p.position[k] = r;
        p.tag[k] = uint32_t(k);
        p.type[k] = inside(r) ? kB : kS;
        ++k;
      }
  return p;
}

MorphologyParams params() {
  MorphologyParams m;
  m.hydrophobic_type = kB;
  m.solvent_type = kS;
  m.chains = 0;
  return m;
}

TEST(Morphology, AHollowShellIsOneClosedVesicle) {
  const Box box(24.0);
  // Shell between 5 and 7 around (1, -2, 3): the middle radius is 6.
  const Vec3d c{1.0, -2.0, 3.0};
  const auto p = fill(box, [&](const Vec3d& r) {
    const Vec3d d = box.min_image(r - c);
    const double s = std::sqrt(dot(d, d));
    return s >= 5.0 && s <= 7.0;
  });
  const Morphology m = analyse_morphology(box, p, params());
  ASSERT_EQ(m.aggregates.size(), 1u);
  EXPECT_EQ(m.vesicles, 1u);
  EXPECT_EQ(m.micelles + m.sheets, 0u);
  const Aggregate& g = m.aggregates[0];
  EXPECT_EQ(g.kind, AggregateKind::vesicle);
  EXPECT_FALSE(g.spans);
  // The shell's median radius: ((5^3 + 7^3) / 2)^(1/3) = 6.16; the
  // lumen's centre within a voxel of c; the 5-95% spread of a uniform
  // shell 0.9 of its 2 thickness.
  EXPECT_NEAR(g.radius, std::cbrt(0.5 * (125.0 + 343.0)), 0.1);
  const Vec3d off = box.min_image(g.centre - c);
  EXPECT_LT(std::sqrt(dot(off, off)), 0.5);
  EXPECT_NEAR(g.thickness, 1.8, 0.3);
  // The lumen: the sphere of radius 5 less the voxels the shell's beads
  // touch (up to a voxel's diagonal, sqrt(3), inwards), so between the
  // spheres of 3.2 and 5; with `dilate` (a bead marks the 3 x 3 x 3 voxels
  // around its own, up to 1.5 sqrt(3) inwards) between 2.4 and 5.
  EXPECT_GT(g.lumen_volume, 4.0 / 3.0 * std::numbers::pi * 3.2 * 3.2 * 3.2);
  EXPECT_LT(g.lumen_volume, 4.0 / 3.0 * std::numbers::pi * 125.0);
  MorphologyParams d = params();
  d.dilate = true;
  const Morphology md = analyse_morphology(box, p, d);
  ASSERT_EQ(md.vesicles, 1u);
  EXPECT_GT(md.aggregates[0].lumen_volume, 4.0 / 3.0 * std::numbers::pi * 2.4 * 2.4 * 2.4);
  EXPECT_LT(md.aggregates[0].lumen_volume, g.lumen_volume);
}

TEST(Morphology, EachLumenOfAMultiCompartmentVesicleCounts) {
  // A ball of B beads of radius 7 with three solvent lumens of radius 2 (a
  // few r_c, as the pilot's compartments): one vesicle aggregate, three
  // lumens; the dilation would fill lumens this small.
  const Box box(30.0);
  const Vec3d lumen[3] = {{-3.0, 0.0, 0.0}, {3.0, 0.0, 0.0}, {0.0, 0.0, 4.0}};
  const auto p = fill(box, [&](const Vec3d& r) {
    if (dot(r, r) > 49.0) return false;
    for (const Vec3d& c : lumen)
      if (dot(r - c, r - c) < 4.0) return false;
    return true;
  });
  const Morphology m = analyse_morphology(box, p, params());
  ASSERT_EQ(m.aggregates.size(), 1u);
  EXPECT_EQ(m.aggregates[0].kind, AggregateKind::vesicle);
  EXPECT_EQ(m.aggregates[0].pockets, 3u);
  EXPECT_EQ(m.vesicles, 3u);
}

// The diameter of the sphere of a lumen's volume, which the vesicle-formation
// gate asks to be at least the bilayer's thickness.
double lumen_diameter(const Aggregate& g) { return 2.0 * std::cbrt(3.0 * g.lumen_volume / (4.0 * std::numbers::pi)); }

TEST(Morphology, AFusedVesicleHasItsBilayersThicknessNotItsAggregatesExtent) {
  // A vesicle as small as the long form's (core 2.2-3.8, 1.6 thick, around
  // c), fused with a micelle (a ball of radius 2 touching it) or with a
  // second such vesicle (two compartments sharing the wall between them):
  // one aggregate each. Its figures are its wall's: the median radius
  // ((2.2^3 + 3.8^3) / 2)^(1/3) = 3.20, the spread 1.40 (the 5th and 95th
  // percentiles of distances weighted by r^2: 2.34 and 3.75), and its lumen
  // wider than that. The spread of all the aggregate's beads about the
  // lumen's centre (`extent`, the gate's thickness until 2026-11-29) is 3.7
  // and 6.2 here: the extent of what fused.
  const Box box(30.0);
  const Vec3d c{10.0, -3.0, 2.0};  // the second lobe crosses the box's face
  auto shell = [&](const Vec3d& r, const Vec3d& at) {
    const Vec3d d = box.min_image(r - at);
    const double s = std::sqrt(dot(d, d));
    return s >= 2.2 && s <= 3.8;
  };
  const Vec3d micelle = c + Vec3d{5.5, 0.0, 0.0};
  const auto with_micelle = fill(box, [&](const Vec3d& r) {
    const Vec3d e = box.min_image(r - micelle);
    return shell(r, c) || dot(e, e) < 2.0 * 2.0;
  });
  // Two shells 6 apart, each cut at the plane between them (their caps
  // there make the shared wall), joined by a ring of membrane.
  const Vec3d other = c + Vec3d{6.0, 0.0, 0.0};
  const auto two_lobes = fill(box, [&](const Vec3d& r) {
    const Vec3d d = box.min_image(r - c);
    const double rho = std::sqrt(d.y * d.y + d.z * d.z);
    return (shell(r, c) && d.x < 3.0) || (shell(r, other) && d.x > 3.0) ||
           (std::fabs(d.x - 3.0) < 1.0 && rho > 2.2 && rho < 3.8);
  });
  for (const auto* p : {&with_micelle, &two_lobes}) {
    SCOPED_TRACE(p == &with_micelle ? "with a micelle" : "two lobes");
    const Morphology m = analyse_morphology(box, *p, params());
    ASSERT_EQ(m.aggregates.size(), 1u);
    const Aggregate& g = m.aggregates[0];
    ASSERT_EQ(g.kind, AggregateKind::vesicle);
    EXPECT_EQ(g.pockets, p == &with_micelle ? 1u : 2u);
    EXPECT_NEAR(g.thickness, 1.4, 0.3);
    EXPECT_NEAR(g.radius, std::cbrt(0.5 * (2.2 * 2.2 * 2.2 + 3.8 * 3.8 * 3.8)), 0.3);
    EXPECT_GE(lumen_diameter(g), g.thickness);
    EXPECT_GT(g.extent, 2.0 * g.thickness);
  }
}

TEST(Morphology, APocketInABlobHasAWallThickerThanItsLumen) {
  // Solvent trapped in a ball of B beads (radius 8, the pocket's 2): the
  // wall is the ball, 6 thick in every direction (its 5th-95th percentile
  // distances, weighted by r^2, 3.21 and 7.87), and the gate's rule (a
  // lumen at least as wide as its wall is thick) says it is no vesicle's:
  // the pocket's lumen reads about 3.8 wide.
  const Box box(24.0);
  const auto p = fill(box, [&](const Vec3d& r) {
    const double s = std::sqrt(dot(r, r));
    return s >= 2.0 && s <= 8.0;
  });
  const Morphology m = analyse_morphology(box, p, params());
  ASSERT_EQ(m.aggregates.size(), 1u);
  const Aggregate& g = m.aggregates[0];
  ASSERT_EQ(g.kind, AggregateKind::vesicle);
  EXPECT_NEAR(g.thickness, 4.66, 0.4);
  EXPECT_LT(lumen_diameter(g), g.thickness);
}

TEST(Morphology, MembranesAcrossTheBoxAreSheetsWithoutPockets) {
  const Box box(20.0);
  const auto one = fill(box, [](const Vec3d& r) { return std::fabs(r.z - 1.0) < 1.5; });
  const Morphology a = analyse_morphology(box, one, params());
  ASSERT_EQ(a.aggregates.size(), 1u);
  EXPECT_TRUE(a.aggregates[0].spans);
  EXPECT_EQ(a.aggregates[0].kind, AggregateKind::sheet);
  EXPECT_EQ(a.vesicles, 0u);
  // Two membranes cut the solvent into two slabs; each reaches its own image.
  const auto two = fill(box, [](const Vec3d& r) { return std::fabs(r.z + 5.0) < 1.5 || std::fabs(r.z - 5.0) < 1.5; });
  const Morphology b = analyse_morphology(box, two, params());
  EXPECT_EQ(b.sheets, 2u);
  EXPECT_EQ(b.vesicles, 0u);
}

TEST(Morphology, ABallIsAMicelleAndADiskASheet) {
  const Box box(30.0);
  const Vec3d c{-8.0, 0.0, 0.0}, d{8.0, 0.0, 0.0};
  const auto p = fill(box, [&](const Vec3d& r) {
    const Vec3d e = box.min_image(r - c), f = box.min_image(r - d);
    const bool ball = dot(e, e) < 2.5 * 2.5;
    const bool disk = std::fabs(f.z) < 1.2 && f.x * f.x + f.y * f.y < 8.0 * 8.0;
    return ball || disk;
  });
  const Morphology m = analyse_morphology(box, p, params());
  ASSERT_EQ(m.aggregates.size(), 2u);
  EXPECT_EQ(m.aggregates[0].kind, AggregateKind::sheet);  // the disk is larger
  EXPECT_EQ(m.aggregates[1].kind, AggregateKind::micelle);
  EXPECT_EQ(m.vesicles, 0u);
}

TEST(Morphology, ScatteredBeadsAreNoAggregate) {
  const Box box(20.0);
  std::mt19937_64 rng(3);
  std::uniform_real_distribution<double> u(-10.0, 10.0);
  ParticleData<double> p;
  p.resize(200);
  for (std::size_t i = 0; i < 200; ++i) {
    p.position[i] = {u(rng), u(rng), u(rng)};
    p.type[i] = kB;  // 200 in 8000: few links, clusters far below 30
    p.tag[i] = uint32_t(i);
  }
  const Morphology m = analyse_morphology(box, p, params());
  EXPECT_TRUE(m.aggregates.empty());
}

TEST(VesicleSystem, ChainsOfThePapersModel) {
  VesicleParams v;
  v.n = 20000;
  v.seed = 4;
  const System s = make_dpd_vesicle(v);
  ASSERT_EQ(s.particles.n_local, 20000u);
  EXPECT_NEAR(s.box.volume(), 20000.0 / 5.0, 1e-6);
  EXPECT_EQ(v.chains(), 250u);  // 10% of 20000 beads in chains of 8
  EXPECT_EQ(s.topology.bonds.size(), 250u * 7u);
  // The sequence BBBAABBB, then solvent; bonds r0 apart along each chain.
  for (uint32_t i = 0; i < 250 * 8; ++i) {
    const char want = v.sequence[i % 8];
    ASSERT_EQ(s.particles.type[i], want == 'A' ? kVesicleA : kVesicleB) << i;
  }
  for (uint32_t i = 250 * 8; i < 20000; ++i) ASSERT_EQ(s.particles.type[i], kVesicleS);
  for (const Bond& b : s.topology.bonds) {
    const Vec3d d = s.box.min_image(s.particles.position[b.b] - s.particles.position[b.a]);
    ASSERT_NEAR(std::sqrt(dot(d, d)), 0.38, 1e-9);
  }
  // The paper's a_ij, sigma = 3.
  EXPECT_EQ(s.pair_table<physics::DpdPairParams>()(kVesicleA, kVesicleB).a, 120.0);
  EXPECT_EQ(s.pair_table<physics::DpdPairParams>()(kVesicleB, kVesicleS).a, 120.0);
  EXPECT_EQ(s.pair_table<physics::DpdPairParams>()(kVesicleS, kVesicleS).a, 15.0);
  EXPECT_DOUBLE_EQ(s.pair_table<physics::DpdPairParams>()(kVesicleA, kVesicleS).sigma, 3.0);
  // A random start: B beads at 0.375 a unit volume, 1.6 others within r_c
  // of each and their chain's: chance clusters of 30 and more hold 31% of
  // the chains here, none a vesicle.
  MorphologyParams m;
  m.chains = v.chains();
  const Morphology g = analyse_morphology(s.box, s.particles, m);
  EXPECT_LT(g.chain_fraction(), 0.5);
  EXPECT_EQ(g.vesicles, 0u);
}

}  // namespace
}  // namespace meso

// GALAMOST's surface-initiated polymerization system (meso/
// surface_polymerization.hpp): Table 2's rows, the built geometry against
// its description (the ball's count and extent, the initiators' shell, the
// monomers' gap and spacing, the melt density), the refusals, and a short
// run on the reference in which chains grow from the frozen initiators.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <numbers>

#include "meso/core/error.hpp"
#include "meso/reference/cpu_backend.hpp"
#include "meso/run/simulation.hpp"
#include "meso/systems/surface_polymerization.hpp"

namespace {

using namespace meso;

double radius(const Vec3d& x) { return std::sqrt(dot(x, x)); }

TEST(SurfacePolymerization, Table2Rows) {
  const SurfacePolymerizationParams p = surface_polymerization_table2(25.0);
  EXPECT_EQ(p.initiators, 3982u);
  EXPECT_EQ(p.frozen, 28120u);
  EXPECT_EQ(p.total, 1206216u);
  EXPECT_EQ(p.box, 113.22);
  // Table 2's initiator density per area of the ball, 0.51-0.53.
  for (double r : {5.0, 10.0, 15.0, 25.0, 45.0}) {
    const SurfacePolymerizationParams q = surface_polymerization_table2(r);
    const double per_area = double(q.initiators) / (4.0 * std::numbers::pi * r * r);
    EXPECT_GT(per_area, 0.50) << r;
    EXPECT_LT(per_area, 0.54) << r;
  }
  EXPECT_THROW(surface_polymerization_table2(7.0), InputError);
}

TEST(SurfacePolymerization, GeometryAsDescribed) {
  const SurfacePolymerizationParams p = surface_polymerization_table2(5.0);
  const System sys = make_surface_polymerization(p);
  const auto& q = sys.particles;
  ASSERT_EQ(q.n_local, 48210u);
  std::size_t count[4] = {0, 0, 0, 0};
  double ball_max = 0.0, shell_err = 0.0, monomer_min = 1e9;
  for (std::size_t i = 0; i < q.n_local; ++i) {
    ++count[q.type[i]];
    const double r = radius(q.position[i]);
    if (q.type[i] == 0) ball_max = std::max(ball_max, r);
    if (q.type[i] == 1) shell_err = std::max(shell_err, std::fabs(r - 5.5));
    if (q.type[i] == 2) monomer_min = std::min(monomer_min, r);
  }
  EXPECT_EQ(count[0], 1086u);
  EXPECT_EQ(count[1], 166u);
  EXPECT_EQ(count[2], 48210u - 1086u - 166u);
  EXPECT_EQ(count[3], 0u);
  // The ball's outermost sites (lattice spacing (V / 1086)^(1/3) = 0.784)
  // lie within half a spacing outside R.
  EXPECT_LE(ball_max, 5.0 + 0.392);
  EXPECT_GT(ball_max, 5.0);
  EXPECT_LT(shell_err, 1e-12);
  EXPECT_GE(monomer_min, 6.5);
  // The monomers' lattice: no two closer than its spacing, at least 1.
  const double l = sys.box.lengths().x;
  double closest = 1e9;
  std::vector<Vec3d> m;
  for (std::size_t i = 0; i < q.n_local; ++i)
    if (q.type[i] == 2 && q.position[i].x > 0.0 && q.position[i].y > 0.0 && q.position[i].z > 0.0)
      m.push_back(q.position[i]);  // an octant: enough pairs, fewer of them
  for (std::size_t a = 0; a < m.size(); ++a)
    for (std::size_t b = a + 1; b < m.size(); ++b) {
      const Vec3d d = sys.box.min_image(m[a] - m[b]);
      closest = std::min(closest, std::sqrt(dot(d, d)));
    }
  EXPECT_GE(closest, 1.0);
  // The melt density the counts give: 0.85 outside the ball (Kremer-Grest's).
  const double free_volume = l * l * l - 4.0 / 3.0 * std::numbers::pi * 125.0;
  EXPECT_NEAR(double(count[2]) / free_volume, 0.85, 0.005);
  // The initiators are the polymerization's, the frozen types heavy.
  ASSERT_EQ(sys.polymerization.initiators.size(), 166u);
  for (uint32_t t : sys.polymerization.initiators) EXPECT_EQ(q.type[t], 1u);
  EXPECT_EQ(sys.type_mass[0], p.frozen_mass);
  EXPECT_EQ(sys.type_mass[1], p.frozen_mass);
  EXPECT_EQ(sys.type_mass[2], 1.0);
  // At rest, and the monomers with no net momentum.
  Vec3d momentum{0.0, 0.0, 0.0};
  for (std::size_t i = 0; i < q.n_local; ++i) {
    if (q.type[i] <= 1) EXPECT_EQ(dot(q.velocity[i], q.velocity[i]), 0.0);
    momentum += q.velocity[i];
  }
  EXPECT_LT(std::sqrt(dot(momentum, momentum)), 1e-9);
}

// The balls are shells: at R = 25, 28,120 frozen particles fill the
// sphere's outer 1.8 at the lattice's density (2.5 allowed here).
TEST(SurfacePolymerization, LargerBallsAreShells) {
  const System sys = make_surface_polymerization(surface_polymerization_table2(25.0));
  double inner = 1e9, outer = 0.0;
  std::size_t frozen = 0;
  for (std::size_t i = 0; i < sys.particles.n_local; ++i)
    if (sys.particles.type[i] == 0) {
      const double r = radius(sys.particles.position[i]);
      inner = std::min(inner, r), outer = std::max(outer, r);
      ++frozen;
    }
  EXPECT_EQ(frozen, 28120u);
  EXPECT_LE(outer, 25.0 + 0.392);
  EXPECT_GT(inner, 25.0 - 2.5);
}

TEST(SurfacePolymerization, RefusesBadParameters) {
  SurfacePolymerizationParams p = surface_polymerization_table2(5.0);
  p.capture_radius = 1.5;  // bonds would form at FENE's R0
  EXPECT_THROW(make_surface_polymerization(p), InputError);
  p = surface_polymerization_table2(5.0);
  p.total = p.frozen + p.initiators;
  EXPECT_THROW(make_surface_polymerization(p), InputError);
  p = surface_polymerization_table2(5.0);
  p.box = 12.0;
  EXPECT_THROW(make_surface_polymerization(p), InputError);
}

// 200 steps with an attempt every 10 at P = 1: chains start from the
// initiators, every bond joins a chain's end to a monomer, and the frozen
// particles stay where they were to round-off.
TEST(SurfacePolymerization, ChainsGrowFromTheFrozenBall) {
  SurfacePolymerizationParams p = surface_polymerization_table2(5.0);
  p.probability = 1.0;
  p.period = 10;
  const System sys = make_surface_polymerization(p);
  RunParams rp;
  rp.integrator = Integrator::langevin;
  rp.gamma = 1.0;
  rp.dt = 0.005;
  rp.skin = 0.3;
  Simulation sim(std::make_unique<reference::CpuBackend<double>>(Variant::parse("")), sys, rp);
  sim.run(200);
  const PolymerizeOp& op = *sim.plan().polymerize();
  const std::vector<Bond>& formed = op.formed();
  ASSERT_GT(formed.size(), 20u);
  std::vector<uint8_t> end(sys.particles.n_local, 0);  // the chains' ends as the bonds form
  for (uint32_t t : sys.polymerization.initiators) end[t] = 1;
  for (const Bond& b : formed) {
    EXPECT_TRUE(end[b.a]) << "bond " << b.a << "-" << b.b << " does not start at an end";
    EXPECT_EQ(sys.particles.type[b.b], 2u);
    end[b.a] = 0;
    end[b.b] = 1;
  }
  const ParticleData<double> now = sim.particles();
  double moved = 0.0;
  for (std::size_t i = 0; i < now.n_local; ++i)
    if (now.type[i] <= 1) {
      const Vec3d d = now.position[i] - sys.particles.position[i];
      moved = std::max(moved, std::sqrt(dot(d, d)));
    }
  EXPECT_LT(moved, 1e-12);
}

}  // namespace

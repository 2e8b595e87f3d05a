// The MPCD physics (meso/physics/srd.hpp) by hand and the reference
// operations (reference/src/mpcd_*.cpp) one collision or one streaming
// period at a time: rotation, axes, grid shift and its periodic wrap, cell
// properties, the SRD and AT rules, conservation per cell, streaming and the
// sort. Runs of many collisions are in mpcd_dynamics_test.cpp.
#include <gtest/gtest.h>

#include <cmath>
#include <map>
#include <random>

#include "meso/reference/mpcd_collide.hpp"
#include "meso/reference/mpcd_sort.hpp"
#include "meso/reference/mpcd_stream.hpp"
#include "support/mpcd_solvent.hpp"

namespace {

using namespace meso;
using meso::reference::CpuMpcd;
namespace mt = meso::testing;  // ::testing is GoogleTest's
using mt::expect_vec_near;
using mt::fresh_seed;
constexpr double kPi = 3.14159265358979323846;

double norm(const Vec3d& v) { return std::sqrt(dot(v, v)); }

TEST(SrdRotation, QuarterTurnAboutZMapsXToY) {
  const Vec3d r = physics::srd_rotate({1.0, 0.0, 0.0}, {0.0, 0.0, 1.0}, std::cos(kPi / 2), 1.0);
  expect_vec_near(r, {0.0, 1.0, 0.0}, 1e-16);  // cos(pi/2) = 6e-17, not 0
}

TEST(SrdRotation, ArbitraryAxisKeepsAxialComponentAndNorm) {
  const uint64_t seed = fresh_seed();
  SCOPED_TRACE("seed " + std::to_string(seed));
  std::mt19937_64 gen(seed);
  std::normal_distribution<double> g(0.0, 1.0);
  std::uniform_real_distribution<double> ang(0.0, kPi);
  for (int t = 0; t < 1000; ++t) {
    Vec3d n{g(gen), g(gen), g(gen)};
    n = (1.0 / norm(n)) * n;
    const Vec3d u{g(gen), g(gen), g(gen)};
    const double a = ang(gen);
    const Vec3d r = physics::srd_rotate(u, n, std::cos(a), std::sin(a));
    EXPECT_NEAR(dot(r, n), dot(u, n), 1e-14);
    EXPECT_NEAR(norm(r), norm(u), 1e-14);
    // The angle between the components normal to the axis is a.
    const Vec3d up = u - dot(u, n) * n, rp = r - dot(r, n) * n;
    EXPECT_NEAR(dot(up, rp), std::cos(a) * dot(up, up), 1e-13);
  }
}

TEST(SrdRotation, AboutTheDiagonalByHand) {
  const double s3 = 1.0 / std::sqrt(3.0);
  const Vec3d n{s3, s3, s3};
  // 120 degrees about (1,1,1)/sqrt3 permutes the axes cyclically: x -> y -> z.
  const double c120 = std::cos(2 * kPi / 3), s120 = std::sin(2 * kPi / 3);
  expect_vec_near(physics::srd_rotate({1, 0, 0}, n, c120, s120), {0, 1, 0}, 1e-15);
  expect_vec_near(physics::srd_rotate({0, 1, 0}, n, c120, s120), {0, 0, 1}, 1e-15);
  // 130 degrees (the usual SRD angle): x -> (cos a + (1 - cos a)/3,
  // sin a/sqrt3 + (1 - cos a)/3, -sin a/sqrt3 + (1 - cos a)/3); the numbers
  // are from a quaternion product q u q* (an independent route).
  const double a = 130.0 * kPi / 180.0;
  expect_vec_near(physics::srd_rotate({1, 0, 0}, n, std::cos(a), std::sin(a)),
                  {-0.095191739791026242, 0.98987183534147216, 0.10531990444955427}, 1e-15);
  expect_vec_near(physics::srd_rotate({0.3, -1.2, 2.5}, n, std::cos(a), std::sin(a)),
                  {2.3197381810769073, 0.67449139947555881, -1.394229580552466}, 1e-14);
}

TEST(SrdRotationAxis, UnitAndUniformOnTheSphere) {
  const uint64_t seed = fresh_seed();
  SCOPED_TRACE("seed " + std::to_string(seed));
  const uint32_t key = static_cast<uint32_t>(seed);
  const uint64_t step = seed >> 40;
  const int N = 100000;
  double sx = 0, sy = 0, sz = 0, sxx = 0, szz = 0;
  for (int c = 0; c < N; ++c) {
    const Vec3d e = physics::srd_rotation_axis(static_cast<uint32_t>(c), step, key);
    ASSERT_NEAR(norm(e), 1.0, 1e-15);
    sx += e.x, sy += e.y, sz += e.z, sxx += e.x * e.x, szz += e.z * e.z;
  }
  // Uniform on the sphere: each component has mean 0 and variance 1/3; the
  // square has mean 1/3 and variance E z^4 - 1/9 = 1/5 - 1/9 = 4/45.
  const double sig1 = std::sqrt(1.0 / 3.0 / N), sig2 = std::sqrt(4.0 / 45.0 / N);
  EXPECT_LT(std::fabs(sx / N), 5 * sig1);
  EXPECT_LT(std::fabs(sy / N), 5 * sig1);
  EXPECT_LT(std::fabs(sz / N), 5 * sig1);
  EXPECT_LT(std::fabs(szz / N - 1.0 / 3.0), 5 * sig2);
  EXPECT_LT(std::fabs(sxx / N - 1.0 / 3.0), 5 * sig2);
  // Keyed by cell: neighbouring cells draw different axes, steps too.
  EXPECT_NE(physics::srd_rotation_axis(0, step, key).z, physics::srd_rotation_axis(1, step, key).z);
  EXPECT_NE(physics::srd_rotation_axis(0, step, key).z,
            physics::srd_rotation_axis(0, step + 1, key).z);
}

TEST(SrdGridShift, WithinHalfACell) {
  const uint32_t key = static_cast<uint32_t>(fresh_seed());
  SCOPED_TRACE("seed " + std::to_string(key));
  for (uint64_t step = 1; step <= 10000; ++step) {
    const Vec3d s = physics::srd_grid_shift(step, key, 0.5);
    for (double c : {s.x, s.y, s.z}) {
      ASSERT_GE(c, -0.25);
      ASSERT_LE(c, 0.25);
    }
  }
}

// A hand-made solvent in a 4 x 4 x 4 box of unit cells (lower corner -2).
MpcdSystem tiny(const std::vector<Vec3d>& r, const std::vector<Vec3d>& v, double mass = 1.0) {
  MpcdSystem s;
  s.box = Box(4.0);
  s.params.mass = mass;
  s.particles.resize(r.size());
  for (std::size_t i = 0; i < r.size(); ++i) {
    s.particles.position[i] = r[i];
    s.particles.velocity[i] = v[i];
    s.particles.type[i] = 0;
    s.particles.tag[i] = static_cast<uint32_t>(10 * i + 7);
    s.particles.image[i] = {0, 0, 0};
  }
  s.validate();
  return s;
}

TEST(MpcdCollide, GridShiftWrapsAtTheBoxEdge) {
  // x = L/2 - eps with shift -a/2: floor((x - lo + a/2)/a) = 4 is cell 0 again,
  // the cell of x = -1.9 (floor(0.6) = 0): the two collide together.
  const std::vector<Vec3d> r = {{2.0 - 1e-9, 0.2, 0.2}, {-1.9, 0.2, 0.2}};
  const std::vector<Vec3d> v = {{1.0, 0.0, 0.0}, {0.0, -1.0, 0.5}};
  auto s = mt::load<double>(tiny(r, v));
  reference::mpcd_collide(s, MpcdRule::srd, 3, {-0.5, -0.5, -0.5});
  const uint32_t want = (2 * 4 + 2) * 4 + 0;  // (x, y, z) = (0, 2, 2)
  EXPECT_EQ(s.cells.cell_of_particle()[0], want);
  EXPECT_EQ(s.cells.cell_of_particle()[1], want);
  EXPECT_EQ(s.props[want].n, 2u);
  EXPECT_NE(s.vel[0].x, 1.0);  // rotated
  expect_vec_near(s.vel[0] + s.vel[1], v[0] + v[1], 1e-15);
  // Positive shift: x = -1.9 falls below the shifted origin (floor(0.1 -
  // 0.4) = -1) into the last cell, with x = 1.7 (floor(3.7 - 0.4) = 3).
  auto p = mt::load<double>(tiny({{-1.9, 0.2, 0.2}, {1.7, 0.2, 0.2}}, v));
  reference::mpcd_collide(p, MpcdRule::srd, 3, {0.4, 0.0, 0.0});
  EXPECT_EQ(p.cells.cell_of_particle()[0], (2u * 4 + 2) * 4 + 3);
  EXPECT_EQ(p.cells.cell_of_particle()[1], (2u * 4 + 2) * 4 + 3);
  // No shift: cells 3 and 0 along x, each alone, so nothing happens.
  auto q = mt::load<double>(tiny(r, v));
  reference::mpcd_collide(q, MpcdRule::srd, 3, {0.0, 0.0, 0.0});
  EXPECT_NE(q.cells.cell_of_particle()[0], q.cells.cell_of_particle()[1]);
  EXPECT_EQ(q.vel[0].x, 1.0);
  EXPECT_EQ(q.vel[1].y, -1.0);
}

TEST(MpcdCollide, CellPropertiesByHand) {
  // m = 2: P = 2 (0, 3, 3), M = 6, u = (0, 1, 1); relative velocities
  // (1,-1,-1), (0,0,-1), (-1,1,2): sum |.|^2 = 3 + 1 + 6, ke_rel = 0.5 * 2 * 10.
  auto s = mt::load<double>(
      tiny({{0.1, 0.1, 0.1}, {0.5, 0.9, 0.2}, {0.7, 0.3, 0.8}},
           {{1, 0, 0}, {0, 1, 0}, {-1, 2, 3}}, 2.0));
  reference::mpcd_collide(s, MpcdRule::srd, 1, {0.0, 0.0, 0.0});
  const uint32_t c = (2 * 4 + 2) * 4 + 2;
  const reference::MpcdCellProps& p = s.props[c];
  EXPECT_EQ(p.n, 3u);
  EXPECT_DOUBLE_EQ(p.mass, 6.0);
  expect_vec_near(p.momentum, {0.0, 6.0, 6.0}, 1e-15);
  EXPECT_NEAR(p.ke_rel, 10.0, 1e-14);
}

TEST(MpcdCollide, EmptyCellsAndALoneParticle) {
  // Two particles in one cell, one alone in another, 62 cells empty.
  const std::vector<Vec3d> r = {{-1.5, -1.5, -1.5}, {-1.2, -1.7, -1.1}, {0.5, 0.5, 0.5}};
  const std::vector<Vec3d> v = {{1.0, 2.0, 3.0}, {-0.5, 0.25, 0.125}, {0.3, -0.7, 1.1}};
  for (int mode = 0; mode < 3; ++mode) {  // srd, srd + thermostat, at
    SCOPED_TRACE("mode " + std::to_string(mode));
    auto s = mt::load<double>(tiny(r, v));
    s.params.thermostat = mode == 1;
    reference::mpcd_collide(s, mode == 2 ? MpcdRule::at : MpcdRule::srd, 5, {0.0, 0.0, 0.0});
    EXPECT_EQ(s.vel[2].x, 0.3);  // bitwise unchanged
    EXPECT_EQ(s.vel[2].y, -0.7);
    EXPECT_EQ(s.vel[2].z, 1.1);
    EXPECT_NE(s.vel[0].x, 1.0);
    uint32_t empty = 0;
    for (const auto& p : s.props)
      if (p.n == 0) {
        ++empty;
        EXPECT_EQ(p.mass, 0.0);
        EXPECT_EQ(p.ke_rel, 0.0);
        EXPECT_EQ(p.velocity().x, 0.0);
      }
    EXPECT_EQ(empty, 62u);
  }
}

TEST(MpcdCollide, RulesByHandOnATwoParticleCell) {
  const uint64_t seed = fresh_seed();
  SCOPED_TRACE("seed " + std::to_string(seed));
  const std::vector<Vec3d> r = {{-1.5, -1.5, -1.5}, {-1.2, -1.7, -1.1}};
  const std::vector<Vec3d> v = {{1.0, 2.0, 3.0}, {-0.5, 0.25, 0.125}};
  const Vec3d u = 0.5 * (v[0] + v[1]);
  const uint64_t step = seed >> 40;
  const uint32_t c = 0;
  for (int mode = 0; mode < 3; ++mode) {
    SCOPED_TRACE("mode " + std::to_string(mode));
    auto s = mt::load<double>(tiny(r, v));
    s.params.seed = static_cast<uint32_t>(seed);
    s.params.thermostat = mode == 1;
    s.params.kT = 1.7;
    const MpcdParams& P = s.params;
    reference::mpcd_collide(s, mode == 2 ? MpcdRule::at : MpcdRule::srd, step, {0.0, 0.0, 0.0});
    ASSERT_EQ(s.cells.cell_of_particle()[0], c);
    const Vec3d axis = physics::srd_rotation_axis(c, step, P.seed);
    const double a = P.angle_deg * kPi / 180.0;
    const double ke_rel = 0.5 * (dot(v[0] - u, v[0] - u) + dot(v[1] - u, v[1] - u));
    const double f =
        mode == 1 ? physics::srd_thermostat_factor(2, ke_rel, P.kT, c, step, P.seed) : 1.0;
    if (mode == 1) {
      EXPECT_NE(f, 1.0);
    }
    const Vec3d xi0 = physics::mpcd_at_gaussian3(s.tag[0], step, P.seed);
    const Vec3d xi1 = physics::mpcd_at_gaussian3(s.tag[1], step, P.seed);
    for (int i = 0; i < 2; ++i) {
      const Vec3d xi = i == 0 ? xi0 : xi1;
      const Vec3d want =
          mode == 2 ? u + std::sqrt(P.kT) * (xi - 0.5 * (xi0 + xi1))
                    : u + f * physics::srd_rotate(v[i] - u, axis, std::cos(a), std::sin(a));
      expect_vec_near(s.vel[i], want, 1e-14);
    }
  }
}

// Momentum of every cell kept to round-off, and (SRD without thermostat) its
// kinetic energy, for a random solvent under the drawn grid shift.
template <class Real>
void check_cell_conservation(double tol_p, double tol_e) {
  const uint64_t seed = fresh_seed();
  SCOPED_TRACE("seed " + std::to_string(seed));
  MpcdParams prm;
  prm.cell_size = 0.5;
  prm.mass = 1.5;
  prm.seed = static_cast<uint32_t>(seed);
  const MpcdSystem sys = mt::random_solvent(seed, prm, 6, 5, 4, 8.0);
  for (int mode = 0; mode < 3; ++mode) {
    SCOPED_TRACE("mode " + std::to_string(mode));
    auto s = mt::load<Real>(sys);
    s.params.thermostat = mode == 1;
    const uint64_t step = 1 + (seed >> 50);
    const Vec3d shift = physics::srd_grid_shift(step, prm.seed, prm.cell_size);
    const auto before = mt::cell_sums(s, shift);
    reference::mpcd_collide(s, mode == 2 ? MpcdRule::at : MpcdRule::srd, step);
    EXPECT_EQ(s.cells.shift().x, shift.x);
    const auto after = mt::cell_sums(s, shift);
    Vec3d P0{0, 0, 0}, P1{0, 0, 0};
    double E0 = 0, E1 = 0;
    for (std::size_t c = 0; c < before.size(); ++c) {
      ASSERT_EQ(s.props[c].n, before[c].n);
      expect_vec_near(after[c].momentum, before[c].momentum, tol_p);
      if (mode == 0) {
        EXPECT_NEAR(after[c].ke, before[c].ke, tol_e * (1.0 + before[c].ke));
      }
      P0 += before[c].momentum, P1 += after[c].momentum, E0 += before[c].ke, E1 += after[c].ke;
    }
    expect_vec_near(P1, P0, 100 * tol_p);
    if (mode == 0) {
      EXPECT_NEAR(E1, E0, tol_e * E0);
    } else {
      EXPECT_NE(E1, E0);  // the thermostat and AT do change the energy
    }
  }
}

TEST(MpcdCollide, ConservesCellMomentumAndSrdEnergy) {
  check_cell_conservation<double>(1e-13, 1e-14);
}
// Float storage: the arithmetic is double, the stored velocities round.
TEST(MpcdCollide, ConservesCellMomentumInFloatStorage) {
  check_cell_conservation<float>(5e-5, 1e-6);
}

TEST(MpcdCellList, MembersAreTheParticlesOfEachCellInIndexOrder) {
  const uint64_t seed = fresh_seed();
  SCOPED_TRACE("seed " + std::to_string(seed));
  const MpcdSystem sys = mt::random_solvent(seed, MpcdParams{}, 5, 4, 3, 6.0);
  const auto s = mt::load<double>(sys);
  const Vec3d shift = physics::srd_grid_shift(seed >> 32, 9u, 1.0);
  reference::MpcdCellList cl;
  cl.build(s.grid, s.pos.data(), s.size(), shift);
  ASSERT_EQ(cl.num_cells(), 60u);
  ASSERT_EQ(cl.cell_start().back(), s.size());
  std::vector<int> seen(s.size(), 0);
  for (uint32_t c = 0; c < cl.num_cells(); ++c)
    for (uint32_t k = cl.cell_start()[c]; k < cl.cell_start()[c + 1]; ++k) {
      const uint32_t i = cl.particles()[k];
      ++seen[i];
      EXPECT_EQ(s.grid.cell_of(s.pos[i], shift), c);
      EXPECT_EQ(cl.cell_of_particle()[i], c);
      if (k > cl.cell_start()[c]) {
        EXPECT_LT(cl.particles()[k - 1], i);
      }
    }
  EXPECT_EQ(std::count(seen.begin(), seen.end(), 1), static_cast<long>(s.size()));
}

TEST(MpcdStream, BallisticBodyForceWrapAndImages) {
  MpcdSystem sys = tiny({{0.5, 0.5, 0.5}, {1.95, -1.95, 0.0}, {-0.01, 0.0, 0.0}, {-0.01, 0.0, 0.0}},
                        {{1.0, -2.0, 0.5}, {1.0, -1.0, 0.0}, {1.0, 0.0, 0.0}, {1.0, 0.0, 0.0}});
  sys.particles.type[3] = 1;
  sys.params.dt = 0.1;
  auto s = mt::load<double>(sys);
  reference::mpcd_stream(s);
  EXPECT_EQ(s.pos[0].x, 0.5 + 0.1 * 1.0);  // r + v dt, exactly as written
  EXPECT_EQ(s.pos[0].y, 0.5 + 0.1 * -2.0);
  EXPECT_EQ(s.vel[0].y, -2.0);
  // 1.95 + 0.1 = 2.05 -> -1.95 with one image up; -2.05 -> 1.95, one down.
  EXPECT_NEAR(s.pos[1].x, -1.95, 1e-15);
  EXPECT_NEAR(s.pos[1].y, 1.95, 1e-15);
  EXPECT_EQ(s.image[1].x, 1);
  EXPECT_EQ(s.image[1].y, -1);
  expect_vec_near(s.box.unwrap(s.pos[1], s.image[1]), {2.05, -2.05, 0.0}, 1e-15);

  // Reverse Poiseuille force along z, flipping at x = 0, only on type 0, m = 2:
  // g = +0.2 for the whole period for a particle that starts at x < 0.
  sys.params.mass = 2.0;
  sys.params.body_force.g = {0.0, 0.0, 0.2};
  sys.params.body_force.reverse_axis = 0;
  sys.params.body_force.type_mask = 0b1u;
  auto f = mt::load<double>(sys);
  reference::mpcd_stream(f);
  EXPECT_NEAR(f.pos[2].x, 0.09, 1e-16);                  // crossed x = 0 ...
  EXPECT_NEAR(f.pos[2].z, 0.5 * 0.2 * 0.01, 1e-17);      // ... still with +g dt^2/2
  EXPECT_NEAR(f.vel[2].z, 0.2 * 0.1, 1e-17);             // v += g dt
  EXPECT_NEAR(f.pos[0].z, 0.5 + 0.05 - 0.5 * 0.2 * 0.01, 1e-15);  // x > 0: -g
  EXPECT_NEAR(f.vel[0].z, 0.5 - 0.02, 1e-15);
  EXPECT_EQ(f.pos[3].z, 0.0);  // type 1 is not driven
  EXPECT_EQ(f.vel[3].z, 0.0);
}

TEST(MpcdStream, FloatStorageNeverStoresTheUpperFace) {
  // 2 - 1e-9 is inside the box in double but rounds to 2.0f: folded to -2.
  MpcdSystem sys = tiny({{1.5, 0.0, 0.0}}, {{(2.0 - 1e-9 - double(1.5f)) / 0.1, 0.0, 0.0}});
  sys.params.dt = 0.1;
  auto s = mt::load<float>(sys);
  reference::mpcd_stream(s);
  EXPECT_EQ(s.pos[0].x, -2.0f);
  EXPECT_EQ(s.image[0].x, 1);
  MpcdSystem back = sys;
  s.copy_out(back.particles);
  EXPECT_NO_THROW(back.validate());
}

TEST(MpcdSort, KeepsEveryParticleAndPutsCellsInOrder) {
  const uint64_t seed = fresh_seed();
  SCOPED_TRACE("seed " + std::to_string(seed));
  const MpcdSystem sys = mt::random_solvent(seed, MpcdParams{}, 4, 5, 6, 5.0);
  auto s = mt::load<double>(sys);
  const MpcdParticles before = mt::by_tag(s);
  std::map<uint32_t, std::size_t> old_index;  // by tag
  for (std::size_t i = 0; i < s.size(); ++i) old_index[s.tag[i]] = i;
  reference::mpcd_sort(s);
  EXPECT_TRUE(mt::bitwise_equal(mt::by_tag(s), before));
  for (std::size_t i = 1; i < s.size(); ++i) {
    const uint32_t a = s.grid.cell_of(s.pos[i - 1], {0, 0, 0});
    const uint32_t b = s.grid.cell_of(s.pos[i], {0, 0, 0});
    ASSERT_LE(a, b) << "at " << i;
    if (a == b) {  // stable: the previous order within a cell, as the GPU's radix sort
      EXPECT_LT(old_index[s.tag[i - 1]], old_index[s.tag[i]]);
    }
  }
}

}  // namespace

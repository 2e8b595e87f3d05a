// The slit walls of the MPCD solvent (meso/physics/srd_slit.hpp) by hand and
// through the reference operations: bounce-back with the exact crossing
// time (with and without a body force, moving walls, specular reflection),
// which cells a wall cuts, the virtual particles' count and momentum
// statistics, the collision about the centre of mass with them, the
// equivalence with the periodic collision when no cell is cut, Couette flow
// between moving walls, the slit builder and the refusals of bad input.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <string>
#include <vector>

#include "meso/core/error.hpp"
#include "meso/analysis/linear_fit.hpp"
#include "meso/reference/mpcd_collide.hpp"
#include "meso/reference/mpcd_stream.hpp"
#include "meso/analysis/velocity_profile.hpp"
#include "support/mpcd_solvent.hpp"

namespace {

using namespace meso;
namespace mt = meso::testing;
using mt::expect_vec_near;
using mt::fresh_seed;

physics::SlitWall wall_of(double h, double speed = 0.0) {
  physics::SlitWall w;
  w.h = h;
  w.speed = speed;
  return w;
}

TEST(SlitStream, BounceBackRetracesThePathAtAWallAtRest) {
  // Reaches z = 1 at t = 0.05 of 0.1, comes back along its own path.
  Vec3d r{0.0, 0.0, 0.9}, v{0.5, 0.2, 2.0};
  EXPECT_EQ(physics::slit_stream(r, v, {0.0, 0.0, 0.0}, 0.1, wall_of(1.0)), 1);
  expect_vec_near(r, {0.0, 0.0, 0.9}, 1e-15);
  expect_vec_near(v, {-0.5, -0.2, -2.0}, 0.0);
}

TEST(SlitStream, BodyForceAcrossTheBounceIsTimeSymmetric) {
  // g = 1 along x: at the crossing (t = 0.05) x = 0.5 t + t^2 / 2 = 0.02625,
  // v_x = 0.55 -> -0.55; the remaining 0.05 bring x back to 0 and v_x to -0.5.
  Vec3d r{0.0, 0.0, 0.9}, v{0.5, 0.2, 2.0};
  physics::slit_stream(r, v, {1.0, 0.0, 0.0}, 0.1, wall_of(1.0));
  expect_vec_near(r, {0.0, 0.0, 0.9}, 1e-15);
  expect_vec_near(v, {-0.5, -0.2, -2.0}, 1e-15);
}

TEST(SlitStream, MovingWallsReflectAboutTheirVelocity) {
  // Upper wall at +0.3: v_x = 2 (0.3) - 0.5 = 0.1 after the bounce; lower
  // wall at -0.3: v_x = -0.6 - 0.5 = -1.1.
  Vec3d r{0.0, 0.0, 0.9}, v{0.5, 0.2, 2.0};
  physics::slit_stream(r, v, {0.0, 0.0, 0.0}, 0.1, wall_of(1.0, 0.3));
  expect_vec_near(v, {0.1, -0.2, -2.0}, 1e-15);
  expect_vec_near(r, {0.025 + 0.005, 0.0, 0.9}, 1e-15);
  Vec3d q{0.0, 0.0, -0.9}, w{0.5, 0.0, -2.0};
  physics::slit_stream(q, w, {0.0, 0.0, 0.0}, 0.1, wall_of(1.0, 0.3));
  expect_vec_near(w, {-1.1, 0.0, 2.0}, 1e-15);
}

TEST(SlitStream, SpecularFlipsOnlyTheNormalComponent) {
  physics::SlitWall w = wall_of(1.0, 0.3);
  w.bounce_back = false;
  Vec3d r{0.0, 0.0, 0.9}, v{0.5, 0.2, 2.0};
  physics::slit_stream(r, v, {0.0, 0.0, 0.0}, 0.1, w);
  expect_vec_near(v, {0.5, 0.2, -2.0}, 0.0);
  expect_vec_near(r, {0.05, 0.02, 0.9}, 1e-15);
}

TEST(SlitStream, FreeFlightIsUntouchedAndFastParticlesStayInside) {
  Vec3d r{0.1, 0.2, 0.3}, v{0.5, 0.2, 2.0};
  EXPECT_EQ(physics::slit_stream(r, v, {0.0, 0.0, 0.0}, 0.1, wall_of(1.0)), 0);
  expect_vec_near(r, {0.15, 0.22, 0.5}, 1e-15);
  // Rounded (fp32 storage) just beyond the wall but moving inwards: no
  // bounce.
  Vec3d o{0.0, 0.0, 1.0 + 1e-9}, u{0.0, 0.0, -1.0};
  EXPECT_EQ(physics::slit_stream(o, u, {0.0, 0.0, 0.0}, 0.1, wall_of(1.0)), 0);
  EXPECT_NEAR(o.z, 0.9 + 1e-9, 1e-12);
  EXPECT_EQ(u.z, -1.0);
  // |v_z| dt = 5 h: bounded number of bounces, z kept in [-h, h].
  Vec3d q{0.0, 0.0, 0.0}, w{0.0, 0.0, 50.0};
  physics::slit_stream(q, w, {0.0, 0.0, 0.0}, 0.1, wall_of(1.0));
  EXPECT_LE(std::fabs(q.z), 1.0);
}

TEST(SlitCells, WhichWallCutsACell) {
  const physics::SlitWall w = wall_of(2.0);
  EXPECT_EQ(physics::slit_cut(w, 1.5, 1.0), 1);
  EXPECT_EQ(physics::slit_cut(w, -2.5, 1.0), -1);
  EXPECT_EQ(physics::slit_cut(w, 1.0, 1.0), 0);   // face on the wall: no cut
  EXPECT_EQ(physics::slit_cut(w, -0.3, 1.0), 0);  // inside
  EXPECT_EQ(physics::slit_cut(physics::SlitWall{}, 1.5, 1.0), 0);  // no walls
  // 4 x 3 x 6 cells from lo_z = -3: cell (1, 2, 4) has its lower face at
  // -3 + 0.25 + 4 = 1.25 under a shift of 0.25.
  const physics::MpcdGrid g{4, 3, 6, 1.0, -2.0, -1.5, -3.0};
  EXPECT_DOUBLE_EQ(physics::slit_cell_lower_z(g, (4u * 3 + 2) * 4 + 1, 0.25), 1.25);
}

TEST(SlitFill, CountAndMomentumStatistics) {
  // A cell cut by the upper wall (speed 0.4), 3 real particles, n = 10: 7
  // virtual ones of mass 2 at kT 1.5; over many collisions the momentum's
  // mean is 7 m u_wall and its variance 7 m kT per component.
  physics::SlitWall w = wall_of(2.0, 0.4);
  w.density = 10.0;
  const physics::MpcdGrid g{4, 3, 6, 1.0, -2.0, -1.5, -3.0};
  const uint32_t cell = (4u * 3 + 2) * 4 + 1;  // z from 1.25 to 2.25 under shift 0.25
  const uint32_t seed = uint32_t(fresh_seed());
  const int samples = 20000;
  Vec3d sum{0.0, 0.0, 0.0}, sq{0.0, 0.0, 0.0};
  for (int k = 0; k < samples; ++k) {
    const physics::SlitFill f = physics::slit_fill(w, g, cell, 0.25, 3, 2.0, 1.5, uint64_t(k), seed);
    ASSERT_EQ(f.count, 7u);
    ASSERT_EQ(f.mass, 14.0);
    sum += f.momentum;
    sq += Vec3d{f.momentum.x * f.momentum.x, f.momentum.y * f.momentum.y, f.momentum.z * f.momentum.z};
  }
  const Vec3d mean = (1.0 / samples) * sum;
  const double var = 14.0 * 1.5, se = std::sqrt(var / samples);
  expect_vec_near(mean, {14.0 * 0.4, 0.0, 0.0}, 5.0 * se);
  const double var_x = sq.x / samples - mean.x * mean.x, var_z = sq.z / samples - mean.z * mean.z;
  // The sample variance's SE is var sqrt(2 / samples) (1%): 5 of them.
  EXPECT_NEAR(var_x, var, 5.0 * var * std::sqrt(2.0 / samples));
  EXPECT_NEAR(var_z, var, 5.0 * var * std::sqrt(2.0 / samples));
  // None at or above n, none in a cell no wall cuts, none when switched off.
  EXPECT_EQ(physics::slit_fill(w, g, cell, 0.25, 10, 2.0, 1.5, 1, seed).count, 0u);
  EXPECT_EQ(physics::slit_fill(w, g, (4u * 3 + 2) * 4 + 1 - 24, 0.25, 3, 2.0, 1.5, 1, seed).count, 0u);
  w.virtual_particles = false;
  EXPECT_EQ(physics::slit_fill(w, g, cell, 0.25, 3, 2.0, 1.5, 1, seed).count, 0u);
}

// A slit solvent with walls at z = +-2 in a box of 4 x 4 x 6 cells.
MpcdSystem small_slit(uint64_t seed, bool thermostat) {
  MpcdParams prm;
  prm.seed = uint32_t(seed);
  prm.thermostat = thermostat;
  prm.kT = 1.3;
  prm.wall.density = 6.0;
  prm.wall.speed = 0.2;
  SrdSlitParams f;
  f.lx = f.ly = 4.0;
  f.height = 4.0;
  f.rho = 6.0;
  f.seed = seed;
  return make_srd_slit(f, prm);
}

TEST(SlitCollide, UncutCellsCollideAsWithoutWalls) {
  // No grid shift: the walls lie on cell faces, no cell is cut, and the
  // collision is bitwise the periodic one (thermostat included).
  const uint64_t seed = fresh_seed();
  SCOPED_TRACE("seed " + std::to_string(seed));
  for (const bool thermostat : {false, true}) {
    const MpcdSystem walled = small_slit(seed, thermostat);
    MpcdSystem open = walled;
    open.params.wall = {};
    auto a = mt::load<double>(walled);
    auto b = mt::load<double>(open);
    reference::mpcd_collide(a, MpcdRule::srd, 4, {0.0, 0.0, 0.0});
    reference::mpcd_collide(b, MpcdRule::srd, 4, {0.0, 0.0, 0.0});
    for (std::size_t i = 0; i < a.size(); ++i) expect_vec_near(a.vel[i], b.vel[i], 0.0);
  }
}

TEST(SlitCollide, CutCellRotatesAboutTheCentreOfMassWithVirtualParticles) {
  // One particle in a cell cut by the upper wall: with a shift of 0.5 along
  // z its cell spans z in [1.5, 2.5). The rotation is about
  // u = (m v + P_virtual) / (m + m_virtual), with the draw slit_fill makes.
  const uint64_t seed = fresh_seed();
  MpcdSystem s = small_slit(seed, true);
  s.particles.resize(1);
  s.particles.position[0] = {0.3, 0.4, 1.8};
  s.particles.velocity[0] = {0.7, -0.1, 0.2};
  s.particles.tag[0] = 0;
  const Vec3d shift{0.0, 0.0, 0.5};
  auto c = mt::load<double>(s);
  reference::mpcd_collide(c, MpcdRule::srd, 9, shift);
  const uint32_t cell = c.grid.cell_of(s.particles.position[0], shift);
  const MpcdParams& p = s.params;
  const physics::SlitFill f = physics::slit_fill(p.wall, c.grid, cell, 0.5, 1, p.mass, p.kT, 9, p.seed);
  ASSERT_EQ(f.count, 5u);
  const Vec3d v = s.particles.velocity[0];
  const Vec3d u = (1.0 / (p.mass + f.mass)) * (p.mass * v + f.momentum);
  const double alpha = p.angle_deg * (3.14159265358979323846 / 180.0);
  const Vec3d want = u + physics::srd_rotate(v - u, physics::srd_rotation_axis(cell, 9, p.seed), std::cos(alpha),
                                             std::sin(alpha));  // no thermostat in a cut cell
  expect_vec_near(c.vel[0], want, 1e-14);
  // Without virtual particles the lone particle keeps its velocity.
  s.params.wall.virtual_particles = false;
  auto d = mt::load<double>(s);
  reference::mpcd_collide(d, MpcdRule::srd, 9, shift);
  expect_vec_near(d.vel[0], v, 0.0);
}

TEST(SlitStreamOp, ParticlesStayBetweenTheWalls) {
  const uint64_t seed = fresh_seed();
  SCOPED_TRACE("seed " + std::to_string(seed));
  MpcdSystem s = small_slit(seed, false);
  s.params.body_force.g = {0.5, 0.0, 0.0};
  auto c = mt::load<double>(s);
  for (int k = 0; k < 50; ++k) {
    reference::mpcd_stream(c);
    reference::mpcd_collide(c, MpcdRule::srd, uint64_t(k + 1));
  }
  for (const auto& r : c.pos) ASSERT_LE(std::fabs(r.z), 2.0);
  MpcdSystem out = s;
  c.copy_out(out.particles);
  EXPECT_NO_THROW(out.validate());
}

// Couette flow between walls moving at -U and +U: the steady profile is
// u_x = U z / (h + b), linear, with the slip length b within the slit
// gate's allowance (a / 4 + 4 SE, validation/srd-slit-poiseuille/README.md)
// with the virtual particles and about a cell without them. Exercises the
// moving walls: the bounce about 2 u_wall and the virtual momentum's mean.
// Fixed seeds: the outcome does not depend on the thread count.
double couette_slip_length(bool virtual_particles, double& se) {
  MpcdParams prm;
  prm.seed = 77;
  prm.thermostat = true;  // removes the viscous heat, as in the gate
  prm.wall.density = 10.0;
  prm.wall.speed = 0.2;
  prm.wall.virtual_particles = virtual_particles;
  SrdSlitParams f;
  f.lx = f.ly = 4.0;
  f.height = 6.0;
  f.rho = 10.0;
  f.seed = 78;
  const MpcdSystem sys = make_srd_slit(f, prm);
  auto c = mt::load<double>(sys);
  const double h = sys.params.wall.h;
  uint64_t step = 0;
  const auto advance = [&](int n) {
    for (int k = 0; k < n; ++k) {
      reference::mpcd_stream(c);
      reference::mpcd_collide(c, MpcdRule::srd, ++step);
    }
  };
  advance(300);  // 30 time units: ~7 start-up times h^2 4 / (pi^2 nu)
  std::vector<double> b;
  for (int block = 0; block < 10; ++block) {
    VelocityProfile prof(sys.box, 2, 0, 16);
    for (int k = 0; k < 60; ++k) {
      advance(5);
      MpcdParticles p;
      c.copy_out(p);
      prof.add(p, prm.mass);
    }
    std::vector<double> z, u;
    const std::vector<double> m = prof.mean();
    for (uint32_t i = 0; i < prof.bins(); ++i)
      if (std::fabs(prof.bin_center(i)) < h) {
        z.push_back(prof.bin_center(i));
        u.push_back(m[i]);
      }
    b.push_back(prm.wall.speed / linear_fit(z, u, 2).slope - h);
  }
  double mean = 0.0, ss = 0.0;
  for (double x : b) mean += x / double(b.size());
  for (double x : b) ss += (x - mean) * (x - mean);
  se = std::sqrt(ss / double(b.size() - 1) / double(b.size()));
  return mean;
}

TEST(SlitCouette, MovingWallsDragTheFluidWithoutSlip) {
  double se = 0.0;
  const double b = couette_slip_length(true, se);
  std::printf("Couette slip length with virtual particles %.3f +/- %.3f a\n", b, se);
  EXPECT_LT(se, 0.1);
  EXPECT_LE(std::fabs(b), 0.25 + 4.0 * se);
  double se_off = 0.0;
  const double b_off = couette_slip_length(false, se_off);
  std::printf("Couette slip length without virtual particles %.3f +/- %.3f a\n", b_off, se_off);
  // About a cell, as the slit gate's control (1.1 a there).
  EXPECT_GT(b_off, 0.6);
}

TEST(SlitBuilder, BoxPaddingAndPlacement) {
  const MpcdSystem s = small_slit(3, false);
  EXPECT_DOUBLE_EQ(s.params.wall.h, 2.0);
  EXPECT_DOUBLE_EQ(s.box.lengths().z, 6.0);
  EXPECT_EQ(s.particles.size(), 6u * 4 * 4 * 4);
  for (const Vec3d& r : s.particles.position) ASSERT_LE(std::fabs(r.z), 2.0);
}

// The message names the offending value.
void expect_refused(const MpcdSystem& s, const std::string& what) {
  try {
    s.validate();
    ADD_FAILURE() << "accepted; expected an error naming " << what;
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find(what), std::string::npos) << e.what();
  }
}

TEST(SlitValidate, RefusesBadInput) {
  const MpcdSystem good = small_slit(5, false);
  EXPECT_NO_THROW(good.validate());
  MpcdSystem s = good;
  s.params.wall.h = 2.75;  // padding 0.25 < a / 2
  expect_refused(s, "2.75");
  s = good;
  s.particles.position[0].z = 2.5;
  expect_refused(s, "z = 2.5");
  s = good;
  s.params.body_force.g = {0.0, 0.0, 0.02};
  expect_refused(s, "g_z = 0.02");
  s = good;
  s.params.rule = MpcdRule::at;
  expect_refused(s, "srd rule");
  // Embedded solutes are allowed: they reflect at the MD system's walls
  // (MpcdSolute.SolutesReflectAtTheSlitWalls checks that they are there).
  s = good;
  s.params.embed_types = 1;
  EXPECT_NO_THROW(s.validate());
  s = good;
  s.params.wall.density = 0.5;
  expect_refused(s, "density = 0.5");
  s = good;
  s.params.wall.speed = std::nan("");
  expect_refused(s, "speed = nan");
  s = good;
  s.params.wall.h = 0.5;  // a slit below 2 cells
  expect_refused(s, "below 2 cells");
}

}  // namespace

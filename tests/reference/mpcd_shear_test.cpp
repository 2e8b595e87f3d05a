// The MPCD solvent under Lees-Edwards shear (meso/physics/srd_lees_edwards.hpp,
// docs/walls.md) by hand and through the reference operations: streaming
// across the sheared z faces (offset, velocity jump, image counts, the x fold,
// fp32 storage), the image a particle joins a cut cell as and that cell, the
// collision of a cell cut by the sheared face, the conservation laws of the
// sheared collision for either sign of the grid shift, the thermostatted
// shear flow keeping its slope, the negative control's missing jump, and the
// refusals.
#include <gtest/gtest.h>

#include <cmath>
#include <string>
#include <vector>

#include "meso/analysis/linear_fit.hpp"
#include "meso/analysis/velocity_profile.hpp"
#include "meso/core/error.hpp"
#include "meso/reference/cpu_backend.hpp"
#include "meso/reference/mpcd_collide.hpp"
#include "meso/reference/mpcd_stream.hpp"
#include "meso/run/simulation.hpp"
#include "support/mpcd_solvent.hpp"

namespace {

using namespace meso;
namespace mt = meso::testing;
using mt::expect_vec_near;
using mt::fresh_seed;

constexpr double kPi = 3.14159265358979323846;

// A 4 x 3 x 5 box of unit cells (lo = (-2, -1.5, -2.5)) sheared at 0.2 with
// dt_c = 0.1: at collision 7 (t = 0.7) the upper image is offset by
// delta = 0.2 * 5 * 0.7 = 0.7 along x and moves at gdot L_z = 1.
MpcdSystem sheared_box(const std::vector<Vec3d>& r, const std::vector<Vec3d>& v) {
  MpcdSystem s;
  s.box = Box(4.0, 3.0, 5.0);
  s.params.shear.rate = 0.2;
  s.params.dt = 0.1;
  s.particles.resize(r.size());
  for (std::size_t i = 0; i < r.size(); ++i) {
    s.particles.position[i] = r[i];
    s.particles.velocity[i] = v[i];
    s.particles.type[i] = 0;
    s.particles.tag[i] = static_cast<uint32_t>(i);
    s.particles.image[i] = {0, 0, 0};
  }
  s.validate();
  return s;
}

TEST(SrdShear, ImagesAtTheCollisionTime) {
  const physics::LeesEdwards le = physics::SrdShear{0.2, true}.at({4.0, 3.0, 5.0}, 7 * 0.1);
  EXPECT_NEAR(le.offset, 0.7, 1e-15);
  EXPECT_DOUBLE_EQ(le.jump, 1.0);
  // The negative control's images are offset but do not move.
  const physics::LeesEdwards off = physics::SrdShear{0.2, false}.at({4.0, 3.0, 5.0}, 7 * 0.1);
  EXPECT_NEAR(off.offset, 0.7, 1e-15);
  EXPECT_EQ(off.jump, 0.0);
}

template <class Real>
void stream_across_faces_by_hand(double tol) {
  // 0: leaves through the top: z = 2.45 + 0.1 - 5, x = 1.5 + 0.03 - 0.7,
  //    v_x = 0.3 - 1; 1: through the bottom: x = -1.9 + 0.7, v_x = 0 + 1;
  // 2: through the bottom and past +x: x = 1.9 + 0.7 - 4; 3: stays inside.
  const MpcdSystem s = sheared_box({{1.5, 0.0, 2.45}, {-1.9, 0.2, -2.45}, {1.9, -0.3, -2.45}, {0.0, 0.0, 0.0}},
                                   {{0.3, 0.1, 1.0}, {0.0, 0.0, -1.0}, {0.1, 0.0, -1.0}, {0.4, 0.5, 0.6}});
  auto c = mt::load<Real>(s);
  reference::mpcd_stream(c, 7);
  const MpcdParticles p = mt::by_tag(c);
  expect_vec_near(p.position[0], {0.83, 0.01, -2.45}, tol);
  expect_vec_near(p.velocity[0], {-0.7, 0.1, 1.0}, tol);
  EXPECT_EQ(p.image[0].z, 1);
  expect_vec_near(p.position[1], {-1.2, 0.2, 2.45}, tol);
  expect_vec_near(p.velocity[1], {1.0, 0.0, -1.0}, tol);
  EXPECT_EQ(p.image[1].z, -1);
  expect_vec_near(p.position[2], {-1.39, -0.3, 2.45}, tol);
  expect_vec_near(p.velocity[2], {1.1, 0.0, -1.0}, tol);
  EXPECT_EQ(p.image[2].z, -1);
  EXPECT_EQ(p.image[2].x, 1);
  expect_vec_near(p.position[3], {0.04, 0.05, 0.06}, tol);
  expect_vec_near(p.velocity[3], s.particles.velocity[3], tol);
  EXPECT_EQ(p.image[3].z, 0);
}

TEST(SrdShearStream, AcrossTheShearedFacesByHand) {
  stream_across_faces_by_hand<double>(1e-14);
  stream_across_faces_by_hand<float>(4e-7);
}

TEST(SrdShearStream, NeedsTheCollisionNumber) {
  auto c = mt::load<double>(sheared_box({{0.0, 0.0, 0.0}}, {{0.0, 0.0, 0.0}}));
  EXPECT_THROW(reference::mpcd_stream(c), std::logic_error);
}

TEST(SrdShearStream, WithoutTheJumpOnlyTheOffsetApplies) {
  MpcdSystem s = sheared_box({{1.5, 0.0, 2.45}}, {{0.3, 0.1, 1.0}});
  s.params.shear.velocity_jump = false;
  auto c = mt::load<double>(s);
  reference::mpcd_stream(c, 7);
  expect_vec_near(c.pos[0], {0.83, 0.01, -2.45}, 1e-14);
  expect_vec_near(c.vel[0], {0.3, 0.1, 1.0}, 0.0);
}

TEST(SrdShearCells, ParticlesBeyondTheShiftedGridJoinTheOtherLayerAsImages) {
  const physics::MpcdGrid g{4, 3, 5, 1.0, -2.0, -1.5, -2.5};
  physics::LeesEdwards le;
  le.offset = 0.7;
  le.jump = 1.0;
  // shift_z = 0.3: the bottom sliver z < -2.2 lies below the first layer
  // and joins the last as the upper image, x + 0.7 folded: 1.5 -> -1.8,
  // column floor(-1.8 + 2 - 0.1) = 0, row floor(0 + 1.5 - 0.2) = 1.
  const Vec3d up{0.1, 0.2, 0.3};
  const Vec3d r{1.5, 0.0, -2.4};
  EXPECT_EQ(physics::srd_le_image(g, r, up), 1);
  EXPECT_EQ(physics::srd_le_cell_of(g, r, up, 1, le), uint32_t((4 * 3 + 1) * 4 + 0));
  EXPECT_EQ(physics::srd_le_image(g, {1.5, 0.0, -2.1}, up), 0);
  // shift_z = -0.3: the top sliver z >= 2.2 joins the first layer as the
  // lower image, x - 0.7: -1.5 -> -2.2 -> 1.8, column floor(1.8 + 2 + 0.1) = 3.
  const Vec3d down{-0.1, 0.2, -0.3};
  const Vec3d q{-1.5, 0.0, 2.3};
  EXPECT_EQ(physics::srd_le_image(g, q, down), -1);
  EXPECT_EQ(physics::srd_le_cell_of(g, q, down, -1, le), uint32_t((0 * 3 + 1) * 4 + 3));
  EXPECT_EQ(physics::srd_le_image(g, {-1.5, 0.0, 2.1}, down), 0);
  // The velocity of an image and back.
  expect_vec_near(physics::srd_le_image_velocity({0.2, 0.3, 0.4}, -1, 1.0), {-0.8, 0.3, 0.4}, 0.0);
  expect_vec_near(physics::srd_le_own_velocity({-0.8, 0.3, 0.4}, -1, 1.0), {0.2, 0.3, 0.4}, 1e-15);
}

TEST(SrdShearCollide, CellCutByTheShearedFaceByHand) {
  // Shift (0, 0, 0.5): the last layer spans z in [2, 3), the top half-cell
  // of the box and the bottom half-cell as the upper image. A and B are in
  // the box's top half-cell (column x in [0, 1), row y in [0.5 - 1.5 ...));
  // C in the bottom half-cell at x = -0.5 joins as its image at x = 0.2
  // moving 1 faster along x. D is elsewhere.
  const std::vector<Vec3d> r{{0.3, 0.2, 2.2}, {0.6, -0.4, 2.4}, {-0.5, 0.1, -2.3}, {-1.5, 1.0, 0.0}};
  const std::vector<Vec3d> v{{0.5, 0.1, -0.2}, {0.7, -0.3, 0.1}, {-0.45, 0.2, 0.3}, {0.1, 0.1, 0.1}};
  const MpcdSystem s = sheared_box(r, v);
  const Vec3d shift{0.0, 0.0, 0.5};
  auto c = mt::load<double>(s);
  reference::mpcd_collide(c, MpcdRule::srd, 7, shift);
  const auto& cell = c.cells.cell_of_particle();
  const auto& image = c.cells.image_of_particle();
  ASSERT_EQ(image.size(), 4u);
  EXPECT_EQ(cell[0], cell[1]);
  EXPECT_EQ(cell[0], cell[2]);
  EXPECT_EQ(cell[0], uint32_t((4 * 3 + 1) * 4 + 2));
  EXPECT_EQ(image[0], 0);
  EXPECT_EQ(image[2], 1);
  const Vec3d vc{v[2].x + 1.0, v[2].y, v[2].z};  // C's image
  const Vec3d u = (1.0 / 3.0) * (v[0] + v[1] + vc);
  const double alpha = s.params.angle_deg * (kPi / 180.0);
  const Vec3d axis = physics::srd_rotation_axis(cell[0], 7, s.params.seed);
  auto rotated = [&](const Vec3d& w) { return u + physics::srd_rotate(w - u, axis, std::cos(alpha), std::sin(alpha)); };
  expect_vec_near(c.vel[0], rotated(v[0]), 1e-14);
  expect_vec_near(c.vel[1], rotated(v[1]), 1e-14);
  const Vec3d wc = rotated(vc);
  expect_vec_near(c.vel[2], {wc.x - 1.0, wc.y, wc.z}, 1e-14);
  expect_vec_near(c.vel[3], v[3], 0.0);  // alone in its cell
}

// The sheared collision conserves the box's momentum and, without the
// thermostat, each cell's kinetic energy in its images' frame, for either
// sign of the grid shift (the image cells in the last layer or the first).
TEST(SrdShearCollide, ConservesMomentumAndTheImageFrameEnergy) {
  const uint64_t seed = fresh_seed();
  SCOPED_TRACE("seed " + std::to_string(seed));
  MpcdParams prm;
  prm.seed = static_cast<uint32_t>(seed);
  prm.shear.rate = 0.37;
  const MpcdSystem s = mt::random_solvent(seed, prm, 5, 4, 6, 6.0);
  for (const double sz : {0.31, -0.27}) {
    SCOPED_TRACE("shift_z " + std::to_string(sz));
    auto c = mt::load<double>(s);
    const uint64_t step = 13;
    reference::mpcd_collide(c, MpcdRule::srd, step, {0.11, -0.2, sz});
    const auto& image = c.cells.image_of_particle();
    const auto& cell = c.cells.cell_of_particle();
    const double jump = c.cells.image_jump();
    EXPECT_DOUBLE_EQ(jump, 0.37 * 6.0);
    std::vector<double> before(c.grid.ncells(), 0.0), after(c.grid.ncells(), 0.0);
    Vec3d p0{0.0, 0.0, 0.0}, p1{0.0, 0.0, 0.0};
    int images = 0;
    for (std::size_t i = 0; i < c.size(); ++i) {
      const Vec3d a = physics::srd_le_image_velocity(s.particles.velocity[i], image[i], jump);
      const Vec3d b = physics::srd_le_image_velocity(c.vel[i], image[i], jump);
      before[cell[i]] += dot(a, a);
      after[cell[i]] += dot(b, b);
      p0 += s.particles.velocity[i];
      p1 += c.vel[i];
      images += image[i] != 0;
      // The images are those of the sliver beyond the shifted grid.
      const double z = s.particles.position[i].z;
      EXPECT_EQ(image[i], sz > 0.0 && z < -3.0 + sz ? 1 : (sz < 0.0 && z >= 3.0 + sz ? -1 : 0));
    }
    EXPECT_GT(images, 10);
    for (uint32_t k = 0; k < c.grid.ncells(); ++k) EXPECT_NEAR(after[k], before[k], 1e-11 * (1.0 + before[k]));
    expect_vec_near(p1, p0, 1e-11);
  }
}

// Through the operations: a thermostatted solvent started on the shear
// profile u_x = gdot z keeps it (the cell thermostat scales velocities about
// each cell's mean in its images' frame), and without the velocity jump the
// profile decays.
TEST(SrdShearRun, ThermostattedShearFlowKeepsItsSlope) {
  const uint64_t seed = fresh_seed();
  SCOPED_TRACE("seed " + std::to_string(seed));
  for (const bool jump : {true, false}) {
    MpcdParams prm;
    prm.seed = static_cast<uint32_t>(seed);
    prm.thermostat = true;
    prm.shear.rate = 0.1;
    prm.shear.velocity_jump = jump;
    MpcdSystem s = mt::random_solvent(seed, prm, 6, 4, 8, 8.0, {0.0, 0.0, 0.0});
    for (std::size_t i = 0; i < s.particles.size(); ++i)
      s.particles.velocity[i].x += prm.shear.rate * s.particles.position[i].z;
    Simulation sim(std::make_unique<reference::CpuBackend<double>>(Variant{}), s);
    VelocityProfile prof(s.box, 2, 0, 8);
    sim.run(50);  // the control's profile decays in L_z^2 / (pi^2 nu) ~ 8 time units
    for (int k = 0; k < 40; ++k) {
      sim.run(5);
      prof.add(sim.solvent_particles(), prm.mass);
    }
    const LinearFit f = linear_fit(prof.centers(), prof.mean(), 2);
    if (jump) {
      EXPECT_NEAR(f.slope, prm.shear.rate, 0.02) << "slope " << f.slope;
    } else {
      EXPECT_LT(std::fabs(f.slope), 0.5 * prm.shear.rate) << "slope " << f.slope;
    }
  }
}

TEST(SrdShearParams, RefusedWithWhatItDoesNotSupport) {
  auto refused = [](const MpcdParams& p, const std::string& needle) {
    try {
      p.validate();
      ADD_FAILURE() << "accepted: " << needle;
    } catch (const InputError& e) {
      EXPECT_NE(std::string(e.what()).find(needle), std::string::npos) << e.what();
    }
  };
  MpcdParams p;
  p.shear.rate = std::nan("");
  refused(p, "shear_rate = nan is not finite");
  p.shear.rate = 0.1;
  EXPECT_NO_THROW(p.validate());
  MpcdParams w = p;
  w.wall.h = 4.0;
  refused(w, "shear_rate = 0.1 with slit walls");
  MpcdParams at = p;
  at.rule = MpcdRule::at;
  refused(at, "shear_rate = 0.1 needs the srd rule");
  MpcdParams e = p;
  e.embed_types = 1;
  refused(e, "shear_rate = 0.1 with embed_types = 1");
}

}  // namespace

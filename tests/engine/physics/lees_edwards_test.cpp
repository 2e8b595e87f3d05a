// Lees-Edwards geometry (meso/physics/lees_edwards.hpp) by hand: the images'
// offset, the wrap of a particle through a sheared face, the sheared minimum
// image against a search over the images, the relative velocity across the
// face and the columns a cell search across the face must visit.
#include <gtest/gtest.h>

#include <cmath>
#include <random>

#include "meso/physics/lees_edwards.hpp"

namespace {

using namespace meso;
using physics::LeesEdwards;
using physics::le_cell_shift;
using physics::le_image;
using physics::le_min_image;
using physics::le_offset;
using physics::le_relative_velocity;
using physics::le_wrap;
using physics::lees_edwards_at;

constexpr Vec3d kL{8.0, 6.0, 10.0};

LeesEdwards shear(double offset, double jump) {
  LeesEdwards le;
  le.shear_rate = jump / kL.z;
  le.offset = offset;
  le.jump = jump;
  return le;
}

TEST(LeesEdwards, OffsetGrowsWithTimeAndWrapsIntoTheHalfOpenInterval) {
  // gdot L_z = 1: delta = t folded into [-4, 4).
  EXPECT_DOUBLE_EQ(le_offset(0.1, 10.0, 8.0, 3.0), 3.0);
  EXPECT_DOUBLE_EQ(le_offset(0.1, 10.0, 8.0, 5.0), -3.0);
  EXPECT_DOUBLE_EQ(le_offset(0.1, 10.0, 8.0, 4.0), -4.0);
  EXPECT_DOUBLE_EQ(le_offset(0.1, 10.0, 8.0, 12.0), -4.0);
  EXPECT_DOUBLE_EQ(le_offset(0.1, 10.0, 8.0, -1.0), -1.0);
  EXPECT_DOUBLE_EQ(le_offset(-0.1, 10.0, 8.0, 1.0), -1.0);
  EXPECT_DOUBLE_EQ(le_offset(0.0, 10.0, 8.0, 7.0), 0.0);
  // A million time units later the offset is still exact (1000000 = 125000 L_x).
  EXPECT_NEAR(le_offset(0.1, 10.0, 8.0, 1000003.0), 3.0, 1e-9);
  const LeesEdwards le = lees_edwards_at(0.05, kL, 2.0);
  EXPECT_DOUBLE_EQ(le.offset, 1.0);
  EXPECT_DOUBLE_EQ(le.jump, 0.5);
  EXPECT_TRUE(le.active());
  EXPECT_FALSE(LeesEdwards{}.active());
}

TEST(LeesEdwards, WrapThroughTheTopShiftsBackByTheOffsetAndTheVelocityJump) {
  const LeesEdwards le = shear(1.5, 2.0);
  Vec3d r{3.5, 0.0, 5.2}, v{0.3, 0.0, 0.1};
  EXPECT_EQ(le_wrap(r, v, kL, le), 1);
  EXPECT_NEAR(r.x, 2.0, 1e-14);
  EXPECT_NEAR(r.z, -4.8, 1e-14);
  EXPECT_NEAR(v.x, -1.7, 1e-14);
  EXPECT_EQ(v.z, 0.1);

  Vec3d r2{-3.9, 1.0, -5.1}, v2{0.3, 0.2, -0.1};
  EXPECT_EQ(le_wrap(r2, v2, kL, le), -1);
  EXPECT_NEAR(r2.x, -2.4, 1e-14);  // x is left to Box::wrap
  EXPECT_NEAR(r2.z, 4.9, 1e-14);
  EXPECT_NEAR(v2.x, 2.3, 1e-14);
  EXPECT_EQ(r2.y, 1.0);
  EXPECT_EQ(v2.y, 0.2);

  // Inside: untouched. The half-open faces: +L_z/2 wraps, -L_z/2 stays.
  Vec3d r3{1.0, 2.0, 4.99}, v3{0.1, 0.2, 0.3};
  EXPECT_EQ(le_wrap(r3, v3, kL, le), 0);
  EXPECT_EQ(r3.x, 1.0);
  EXPECT_EQ(v3.x, 0.1);
  Vec3d r4{0.0, 0.0, 5.0}, v4{0.0, 0.0, 0.0};
  EXPECT_EQ(le_wrap(r4, v4, kL, le), 1);
  EXPECT_EQ(r4.z, -5.0);
  Vec3d r5{0.0, 0.0, -5.0}, v5{0.0, 0.0, 0.0};
  EXPECT_EQ(le_wrap(r5, v5, kL, le), 0);
  // Two boxes up: two crossings.
  Vec3d r6{0.0, 0.0, 16.0}, v6{0.0, 0.0, 0.0};
  EXPECT_EQ(le_wrap(r6, v6, kL, le), 2);
  EXPECT_NEAR(r6.z, -4.0, 1e-14);
  EXPECT_NEAR(r6.x, -3.0, 1e-14);
  EXPECT_NEAR(v6.x, -4.0, 1e-14);
}

TEST(LeesEdwards, TheShearFlowIsContinuousAcrossTheFace) {
  // A particle riding u_x = gdot z out through the top comes back with the
  // bottom's u_x: the profile has no jump at the face.
  const double gdot = 0.2;
  const LeesEdwards le = lees_edwards_at(gdot, kL, 3.7);
  Vec3d r{0.0, 0.0, 0.5 * kL.z + 0.01}, v{gdot * (0.5 * kL.z + 0.01), 0.0, 1.0};
  ASSERT_EQ(le_wrap(r, v, kL, le), 1);
  EXPECT_NEAR(v.x, gdot * r.z, 1e-14);
}

TEST(LeesEdwards, ImageThenWrapIsTheIdentity) {
  std::mt19937_64 rng(59);
  std::uniform_real_distribution<double> u(-0.5, 0.5);
  const LeesEdwards le = shear(-2.7, 1.3);
  for (int k = 0; k < 200; ++k) {
    const Vec3d r0{u(rng) * kL.x, u(rng) * kL.y, u(rng) * kL.z}, v0{u(rng), u(rng), u(rng)};
    for (int n = -2; n <= 2; ++n) {
      Vec3d r = r0, v = v0;
      le_image(r, v, n, kL.z, le);
      EXPECT_EQ(le_wrap(r, v, kL, le), n);
      EXPECT_NEAR(r.x, r0.x, 1e-12);
      EXPECT_NEAR(r.z, r0.z, 1e-12);
      EXPECT_NEAR(v.x, v0.x, 1e-12);
    }
  }
}

TEST(LeesEdwards, MinimumImageByHand) {
  const LeesEdwards le = shear(1.5, 2.0);
  // j near the bottom, i near the top: j's image above sits at (0.5, 0, 5.3).
  Vec3d d = Vec3d{0.5, 0.0, 4.8} - Vec3d{-1.0, 0.0, -4.7};
  EXPECT_EQ(le_min_image(d, kL, le), 1);
  EXPECT_NEAR(d.x, 0.0, 1e-14);
  EXPECT_NEAR(d.y, 0.0, 1e-14);
  EXPECT_NEAR(d.z, -0.5, 1e-14);
  // The image's velocity is v_j + gdot L_z.
  const Vec3d dv = le_relative_velocity({1.0, 0.1, 0.0}, {0.5, 0.0, 0.2}, 1, le);
  EXPECT_NEAR(dv.x, -1.5, 1e-14);
  EXPECT_NEAR(dv.y, 0.1, 1e-14);
  EXPECT_NEAR(dv.z, -0.2, 1e-14);
  // Without shear it is Box::min_image's.
  Vec3d d0{7.0, -5.0, 9.0};
  EXPECT_EQ(le_min_image(d0, kL, LeesEdwards{}), 1);
  EXPECT_NEAR(d0.x, -1.0, 1e-14);
  EXPECT_NEAR(d0.y, 1.0, 1e-14);
  EXPECT_NEAR(d0.z, -1.0, 1e-14);
}

TEST(LeesEdwards, MinimumImageMatchesASearchOverTheImagesAndIsAntisymmetric) {
  std::mt19937_64 rng(1972);
  std::uniform_real_distribution<double> u(-0.5, 0.5);
  int close = 0;
  for (int k = 0; k < 20000; ++k) {
    const LeesEdwards le = shear(u(rng) * kL.x, 3.0 * u(rng));
    const Vec3d ri{u(rng) * kL.x, u(rng) * kL.y, u(rng) * kL.z};
    const Vec3d rj{u(rng) * kL.x, u(rng) * kL.y, u(rng) * kL.z};
    // Brute force: every image j + n (delta, 0, L_z) + (a L_x, b L_y, 0).
    double best = 1e300;
    int best_n = 0;
    for (int n = -1; n <= 1; ++n)
      for (int a = -2; a <= 2; ++a)
        for (int b = -1; b <= 1; ++b) {
          const Vec3d e = ri - rj - Vec3d{n * le.offset + a * kL.x, b * kL.y, n * kL.z};
          if (dot(e, e) < best) {
            best = dot(e, e);
            best_n = n;
          }
        }
    Vec3d d = ri - rj;
    const int n = le_min_image(d, kL, le);
    if (best < 2.0 * 2.0) {  // r_c = 2 < min(L) / 2: every such pair is found
      ++close;
      EXPECT_NEAR(dot(d, d), best, 1e-12);
      EXPECT_EQ(n, best_n);
    }
    // Always an image of the pair.
    const Vec3d shift = ri - rj - d - Vec3d{n * le.offset, 0.0, n * kL.z};
    EXPECT_NEAR(shift.x / kL.x, std::rint(shift.x / kL.x), 1e-12);
    EXPECT_NEAR(shift.y / kL.y, std::rint(shift.y / kL.y), 1e-12);
    EXPECT_NEAR(shift.z, 0.0, 1e-12);
    // From j's side: exactly opposite.
    Vec3d e = rj - ri;
    EXPECT_EQ(le_min_image(e, kL, le), -n);
    EXPECT_EQ(e.x, -d.x);
    EXPECT_EQ(e.y, -d.y);
    EXPECT_EQ(e.z, -d.z);
  }
  EXPECT_GT(close, 500);
}

TEST(LeesEdwards, CellSearchAcrossTheFaceCoversEveryNeighbour) {
  // Columns of width w = 1.25 on L_x = 10; search radius w. For particles in
  // the layers next to the face, the neighbours' columns across the face are
  // c - shift - 2 ... c - shift + 1 (mod 8).
  const int nx = 8;
  const Vec3d L{10.0, 6.0, 10.0};
  const double w = L.x / nx;
  std::mt19937_64 rng(2007);
  std::uniform_real_distribution<double> u(-0.5, 0.5);
  int found = 0;
  for (int k = 0; k < 50000; ++k) {
    LeesEdwards le;
    le.offset = u(rng) * L.x;
    if (k % 7 == 0) le.offset = w * std::floor(le.offset / w);  // on a cell face
    le.shear_rate = 0.1;
    const int n = (k % 2) ? 1 : -1;  // j's image above (i at the top) or below
    const double xi = u(rng) * L.x, xj = u(rng) * L.x;
    double dx = xi - xj - n * le.offset;
    dx -= L.x * std::rint(dx / L.x);
    if (std::fabs(dx) >= w) continue;
    ++found;
    const int ci = static_cast<int>(std::floor((xi + 0.5 * L.x) / w));
    const int cj = static_cast<int>(std::floor((xj + 0.5 * L.x) / w));
    const int shift = le_cell_shift(n, w, le);
    const int rel = (((cj - (ci - shift - 2)) % nx) + nx) % nx;  // 0..3 when covered
    EXPECT_LT(rel, 4) << "delta " << le.offset << " xi " << xi << " xj " << xj << " n " << n
                      << " ci " << ci << " cj " << cj << " shift " << shift;
  }
  EXPECT_GT(found, 5000);
}

}  // namespace

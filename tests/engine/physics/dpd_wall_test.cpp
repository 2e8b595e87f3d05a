// The DPD slit walls' force (meso/physics/dpd_wall.hpp): its half-space
// integrals by hand at the wall and against a direct sum over a fine
// lattice of wall particles, the force's parts at rest and in motion, the
// mirror symmetry of the two walls, and the noise's stream.
#include <gtest/gtest.h>

#include <cmath>
#include <numbers>

#include "meso/physics/dpd_wall.hpp"
#include "meso/physics/langevin_noise.hpp"

namespace {

using namespace meso;
using physics::DpdWall;
using physics::DpdWallIntegrals;
using physics::dpd_wall_force;
using physics::dpd_wall_integrals;
constexpr double kPi = std::numbers::pi;

// The half-space z' > d summed over cubes of edge `dx` (midpoints), the
// particle at the origin: sum of w_C e_z, w_D e_z^2 and w_D e_x^2 times dx^3.
DpdWallIntegrals lattice_sum(double d, double rc, double s, double dx) {
  DpdWallIntegrals q;
  const int n = static_cast<int>(std::ceil(rc / dx));
  for (int k = 0; k < n; ++k) {
    const double z = d + (k + 0.5) * dx;
    if (z >= rc) break;
    for (int i = -n; i < n; ++i)
      for (int j = -n; j < n; ++j) {
        const double x = (i + 0.5) * dx, y = (j + 0.5) * dx;
        const double r = std::sqrt(x * x + y * y + z * z);
        if (r >= rc) continue;
        const double wc = 1.0 - r / rc, wd = std::pow(wc, 2.0 * s);
        q.c += wc * z / r;
        q.n += wd * z * z / (r * r);
        q.t += wd * x * x / (r * r);
      }
  }
  const double v = dx * dx * dx;
  q.c *= v;
  q.n *= v;
  q.t *= v;
  return q;
}

TEST(DpdWall, IntegralsAtTheWallByHand) {
  // d = 0, s = 1, r_c = 1: C = pi int (1 - r) r^2 dr = pi / 12; the
  // friction is isotropic, N = T = (2 pi / 3) int (1 - r)^2 r^2 dr = pi / 45.
  const DpdWallIntegrals q = dpd_wall_integrals(0.0, 1.0, 1.0);
  EXPECT_NEAR(q.c, kPi / 12.0, 1e-14);
  EXPECT_NEAR(q.n, kPi / 45.0, 1e-12);
  EXPECT_NEAR(q.t, kPi / 45.0, 1e-12);
  // Every integral scales as r_c^3.
  const DpdWallIntegrals q2 = dpd_wall_integrals(0.0, 2.0, 1.0);
  EXPECT_NEAR(q2.c, 8.0 * q.c, 1e-12);
  EXPECT_NEAR(q2.n, 8.0 * q.n, 1e-11);
  // Beyond the cutoff, and a particle on the wall's far side is clamped to it.
  const DpdWallIntegrals far = dpd_wall_integrals(1.0, 1.0, 1.0);
  EXPECT_EQ(far.c, 0.0);
  EXPECT_EQ(far.n, 0.0);
  EXPECT_EQ(far.t, 0.0);
  EXPECT_EQ(dpd_wall_integrals(-0.1, 1.0, 1.0).c, q.c);
}

TEST(DpdWall, FrictionIntegralsAreNeverNegativeNearTheCutoff) {
  // Within ~1e-6 of r_c the old term-by-term integrand of T cancelled to
  // about -1e-16 and T to about -1e-39 for about 1 d in 1000, and sqrt(T)
  // made the random force NaN. Every d of a fine grid there, and the d that
  // double positions near z = +-(h - r_c) give (h = 4).
  int checked = 0;
  for (double s : {1.0, 0.5, 2.0})
    for (int k = 0; k <= 200000; ++k) {
      const double d = 1.0 - 1e-5 + 1e-10 * k;
      const DpdWallIntegrals q = dpd_wall_integrals(d, 1.0, s);
      ASSERT_GE(q.t, 0.0) << "d = " << d << ", s = " << s;
      ASSERT_GE(q.n, 0.0) << "d = " << d << ", s = " << s;
      const double z = 3.0 - 1e-5 + 1e-10 * k;
      ASSERT_GE(dpd_wall_integrals(4.0 - z, 1.0, s).t, 0.0) << "z = " << z << ", s = " << s;
      ++checked;
    }
  EXPECT_EQ(checked, 3 * 200001);
  // And the force there is finite, whatever the noise.
  DpdWall w;
  w.h = 4.0;
  w.gamma = 20.25;
  w.kT = 0.5;
  w.density = 6.0;
  for (int k = 0; k <= 2000; ++k) {
    const Vec3d f = dpd_wall_force(w, {0.0, 0.0, 3.0 - 1e-7 + 1e-10 * k}, {0.1, 0.2, 0.3}, {1.0, -1.0, 2.0}, 31.6);
    ASSERT_TRUE(std::isfinite(f.x) && std::isfinite(f.y) && std::isfinite(f.z)) << "k = " << k;
  }
}

TEST(DpdWall, IntegralsMatchASumOverWallParticles) {
  // A lattice of 0.01 r_c: its midpoint error is ~1e-4 relative.
  for (double s : {1.0, 0.5})
    for (double d : {0.0, 0.3, 0.7}) {
      const DpdWallIntegrals q = dpd_wall_integrals(d, 1.0, s), l = lattice_sum(d, 1.0, s, 0.01);
      EXPECT_NEAR(q.c, l.c, 2e-3 * l.c + 1e-7) << "s = " << s << ", d = " << d;
      EXPECT_NEAR(q.n, l.n, 2e-3 * l.n + 1e-7) << "s = " << s << ", d = " << d;
      EXPECT_NEAR(q.t, l.t, 2e-3 * l.t + 1e-7) << "s = " << s << ", d = " << d;
    }
}

DpdWall wall(double h) {
  DpdWall w;
  w.h = h;
  w.a = 25.0;
  w.gamma = 4.5;
  w.kT = 1.0;
  w.density = 3.0;
  return w;
}

TEST(DpdWall, ForceAtRestPushesAwayFromTheWall) {
  const DpdWall w = wall(3.0);
  const Vec3d zero{0.0, 0.0, 0.0};
  // 0.4 from the upper wall: a rho C(0.4) towards -z; nothing from the lower.
  const Vec3d f = dpd_wall_force(w, {0.5, -1.0, 2.6}, zero, zero, 10.0);
  const double c = dpd_wall_integrals(0.4, 1.0, 1.0).c;
  EXPECT_NEAR(f.z, -25.0 * 3.0 * c, 1e-12);
  EXPECT_EQ(f.x, 0.0);
  EXPECT_EQ(f.y, 0.0);
  // In the bulk no force at all, whatever the velocity and noise.
  const Vec3d g = dpd_wall_force(w, {0.0, 0.0, 1.5}, {1.0, 2.0, 3.0}, {1.0, 1.0, 1.0}, 10.0);
  EXPECT_EQ(g.x, 0.0);
  EXPECT_EQ(g.z, 0.0);
}

TEST(DpdWall, FrictionIsAboutTheWallsVelocityAndNoiseObeysFluctuationDissipation) {
  DpdWall w = wall(3.0);
  w.a = 0.0;
  w.speed = 0.2;  // the upper wall at +0.2 along x
  const double d = 0.25, inv_sqrt_dt = 1.0 / std::sqrt(0.01);
  const DpdWallIntegrals q = dpd_wall_integrals(d, 1.0, 1.0);
  const double gt = 4.5 * 3.0 * q.t, gn = 4.5 * 3.0 * q.n;
  const Vec3d v{0.7, -0.3, 0.4}, xi{0.5, -1.5, 2.0};
  const Vec3d f = dpd_wall_force(w, {0.0, 0.0, 3.0 - d}, v, xi, inv_sqrt_dt);
  // -Gamma (v - u_wall) + sqrt(2 kT Gamma / dt) xi, component by component.
  EXPECT_NEAR(f.x, -gt * (0.7 - 0.2) + std::sqrt(2.0 * gt) * inv_sqrt_dt * 0.5, 1e-12);
  EXPECT_NEAR(f.y, -gt * -0.3 + std::sqrt(2.0 * gt) * inv_sqrt_dt * -1.5, 1e-12);
  EXPECT_NEAR(f.z, -gn * 0.4 + std::sqrt(2.0 * gn) * inv_sqrt_dt * 2.0, 1e-12);
  // A particle moving with the wall feels no friction.
  const Vec3d at_rest = dpd_wall_force(w, {0.0, 0.0, 3.0 - d}, {0.2, 0.0, 0.0}, {0.0, 0.0, 0.0}, inv_sqrt_dt);
  EXPECT_NEAR(at_rest.x, 0.0, 1e-15);
  // No density: no force (bounce-back alone).
  w.density = 0.0;
  const Vec3d none = dpd_wall_force(w, {0.0, 0.0, 3.0 - d}, v, xi, inv_sqrt_dt);
  EXPECT_EQ(none.x, 0.0);
  EXPECT_EQ(none.z, 0.0);
}

TEST(DpdWall, TheTwoWallsAreMirrorImages) {
  DpdWall w = wall(0.6);  // a narrow slit: both walls reach z = +-0.1
  w.speed = 0.3;
  const Vec3d xi{0.3, -0.2, 0.9};
  const Vec3d up = dpd_wall_force(w, {0.0, 0.0, 0.1}, {0.5, 0.1, 0.2}, xi, 10.0);
  // The mirror z -> -z, x -> -x maps the upper wall (+0.3) onto the lower (-0.3).
  const Vec3d down = dpd_wall_force(w, {0.0, 0.0, -0.1}, {-0.5, 0.1, -0.2}, {-0.3, -0.2, -0.9}, 10.0);
  EXPECT_NEAR(up.x, -down.x, 1e-12);
  EXPECT_NEAR(up.y, down.y, 1e-12);
  EXPECT_NEAR(up.z, -down.z, 1e-12);
}

TEST(DpdWall, NoiseIsUnitGaussianOnItsOwnStream) {
  double sum = 0.0, sq = 0.0;
  const int n = 20000;
  for (int t = 0; t < n; ++t) {
    const Vec3d xi = physics::dpd_wall_noise(static_cast<uint32_t>(t), 17, 5);
    sum += xi.x + xi.y + xi.z;
    sq += xi.x * xi.x + xi.y * xi.y + xi.z * xi.z;
  }
  // 3n draws: mean within 4 / sqrt(3n), variance within 4 sqrt(2 / 3n).
  EXPECT_NEAR(sum / (3 * n), 0.0, 4.0 / std::sqrt(3.0 * n));
  EXPECT_NEAR(sq / (3 * n), 1.0, 4.0 * std::sqrt(2.0 / (3.0 * n)));
  // A pure function of (tag, step, seed), not the Langevin stream's numbers.
  const Vec3d a = physics::dpd_wall_noise(3, 9, 1), b = physics::dpd_wall_noise(3, 9, 1);
  EXPECT_EQ(a.x, b.x);
  EXPECT_NE(a.x, physics::langevin_gaussian3(3, 9, 1).x);
  EXPECT_NE(a.x, physics::dpd_wall_noise(3, 10, 1).x);
}

}  // namespace

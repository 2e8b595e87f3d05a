// Quaternion algebra and the free rotor: rotations against matrices by
// hand; NO_SQUISH on an asymmetric top (space-frame L kept to rounding,
// energy error second order); a symmetric top whose axis precesses about L
// at |L| / I_perp exactly; a linear particle that never spins about its axis.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <numbers>
#include <random>

#include "meso/physics/rigid_body.hpp"

namespace {

using meso::dot;
using meso::Quatd;
using meso::Vec3d;
namespace ph = meso::physics;

double norm(const Vec3d& a) { return std::sqrt(dot(a, a)); }

TEST(Quaternion, RotatesAsTheAxisAngleMatrix) {
  // 90 degrees about z takes x to y and y to -x; about x takes y to z.
  const Quatd qz = meso::quat_from_axis_angle(Vec3d{0, 0, 1}, std::numbers::pi / 2);
  const Vec3d a = meso::rotate(qz, Vec3d{1, 0, 0}), b = meso::rotate(qz, Vec3d{0, 1, 0});
  EXPECT_NEAR(a.x, 0, 1e-15); EXPECT_NEAR(a.y, 1, 1e-15); EXPECT_NEAR(a.z, 0, 1e-15);
  EXPECT_NEAR(b.x, -1, 1e-15); EXPECT_NEAR(b.y, 0, 1e-15);
  const Quatd qx = meso::quat_from_axis_angle(Vec3d{1, 0, 0}, std::numbers::pi / 2);
  // Composition right to left: qz qx turns y first about x (to z), then z stays.
  const Vec3d c = meso::rotate(qz * qx, Vec3d{0, 1, 0});
  EXPECT_NEAR(c.z, 1, 1e-15);
  // The inverse undoes it.
  const Vec3d back = meso::rotate_inverse(qz * qx, c);
  EXPECT_NEAR(back.y, 1, 1e-15);
}

TEST(NoSquish, AsymmetricTopConservesLExactlyAndEnergyToSecondOrder) {
  // Each split step is an exact rotation about a body axis, so the
  // space-frame L is kept to rounding; the energy is not (each step keeps
  // only its own part of it) but its error is bounded and O(dt^2).
  std::mt19937_64 rng(5);
  std::normal_distribution<double> g;
  const Vec3d inertia{1.7696, 0.6145, 1.1550};  // an SSD water molecule (amu A^2)
  for (int trial = 0; trial < 20; ++trial) {
    const Quatd q0 = meso::normalized(Quatd{g(rng), {g(rng), g(rng), g(rng)}});
    const Vec3d L0{g(rng), g(rng), g(rng)};
    const double e0 = ph::rotational_kinetic_energy(L0, inertia);
    const Vec3d l0 = meso::rotate(q0, L0);
    double worst[2] = {0, 0};
    for (int r = 0; r < 2; ++r) {
      const double dt = r == 0 ? 0.02 : 0.01;
      Quatd q = q0;
      Vec3d L = L0;
      for (int s = 0; s < static_cast<int>(std::lround(5.0 / dt)); ++s) {
        ph::free_rotation(q, L, inertia, dt);
        worst[r] = std::max(worst[r], std::abs(ph::rotational_kinetic_energy(L, inertia) - e0));
      }
      EXPECT_NEAR(norm(meso::rotate(q, L) - l0), 0.0, 1e-11 * norm(l0));
    }
    EXPECT_LT(worst[0], 1e-3 * e0);
    EXPECT_NEAR(worst[0] / worst[1], 4.0, 0.6) << "trial " << trial;
  }
}

TEST(NoSquish, SymmetricTopPrecessesExactlyAtLOverIPerp) {
  // I = (I1, I1, I3): the body axis e3 turns about the fixed space-frame L
  // at the rate |L| / I1, keeping its angle to L. The symmetric top is
  // rotated exactly, so one step of T and 500 steps agree with it.
  const Vec3d inertia{2.0, 2.0, 0.7};
  for (const int n : {1, 500}) {
    Quatd q{1, {0, 0, 0}};
    Vec3d L{0.6, 0.0, 0.9};  // body frame = space frame at t = 0
    const Vec3d l_space = meso::rotate(q, L), lhat = (1.0 / norm(l_space)) * l_space;
    const Vec3d u0{0, 0, 1};
    const double T = 10.0;
    for (int s = 0; s < n; ++s) ph::free_rotation(q, L, inertia, T / n);
    const Vec3d u = meso::rotate(q, Vec3d{0, 0, 1});
    EXPECT_NEAR(dot(u, lhat), dot(u0, lhat), 1e-12);
    // The precession angle: between the components of u0 and u normal to L.
    const Vec3d p0 = u0 - dot(u0, lhat) * lhat, p1 = u - dot(u, lhat) * lhat;
    const double phi = std::atan2(dot(meso::cross(p0, p1), lhat), dot(p0, p1));
    const double want = std::remainder(norm(l_space) * T / inertia.x, 2 * std::numbers::pi);
    EXPECT_NEAR(std::remainder(phi - want, 2 * std::numbers::pi), 0.0, 1e-10) << n << " steps";
    EXPECT_NEAR(norm(meso::rotate(q, L) - l_space), 0.0, 1e-12);
  }
}

TEST(NoSquish, LinearParticleKeepsNoSpinAboutItsAxis) {
  // I_z = 0 (a Gay-Berne ellipsoid): the torque kick drops L_z and the
  // rotor never turns about z; two rotational degrees of freedom.
  const Vec3d inertia{1.0, 1.0, 0.0};
  Quatd q = meso::normalized(Quatd{1, {0.2, -0.1, 0.3}});
  Vec3d L = ph::torque_kick(q, {0.3, 0.2, 0.0}, inertia, {0.5, -0.4, 2.0}, 0.1);
  EXPECT_EQ(L.z, 0.0);
  EXPECT_EQ(ph::rotational_dof(inertia), 2);
  ph::free_rotation(q, L, inertia, 0.1);
  EXPECT_EQ(L.z, 0.0);
}

}  // namespace

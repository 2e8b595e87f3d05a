// GALAMOST's soft disk and rod particles (meso/physics/janus.hpp,
// disk_rod_pair): U = (a^R / 2) (1 - mu f^nu) (1 - rho)^2 with the disk's
// f = |(n_i x e) . (n_j x e)| and the rod's f = sin(theta_i) sin(theta_j),
// against hand-computed values, its forces and torques against central
// differences of the energy, the pair's symmetries and its angular-momentum
// balance.
#include <gtest/gtest.h>

#include <cmath>
#include <numbers>
#include <random>

#include "meso/physics/janus.hpp"
#include "meso/physics/quaternion.hpp"

namespace {

using namespace meso;
using physics::JanusParams;
using physics::soft_aniso_pair;
using physics::SoftShape;

constexpr double kPi = std::numbers::pi;
const Vec3d kX{1.0, 0.0, 0.0}, kY{0.0, 1.0, 0.0}, kZ{0.0, 0.0, 1.0};

JanusParams shape(SoftShape s, double mu = 1.0) {
  JanusParams p;
  p.shape = s;
  p.mu = mu;
  return p;
}

TEST(DiskRod, ParallelSideBySideIsSoftenedByOneMinusMu) {
  // r = 0.5, n_i = n_j = y across e = x: f = 1 for both shapes.
  // U = 198 (1 - 0.5) 0.25 = 24.75; F_i = -2 198 0.5 0.5 e = -99 e; no torque
  // (sin theta and the disk factor are stationary there).
  for (const SoftShape s : {SoftShape::disk, SoftShape::rod}) {
    const auto p = soft_aniso_pair(0.5 * kX, kY, kY, shape(s, 0.5));
    EXPECT_NEAR(p.energy, 24.75, 1e-12);
    EXPECT_NEAR(p.force_i.x, -99.0, 1e-12);
    EXPECT_NEAR(p.force_i.y, 0.0, 1e-12);
    EXPECT_NEAR(dot(p.torque_i, p.torque_i) + dot(p.torque_j, p.torque_j), 0.0, 1e-24);
    EXPECT_NEAR(p.virial, 0.5 * 99.0, 1e-12);
  }
}

TEST(DiskRod, AnAxisAlongTheLineGivesTheFullRepulsion) {
  // Stacked along e (n_i = n_j = e): f = 0, U = 198 (1 - 0.5)^2 = 49.5.
  for (const SoftShape s : {SoftShape::disk, SoftShape::rod}) {
    const auto p = soft_aniso_pair(0.5 * kX, kX, kX, shape(s));
    EXPECT_NEAR(p.energy, 49.5, 1e-12);
    EXPECT_NEAR(p.force_i.x, -198.0, 1e-12);
  }
}

TEST(DiskRod, CrossedAxesTellDiskFromRod) {
  // n_i = y, n_j = z, both across e = x: the rod's f = 1 (softened fully at
  // mu = 1), the disk's (n_i x e) . (n_j x e) = n_i . n_j = 0 (full).
  EXPECT_NEAR(soft_aniso_pair(0.5 * kX, kY, kZ, shape(SoftShape::rod)).energy, 0.0, 1e-12);
  EXPECT_NEAR(soft_aniso_pair(0.5 * kX, kY, kZ, shape(SoftShape::disk)).energy, 49.5, 1e-12);
}

TEST(DiskRod, PartialFactorsByHand) {
  const double rho = 0.6, w2 = 0.16, a = 396.0;
  // Rod: theta_i = 30 degrees in the x-y plane, n_j = y: f = 1/2, nu = 1/2.
  const Vec3d n30{std::cos(kPi / 6), std::sin(kPi / 6), 0.0};
  const auto rod = soft_aniso_pair(rho * kX, n30, kY, shape(SoftShape::rod));
  EXPECT_NEAR(rod.energy, 0.5 * a * (1.0 - std::sqrt(0.5)) * w2, 1e-12);
  // Turning n_i about z by phi turns theta_i: tau_z = -dU/dtheta_i
  // = (a/2) w^2 mu nu sin(theta)^(nu - 1) cos(theta) sin(theta_j)^nu.
  EXPECT_NEAR(rod.torque_i.z, 0.5 * a * w2 * 0.5 * std::pow(0.5, -0.5) * std::cos(kPi / 6), 1e-10);
  // Disk: n_i = y, n_j at 60 degrees from y towards z: f = cos 60 = 1/2;
  // n_j -> -n_j is the same disk.
  const Vec3d n60{0.0, 0.5, std::sqrt(0.75)};
  const auto disk = soft_aniso_pair(rho * kX, kY, n60, shape(SoftShape::disk));
  EXPECT_NEAR(disk.energy, 0.5 * a * (1.0 - std::sqrt(0.5)) * w2, 1e-12);
  EXPECT_NEAR(soft_aniso_pair(rho * kX, kY, -1.0 * n60, shape(SoftShape::disk)).energy, disk.energy, 1e-12);
}

// Random pairs away from f = 0 (where f^nu's slope is infinite for nu < 1):
// F_i = dU/dd and torque . a = -dU/dphi under a rotation by phi about a, by
// central differences; the torques balance the force's moment; the pair
// seen from j (d -> -d, i <-> j) is the same pair.
TEST(DiskRod, ForcesAndTorquesAreTheEnergysDerivatives) {
  std::mt19937_64 rng(11);
  std::normal_distribution<double> g;
  std::uniform_real_distribution<double> u(0.1, 0.97);
  auto unit = [&] {
    const Vec3d v{g(rng), g(rng), g(rng)};
    return (1.0 / std::sqrt(dot(v, v))) * v;
  };
  for (const SoftShape s : {SoftShape::disk, SoftShape::rod}) {
    for (const double nu : {0.5, 1.0, 2.0}) {
      JanusParams prm = shape(s, 0.8);
      prm.nu = nu;
      int tested = 0;
      for (int trial = 0; trial < 300; ++trial) {
        const Vec3d e = unit(), d = u(rng) * e, ni = unit(), nj = unit();
        const double ci = dot(ni, e), cj = dot(nj, e);
        const double f = s == SoftShape::rod ? std::sqrt((1 - ci * ci) * (1 - cj * cj)) : std::fabs(dot(ni, nj) - ci * cj);
        if (f < 0.05) continue;
        ++tested;
        const auto p = soft_aniso_pair(d, ni, nj, prm);
        EXPECT_NEAR(p.energy, 0.5 * 396.0 * (1.0 - 0.8 * std::pow(f, nu)) * std::pow(1.0 - dot(d, e), 2), 1e-10);
        const double h = 1e-6;
        for (int k = 0; k < 3; ++k) {
          Vec3d dp = d, dm = d;
          (&dp.x)[k] += h;
          (&dm.x)[k] -= h;
          const double fd =
              (soft_aniso_pair(dp, ni, nj, prm).energy - soft_aniso_pair(dm, ni, nj, prm).energy) / (2 * h);
          EXPECT_NEAR((&p.force_i.x)[k], fd, 1e-5 * (1.0 + std::fabs(fd))) << "trial " << trial << " axis " << k;
          const Vec3d a{k == 0 ? 1.0 : 0.0, k == 1 ? 1.0 : 0.0, k == 2 ? 1.0 : 0.0};
          const Quatd qp = quat_from_axis_angle(a, h), qm = quat_from_axis_angle(a, -h);
          const double ti = -(soft_aniso_pair(d, rotate(qp, ni), nj, prm).energy -
                              soft_aniso_pair(d, rotate(qm, ni), nj, prm).energy) / (2 * h);
          const double tj = -(soft_aniso_pair(d, ni, rotate(qp, nj), prm).energy -
                              soft_aniso_pair(d, ni, rotate(qm, nj), prm).energy) / (2 * h);
          EXPECT_NEAR((&p.torque_i.x)[k], ti, 1e-5 * (1.0 + std::fabs(ti))) << "trial " << trial;
          EXPECT_NEAR((&p.torque_j.x)[k], tj, 1e-5 * (1.0 + std::fabs(tj))) << "trial " << trial;
        }
        const Vec3d balance = p.torque_i + p.torque_j - cross(d, p.force_i);
        EXPECT_LT(std::sqrt(dot(balance, balance)), 1e-10 * (1.0 + std::sqrt(dot(p.force_i, p.force_i))));
        // From j's side: the same energy, the opposite force, the torques swapped.
        const auto q = soft_aniso_pair(-1.0 * d, nj, ni, prm);
        EXPECT_NEAR(q.energy, p.energy, 1e-12 * (1.0 + std::fabs(p.energy)));
        const Vec3d dt = q.torque_i - p.torque_j, df = q.force_i + p.force_i;
        EXPECT_LT(std::sqrt(dot(dt, dt)) + std::sqrt(dot(df, df)), 1e-10 * (1.0 + std::sqrt(dot(p.force_i, p.force_i))));
        // Up and down are the same particle for both shapes.
        EXPECT_NEAR(soft_aniso_pair(d, -1.0 * ni, nj, prm).energy, p.energy, 1e-12 * (1.0 + std::fabs(p.energy)));
      }
      EXPECT_GT(tested, 150) << "too few pairs away from f = 0";
    }
  }
}

}  // namespace

// The soft Janus pair (meso/physics/janus.hpp) against hand-computed
// values, its forces and torques against central differences of its energy,
// the angular-momentum balance of a pair, and the symmetry that makes a
// triblock's poles alike.
#include <gtest/gtest.h>

#include <cmath>
#include <numbers>
#include <random>

#include "meso/physics/janus.hpp"
#include "meso/physics/quaternion.hpp"

namespace {

using namespace meso;
using physics::janus_pair;
using physics::JanusParams;

constexpr double kPi = std::numbers::pi;
const Vec3d kE{1.0, 0.0, 0.0};

// n at angle `deg` from +x in the x-y plane.
Vec3d at_angle(double deg) { return {std::cos(deg * kPi / 180.0), std::sin(deg * kPi / 180.0), 0.0}; }

TEST(Janus, FacingPatchesAtHalfTheCutoff) {
  // r = 0.5, both patches on the line (f = 1): U = 396/2 0.25 - 132/2 0.25 = 33;
  // dU/drho = -396 0.5 - 66 (1 - 1) = -198: F_i = -198 e, no torque.
  const auto p = janus_pair(0.5 * kE, kE, -1.0 * kE, JanusParams{});
  EXPECT_NEAR(p.energy, 33.0, 1e-12);
  EXPECT_NEAR(p.force_i.x, -198.0, 1e-12);
  EXPECT_NEAR(p.force_i.y, 0.0, 1e-12);
  EXPECT_NEAR(dot(p.torque_i, p.torque_i) + dot(p.torque_j, p.torque_j), 0.0, 1e-24);
  EXPECT_NEAR(p.virial, 0.5 * 198.0, 1e-12);  // (r_i - r_j) . F_i
}

TEST(Janus, OutsideThePatchOnlyTheRepulsionActs) {
  // n_i across the line (90 degrees > theta_m = 65): U = 396/2 (1 - 0.7)^2.
  const auto p = janus_pair(0.7 * kE, at_angle(90.0), -1.0 * kE, JanusParams{});
  EXPECT_NEAR(p.energy, 198.0 * 0.09, 1e-12);
  EXPECT_NEAR(p.force_i.x, -396.0 * 0.3, 1e-12);
  EXPECT_EQ(dot(p.torque_i, p.torque_i), 0.0);
}

TEST(Janus, PartialPatchByHand) {
  // theta_i = 30, theta_j = 0 degrees at r = 0.6: f = cos(pi 30 / 130).
  const double f = std::cos(kPi * 30.0 / 130.0), rho = 0.6;
  const double want = 198.0 * 0.16 - 66.0 * std::sqrt(f) * rho * (1.0 - rho);
  const auto p = janus_pair(rho * kE, at_angle(30.0), -1.0 * kE, JanusParams{});
  EXPECT_NEAR(p.energy, want, 1e-12);
}

TEST(Janus, TriblockPolesAreAlikeDiblockOnesAreNot) {
  JanusParams tri, di;
  di.shape = physics::SoftShape::janus;
  const Vec3d d{0.4, 0.3, -0.2}, ni = at_angle(20.0), nj = -1.0 * at_angle(10.0);
  const auto a = janus_pair(d, ni, nj, tri), b = janus_pair(d, -1.0 * ni, nj, tri);
  EXPECT_NEAR(a.energy, b.energy, 1e-12);
  JanusParams repulsion_only;
  repulsion_only.a_att = 0.0;
  EXPECT_LT(a.energy, janus_pair(d, ni, nj, repulsion_only).energy);  // the patches attract
  EXPECT_GT(janus_pair(d, -1.0 * ni, nj, di).energy, janus_pair(d, ni, nj, di).energy);
}

// The patch factor the structure analysis counts bonds by is the one the
// energy weighs: U = U_rep - (a^A / 2) f^nu rho (1 - rho) for random pairs,
// triblock and diblock; 30 degrees and 0 by hand.
TEST(Janus, PatchFactorIsTheEnergys) {
  EXPECT_NEAR(physics::janus_factor(0.6 * kE, at_angle(30.0), -1.0 * kE, JanusParams{}),
              std::cos(kPi * 30.0 / 130.0), 1e-14);
  EXPECT_EQ(physics::janus_factor(0.6 * kE, at_angle(90.0), -1.0 * kE, JanusParams{}), 0.0);
  std::mt19937_64 rng(3);
  std::normal_distribution<double> g;
  std::uniform_real_distribution<double> u(0.05, 0.95);
  int facing = 0;
  for (const bool triblock : {true, false}) {
    JanusParams jp;
    jp.shape = triblock ? physics::SoftShape::triblock : physics::SoftShape::janus;
    JanusParams rep = jp;
    rep.a_att = 0.0;
    for (int k = 0; k < 2000; ++k) {
      auto unit = [&] {
        const Vec3d v{g(rng), g(rng), g(rng)};
        return (1.0 / std::sqrt(dot(v, v))) * v;
      };
      const double rho = u(rng);
      const Vec3d d = rho * unit(), ni = unit(), nj = unit();
      const double f = physics::janus_factor(d, ni, nj, jp);
      const double att = janus_pair(d, ni, nj, rep).energy - janus_pair(d, ni, nj, jp).energy;
      EXPECT_NEAR(att, 0.5 * jp.a_att * std::pow(f, jp.nu) * rho * (1.0 - rho), 1e-9);
      facing += f > 0.0;
    }
  }
  EXPECT_GT(facing, 400);  // both kinds of pair were met
}

// Random pairs, patches inside and out (away from their edges, where f^nu
// has an infinite slope): F_i = dU/dd and torque_i . a = -dU/dphi for a
// rotation of n_i by phi about a, by central differences; and the pair's
// torques balance its force's moment.
TEST(Janus, ForcesAndTorquesAreTheEnergysDerivatives) {
  std::mt19937_64 rng(7);
  std::normal_distribution<double> g;
  std::uniform_real_distribution<double> u(0.15, 0.95);
  auto unit = [&] {
    Vec3d v{g(rng), g(rng), g(rng)};
    return (1.0 / std::sqrt(dot(v, v))) * v;
  };
  for (const bool triblock : {true, false}) {
    JanusParams prm;
    prm.shape = triblock ? physics::SoftShape::triblock : physics::SoftShape::janus;
    const double cm = std::cos(prm.theta_m);
    int patched = 0;
    for (int trial = 0; trial < 400; ++trial) {
      const Vec3d e = unit(), d = u(rng) * e;
      // Half the trials with both patches near the line, half at random.
      Vec3d ni = unit(), nj = unit();
      if (trial % 2 == 0) {
        const Vec3d vi = e + 0.4 * unit(), vj = -1.0 * e + 0.4 * unit();
        ni = (1.0 / std::sqrt(dot(vi, vi))) * vi;
        nj = (1.0 / std::sqrt(dot(vj, vj))) * vj;
      }
      const double ci = dot(ni, e), cj = -dot(nj, e);
      const double ai = triblock ? std::fabs(ci) : ci, aj = triblock ? std::fabs(cj) : cj;
      if (std::fabs(ai - cm) < 0.05 || std::fabs(aj - cm) < 0.05) continue;  // near an edge
      patched += ai > cm && aj > cm;
      const auto p = janus_pair(d, ni, nj, prm);
      const double h = 1e-6;
      for (int k = 0; k < 3; ++k) {
        Vec3d dp = d, dm = d;
        (&dp.x)[k] += h;
        (&dm.x)[k] -= h;
        const double fd = (janus_pair(dp, ni, nj, prm).energy - janus_pair(dm, ni, nj, prm).energy) / (2 * h);
        EXPECT_NEAR((&p.force_i.x)[k], fd, 1e-5 * (1.0 + std::fabs(fd))) << "trial " << trial << " axis " << k;
        const Vec3d a{k == 0 ? 1.0 : 0.0, k == 1 ? 1.0 : 0.0, k == 2 ? 1.0 : 0.0};
        const Quatd qp = quat_from_axis_angle(a, h), qm = quat_from_axis_angle(a, -h);
        const double ti = -(janus_pair(d, rotate(qp, ni), nj, prm).energy -
                            janus_pair(d, rotate(qm, ni), nj, prm).energy) / (2 * h);
        const double tj = -(janus_pair(d, ni, rotate(qp, nj), prm).energy -
                            janus_pair(d, ni, rotate(qm, nj), prm).energy) / (2 * h);
        EXPECT_NEAR((&p.torque_i.x)[k], ti, 1e-5 * (1.0 + std::fabs(ti))) << "trial " << trial;
        EXPECT_NEAR((&p.torque_j.x)[k], tj, 1e-5 * (1.0 + std::fabs(tj))) << "trial " << trial;
      }
      const Vec3d balance = p.torque_i + p.torque_j - cross(d, p.force_i);
      EXPECT_LT(std::sqrt(dot(balance, balance)), 1e-10 * (1.0 + std::sqrt(dot(p.force_i, p.force_i))));
    }
    EXPECT_GT(patched, 50) << "too few pairs inside both patches to test the attraction";
  }
}

}  // namespace

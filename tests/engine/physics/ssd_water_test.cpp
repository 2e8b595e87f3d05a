// The SSD/RF evaluator: the dipole-dipole and LJ terms by hand, the sticky
// term against its spherical-angle form sin(th) sin(2 th) cos(2 ph), the
// cubic switches and the quintic ones of the drift diagnostic, forces and torques against central differences of the
// energy under displacements and small rotations of either molecule,
// Newton's third law and the pair's angular momentum balance.
#include <gtest/gtest.h>

#include <cmath>
#include <random>

#include "meso/physics/ssd_water.hpp"

namespace {

using meso::cross;
using meso::dot;
using meso::Quatd;
using meso::Vec3d;
using meso::physics::ssd_pair;
using meso::physics::SsdParams;

double energy(const Vec3d& d, const Quatd& qi, const Quatd& qj, const SsdParams& p = SsdParams{}) {
  return ssd_pair(d, qi, qj, p).energy;
}

double lj(double r) {
  const SsdParams p;
  return 4.0 * p.epsilon * (std::pow(p.sigma / r, 12) - std::pow(p.sigma / r, 6));
}

TEST(SsdWater, HeadToTailDipolesAtFiveAngstrom) {
  // r = 5 A: beyond both sticky switches (3.8, 3.35), inside the switched
  // cutoff's plateau (7.7). Head to tail along z: u.u = 1, (u.d^)^2 = 1:
  // U_dd = C mu^2 (-2 / r^3 - k_rf), k_rf = 2 (80 - 1) / (161 * 9^3).
  const SsdParams p;
  const double krf = 2.0 * 79.0 / (161.0 * 729.0);
  const double want = 14.39325 * 2.48 * 2.48 * (-2.0 / 125.0 - krf) + lj(5.0);
  EXPECT_NEAR(energy({0, 0, 5}, {1, {0, 0, 0}}, {1, {0, 0, 0}}), want, 1e-12);
  // Side by side, antiparallel (j turned by pi about x): u.u = -1, u.d = 0.
  const Quatd flip = meso::quat_from_axis_angle(Vec3d{1, 0, 0}, std::acos(-1.0));
  EXPECT_NEAR(energy({5, 0, 0}, {1, {0, 0, 0}}, flip), 14.39325 * 2.48 * 2.48 * (-1.0 / 125.0 + krf) + lj(5.0),
              1e-12);
  (void)p;
}

TEST(SsdWater, SwitchedCutoffGoesToZero) {
  EXPECT_NEAR(energy({0, 0, 9.0 - 1e-9}, {1, {0, 0, 0}}, {1, {0, 0, 0}}), 0.0, 1e-9);
  // Halfway through the switch: s = (hi + 2r - 3lo)(hi - r)^2/(hi - lo)^3 = 1/2.
  const double r = 0.5 * (7.7 + 9.0);
  const double krf = 2.0 * 79.0 / (161.0 * 729.0);
  const double full = 14.39325 * 2.48 * 2.48 * (-2.0 / (r * r * r) - krf) + lj(r);
  EXPECT_NEAR(energy({0, 0, r}, {1, {0, 0, 0}}, {1, {0, 0, 0}}), 0.5 * full, 1e-12);
}

// The sticky term from spherical angles, independently of the evaluator's
// Cartesian form: w = sin th sin 2th cos 2ph, w' = (cos th - 0.6)^2 (cos th
// + 0.8)^2 - w0, for the partner at body-frame direction b.
double sticky_by_angles(const Vec3d& b) {
  const double th = std::acos(b.z / std::sqrt(dot(b, b))), ph = std::atan2(b.y, b.x);
  const double w = std::sin(th) * std::sin(2 * th) * std::cos(2 * ph);
  const double c = std::cos(th);
  return w + (c - 0.6) * (c - 0.6) * (c + 0.8) * (c + 0.8) - 0.07715;
}

TEST(SsdWater, StickyTermByAnglesInsideBothSwitches) {
  // r = 2.3 A < r_l = 2.4 and r_l' = 2.75: s = s' = 1. The LJ and dipole
  // terms are the plain formulas (the switched cutoff is 1 here).
  std::mt19937_64 rng(4);
  std::normal_distribution<double> g;
  for (int k = 0; k < 20; ++k) {
    const Quatd qi = meso::normalized(Quatd{g(rng), {g(rng), g(rng), g(rng)}});
    const Quatd qj = meso::normalized(Quatd{g(rng), {g(rng), g(rng), g(rng)}});
    Vec3d d{g(rng), g(rng), g(rng)};
    d = (2.3 / std::sqrt(dot(d, d))) * d;
    const Vec3d ui = meso::physics::body_axis_z(qi), uj = meso::physics::body_axis_z(qj);
    const double krf = 2.0 * 79.0 / (161.0 * 729.0), r = 2.3;
    const double udd = 14.39325 * 2.48 * 2.48 *
                       ((dot(ui, uj) - 3.0 * dot(ui, d) * dot(uj, d) / (r * r)) / (r * r * r) - krf * dot(ui, uj));
    const double usp = 0.5 * 3.90 *
                       (sticky_by_angles(meso::rotate_inverse(qi, d)) + sticky_by_angles(meso::rotate_inverse(qj, -1.0 * d)));
    EXPECT_NEAR(energy(d, qi, qj), lj(r) + udd + usp, 1e-9);
  }
}

// The switches: 1 -> 0 with zero slope at both ends. The cubic's second
// derivative jumps there (6/w^2 and -6/w^2 inside, 0 outside: the force's
// derivative has a kink); the quintic's vanishes (switch_order = 5, C2).
TEST(SsdWater, CubicSwitchHasAKinkAndQuinticIsSmooth) {
  using meso::physics::ssd_detail::cubic_switch;
  using meso::physics::ssd_detail::quintic_switch;
  const double lo = 2.75, hi = 3.35, w = hi - lo, h = 1e-6, mid = 0.5 * (lo + hi);
  for (auto f : {&cubic_switch<double>, &quintic_switch<double>}) {
    EXPECT_EQ(f(lo, lo, hi).s, 1.0);
    EXPECT_EQ(f(hi, lo, hi).s, 0.0);
    EXPECT_NEAR(f(mid, lo, hi).s, 0.5, 1e-15);
    EXPECT_NEAR(f(lo + h, lo, hi).ds, 0.0, 1e-4);
    EXPECT_NEAR(f(hi - h, lo, hi).ds, 0.0, 1e-4);
    // ds against central differences of s inside the interval.
    for (double r : {lo + 0.1 * w, mid, hi - 0.1 * w})
      EXPECT_NEAR(f(r, lo, hi).ds, (f(r + h, lo, hi).s - f(r - h, lo, hi).s) / (2 * h), 1e-7);
  }
  // The second derivative just inside each end, by differences of ds.
  auto d2 = [&](auto f, double r) { return (f(r + h, lo, hi).ds - f(r - h, lo, hi).ds) / (2 * h); };
  EXPECT_NEAR(d2(cubic_switch<double>, lo + 2 * h), -6.0 / (w * w), 1e-3);
  EXPECT_NEAR(d2(cubic_switch<double>, hi - 2 * h), 6.0 / (w * w), 1e-3);
  EXPECT_NEAR(d2(quintic_switch<double>, lo + 2 * h), 0.0, 1e-3);
  EXPECT_NEAR(d2(quintic_switch<double>, hi - 2 * h), 0.0, 1e-3);
  // The quintic's slope at the middle: -30 x^2 (1 - x)^2 / w at x = 1/2.
  EXPECT_NEAR(quintic_switch(mid, lo, hi).ds, -1.875 / w, 1e-12);
}

TEST(SsdWater, ForcesAndTorquesAreMinusTheEnergyGradient) {
 for (const int order : {3, 5}) {
  SsdParams par;
  par.switch_order = order;
  std::mt19937_64 rng(9);
  std::normal_distribution<double> g;
  std::uniform_real_distribution<double> dist(2.6, 8.9);  // through every switch
  const double h = 1e-6;
  const Vec3d axes[3] = {{1, 0, 0}, {0, 1, 0}, {0, 0, 1}};
  for (int k = 0; k < 300; ++k) {
    const Quatd qi = meso::normalized(Quatd{g(rng), {g(rng), g(rng), g(rng)}});
    const Quatd qj = meso::normalized(Quatd{g(rng), {g(rng), g(rng), g(rng)}});
    Vec3d d{g(rng), g(rng), g(rng)};
    d = (dist(rng) / std::sqrt(dot(d, d))) * d;
    const auto pair = ssd_pair(d, qi, qj, par);
    const double scale = 1.0 + std::abs(pair.energy) + std::sqrt(dot(pair.force_i, pair.force_i));
    for (int a = 0; a < 3; ++a) {
      const Vec3d e = axes[a];
      // F_i = -dU/dr_i = +dU/dd (d = r_j - r_i).
      const double fd_f = (energy(d + h * e, qi, qj, par) - energy(d - h * e, qi, qj, par)) / (2 * h);
      auto turn = [&](const Quatd& q, double s) { return meso::quat_from_axis_angle(e, s * h) * q; };
      const double fd_ti = -(energy(d, turn(qi, 1), qj, par) - energy(d, turn(qi, -1), qj, par)) / (2 * h);
      const double fd_tj = -(energy(d, qi, turn(qj, 1), par) - energy(d, qi, turn(qj, -1), par)) / (2 * h);
      EXPECT_NEAR(dot(pair.force_i, e), fd_f, 1e-6 * scale) << "force " << a << " pair " << k << " order " << order;
      EXPECT_NEAR(dot(pair.torque_i, e), fd_ti, 1e-6 * scale) << "torque i " << a << " pair " << k;
      EXPECT_NEAR(dot(pair.torque_j, e), fd_tj, 1e-6 * scale) << "torque j " << a << " pair " << k;
    }
    // Seen from j: the opposite force, the torques traded.
    const auto back = ssd_pair(-1.0 * d, qj, qi, par);
    EXPECT_NEAR(back.energy, pair.energy, 1e-11 * scale);
    const Vec3d df = back.force_i + pair.force_i, dt = back.torque_i - pair.torque_j;
    EXPECT_LT(std::sqrt(dot(df, df)), 1e-11 * scale);
    EXPECT_LT(std::sqrt(dot(dt, dt)), 1e-11 * scale);
    // tau_i + tau_j + (r_i - r_j) x F_i = 0.
    const Vec3d net = pair.torque_i + pair.torque_j + cross(-1.0 * d, pair.force_i);
    EXPECT_LT(std::sqrt(dot(net, net)), 1e-10 * scale);
  }
 }
}

}  // namespace

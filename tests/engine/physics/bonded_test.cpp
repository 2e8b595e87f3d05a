// Bonded evaluators (meso/physics/bonded.hpp): hand-computed values, forces
// against central differences of the energies on random geometries, Newton's
// third law and zero torque, the angle's scale invariance (zero virial), and
// the FENE domain.
#include "meso/physics/bonded.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <random>

namespace {

using meso::Vec3d;
using namespace meso::physics;

constexpr double kPi = 3.14159265358979323846;

Vec3d cross(Vec3d a, Vec3d b) {
  return {a.y * b.z - a.z * b.y, a.z * b.x - a.x * b.z, a.x * b.y - a.y * b.x};
}
double norm(Vec3d a) { return std::sqrt(dot(a, a)); }

TEST(HarmonicBond, HandValues) {
  // The DPPC N-P bond (docs/reference.md): k = 1250 kJ/mol/nm^2, r0 = 0.47 nm,
  // stretched to 0.5 nm: V = 1250/2 0.03^2 = 0.5625, F = -k (r - r0) = -37.5
  // along r_ij, f_over_r = -37.5 / 0.5 = -75.
  const auto b = harmonic_bond<double>(0.25, {1250.0, 0.47});
  EXPECT_TRUE(b.ok);
  EXPECT_NEAR(b.energy, 0.5625, 1e-12);
  EXPECT_NEAR(b.f_over_r, -75.0, 1e-11);
  // Compressed to 0.44: V = 625 x 0.0009 = 0.5625 again, pushing apart.
  const auto c = harmonic_bond<double>(0.44 * 0.44, {1250.0, 0.47});
  EXPECT_NEAR(c.energy, 0.5625, 1e-12);
  EXPECT_NEAR(c.f_over_r, 1250.0 * 0.03 / 0.44, 1e-11);
  // At rest: no force, no energy.
  const auto r = harmonic_bond<double>(0.47 * 0.47, {1250.0, 0.47});
  EXPECT_NEAR(r.energy, 0.0, 1e-15);
  EXPECT_NEAR(r.f_over_r, 0.0, 1e-11);
}

TEST(FeneBond, HandValuesKremerGrest) {
  // Kremer-Grest: k = 30, R0 = 1.5, eps = sigma = 1, at r = 0.97:
  // FENE -0.5 30 2.25 ln(1 - 0.9409/2.25) = 18.278674...,
  // WCA 4 (0.97^-12 - 0.97^-6) + 1 = 1.962916..., total 20.241590...
  const FeneBondParams kg{30.0, 1.5, 1.0, 1.0};
  const double r = 0.97, x = 1.0 - r * r / 2.25;
  const double s6 = std::pow(r, -6.0);
  const double want = -0.5 * 30.0 * 2.25 * std::log(x) + 4.0 * (s6 * s6 - s6) + 1.0;
  EXPECT_NEAR(want, 20.24159, 1e-5);  // the closed form, evaluated by hand
  const auto b = fene_bond<double>(r * r, kg);
  EXPECT_TRUE(b.ok);
  EXPECT_NEAR(b.energy, want, 1e-12);
  // Beyond 2^(1/6) sigma only the FENE part: f_over_r = -k / (1 - r^2/R0^2).
  const auto far = fene_bond<double>(1.44, kg);
  EXPECT_NEAR(far.f_over_r, -30.0 / (1.0 - 1.44 / 2.25), 1e-12);
  EXPECT_NEAR(far.energy, -0.5 * 30.0 * 2.25 * std::log(1.0 - 1.44 / 2.25), 1e-12);
  // Out of the domain: reported, not evaluated.
  EXPECT_FALSE(fene_bond<double>(2.25, kg).ok);
  EXPECT_FALSE(fene_bond<double>(4.0, kg).ok);
}

TEST(HarmonicAngle, HandValues) {
  const Vec3d ex{1, 0, 0}, ey{0, 1, 0};
  // A right angle at rest (theta0 = pi/2): no force.
  const auto rest = harmonic_angle<double>(ex, ey, {25.0, kPi / 2});
  EXPECT_NEAR(rest.theta, kPi / 2, 1e-15);
  EXPECT_NEAR(rest.energy, 0.0, 1e-15);
  EXPECT_NEAR(norm(rest.fa) + norm(rest.fb) + norm(rest.fc), 0.0, 1e-12);
  // The same right angle with theta0 = 120 deg (the DPPC P-G-G angle): V =
  // 25/2 (pi/6)^2; dV/dtheta = -25 pi/6, and with unit bonds |F_a| = |F_c| =
  // |dV/dtheta| / 1, perpendicular to their bonds, opening the angle: a moves
  // along -y (away from c), c along -x (away from a).
  const auto open = harmonic_angle<double>(ex, ey, {25.0, 2 * kPi / 3});
  const double g = 25.0 * kPi / 6;
  EXPECT_NEAR(open.energy, 12.5 * (kPi / 6) * (kPi / 6), 1e-12);
  EXPECT_NEAR(open.fa.x, 0.0, 1e-12);
  EXPECT_NEAR(open.fa.y, -g, 1e-12);
  EXPECT_NEAR(open.fc.x, -g, 1e-12);
  EXPECT_NEAR(open.fc.y, 0.0, 1e-12);
  EXPECT_NEAR(open.fb.x, g, 1e-12);
  EXPECT_NEAR(open.fb.y, g, 1e-12);
  // A straight chain with theta0 = pi (DPPC P-G-C, G-C-C, C-C-C): at rest.
  const auto straight = harmonic_angle<double>(ex, Vec3d{-2, 0, 0}, {25.0, kPi});
  EXPECT_NEAR(straight.theta, kPi, 1e-7);
  EXPECT_NEAR(norm(straight.fa) + norm(straight.fc), 0.0, 1e-9);
}

// Nearly straight, bent rest angle, in fp32: the force is k (theta -
// theta0) / |r| perpendicular to each bond, finite as sin(theta) -> 0. With
// sin from sqrt(1 - cos^2), cos rounded to -1 below sin = 2.4e-4 and the
// clamped sin made the force 100-1000 times too large (a soft melt's bond
// blew apart in single precision); sin from the cross product keeps it.
TEST(HarmonicAngle, NearlyStraightInSinglePrecision) {
  const HarmonicAngleParams p{5.0, 2.0 * kPi / 3.0};
  for (const double eps : {1e-2, 1e-3, 1e-4, 3e-5, 1e-5}) {
    // r_ab along a tilted axis, r_cb opposite it turned by eps.
    const Vec3d u{0.48, -0.6, 0.64}, w = (1.0 / std::sqrt(0.64 + 0.4096)) * Vec3d{0.8, 0.64, 0.0};  // unit, u.w = 0
    const Vec3d rab = 0.7 * u, rcb = 0.75 * (-std::cos(eps) * u + std::sin(eps) * w);
    const auto d = harmonic_angle<double>(rab, rcb, p);
    const auto f = harmonic_angle<float>(meso::Vec3<float>{float(rab.x), float(rab.y), float(rab.z)},
                                         meso::Vec3<float>{float(rcb.x), float(rcb.y), float(rcb.z)}, p);
    EXPECT_NEAR(d.theta, kPi - eps, 1e-12) << eps;
    EXPECT_NEAR(f.theta, kPi - eps, 2e-6) << eps;
    const double want = 5.0 * (kPi - eps - p.theta0) / 0.7;  // |F_a|
    EXPECT_NEAR(norm(d.fa), want, 1e-6 * want) << eps;
    const double got = std::sqrt(double(f.fa.x) * f.fa.x + double(f.fa.y) * f.fa.y + double(f.fa.z) * f.fa.z);
    // fp32's cos carries an error of ~1e-7, the numerator's ~ sin: 1% at
    // sin = 1e-5.
    EXPECT_NEAR(got, want, (1e-3 + 1e-7 / eps) * want) << eps;
  }
}

// Energies of the configuration positions (a, b, c) for the difference test.
double angle_energy(Vec3d a, Vec3d b, Vec3d c, const HarmonicAngleParams& p) {
  return harmonic_angle<double>(a - b, c - b, p).energy;
}

TEST(HarmonicAngle, ForcesAreMinusTheGradientOnRandomGeometries) {
  std::mt19937_64 rng(20261123);
  std::uniform_real_distribution<double> u(-1.0, 1.0);
  const double h = 1e-6;
  for (int trial = 0; trial < 200; ++trial) {
    Vec3d r[3];
    for (auto& v : r) v = {u(rng), u(rng), u(rng)};
    // theta0 anywhere in (0, pi], the straight rest angle included.
    const HarmonicAngleParams p{25.0, trial % 10 == 0 ? kPi : kPi * (0.2 + 0.8 * (u(rng) + 1) / 2)};
    const auto f = harmonic_angle<double>(r[0] - r[1], r[2] - r[1], p);
    if (std::sin(f.theta) < 1e-3) continue;  // the clamp's neighbourhood
    const Vec3d* got[3] = {&f.fa, &f.fb, &f.fc};
    for (int k = 0; k < 3; ++k)
      for (int d = 0; d < 3; ++d) {
        Vec3d plus[3] = {r[0], r[1], r[2]}, minus[3] = {r[0], r[1], r[2]};
        (&plus[k].x)[d] += h;
        (&minus[k].x)[d] -= h;
        const double fd = -(angle_energy(plus[0], plus[1], plus[2], p) -
                            angle_energy(minus[0], minus[1], minus[2], p)) / (2 * h);
        // Central differences: O(h^2) truncation and ~1e-10 / h rounding.
        EXPECT_NEAR((&got[k]->x)[d], fd, 1e-6 * (1.0 + std::fabs(fd))) << "trial " << trial;
      }
    // Newton's third law, no torque about the vertex, and no virial (V
    // depends on the angle only, which a uniform dilation keeps).
    const Vec3d sum = f.fa + f.fb + f.fc;
    EXPECT_NEAR(norm(sum), 0.0, 1e-10);
    const Vec3d torque = cross(r[0] - r[1], f.fa) + cross(r[2] - r[1], f.fc);
    EXPECT_NEAR(norm(torque), 0.0, 1e-10 * (1.0 + norm(f.fa) + norm(f.fc)));
    EXPECT_NEAR(f.virial, 0.0, 1e-10 * (1.0 + norm(f.fa) + norm(f.fc)));
  }
}

TEST(Bonds, ForcesAreMinusTheGradient) {
  const double h = 1e-7;
  const FeneBondParams kg{30.0, 1.5, 1.0, 1.0};
  const HarmonicBondParams np{1250.0, 0.47};
  for (double r = 0.3; r < 1.49; r += 0.0137) {
    // -dV/dr = f_over_r r, by central differences in r.
    const auto fe = fene_bond<double>(r * r, kg);
    const double fd_fene = -(fene_bond<double>((r + h) * (r + h), kg).energy -
                             fene_bond<double>((r - h) * (r - h), kg).energy) / (2 * h);
    // Skip the WCA cut, where the force is continuous but its slope is not.
    if (std::fabs(r - std::pow(2.0, 1.0 / 6.0)) > 2 * h) {
      EXPECT_NEAR(fe.f_over_r * r, fd_fene, 1e-5 * (1.0 + std::fabs(fd_fene))) << "r " << r;
    }
    const auto hb = harmonic_bond<double>(r * r, np);
    const double fd_h = -(harmonic_bond<double>((r + h) * (r + h), np).energy -
                          harmonic_bond<double>((r - h) * (r - h), np).energy) / (2 * h);
    EXPECT_NEAR(hb.f_over_r * r, fd_h, 1e-5 * (1.0 + std::fabs(fd_h))) << "r " << r;
  }
}

}  // namespace

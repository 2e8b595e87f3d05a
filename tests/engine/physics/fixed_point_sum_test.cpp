// The order-independent fixed-point sums of the MPCD cells
// (meso/physics/fixed_point_sum.hpp): any order of the terms gives the same
// bits, the sum is as accurate as one fp64 rounding of the largest term for
// cell-sized n, the worst case cannot overflow, and a NaN bound gives NaN.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <random>
#include <vector>

#include "meso/physics/fixed_point_sum.hpp"
#include "meso/physics/srd.hpp"

namespace {

using namespace meso::physics;

struct Summed {
  double sum;
  double bound;
};

Summed fixed_sum(const std::vector<double>& x) {
  double b = 0.0;
  for (double v : x) b = nan_max(b, std::fabs(v));
  const int s = fixed_point_shift(b, static_cast<uint32_t>(x.size()));
  int64_t q = 0;
  for (double v : x) q += to_fixed_point(v, s);
  return {mpcd_cell_sum(q, s, b), b};
}

uint64_t bits(double x) {
  uint64_t u;
  std::memcpy(&u, &x, sizeof u);
  return u;
}

TEST(FixedPointSum, ShiftKeepsTheWorstCaseBelowTwoToThe62) {
  // bound 1 (frexp: 1 = 0.5 2^1, e = 1) and n = 10 (k = 4): shift 57.
  EXPECT_EQ(fixed_point_shift(1.0, 10), 57);
  EXPECT_EQ(fixed_point_shift(0.75, 1), 62);   // e = 0, k = 0
  EXPECT_EQ(fixed_point_shift(3.0, 16), 62 - 4 - 2);
  EXPECT_EQ(fixed_point_shift(3.0, 17), 62 - 5 - 2);
  // n terms all equal to the bound (and rounding up): the sum stays below 2^62.
  for (uint32_t n : {1u, 2u, 3u, 31u, 32u, 33u, 1000u}) {
    const double b = std::nextafter(2.0, 0.0);  // just below 2^e: the tightest case
    const int s = fixed_point_shift(b, n);
    const int64_t one = to_fixed_point(b, s);
    EXPECT_LE(static_cast<double>(one) * n, std::ldexp(1.0, 62)) << n;
  }
}

TEST(FixedPointSum, AnyOrderGivesTheSameBits) {
  std::mt19937_64 g(12345);
  std::normal_distribution<double> N(0.0, 1.0);
  for (int trial = 0; trial < 200; ++trial) {
    std::vector<double> x(1 + trial % 40);
    for (double& v : x) v = N(g) * std::exp(3.0 * N(g));  // magnitudes over many decades
    const Summed a = fixed_sum(x);
    for (int p = 0; p < 5; ++p) {
      std::shuffle(x.begin(), x.end(), g);
      EXPECT_EQ(bits(fixed_sum(x).sum), bits(a.sum)) << "trial " << trial;
    }
  }
}

TEST(FixedPointSum, AsAccurateAsOneRoundingOfTheLargestTerm) {
  // Against a long-double sum (exact here: 64-bit mantissa, 31 terms within
  // 2^20 of each other's scale). The header's derivation bounds the
  // fixed-point sum's error by 2^(e - 53) <= 2 bound 2^-53 for n <= 32; its
  // conversion to a double adds half an ulp of the result, |sum| 2^-53, as
  // any fp64 result would.
  std::mt19937_64 g(777);
  std::uniform_real_distribution<double> U(-1.0, 1.0);
  double worst = 0.0;
  for (int trial = 0; trial < 2000; ++trial) {
    std::vector<double> x(2 + trial % 31);
    for (double& v : x) v = U(g) * std::ldexp(1.0, trial % 20 - 10);
    const Summed a = fixed_sum(x);
    long double exact = 0.0L;  // 64-bit mantissa: exact enough for 32 terms of one scale
    for (double v : x) exact += v;
    const double err = std::fabs(static_cast<double>(static_cast<long double>(a.sum) - exact));
    worst = std::max(worst, err / a.bound);
    const double allowed = (2.0 * a.bound + std::fabs(static_cast<double>(exact))) * std::ldexp(1.0, -53);
    EXPECT_LE(err, allowed) << "trial " << trial;
  }
  std::printf("fixed-point cell sum: worst error %.3g x the largest term\n", worst);
}

TEST(FixedPointSum, CancellationIsExact) {
  // +x and -x cancel to exactly zero whatever the order, and 1 + 1e-3 - 1
  // keeps the 1e-3 to the scale's resolution (2^-59 here).
  const std::vector<double> x{0.3, -0.7, 1.1, -0.3, 0.7, -1.1};
  EXPECT_EQ(fixed_sum(x).sum, 0.0);
  const Summed s = fixed_sum({1.0, 1e-3, -1.0});
  EXPECT_NEAR(s.sum, 1e-3, 1e-17);
}

TEST(FixedPointSum, NonFiniteBoundGivesNaN) {
  const double nan = std::numeric_limits<double>::quiet_NaN();
  const double inf = std::numeric_limits<double>::infinity();
  EXPECT_TRUE(std::isnan(fixed_sum({1.0, nan, 2.0}).sum));
  EXPECT_TRUE(std::isnan(fixed_sum({nan, 1.0}).sum));
  EXPECT_TRUE(std::isnan(fixed_sum({1.0, inf}).sum));
  EXPECT_TRUE(std::isnan(nan_max(nan, 1.0)));
  EXPECT_TRUE(std::isnan(nan_max(1.0, nan)));
  EXPECT_EQ(nan_max(1.0, 2.0), 2.0);
  EXPECT_EQ(fixed_sum({0.0, 0.0}).sum, 0.0);
}

}  // namespace

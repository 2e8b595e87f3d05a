// Host-only accuracy oracle for fast_math.hpp, shared by the host unit test,
// the GPU test and the microbenchmark so that all three measure error the
// same way: the published input ranges and bounds (docs/reference.md, "Fast
// math"), random inputs over them, and an extended-precision reference.
//
// Reference: x87 80-bit long double (64-bit significand) powl/logl/sinl from
// glibc, i.e. 11 bits more than double. They are accurate to about one
// long-double ulp = 2^-11 double ULP, so a measured error of E ULP is exact to
// +-0.001 ULP; a spot check of powl against libquadmath's powq over these
// ranges agreed to 0.0005 ULP (docs/fast_math.md). Requires a long double
// with >= 64 significand bits (x86-64 Linux); the static_assert says so.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <random>
#include <vector>

namespace meso::physics::fast_math_check {

static_assert(std::numeric_limits<long double>::digits >= 64,
              "the fast-math accuracy oracle needs an extended-precision long double");

// One input range of fast_pow with the error bound published for it.
struct PowRange {
  const char* name;
  double a_lo, a_hi;  // a log-uniform in [a_lo, a_hi]
  double b_lo, b_hi;  // b uniform in [b_lo, b_hi]
  double published_max_ulp;
};

// Tang & Karniadakis (2014) sec. 3.5: 6 ULP on the first wide range, 11 ULP on
// the second; the DPD range (where the simulation calls it) is held to the
// tighter of the two.
inline constexpr PowRange kPowRanges[] = {
    {"dpd", 1e-10, 2.0, 0.25, 3.0, 6.0},
    {"wide_b3", 1e-102, 1e102, 0.0, 3.0, 6.0},
    {"wide_b6", 1e-51, 1e51, 0.0, 6.0, 11.0},
};

// Tang Table 3: fastlog 4.21e-12, fastcospi 1.10e-10 max relative error.
inline constexpr double kPublishedLogRelErr = 4.21e-12;
inline constexpr double kPublishedCospiRelErr = 1.10e-10;

inline constexpr long double kPiL = 3.141592653589793238462643383279502884L;

// |computed - ref| in units of the double spacing at ref (ref normal, != 0).
inline double ulp_error(double computed, long double ref) {
  const long double ulp = std::ldexp(1.0L, std::ilogb(ref) - 52);
  return static_cast<double>(std::fabs(static_cast<long double>(computed) - ref) / ulp);
}

inline double rel_error(double computed, long double ref) {
  return static_cast<double>(std::fabs((static_cast<long double>(computed) - ref) / ref));
}

inline long double pow_ref(double a, double b) { return std::pow(static_cast<long double>(a), static_cast<long double>(b)); }
inline long double log_ref(double x) { return std::log(static_cast<long double>(x)); }

// cos(pi x), x in [0, 2], as sin(pi t) with t = 1/2 - x or x - 3/2: an
// identity, and t is exact in long double (x has 53 bits), so the reference
// keeps its relative accuracy next to the zeros of cos, where forming pi x
// first would not.
inline long double cospi_ref(double x) {
  const long double t = x <= 1.0 ? 0.5L - x : static_cast<long double>(x) - 1.5L;
  return std::sin(kPiL * t);
}

struct PowSamples {
  std::vector<double> a, b;
};

// n random (a, b) in range r, plus the corners of the range.
inline PowSamples sample_pow(const PowRange& r, std::size_t n, uint64_t seed) {
  std::mt19937_64 gen(seed);
  std::uniform_real_distribution<double> log_a(std::log(r.a_lo), std::log(r.a_hi));
  std::uniform_real_distribution<double> ub(r.b_lo, r.b_hi);
  PowSamples s;
  for (double a : {r.a_lo, r.a_hi, 1.0})
    for (double b : {r.b_lo, r.b_hi}) {
      s.a.push_back(a);
      s.b.push_back(b);
    }
  while (s.a.size() < n) {
    s.a.push_back(std::exp(log_a(gen)));
    s.b.push_back(ub(gen));
  }
  return s;
}

// n uniforms in (0, 1] (Box-Muller's u1, the DPD weight w), with 1 and the
// smallest 53-bit uniform included.
inline std::vector<double> sample_open01(std::size_t n, uint64_t seed) {
  std::mt19937_64 gen(seed);
  std::vector<double> x{1.0, 0x1p-53};
  while (x.size() < n) x.push_back(static_cast<double>((gen() >> 11) + 1) * 0x1p-53);
  return x;
}

// n points in [0, 2] (Box-Muller's angle 2 u2), with the ends and the zeros.
inline std::vector<double> sample_cospi(std::size_t n, uint64_t seed) {
  std::mt19937_64 gen(seed);
  std::vector<double> x{0.0, 0.5, 1.0, 1.5, 2.0};
  while (x.size() < n) x.push_back(static_cast<double>(gen() >> 11) * 0x1p-52);
  return x;
}

struct ErrorStats {
  double max_ulp = 0.0;
  double max_rel = 0.0;
  std::size_t worst = 0;  // index of the input with max_ulp
};

// Error of y[i] against ref(i) over all i with a normal, non-zero reference.
template <class Ref>
ErrorStats measure(const std::vector<double>& y, Ref ref) {
  ErrorStats st;
  for (std::size_t i = 0; i < y.size(); ++i) {
    const long double r = ref(i);
    if (r == 0.0L || std::fabs(r) < std::numeric_limits<double>::min()) continue;
    double u = ulp_error(y[i], r);
    if (std::isnan(u)) u = std::numeric_limits<double>::infinity();  // NaN must fail, not hide
    if (u > st.max_ulp) {
      st.max_ulp = u;
      st.worst = i;
    }
    st.max_rel = std::max(st.max_rel, std::isinf(u) ? u : rel_error(y[i], r));
  }
  return st;
}

}  // namespace meso::physics::fast_math_check

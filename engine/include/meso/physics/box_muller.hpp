// Box-Muller transform: two uniforms -> standard normal deviates.
//
// Source: G. E. P. Box, M. E. Muller, "A note on the generation of random
// normal deviates", Ann. Math. Statist. 29 (1958) 610. It is used instead of
// an inverse-CDF or ziggurat method because it is branch-free (no rejection
// loop, so warps do not diverge) and maps each counter-based draw to exactly
// one value, which keeps the pair noise a pure function of its key.
#pragma once

#include <cmath>

#include "fast_math.hpp"
#include "meso_hd.hpp"

namespace meso::physics {

struct GaussianPair {
  double z0;  // sqrt(-2 ln u1) cos(2 pi u2)
  double z1;  // sqrt(-2 ln u1) sin(2 pi u2)
};

namespace box_muller_detail {
inline constexpr double kTwoPi = 6.283185307179586476925286766559;
}

// u1 must lie in (0, 1] (uniform_open01 guarantees it): u1 = 1 gives 0, and
// u1 = 0 would give an infinite radius. u2 may be anywhere in [0, 1].
//
// On the device the angle goes through cospi/sincospi(2 u2): 2 u2 is exact, so
// there is no rounding of 2 pi u2 and no trigonometric range-reduction slow
// path in the kernel. The host has no cospi in standard C++ and uses
// cos(2 pi u2); the two differ by a few ulp, far inside the 1e-12 host/device
// force tolerance (ARCHITECTURE.md, "Correctness strategy").
MESO_HD double box_muller(double u1, double u2) {
  const double r = ::sqrt(-2.0 * ::log(u1));
#ifdef __CUDA_ARCH__
  return r * ::cospi(2.0 * u2);
#else
  return r * ::cos(box_muller_detail::kTwoPi * u2);
#endif
}

// The same transform with the branchless fast_log / fast_cospi of
// fast_math.hpp (Tang & Karniadakis 2014, sec. 3.5), for the `pow=fast`
// variant. Both are within ~1 ULP of libm, so the deviates agree with
// box_muller() to ~1e-15 relative; unlike box_muller() the result is bitwise
// the same on host and device (sqrt is correctly rounded on both). u1 in
// (0, 1] as above (fast_log(0) is finite, so u1 = 0 would give 38.6, not inf).
MESO_HD double box_muller_fast(double u1, double u2) {
  return ::sqrt(-2.0 * fast_log(u1)) * fast_cospi(2.0 * u2);
}

// The transform in fp32 (the `noise=fp32` variant of fp32 storage): u1 in
// (0, 1] as above. Device: logf, sqrtf and cospif (CUDA's accurate versions,
// within 1, 0 and 1 ULP); host: the same through std::log, std::sqrt and a
// cos of the exact angle, so host and device agree to a few fp32 ULP, not
// bitwise (the cpu backend never uses it: it keeps fp64 noise). How far it
// lies from box_muller() of the same uniforms: pair_noise.hpp.
MESO_HD float box_muller_f32(float u1, float u2) {
#ifdef __CUDA_ARCH__
  return ::sqrtf(-2.0f * ::logf(u1)) * ::cospif(2.0f * u2);
#else
  return std::sqrt(-2.0f * std::log(u1)) *
         static_cast<float>(std::cos(box_muller_detail::kTwoPi * static_cast<double>(u2)));
#endif
}

// Policies for code templated on the normal-deviate transform.
struct LibmBoxMuller {
  MESO_HD double operator()(double u1, double u2) const { return box_muller(u1, u2); }
};
struct FastBoxMuller {
  MESO_HD double operator()(double u1, double u2) const { return box_muller_fast(u1, u2); }
};

// Both deviates of one transform; they are independent N(0,1), so a caller
// that needs two normals pays for one log and one sqrt.
MESO_HD GaussianPair box_muller2(double u1, double u2) {
  const double r = ::sqrt(-2.0 * ::log(u1));
  double s, c;
#ifdef __CUDA_ARCH__
  ::sincospi(2.0 * u2, &s, &c);
#else
  const double phi = box_muller_detail::kTwoPi * u2;
  s = ::sin(phi);
  c = ::cos(phi);
#endif
  return GaussianPair{r * c, r * s};
}

}  // namespace meso::physics

// Per-particle Langevin noise: three independent standard normal deviates for
// particle `tag` at step `step`, a pure function of (tag, step, seed) so that
// every backend, rank count and particle order draws the same numbers
// (ARCHITECTURE.md, "Random numbers"). Philox4x32-10 with its own stream id
// in key word 1 ("LNGV"), so it never shares counters with the DPD pair
// noise ("DPD!") or the initial-configuration draws under the same user seed.
//
// counter = {tag, step low word, step high word, draw}, draw = 0, 1: each
// call gives four 32-bit words = two 53-bit uniforms = two normals (Box-
// Muller pair), so two calls give the three components (the fourth normal is
// unused).
#pragma once

#include <cstdint>

#include "box_muller.hpp"
#include "meso_hd.hpp"
#include "philox.hpp"
#include "vec3.hpp"

namespace meso::physics {

namespace langevin_noise_detail {
inline constexpr uint32_t kLangevinStream = 0x4c4e4756u;  // "LNGV"
}

// Three normals from the draws `first` and `first + 1` of (tag, step).
MESO_HD Vec3d langevin_normals(uint32_t tag, uint64_t step, uint32_t seed, uint32_t first) {
  const Philox4x32Key key{{seed, langevin_noise_detail::kLangevinStream}};
  const uint32_t lo = static_cast<uint32_t>(step), hi = static_cast<uint32_t>(step >> 32);
  const Philox4x32Ctr a = philox4x32_10(Philox4x32Ctr{{tag, lo, hi, first}}, key);
  const Philox4x32Ctr b = philox4x32_10(Philox4x32Ctr{{tag, lo, hi, first + 1u}}, key);
  const GaussianPair g01 = box_muller2(uniform_open01(a.v[0], a.v[1]), uniform_open01(a.v[2], a.v[3]));
  const double g2 = box_muller(uniform_open01(b.v[0], b.v[1]), uniform_open01(b.v[2], b.v[3]));
  return {g01.z0, g01.z1, g2};
}

MESO_HD Vec3d langevin_gaussian3(uint32_t tag, uint64_t step, uint32_t seed) {
  return langevin_normals(tag, step, seed, 0u);
}

// The rotational noise of orientational particles: the same stream and
// counter layout with draw = 2, 3, so it is independent of the
// translational draws of the same (tag, step).
MESO_HD Vec3d langevin_gaussian3_rotation(uint32_t tag, uint64_t step, uint32_t seed) {
  return langevin_normals(tag, step, seed, 2u);
}

}  // namespace meso::physics

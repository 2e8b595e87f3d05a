// DPD pair noise xi_ij: a standard normal deviate shared by the two particles
// of a pair, xi_ij == xi_ji bit for bit, so that the random pair forces are
// equal and opposite and momentum is conserved exactly (Groot & Warren, J.
// Chem. Phys. 107 (1997) 4423, eq. 3 with theta_ij = theta_ji). The noise is a
// pure function of its key, never of particle order, rank or backend
// (ARCHITECTURE.md, "Random numbers"), so that GPU and CPU forces can be
// compared pair by pair.
//
// Two generators, selected by the `rng` variant axis:
//   philox: Philox4x32-10 keyed by (min tag, max tag, step, seed); see philox.hpp.
//   tea:    Tang & Karniadakis' TEA scheme, 4 rounds over per-particle
//           signatures; see tea.hpp.
//
// Integer stages (Philox words, TEA words) are bit-identical on host and
// device. The conversion to a normal uses log/sqrt and cos (host) or cospi
// (device), which round differently by an ulp or so, so host and device xi
// agree to ~1e-15, not necessarily bit for bit; symmetry on one backend is
// exact because both orders run the same instructions on the same words.
#pragma once

#include <cstdint>

#include "box_muller.hpp"
#include "meso_hd.hpp"
#include "philox.hpp"
#include "rng_kind.hpp"
#include "tea.hpp"

namespace meso::physics {

namespace pair_noise_detail {
// Philox key word 1: a stream id ("DPD!") so that the pair noise never shares
// counters with another Philox consumer (SRD rotations, thermostats) that uses
// the same user seed.
inline constexpr uint32_t kDpdStream = 0x44504421u;
// Rounds of the per-pair TEA hash (Tang & Karniadakis 2014; USER-MESO
// gaussian_TEA<4>).
inline constexpr int kTeaPairRounds = 4;
// Rounds used once per step to expand (step, seed) into the pair key: the full
// 32-cycle cipher, so that consecutive steps get unrelated keys.
inline constexpr int kTeaKeyRounds = 32;
}  // namespace pair_noise_detail

// ---------------------------------------------------------------- philox --

// counter = {min tag, max tag, step low word, step high word},
// key     = {seed, "DPD!"}.
// Ordering the tags makes the counter, hence every output bit, symmetric in
// (i, j). Words 0,1 give u1 and words 2,3 give u2 at 53-bit resolution, so the
// Gaussian is not truncated before ~8.57 sigma (see uniform_open01).
template <class BoxMuller = LibmBoxMuller>
MESO_HD double pair_gaussian_philox(uint32_t tag_i, uint32_t tag_j, uint64_t step, uint32_t seed,
                                    BoxMuller bm = BoxMuller{}) {
  const uint32_t lo = tag_i < tag_j ? tag_i : tag_j;
  const uint32_t hi = tag_i < tag_j ? tag_j : tag_i;
  const Philox4x32Ctr ctr{{lo, hi, static_cast<uint32_t>(step), static_cast<uint32_t>(step >> 32)}};
  const Philox4x32Key key{{seed, pair_noise_detail::kDpdStream}};
  const Philox4x32Ctr r = philox4x32_10(ctr, key);
  return bm(uniform_open01(r.v[0], r.v[1]), uniform_open01(r.v[2], r.v[3]));
}

// ------------------------------------------------------------ fp32 (noise=fp32)
//
// The same draws with the Gaussian transform in fp32, for kernels that store
// fp32 and need the noise no more precisely than that (HOOMD-blue's DPD
// thermostat draws its noise in the storage precision too). The counter,
// key and words are those of the fp64 functions above; only the conversion
// to a uniform and Box-Muller run in fp32:
//   u = hi 2^-32 + lo 2^-64 + 2^-65 (Philox; two words, rounded once to fp32,
//   so u carries fp32's *relative* precision at every magnitude: the tails,
//   where u is small, are as accurate as the centre), or (v + 1) 2^-32 (TEA);
//   xi = sqrtf(-2 logf(u1)) cospif(2 u2).
// Error against the fp64 functions on the same counters (measured on the
// host over 2^22 draws each, tests/engine/physics/rng_statistics_test.cpp):
// RMS |xi32 - xi64| = 1.0e-7; |xi32 - xi64| <= 2^-20 (1 + |xi|) wherever
// |xi| > 0.05; the largest, 3.9e-5, where u1 rounds next to 1 and |xi| is
// below 1e-3 (the fp32 spacing 2^-24 of u1 near 1 limits -2 ln u1 there).
// In a DPD force that is sigma w_R dt^-1/2 times these: at the dpd-fluid
// parameters 4e-6 RMS per pair against pair forces of order 10, far below
// the rounding of fp32 positions (GPU tests' error model, cuda_backend_test).
// Philox words give u >= 2^-65, so the fp32 Gaussian is cut at 9.5 sigma
// (fp64: 8.57).
MESO_HD float uniform_open01_f32(uint32_t hi, uint32_t lo) {
  return fmaf(static_cast<float>(lo), 0x1p-64f, fmaf(static_cast<float>(hi), 0x1p-32f, 0x1p-65f));
}
MESO_HD float uniform_open01_f32(uint32_t v) {
  return fmaf(static_cast<float>(v), 0x1p-32f, 0x1p-32f);
}

MESO_HD float pair_gaussian_philox_f32(uint32_t tag_i, uint32_t tag_j, uint64_t step, uint32_t seed) {
  const uint32_t lo = tag_i < tag_j ? tag_i : tag_j;
  const uint32_t hi = tag_i < tag_j ? tag_j : tag_i;
  const Philox4x32Ctr ctr{{lo, hi, static_cast<uint32_t>(step), static_cast<uint32_t>(step >> 32)}};
  const Philox4x32Key key{{seed, pair_noise_detail::kDpdStream}};
  const Philox4x32Ctr r = philox4x32_10(ctr, key);
  return box_muller_f32(uniform_open01_f32(r.v[0], r.v[1]), uniform_open01_f32(r.v[2], r.v[3]));
}

// ------------------------------------------------------------------- tea --

struct TeaPairKey {
  uint32_t k[4];
};

// The 128-bit TEA key of the pair hash for one step. USER-MESO brings the step
// in by XORing premix_TEA<64>(seed, step) into every signature and keeps the
// TEA key fixed; here the step and seed go into the key instead, because
// tea_signature() takes no step (see tea.hpp). k0, k1 are the full 32-round TEA
// encryption of the block (seed, step low word) under the fixed key with the
// step's high word and the "DPD!" stream id folded into k2, k3: a bijection of
// (seed, step) for each high word, so no two (seed, step) share a key, and one
// step apart gives unrelated keys. k2, k3 stay fixed (USER-MESO's words).
//
// This costs 32 rounds, so a kernel should compute it once per step and call
// the TeaPairKey overload below; the (step, seed) overload is for callers that
// rely on the compiler to hoist it.
MESO_HD TeaPairKey tea_pair_key(uint64_t step, uint32_t seed) {
  using namespace tea_detail;
  uint32_t v0 = seed;
  uint32_t v1 = static_cast<uint32_t>(step);
  tea_rounds(v0, v1, kK0, kK1, kK2 ^ static_cast<uint32_t>(step >> 32),
             kK3 ^ pair_noise_detail::kDpdStream, pair_noise_detail::kTeaKeyRounds);
  return TeaPairKey{{v0, v1, kK2, kK3}};
}

// 4 TEA rounds over (signature of the min-tag particle, signature of the
// max-tag particle). USER-MESO orders the two signatures by their value
// (gaussian_TEA<4>(sig_i > sig_j, ...)); ordering by tag is equally symmetric
// and stays well defined if two signatures happen to collide.
//
// Output word v1 -> u1 (radius), v0 -> u2 (angle), as in USER-MESO's
// gaussian_TEA. Resolution consequence: TEA yields only 32-bit uniforms, so
// u1 >= 2^-32 and |xi| <= sqrt(64 ln 2) = 6.660; the missing tail mass is
// P(|N(0,1)| > 6.66) = 2.7e-11, invisible in DPD statistics. Unlike USER-MESO
// we do not also clamp xi to [-4, 4]: that lowers the variance by 1.2e-4 and
// the 4th moment by 4.3e-3 (a slightly wrong temperature). We also use
// libm-accurate log/cos instead of their reduced-precision polynomials.
//
// Signatures are 32 bits, so among N particles about N^2 / 2^33 pairs of
// particles share a signature each step (~100 for N = 10^6); two pairs
// (p, r) and (q, r) then draw the same xi only if p and q are both neighbours
// of r in that step, which is rare and short-lived because the velocity bits
// change the signatures every step.
template <class BoxMuller = LibmBoxMuller>
MESO_HD double pair_gaussian_tea(uint32_t tag_i, uint32_t sig_i, uint32_t tag_j, uint32_t sig_j,
                                 const TeaPairKey& key, BoxMuller bm = BoxMuller{}) {
  const bool i_first = tag_i < tag_j;
  uint32_t v0 = i_first ? sig_i : sig_j;
  uint32_t v1 = i_first ? sig_j : sig_i;
  tea_rounds(v0, v1, key.k[0], key.k[1], key.k[2], key.k[3], pair_noise_detail::kTeaPairRounds);
  return bm(uniform_open01(v1), uniform_open01(v0));
}

// fp32 transform of the same TEA words (see pair_gaussian_philox_f32).
MESO_HD float pair_gaussian_tea_f32(uint32_t tag_i, uint32_t sig_i, uint32_t tag_j, uint32_t sig_j,
                                    const TeaPairKey& key) {
  const bool i_first = tag_i < tag_j;
  uint32_t v0 = i_first ? sig_i : sig_j;
  uint32_t v1 = i_first ? sig_j : sig_i;
  tea_rounds(v0, v1, key.k[0], key.k[1], key.k[2], key.k[3], pair_noise_detail::kTeaPairRounds);
  return box_muller_f32(uniform_open01_f32(v1), uniform_open01_f32(v0));
}

MESO_HD double pair_gaussian_tea(uint32_t tag_i, uint32_t sig_i, uint32_t tag_j, uint32_t sig_j,
                                 uint64_t step, uint32_t seed) {
  return pair_gaussian_tea(tag_i, sig_i, tag_j, sig_j, tea_pair_key(step, seed));
}

}  // namespace meso::physics

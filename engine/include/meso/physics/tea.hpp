// TEA (Tiny Encryption Algorithm) used as a hash-based random number
// generator for DPD pair noise.
//
// Cipher: D. Wheeler, R. Needham, "TEA, a Tiny Encryption Algorithm", Fast
// Software Encryption 1994, LNCS 1008 (1995) 363; delta = 0x9E3779B9. One
// "round" below is one cycle of the published encode loop (two Feistel
// half-rounds); the full cipher is 32 of them.
//
// RNG use: Y.-H. Tang, G. E. Karniadakis, "Accelerating dissipative particle
// dynamics simulations on GPUs: Algorithms, numerics and applications",
// Comput. Phys. Commun. 185 (2014) 2809, sec. 3.4 / Algorithm 4, as released in
// their USER-MESO LAMMPS package (github.com/yhtang/MESO, src/USER-MESO:
// atom_vec_meso.cu gpu_merge_xvt, pair_dpd_meso.cu gpu_dpd; the helpers
// __TEA_core / premix_TEA / __mantissa / gaussian_TEA are in math_meso.h, read
// from the USERMESO-2.0 distribution of the same code). The idea: spend
// many TEA rounds once per particle per step on a 32-bit "signature", so that
// the per-pair hash (evaluated once per neighbour pair, i.e. tens of times per
// particle at usual DPD densities) needs only 4 rounds. What is reproduced
// from USER-MESO, and where this file departs from it, is documented at
// tea_signature() and in pair_noise.hpp.
#pragma once

#include <cstdint>

#include "meso_hd.hpp"

namespace meso::physics {

namespace tea_detail {

inline constexpr uint32_t kDelta = 0x9E3779B9u;  // Wheeler & Needham

// Fixed key of the signature pre-rounds: the same four words USER-MESO uses
// for every TEA call (_TEA_K0.._TEA_K3 in math_meso.h). Any fixed key would
// do; reusing theirs keeps the pre-mixing identical to the published code.
inline constexpr uint32_t kK0 = 0xA341316Cu;
inline constexpr uint32_t kK1 = 0xC8013EA4u;
inline constexpr uint32_t kK2 = 0xAD90777Du;
inline constexpr uint32_t kK3 = 0x7E95761Eu;

// Rounds of the per-particle pre-mix (USER-MESO: premix_TEA<16>).
inline constexpr int kSignatureRounds = 16;
// Rounds that turn the seed into a 32-bit whitening word (USER-MESO mixes its
// seed with premix_TEA<64>).
inline constexpr int kSeedRounds = 64;
// Domain-separation word for the seed whitening ("SIG!"), so the whitening is
// not the same function as any other TEA use of the seed in this code.
inline constexpr uint32_t kSignatureStream = 0x53494721u;

// Spreads the low 11 bits of x to bit positions 0, 3, 6, ..., 30 (Morton
// "part-1-by-2"). Masks as in USER-MESO's bit_space3 (math_meso.h).
MESO_HD uint32_t spread_bits3(uint32_t x) {
  x = (x | (x << 12)) & 0x00FC003Fu;
  x = (x | (x << 6)) & 0x381C0E07u;
  x = (x | (x << 4)) & 0x190C8643u;
  x = (x | (x << 2)) & 0x49249249u;
  return x;
}

MESO_HD uint32_t float_bits(float f) {
#ifdef __CUDA_ARCH__
  return __float_as_uint(f);
#else
  uint32_t u;
  __builtin_memcpy(&u, &f, sizeof u);
  return u;
#endif
}

// The 11 most significant explicit mantissa bits (bits 12..22) of each
// float32 velocity component, interleaved x,y,z into one word. This is
// USER-MESO's __mantissa(): i & 0x7FF000 >> 12, then interleave3. The z
// component's top bit lands at position 32 and is dropped, as there.
//
// Why the *upper* mantissa bits (and not bits 0..10): two backends whose fp64
// velocities differ in the last few ulps, or a mixed-precision backend whose
// fp32 velocities were rounded differently, still agree on bits 12..22 unless
// a value sits within ~2^-11 relative of a boundary, so the signature (and the
// whole TEA noise stream) stays backend-independent far more often than it
// would with the low bits, which flip with every rounding difference. The bits
// still change every step for any particle that moves, which is what the
// velocity term is for: fresh entropy per step without extra state.
MESO_HD uint32_t velocity_mantissa_bits(float vx, float vy, float vz) {
  const uint32_t i = (float_bits(vx) & 0x007FF000u) >> 12;
  const uint32_t j = (float_bits(vy) & 0x007FF000u) >> 12;
  const uint32_t k = (float_bits(vz) & 0x007FF000u) >> 12;
  return spread_bits3(i) | (spread_bits3(j) << 1) | (spread_bits3(k) << 2);
}

}  // namespace tea_detail

// `rounds` cycles of the TEA encode routine (Wheeler & Needham's loop with
// n = rounds, sum starting at 0). With rounds = 32 this is the standard
// cipher, which is what the known-answer tests check.
MESO_HD void tea_rounds(uint32_t& v0, uint32_t& v1, uint32_t k0, uint32_t k1, uint32_t k2,
                        uint32_t k3, int rounds) {
  uint32_t sum = 0;
  for (int n = 0; n < rounds; ++n) {
    sum += tea_detail::kDelta;
    v0 += ((v1 << 4) + k0) ^ (v1 + sum) ^ ((v1 >> 5) + k1);
    v1 += ((v0 << 4) + k2) ^ (v0 + sum) ^ ((v0 >> 5) + k3);
  }
}

// Reverses the bit order. USER-MESO feeds __brev(tag), not the tag, into the
// signature pre-mix and we keep that so the pre-mix input is the published
// one. Its effect is that consecutive tags differ in the high bits of v0
// rather than the low bits; with 16 pre-rounds TEA diffuses a one-bit change
// from either end across the whole 64-bit block, so the outcome does not hinge
// on it.
MESO_HD uint32_t bit_reverse32(uint32_t x) {
#ifdef __CUDA_ARCH__
  return __brev(x);
#else
  x = ((x >> 1) & 0x55555555u) | ((x & 0x55555555u) << 1);
  x = ((x >> 2) & 0x33333333u) | ((x & 0x33333333u) << 2);
  x = ((x >> 4) & 0x0F0F0F0Fu) | ((x & 0x0F0F0F0Fu) << 4);
  x = ((x >> 8) & 0x00FF00FFu) | ((x & 0x00FF00FFu) << 8);
  return (x >> 16) | (x << 16);
#endif
}

// Per-particle binary signature (Tang & Karniadakis 2014, sec. 3.4):
//
//   v0  = bit_reverse32(tag)
//   v1  = velocity_mantissa_bits(float(vx), float(vy), float(vz))
//   TEA 16 rounds on (v0, v1) with the fixed key kK0..kK3
//   sig = (v0 ^ v1) ^ W(seed),  W(seed) = v0 ^ v1 of TEA 64 rounds on
//                                          (seed, "SIG!") with the same key
//
// This is USER-MESO's gpu_merge_xvt expression
//   seed_now ^ premix_TEA<16>(__brev(tag), __mantissa(vx, vy, vz)),
//   seed_now = premix_TEA<64>(seed, timestep)
// except that the whitening word W here takes no step: in mesobench the step
// enters the per-pair key instead (pair_noise.hpp), so a signature depends only
// on (tag, velocity, seed) and can be computed by whoever owns the velocities.
//
// Velocities are taken as float so that the signature does not depend on the
// storage precision: an fp64 backend passes float(v), exactly what an fp32
// mixed-precision backend stores.
// The seed whitening word W(seed): 64 rounds, so compute it once per run
// (or step) and pass it to tea_signature_whitened for every particle.
MESO_HD uint32_t tea_seed_whitening(uint32_t seed) {
  using namespace tea_detail;
  uint32_t w0 = seed;
  uint32_t w1 = kSignatureStream;
  tea_rounds(w0, w1, kK0, kK1, kK2, kK3, kSeedRounds);
  return w0 ^ w1;
}

MESO_HD uint32_t tea_signature_whitened(uint32_t tag, float vx, float vy, float vz,
                                        uint32_t whitening) {
  using namespace tea_detail;
  uint32_t v0 = bit_reverse32(tag);
  uint32_t v1 = velocity_mantissa_bits(vx, vy, vz);
  tea_rounds(v0, v1, kK0, kK1, kK2, kK3, kSignatureRounds);
  return (v0 ^ v1) ^ whitening;
}

MESO_HD uint32_t tea_signature(uint32_t tag, float vx, float vy, float vz, uint32_t seed) {
  return tea_signature_whitened(tag, vx, vy, vz, tea_seed_whitening(seed));
}

}  // namespace meso::physics

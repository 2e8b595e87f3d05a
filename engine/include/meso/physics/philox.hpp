// Philox4x32-10 counter-based random number generator.
//
// Source: J. K. Salmon, M. A. Moraes, R. O. Dror, D. E. Shaw, "Parallel random
// numbers: as easy as 1, 2, 3", SC11 (2011); written from the specification,
// not copied from Random123. Random123's published known-answer vectors
// (examples/kat_vectors) are checked in tests/engine/physics/philox_test.cpp.
//
// Why a counter-based generator: the DPD pair noise and the SRD cell rotations
// must be a pure function of (global ids, step, seed) so that every backend,
// every rank count and every particle ordering draws the same numbers
// (ARCHITECTURE.md, "Random numbers"). Philox has no state to carry or to
// partition, and 10 rounds is the variant Salmon et al. report as passing
// BigCrush with a safety margin (they found 7 rounds already sufficient).
#pragma once

#include <cstdint>

#include "meso_hd.hpp"

namespace meso::physics {

struct Philox4x32Ctr {
  uint32_t v[4];
};

struct Philox4x32Key {
  uint32_t v[2];
};

namespace philox_detail {

// Multipliers and Weyl key increments from Salmon et al. 2011
// (the increments are the golden ratio and sqrt(3)-1 in 0.32 fixed point).
inline constexpr uint32_t kM0 = 0xD2511F53u;
inline constexpr uint32_t kM1 = 0xCD9E8D57u;
inline constexpr uint32_t kW0 = 0x9E3779B9u;
inline constexpr uint32_t kW1 = 0xBB67AE85u;

// High 32 bits of the 64-bit product. On the device __umulhi is one IMAD.HI
// instruction; on the host a 64-bit multiply gives the same bits, so both sides
// produce identical words.
MESO_HD uint32_t mulhi32(uint32_t a, uint32_t b) {
#ifdef __CUDA_ARCH__
  return __umulhi(a, b);
#else
  return static_cast<uint32_t>((static_cast<uint64_t>(a) * b) >> 32);
#endif
}

// One Philox S-box/P-box round: two multiplications, the high halves XORed
// with the other two words and the round key, then the word permutation of
// the paper (outputs in the order Random123 uses, which its KAT vectors pin).
MESO_HD Philox4x32Ctr philox_round(Philox4x32Ctr x, Philox4x32Key k) {
  const uint32_t hi0 = mulhi32(kM0, x.v[0]);
  const uint32_t lo0 = kM0 * x.v[0];
  const uint32_t hi1 = mulhi32(kM1, x.v[2]);
  const uint32_t lo1 = kM1 * x.v[2];
  return Philox4x32Ctr{{hi1 ^ x.v[1] ^ k.v[0], lo1, hi0 ^ x.v[3] ^ k.v[1], lo0}};
}

}  // namespace philox_detail

// Philox4x32 with 10 rounds. The key is bumped between rounds (9 bumps), so the
// first round uses the caller's key unchanged, as in the paper's key schedule.
MESO_HD Philox4x32Ctr philox4x32_10(Philox4x32Ctr ctr, Philox4x32Key key) {
  ctr = philox_detail::philox_round(ctr, key);
#ifdef __CUDA_ARCH__
#pragma unroll
#endif
  for (int r = 1; r < 10; ++r) {
    key.v[0] += philox_detail::kW0;
    key.v[1] += philox_detail::kW1;
    ctr = philox_detail::philox_round(ctr, key);
  }
  return ctr;
}

// Uniform double in (0, 1] from 32 random bits: (u + 1) / 2^32. Zero is
// excluded so the result can go straight into log() (Box-Muller); the value is
// exact because u + 1 <= 2^32 needs only 33 significant bits.
MESO_HD double uniform_open01(uint32_t u) {
  return (static_cast<double>(u) + 1.0) * 0x1p-32;
}

// Uniform double in (0, 1] with the full 53-bit resolution of a double, from
// the top 53 of the 64 bits hi:lo. With only 32 bits the smallest value is
// 2^-32, which truncates a Box-Muller Gaussian at sqrt(64 ln 2) ~ 6.66; with 53
// bits the cut moves to sqrt(106 ln 2) ~ 8.57.
MESO_HD double uniform_open01(uint32_t hi, uint32_t lo) {
  const uint64_t x = (static_cast<uint64_t>(hi) << 21) | (lo >> 11);
  return (static_cast<double>(x) + 1.0) * 0x1p-53;
}

}  // namespace meso::physics

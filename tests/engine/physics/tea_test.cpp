// Known-answer and property tests for physics/tea.hpp.
#include <gtest/gtest.h>

#include <cstdint>

#include "meso/physics/tea.hpp"

namespace {

using meso::physics::bit_reverse32;
using meso::physics::tea_rounds;
using meso::physics::tea_signature;

struct TeaKat {
  uint32_t key[4];
  uint32_t pt[2];
  uint32_t ct[2];
};

// Full-cipher (32 cycles) TEA vectors from Bouncy Castle's TeaTest
// (bcgit/bc-csharp, crypto/test/src/crypto/test/TeaTest.cs; the Java edition
// carries the same table), which states they are "based on C implementation
// results from http://www.simonshepherd.supanet.com/tea.htm". Bouncy Castle
// reads the hex strings big-endian into 32-bit words, which is how they are
// written here: key "0123456712345678234567893456789A" is k[0..3] =
// 01234567 12345678 23456789 3456789A, block "0102030405060708" is
// v0 = 01020304, v1 = 05060708.
constexpr TeaKat kTeaKats[] = {
    {{0x00000000, 0x00000000, 0x00000000, 0x00000000}, {0x00000000, 0x00000000},
     {0x41ea3a0a, 0x94baa940}},
    {{0x00000000, 0x00000000, 0x00000000, 0x00000000}, {0x01020304, 0x05060708},
     {0x6a2f9cf3, 0xfccf3c55}},
    {{0x01234567, 0x12345678, 0x23456789, 0x3456789A}, {0x00000000, 0x00000000},
     {0x34e943b0, 0x900f5dcb}},
    {{0x01234567, 0x12345678, 0x23456789, 0x3456789A}, {0x01020304, 0x05060708},
     {0x773dc179, 0x878a81c0}},
};

TEST(Tea, BouncyCastleKnownAnswers32Rounds) {
  for (const TeaKat& k : kTeaKats) {
    uint32_t v0 = k.pt[0], v1 = k.pt[1];
    tea_rounds(v0, v1, k.key[0], k.key[1], k.key[2], k.key[3], 32);
    EXPECT_EQ(v0, k.ct[0]) << std::hex << "pt " << k.pt[0] << ' ' << k.pt[1];
    EXPECT_EQ(v1, k.ct[1]) << std::hex << "pt " << k.pt[0] << ' ' << k.pt[1];
  }
}

// 0 rounds is the identity and the round count changes the result: the
// signature pre-mix (16) and the pair hash (4) are different functions.
TEST(Tea, RoundCountMatters) {
  uint32_t a0 = 1, a1 = 2;
  tea_rounds(a0, a1, 3, 4, 5, 6, 0);
  EXPECT_EQ(a0, 1u);
  EXPECT_EQ(a1, 2u);
  uint32_t b0 = 1, b1 = 2, c0 = 1, c1 = 2;
  tea_rounds(b0, b1, 3, 4, 5, 6, 4);
  tea_rounds(c0, c1, 3, 4, 5, 6, 16);
  EXPECT_TRUE(b0 != c0 || b1 != c1);
}

TEST(BitReverse32, HandValues) {
  EXPECT_EQ(bit_reverse32(0x00000000u), 0x00000000u);
  EXPECT_EQ(bit_reverse32(0xFFFFFFFFu), 0xFFFFFFFFu);
  EXPECT_EQ(bit_reverse32(0x00000001u), 0x80000000u);
  EXPECT_EQ(bit_reverse32(0x80000000u), 0x00000001u);
  EXPECT_EQ(bit_reverse32(0x00000003u), 0xC0000000u);
  EXPECT_EQ(bit_reverse32(0x000000F0u), 0x0F000000u);
  EXPECT_EQ(bit_reverse32(0x0000FFFFu), 0xFFFF0000u);
  EXPECT_EQ(bit_reverse32(0x00000006u), 0x60000000u);
  // 0001 0010 0011 0100 0101 0110 0111 1000 reversed is
  // 0001 1110 0110 1010 0010 1100 0100 1000.
  EXPECT_EQ(bit_reverse32(0x12345678u), 0x1E6A2C48u);
  EXPECT_EQ(bit_reverse32(bit_reverse32(0xDEADBEEFu)), 0xDEADBEEFu);
}

// Regression values of the full signature algorithm, computed with an
// independent Python transcription of the algorithm documented in tea.hpp
// (Python ints masked to 32 bits, float bits via struct.pack('<f')). They pin
// the TEA noise stream, so a change to them is a change of the physics stream
// and must be deliberate.
TEST(TeaSignature, IndependentReferenceValues) {
  EXPECT_EQ(tea_signature(12345u, 0.5f, -1.25f, 3.0e-3f, 42u), 0x19f8a947u);
  EXPECT_EQ(tea_signature(0u, 0.0f, 0.0f, 0.0f, 0u), 0x11e20578u);
  EXPECT_EQ(tea_signature(7u, 0.1f, 0.2f, 0.3f, 99u), 0x62b13973u);
  EXPECT_EQ(tea_signature(3u, -0.4f, 0.5f, -0.6f, 99u), 0x91643548u);
}

TEST(TeaSignature, VelocityBitsAreTheUpperMantissa) {
  using meso::physics::tea_detail::velocity_mantissa_bits;
  // Float bits: 0.5f = 3F000000, -1.25f = BFA00000, 3e-3f = 3B449BA6, so the
  // mantissa fields (bits 12..22) are x = 0x000, y = 0x200, z = 0x449.
  // Interleaved x,y,z (bit b of y at 3b+1, of z at 3b+2): y bit 9 -> 28;
  // z bits 0, 3, 6 -> 2, 11, 20; z bit 10 would be at 32 and is dropped.
  const uint32_t expected = (1u << 28) | (1u << 2) | (1u << 11) | (1u << 20);
  EXPECT_EQ(velocity_mantissa_bits(0.5f, -1.25f, 3.0e-3f), expected);
  EXPECT_EQ(expected, 0x10100804u);
}

TEST(TeaSignature, ChangesWithTag) {
  const float vx = 0.37f, vy = -1.1f, vz = 0.052f;
  const uint32_t s = tea_signature(1000u, vx, vy, vz, 5u);
  EXPECT_NE(tea_signature(1001u, vx, vy, vz, 5u), s);
  EXPECT_NE(tea_signature(999u, vx, vy, vz, 5u), s);
  EXPECT_NE(tea_signature(1000u | 0x80000000u, vx, vy, vz, 5u), s);
  // Deterministic: same inputs, same word.
  EXPECT_EQ(tea_signature(1000u, vx, vy, vz, 5u), s);
}

TEST(TeaSignature, ChangesWithSeed) {
  const uint32_t s = tea_signature(1000u, 0.37f, -1.1f, 0.052f, 5u);
  EXPECT_NE(tea_signature(1000u, 0.37f, -1.1f, 0.052f, 6u), s);
}

// Flip one float bit of one velocity component.
float flip_bit(float f, int bit) {
  uint32_t u;
  __builtin_memcpy(&u, &f, sizeof u);
  u ^= 1u << bit;
  __builtin_memcpy(&f, &u, sizeof u);
  return f;
}

TEST(TeaSignature, ChangesWithEachUsedVelocityBit) {
  const uint32_t tag = 424242u, seed = 17u;
  const float v[3] = {0.37f, -1.1f, 0.052f};
  const uint32_t s = tea_signature(tag, v[0], v[1], v[2], seed);
  for (int c = 0; c < 3; ++c) {
    // Bits 12..22; z's bit 22 is the one dropped by the 32-bit interleave.
    const int top = c == 2 ? 21 : 22;
    for (int bit = 12; bit <= top; ++bit) {
      float w[3] = {v[0], v[1], v[2]};
      w[c] = flip_bit(w[c], bit);
      EXPECT_NE(tea_signature(tag, w[0], w[1], w[2], seed), s)
          << "component " << c << " bit " << bit;
    }
  }
}

// The design choice documented in tea.hpp: the low 12 mantissa bits, which
// differ between backends after any rounding difference, do not enter.
TEST(TeaSignature, InsensitiveToLowMantissaBits) {
  const uint32_t tag = 424242u, seed = 17u;
  const float v[3] = {0.37f, -1.1f, 0.052f};
  const uint32_t s = tea_signature(tag, v[0], v[1], v[2], seed);
  for (int c = 0; c < 3; ++c) {
    for (int bit = 0; bit < 12; ++bit) {
      float w[3] = {v[0], v[1], v[2]};
      w[c] = flip_bit(w[c], bit);
      EXPECT_EQ(tea_signature(tag, w[0], w[1], w[2], seed), s)
          << "component " << c << " bit " << bit;
    }
  }
  // An fp64 velocity and one a few ulps away round to floats with the same
  // upper mantissa, so an fp64 and a mixed-precision backend agree.
  const double vd = 0.37123456789;
  EXPECT_EQ(tea_signature(tag, static_cast<float>(vd), 0.f, 0.f, seed),
            tea_signature(tag, static_cast<float>(vd * (1.0 + 1e-12)), 0.f, 0.f, seed));
}

}  // namespace

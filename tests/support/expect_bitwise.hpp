// Bit-for-bit comparison of per-particle 3-vectors (positions, velocities,
// forces, images), for the exact-restart tests of both backends.
#pragma once

#include <gtest/gtest.h>

#include <vector>

namespace meso::test {

// EXPECT-style: stops at the first differing particle, naming it.
template <class V>
void expect_same_vec3(const std::vector<V>& a, const std::vector<V>& b, const char* what) {
  ASSERT_EQ(a.size(), b.size()) << what;
  for (std::size_t i = 0; i < a.size(); ++i) {
    ASSERT_EQ(a[i].x, b[i].x) << what << ' ' << i;
    ASSERT_EQ(a[i].y, b[i].y) << what << ' ' << i;
    ASSERT_EQ(a[i].z, b[i].z) << what << ' ' << i;
  }
}

}  // namespace meso::test

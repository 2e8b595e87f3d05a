#include <gtest/gtest.h>

#include "meso/core/box.hpp"

namespace {

using meso::Box;
using meso::Image;
using meso::Vec3d;

TEST(Box, MinimumImageByHand) {
  const Box box(10.0, 8.0, 6.0);
  const Vec3d d = box.min_image({4.9, -4.5, 3.5});
  EXPECT_DOUBLE_EQ(d.x, 4.9);
  EXPECT_DOUBLE_EQ(d.y, 3.5);
  EXPECT_DOUBLE_EQ(d.z, -2.5);
}

TEST(Box, MinimumImageIsExactlyAntisymmetric) {
  const Box box(7.3, 5.1, 9.9);
  for (double x = -11.0; x < 11.0; x += 0.173) {
    const Vec3d a = box.min_image({x, 0.61 * x, -1.3 * x});
    const Vec3d b = box.min_image({-x, -0.61 * x, 1.3 * x});
    EXPECT_EQ(a.x, -b.x);
    EXPECT_EQ(a.y, -b.y);
    EXPECT_EQ(a.z, -b.z);
  }
}

TEST(Box, WrapCountsImagesAndUnwrapRestores) {
  const Box box(4.0);
  Vec3d r{5.5, -6.5, 1.0};
  Image img{0, 0, 0};
  box.wrap(r, img);
  EXPECT_DOUBLE_EQ(r.x, 1.5);
  EXPECT_DOUBLE_EQ(r.y, 1.5);
  EXPECT_DOUBLE_EQ(r.z, 1.0);
  EXPECT_EQ(img.x, 1);
  EXPECT_EQ(img.y, -2);
  EXPECT_EQ(img.z, 0);
  const Vec3d u = box.unwrap(r, img);
  EXPECT_DOUBLE_EQ(u.x, 5.5);
  EXPECT_DOUBLE_EQ(u.y, -6.5);
}

TEST(Box, WrapKeepsHalfOpenInterval) {
  const Box box(3.0);
  Vec3d r{1.5, -1.5, 1.5 - 1e-17};
  Image img{0, 0, 0};
  box.wrap(r, img);
  EXPECT_DOUBLE_EQ(r.x, -1.5);  // +L/2 is outside [-L/2, L/2)
  EXPECT_EQ(img.x, 1);
  EXPECT_DOUBLE_EQ(r.y, -1.5);
  EXPECT_EQ(img.y, 0);
  EXPECT_LT(r.z, 1.5);
}

}  // namespace

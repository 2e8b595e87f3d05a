#include <gtest/gtest.h>

#include <algorithm>

#include "meso/reference/cell_list.hpp"

namespace {

using meso::Box;
using meso::Vec3d;
using meso::reference::CellList;

TEST(CellList, DimensionsAndBinningByHand) {
  const Box box(10.0, 6.5, 3.0);
  const std::vector<Vec3d> pos = {{-5.0, -3.25, -1.5}, {4.99, 3.2, 1.49}, {0.1, 0.0, 0.0}};
  CellList c;
  c.build(box, pos.data(), pos.size(), 1.3);
  EXPECT_EQ(c.dims()[0], 7u);  // floor(10 / 1.3)
  EXPECT_EQ(c.dims()[1], 5u);
  EXPECT_EQ(c.dims()[2], 2u);
  EXPECT_EQ(c.cell_of(pos[0]), 0u);
  EXPECT_EQ(c.cell_of(pos[1]), c.num_cells() - 1);
  // Every particle is in exactly one cell.
  EXPECT_EQ(c.cell_start().back(), 3u);
}

TEST(CellList, PositionOnUpperFaceIsClampedIntoLastCell) {
  const Box box(4.0);
  const std::vector<Vec3d> pos = {{2.0, 2.0, 2.0}};  // +L/2: float rounding can produce it
  CellList c;
  c.build(box, pos.data(), 1, 1.0);
  EXPECT_EQ(c.cell_of(pos[0]), c.num_cells() - 1);
}

TEST(CellList, StencilIsDistinctInTwoCellBox) {
  const Box box(2.6, 2.6, 8.0);  // two cells along x and y
  const std::vector<Vec3d> pos = {{0.0, 0.0, 0.0}};
  CellList c;
  c.build(box, pos.data(), 1, 1.3);
  uint32_t s[27];
  const int n = c.stencil(0, s);
  EXPECT_EQ(n, 2 * 2 * 3);
  std::sort(s, s + n);
  EXPECT_EQ(std::adjacent_find(s, s + n), s + n);
}

}  // namespace

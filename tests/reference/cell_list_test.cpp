#include <gtest/gtest.h>

#include <algorithm>

#include "meso/reference/cell_list.hpp"

namespace {

using meso::Box;
using meso::CellRange;
using meso::Domain;
using meso::Vec3d;
using meso::reference::CellList;

// Rank 0 of a 2 x 1 x 1 grid in a box of 20 x 8 x 8 centred at 0: domain
// x in [-10, 0), ghost width 1.3, global cells of width 1.
Domain left_half() {
  Domain d;
  d.global = Box(20.0, 8.0, 8.0);
  d.lo = {-10.0, -4.0, -4.0};
  d.hi = {0.0, 4.0, 4.0};
  d.ghost_width = 1.3;
  d.whole_box = false;
  d.grid = {2, 1, 1};
  return d;
}

TEST(MdCellRange, SplitAxisCoversTheDomainAndItsGhostLayersByHand) {
  const CellRange r = meso::md_cell_range(left_half(), {20, 8, 8});
  // x: [-11.3, 1.3) -> global cells floor(-1.3) = -2 (18) to floor(11.3) = 11: 14 cells.
  EXPECT_EQ(r.first[0], 18);
  EXPECT_EQ(r.count[0], 14);
  // y and z are not split: the whole periodic axis.
  EXPECT_EQ(r.first[1], 0);
  EXPECT_EQ(r.count[1], 8);
  EXPECT_EQ(r.count[2], 8);
  EXPECT_EQ(r.cells(), 14u * 8u * 8u);
}

TEST(MdCellRange, ARangeThatWouldMeetItselfKeepsTheWholeAxis) {
  Domain d = left_half();
  d.ghost_width = 4.6;  // [-14.6, 4.6): 20 cells of 20, round the box
  EXPECT_EQ(meso::md_cell_range(d, {20, 8, 8}).count[0], 20);
  d.whole_box = true;  // one rank: nothing is restricted
  d.ghost_width = 1.3;
  EXPECT_EQ(meso::md_cell_range(d, {20, 8, 8}).count[0], 20);
}

TEST(CellList, RestrictedToADomainCountsCellsFromTheRangeAndFindsTheSamePairs) {
  // Locals in [-10, 0) and ghosts in the layers around it, including one
  // across the periodic face x = -10 (stored wrapped, at x = 9.5).
  const std::vector<Vec3d> pos = {{-9.8, 0.0, 0.0}, {-0.5, 1.0, 1.0}, {-5.0, 3.9, -3.9},
                                  {9.5, 0.2, 0.0},  {0.4, 1.2, 1.0},  {-5.0, -3.95, 3.95}};
  CellList whole, ranged;
  whole.build(left_half().global, pos.data(), pos.size(), 1.0);
  ranged.restrict_to(left_half());
  ranged.build(left_half().global, pos.data(), pos.size(), 1.0);
  EXPECT_EQ(ranged.dims()[0], 14u);
  EXPECT_EQ(ranged.dims()[1], 8u);
  // x = 9.5 is global cell 19: the second of the range (18, 19, 0, ...).
  EXPECT_EQ(ranged.cell_of(pos[3]) % 14, 1u);
  EXPECT_EQ(ranged.cell_of(pos[0]) % 14, 2u);  // global 0
  EXPECT_EQ(ranged.cell_of(pos[4]) % 14, 12u);  // global 10
  // Every pair within 1 (minimum image) lies in neighbouring cells of both
  // grids: the ranged stencil of each particle's cell holds its partner's.
  const Box& box = left_half().global;
  for (std::size_t i = 0; i < pos.size(); ++i)
    for (std::size_t j = 0; j < pos.size(); ++j) {
      const Vec3d d = box.min_image(pos[i] - pos[j]);
      if (i == j || d.x * d.x + d.y * d.y + d.z * d.z >= 1.0) continue;
      for (const CellList* c : {&whole, &ranged}) {
        uint32_t s[27];
        const int n = c->stencil(c->cell_of(pos[i]), s);
        EXPECT_NE(std::find(s, s + n, c->cell_of(pos[j])), s + n) << i << " " << j;
      }
    }
}

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

// The rank grid (no MPI): least surface, the ghost-width limit, parsing.
#include <gtest/gtest.h>

#include <string>

#include "meso/core/error.hpp"
#include "meso/scaling/rank_grid.hpp"

namespace meso::scaling {
namespace {

// Ghost volumes by hand, box 20^3 and g = 1.3 (outer minus inner box of a domain):
//   2 ranks  2x1x1: 12.6 * 20 * 20 - 4000 = 1040 (1x2x1, 1x1x2 tie; x first)
//   4 ranks  4x1x1: 7.6 * 400 - 2000 = 1040;  2x2x1: 12.6^2 * 20 - 2000 = 1175.2
//   8 ranks  4x2x1: 7.6 * 12.6 * 20 - 1000 = 915.2;  2x2x2: 12.6^3 - 1000 = 1000.4;
//            8x1x1: 5.1 * 400 - 1000 = 1040
//  27 ranks of 30^3: 3x3x3: 12.6^3 - 1000 = 1000.4;  9x3x1: 5.93 * 12.6 * 30 - 1000 = 1242.8
TEST(RankGrid, LeastGhostVolume) {
  EXPECT_EQ(choose_rank_grid(1, Box(20.0), 1.3), (RankGrid{1, 1, 1}));
  EXPECT_EQ(choose_rank_grid(2, Box(20.0), 1.3), (RankGrid{2, 1, 1}));
  EXPECT_EQ(choose_rank_grid(4, Box(20.0), 1.3), (RankGrid{4, 1, 1}));
  EXPECT_EQ(choose_rank_grid(8, Box(20.0), 1.3), (RankGrid{4, 2, 1}));
  EXPECT_EQ(choose_rank_grid(27, Box(30.0), 1.3), (RankGrid{3, 3, 3}));
}

// The cost model's latency term, by hand. dpd-fluid at 1M particles a GPU
// on 4 GPUs: box 111.8^3 (4,194,304 at rho = 3), g = 1.3:
//   4x1x1: 2.6 * 111.8^2 = 32498 plus one round;  2x2x1: 111.8 * (58.5^2 - 55.9^2) = 33254 plus two
// (both pick 4x1x1, as measured: 1257 against 1195 TPS on four H100s). 8
// ranks of a 110^3 box at rho = 3 (a round: 48000 / 3 = 16000):
//   8x1x1: 2.6 * 110^2 = 31460 + 16000 = 47460;  4x2x1: 30.1 * 57.6 * 110 - 27.5 * 55 * 110 = 24338
//   + 32000 = 56338;  2x2x2: 57.6^3 - 55^3 = 24728 + 48000 = 72728
// so a line of ranks wins where volume alone picks 4x2x1.
TEST(RankGrid, EachSplitAxisCostsARound) {
  const Box dpd4(111.8);
  EXPECT_NEAR(rank_grid_cost({4, 1, 1}, dpd4, 1.3), 2.6 * 111.8 * 111.8, 1e-6);
  EXPECT_NEAR(rank_grid_cost({2, 2, 1}, dpd4, 1.3, 16000.0) - rank_grid_cost({2, 2, 1}, dpd4, 1.3), 32000.0, 1e-6);
  EXPECT_EQ(choose_rank_grid(4, dpd4, 1.3, 3.0), (RankGrid{4, 1, 1}));
  const Box cube(110.0);
  EXPECT_EQ(choose_rank_grid(8, cube, 1.3), (RankGrid{4, 2, 1}));  // volume alone
  EXPECT_NEAR(rank_grid_cost({8, 1, 1}, cube, 1.3, 16000.0), 47460.0, 1e-6);
  EXPECT_NEAR(rank_grid_cost({4, 2, 1}, cube, 1.3, 16000.0), 30.1 * 57.6 * 110 - 27.5 * 55 * 110 + 32000.0, 1e-6);
  EXPECT_EQ(choose_rank_grid(8, cube, 1.3, 3.0), (RankGrid{8, 1, 1}));
  // A dilute system's rounds weigh more, a dense one's less: at rho = 300
  // (a round: 160) the volume decides again.
  EXPECT_EQ(choose_rank_grid(8, cube, 1.3, 300.0), (RankGrid{4, 2, 1}));
}

TEST(RankGrid, LongBoxIsCutAcrossItsLength) {
  // 80 x 10 x 10: slabs along x have faces of 100; any other cut is larger.
  EXPECT_EQ(choose_rank_grid(4, Box(80.0, 10.0, 10.0), 1.3), (RankGrid{4, 1, 1}));
  EXPECT_EQ(choose_rank_grid(2, Box(10.0, 10.0, 40.0), 1.3), (RankGrid{1, 1, 2}));
}

TEST(RankGrid, DomainsThinnerThanTheGhostLayerAreAvoidedOrRefused) {
  // 8 ranks of a 4 x 40 x 40 box: x cannot be cut (domains of 2 < 2.8 for
  // 2 cuts is fine, 4 x 1 is not): the chosen grid keeps every width >= 2.8.
  const RankGrid g = choose_rank_grid(8, Box(4.0, 40.0, 40.0), 2.8);
  EXPECT_EQ(g[0], 1);
  try {
    choose_rank_grid(64, Box(8.0), 2.8);
    FAIL() << "64 domains of an 8^3 box with a ghost layer of 2.8 were accepted";
  } catch (const InputError& e) {
    const std::string msg = e.what();
    EXPECT_NE(msg.find("64 ranks"), std::string::npos) << msg;
    EXPECT_NE(msg.find("2.8"), std::string::npos) << msg;
  }
  try {
    check_rank_grid({4, 1, 1}, 4, Box(4.0, 40.0, 40.0), 1.3);
    FAIL() << "domains 1 wide with a ghost layer of 1.3 were accepted";
  } catch (const InputError& e) {
    const std::string msg = e.what();
    EXPECT_NE(msg.find("1 wide along x"), std::string::npos) << msg;
    EXPECT_NE(msg.find("thinner than the ghost layer"), std::string::npos) << msg;
  }
  EXPECT_THROW(check_rank_grid({2, 2, 1}, 8, Box(40.0), 1.3), InputError);  // 4 ranks, not 8
}

// Slit walls normal to z keep z whole: the grid of least cost among those of
// one rank along z (the tall box's 1x1x2 would cut across the walls), and a
// grid that splits z is refused, naming it and one that does not.
TEST(RankGrid, SlitWallsKeepZWhole) {
  const Box tall(10.0, 10.0, 40.0);
  EXPECT_EQ(choose_rank_grid(2, tall, 1.3), (RankGrid{1, 1, 2}));
  EXPECT_EQ(choose_rank_grid(2, tall, 1.3, 0.0, true), (RankGrid{2, 1, 1}));
  EXPECT_EQ(choose_rank_grid(8, Box(20.0), 1.3, 3.0, true), (RankGrid{8, 1, 1}));
  EXPECT_EQ(choose_rank_grid(27, Box(30.0), 1.3, 0.0, true), (RankGrid{9, 3, 1}));  // 27x1x1: 1.1 < 1.3
  try {
    choose_rank_grid(4, Box(2.0, 2.0, 40.0), 1.3, 0.0, true);
    FAIL() << "4 domains of a 2 x 2 cross-section with a ghost layer of 1.3 were accepted";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("along x and y (slit walls keep z whole)"), std::string::npos) << e.what();
  }
  try {
    check_rank_grid({1, 1, 2}, 2, tall, 1.3, true);
    FAIL() << "a grid across the slit walls was accepted";
  } catch (const InputError& e) {
    const std::string msg = e.what();
    EXPECT_NE(msg.find("rank grid 1x1x2 splits z, the axis normal to the slit walls"), std::string::npos) << msg;
    EXPECT_NE(msg.find("--grid 2x1x1"), std::string::npos) << msg;
  }
  EXPECT_NO_THROW(check_rank_grid({2, 1, 1}, 2, tall, 1.3, true));
  EXPECT_NO_THROW(check_rank_grid({1, 1, 2}, 2, tall, 1.3));
}

TEST(RankGrid, ParsesAndPrints) {
  EXPECT_EQ(parse_rank_grid("2x1x4"), (RankGrid{2, 1, 4}));
  EXPECT_EQ(to_string(RankGrid{2, 1, 4}), "2x1x4");
  for (const char* bad : {"", "2x2", "2x2x0", "2x2x-1", "2*2*2", "2x2x2x", "ax1x1"})
    EXPECT_THROW(parse_rank_grid(bad), InputError) << bad;
}

}  // namespace
}  // namespace meso::scaling

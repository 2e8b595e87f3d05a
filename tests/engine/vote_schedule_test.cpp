// VoteSchedule (meso/run/vote_schedule.hpp): when the ranks of a decomposed run
// vote on a rebuild. Driven here by hand-worked displacement histories: the
// property that makes it safe is that no step between votes has a largest
// displacement above half the skin, so the first step that has one votes
// (and rebuilds), as a vote every step would.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <functional>
#include <vector>

#include "meso/run/vote_schedule.hpp"

namespace meso {
namespace {

struct Trace {
  std::vector<uint64_t> votes, rebuilds;
  uint64_t unsafe_skips = 0;  // steps skipped with D above half the skin
};

// Runs `steps` steps of a list whose largest displacement d_since(k) after k
// steps since its build is given; a vote that sees more than half the skin
// rebuilds (k restarts).
Trace run(VoteSchedule& v, double half_skin, uint64_t steps, const std::function<double(uint64_t)>& d_since) {
  Trace t;
  uint64_t built = 0;
  for (uint64_t s = 1; s <= steps; ++s) {
    const double d = d_since(s - built);
    if (!v.due()) {
      if (d > half_skin) ++t.unsafe_skips;
      v.skip();
      continue;
    }
    t.votes.push_back(s);
    const bool rebuild = d > half_skin;
    if (rebuild) {
      t.rebuilds.push_back(s);
      built = s;
    }
    v.voted(d, rebuild);
  }
  return t;
}

TEST(VoteSchedule, BallisticMotionVotesByHalvingTheRemainingDistance) {
  // D = k / 128, half skin 16 / 128 (binary fractions: exact): the list is
  // stale at k = 17. In units of 1/128: votes at 1 (g = 1, gap floor(15 / 2)
  // = 7), 8 (floor(8 / 2) = 4), 12 (2), 14 (1), 15 (floor(1 / 2) = 0: 1),
  // 16 (D = 16 is not above half the skin), 17 (rebuild): 7 votes, not 17.
  VoteSchedule v(0.125, 50);
  const Trace t = run(v, 0.125, 17, [](uint64_t k) { return double(k) / 128.0; });
  EXPECT_EQ(t.votes, (std::vector<uint64_t>{1, 8, 12, 14, 15, 16, 17}));
  EXPECT_EQ(t.rebuilds, (std::vector<uint64_t>{17}));
  EXPECT_EQ(t.unsafe_skips, 0u);
}

TEST(VoteSchedule, RebuildsFallOnTheStepsOfAVoteEveryStep) {
  // Over many lists: ballistic growth, diffusive growth (D ~ sqrt(k): the
  // first step's growth is the largest, so the gaps stay short), and growth
  // doubling within a list (an accelerating fastest particle): never a
  // skipped step past half the skin, and the rebuilds those of a vote every
  // step.
  struct History {
    std::function<double(uint64_t)> d_since;
    double most_votes;  // fraction of the steps
  };
  for (const History& h : std::vector<History>{
           {[](uint64_t k) { return 0.003 * double(k); }, 0.25},
           {[](uint64_t k) { return 0.04 * std::sqrt(double(k)); }, 1.0},
           {[](uint64_t k) { return 0.002 * double(k) * (1.0 + double(k) / 60.0); }, 0.4}}) {
    VoteSchedule sparse(0.15, 50), every(0.15, 1);
    const Trace a = run(sparse, 0.15, 2000, h.d_since), b = run(every, 0.15, 2000, h.d_since);
    EXPECT_EQ(a.unsafe_skips, 0u);
    EXPECT_EQ(a.rebuilds, b.rebuilds);
    EXPECT_GT(a.rebuilds.size(), 10u);
    EXPECT_EQ(b.votes.size(), 2000u);
    EXPECT_LE(double(a.votes.size()), h.most_votes * 2000.0);
  }
}

TEST(VoteSchedule, NoMotionWaitsTheLongestGap) {
  VoteSchedule v(0.15, 50);
  const Trace t = run(v, 0.15, 120, [](uint64_t) { return 0.0; });
  EXPECT_EQ(t.votes, (std::vector<uint64_t>{1, 51, 101}));  // g = 0 from the first vote on
}

TEST(VoteSchedule, AStaleListMakesEveryStepVote) {
  VoteSchedule v(0.125, 50);
  v.voted(0.0, true);
  v.voted(1.0 / 128.0, false);  // g = 1/128: gap floor(15 / 2) = 7
  EXPECT_EQ(v.gap(1.0 / 128.0), 7u);
  EXPECT_FALSE(v.due());
  v.stale();
  EXPECT_TRUE(v.due());
  v.voted(0.0, true);
  v.voted(1.0 / 128.0, false);
  EXPECT_TRUE(v.due()) << "after a stale list, every step votes";
  EXPECT_EQ(v.max_gap(), 1u);
}

TEST(VoteSchedule, AGapOfOneIsAVoteEveryStep) {
  VoteSchedule v(0.15, 1);
  const Trace t = run(v, 0.15, 30, [](uint64_t k) { return 0.001 * double(k); });
  EXPECT_EQ(t.votes.size(), 30u);
}

}  // namespace
}  // namespace meso

// StepRules (meso/run/step_rules.hpp): the one statement of when a step rebuilds
// the neighbor list and when a rebuild reorders, by hand-worked cases.
#include <gtest/gtest.h>

#include <cstdint>

#include "meso/run/step_rules.hpp"

namespace meso {
namespace {

StepRules rules(double skin, uint32_t rebuild_every, bool reorder, uint32_t sort_every) {
  StepRules r;
  r.half_skin_sq = 0.25 * skin * skin;
  r.rebuild_every = rebuild_every;
  r.reorder = reorder;
  r.sort_every = sort_every;
  return r;
}

TEST(StepRules, DisplacementTriggeredRebuildAtHalfTheSkin) {
  const StepRules r = rules(0.4, 0, false, 0);  // half skin 0.2: d^2 threshold 0.04
  for (uint32_t steps : {1u, 7u, 1000u}) {
    EXPECT_TRUE(r.needs_displacement(steps));
    EXPECT_FALSE(r.rebuild_due(steps, 0.0399));
    EXPECT_FALSE(r.rebuild_due(steps, 0.04));  // exactly skin/2: no pair can be missed yet
    EXPECT_TRUE(r.rebuild_due(steps, 0.0401));
    EXPECT_FALSE(r.period_broken(1.0));  // no period to break
  }
}

// Dynamic pruning, skin 0.6 and inner_skin 0.1: the pruned list is due
// at 0.05 since the last prune; the outer list allows a prune while the
// displacements since its build sum to at most (0.6 - 0.1) / 2 = 0.25.
TEST(StepRules, PruneWhileTheOuterListHoldsEveryPair) {
  StepRules r = rules(0.1, 0, false, 0);
  EXPECT_FALSE(r.prune_suffices(0.0, 0.0));  // no pruning: every refresh rebuilds
  r.prune = true;
  r.outer_half = 0.25;
  EXPECT_TRUE(r.rebuild_due(3, 0.051 * 0.051));
  EXPECT_TRUE(r.prune_suffices(0.0, 0.051 * 0.051));
  EXPECT_TRUE(r.prune_suffices(0.125, 0.125 * 0.125));  // 0.25: exactly the bound, still safe
  EXPECT_FALSE(r.prune_suffices(0.1875, 0.125 * 0.125));  // 0.3125: a pair may have come from beyond
  EXPECT_FALSE(r.prune_suffices(0.0, 0.26 * 0.26));
}

TEST(StepRules, FixedPeriodIgnoresTheDisplacementButCountsABrokenPromise) {
  const StepRules r = rules(0.4, 10, false, 0);
  EXPECT_FALSE(r.needs_displacement(9));
  EXPECT_FALSE(r.rebuild_due(9, 1.0));  // moved far, but the period is the user's choice
  EXPECT_TRUE(r.needs_displacement(10));
  EXPECT_TRUE(r.rebuild_due(10, 0.0));
  EXPECT_TRUE(r.rebuild_due(11, 0.0));
  EXPECT_FALSE(r.period_broken(0.04));
  EXPECT_TRUE(r.period_broken(0.0401));
}

TEST(StepRules, SortAtTheFirstRebuildAtLeastNStepsAfterTheLast) {
  const StepRules r = rules(0.3, 0, true, 100);
  EXPECT_FALSE(r.sort_due(99));
  EXPECT_TRUE(r.sort_due(100));
  EXPECT_TRUE(r.sort_due(157));
  EXPECT_TRUE(r.sort_due(UINT64_MAX));  // before the first sort: sort before the first list
}

TEST(StepRules, SortZeroMeansEveryRebuildAndNoReorderNever) {
  const StepRules every = rules(0.3, 0, true, 0);
  EXPECT_TRUE(every.sort_due(0));
  EXPECT_TRUE(every.sort_due(1));
  const StepRules none = rules(0.3, 0, false, 0);
  EXPECT_FALSE(none.sort_due(0));
  EXPECT_FALSE(none.sort_due(UINT64_MAX));
}

}  // namespace
}  // namespace meso

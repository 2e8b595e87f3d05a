// Verlet neighbor list over the cell list, of radius r_c + skin. It is
// stale by the plan's rules (meso/run/step_rules.hpp): after any particle moved
// more than skin/2 since the last build, or every rebuild_every steps.
#pragma once

#include <cstdint>

#include "meso/ops/operation.hpp"
#include "meso/run/step_rules.hpp"

namespace meso {

struct NeighborStats {
  uint64_t builds = 0;
  // Fixed-period mode only: rebuilds at which some particle had already moved
  // more than skin/2, i.e. pairs may have been missed since the last build.
  uint64_t dangerous_builds = 0;
  uint32_t capacity = 0;       // per-particle slots currently allocated
  uint32_t max_neighbors = 0;  // largest list length at the last build
  double mean_neighbors = 0.0;
  // Dynamic pruning (RunParams::inner_skin): the lengths and capacity above
  // are the pruned list's (the one the forces read); prunes counts every
  // prune, one after each build included, and outer_capacity is the built
  // list's slots. Both 0 without pruning.
  uint64_t prunes = 0;
  uint32_t outer_capacity = 0;
};

class NeighborListOp : public Operation {
 public:
  // Called once per step, after the first half-step: counts the step and
  // says whether the list must be rebuilt before this step's forces, by
  // `rules` (the plan's).
  virtual bool stale(const StepRules& rules) = 0;
  // Builds from the cell list (built just before).
  virtual void build() = 0;
  virtual NeighborStats stats() const = 0;
  // The skin of the pruned list the forces read, when this list prunes
  // (RunParams::inner_skin); 0 when it keeps one list at r_c + skin (the
  // default, and the CPU reference). The plan's StepRules follow it.
  virtual double prune_skin() const { return 0.0; }
};

}  // namespace meso

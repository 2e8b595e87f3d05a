// When a step rebuilds the neighbor list and when a rebuild also reorders
// the particles: the policy of the step written once, like the physics, and
// read by every loop that decides it (StepPlan on the host, the CUDA step
// control on the device, the decomposed step, the MPCD collision loop).
// The plan fills it (StepPlan::rules()) from the run parameters and the
// variant; a backend never reads variant.sort or RunParams::skin for it.
#pragma once

#include <cmath>
#include <cstdint>

#include "meso/physics/meso_hd.hpp"

namespace meso {

struct StepRules {
  double half_skin_sq = 0.0;   // (skin/2)^2: a particle that moved farther may miss pairs
  uint32_t rebuild_every = 0;  // 0: rebuild when a particle moved more than skin/2
  // The variant's sort=N: a reorder at the first rebuild at least N steps
  // (MPCD: collisions) after the previous one; 0 reorders at every rebuild.
  // The MPCD cell list is rebuilt at every collision, so there sort=N sorts
  // every N collisions and sort=0 every collision.
  uint32_t sort_every = 0;
  bool reorder = false;  // the plan reorders at all (variant reorder != none)
  // Dynamic pruning (RunParams::inner_skin; a backend's NeighborListOp says
  // whether it prunes). half_skin_sq is then (inner_skin/2)^2 and decides
  // when the list the forces read is refreshed; outer_half is (skin -
  // inner_skin)/2. At a refresh the list is pruned from the outer list if
  // no particle can have moved farther than outer_half since the outer
  // build, else the outer list is rebuilt (prune_suffices).
  bool prune = false;
  double outer_half = 0.0;
  // MD particles embedded in an MPCD solvent on several ranks: a rebuild,
  // hence a migration, at every step numbered a multiple of it (the
  // collision period; 0: none), whatever the displacements, so that at a
  // collision every solute lies in its own rank's domain and cells.
  uint64_t migrate_every = 0;

  // Whether a due refresh may prune instead of rebuilding. outer_moved
  // bounds the displacement since the outer build up to the last prune (the
  // sum of the largest displacement of each interval between prunes: no
  // particle moved farther than the sum of the intervals' maxima), and
  // disp_sq is the largest squared displacement since the last prune. A
  // pair inside r_c + inner_skin now was then inside r_c + skin at the
  // outer build, so the outer list holds it.
  MESO_HD bool prune_suffices(double outer_moved, double disp_sq) const {
    return prune && outer_moved + std::sqrt(disp_sq) <= outer_half;
  }
  // A fixed period reads the displacement only when it is up (to count a
  // broken promise); a displacement-triggered rebuild reads it every step.
  MESO_HD bool needs_displacement(uint32_t steps_since_build) const {
    return rebuild_every == 0 || steps_since_build >= rebuild_every;
  }
  // Whether the list must be rebuilt before this step's forces, given the
  // steps since the last build (this one counted) and the largest squared
  // displacement since then.
  MESO_HD bool rebuild_due(uint32_t steps_since_build, double max_disp_sq) const {
    return rebuild_every == 0 ? max_disp_sq > half_skin_sq : steps_since_build >= rebuild_every;
  }
  // Whether step `step` rebuilds for migrate_every (every rank alike).
  MESO_HD bool migration_due(uint64_t step) const { return migrate_every != 0 && step % migrate_every == 0; }
  // A fixed-period rebuild at which some particle had already moved more
  // than skin/2: the user's promise was broken, pairs may have been missed.
  MESO_HD bool period_broken(double max_disp_sq) const {
    return rebuild_every != 0 && max_disp_sq > half_skin_sq;
  }
  // Whether a rebuild (or an MPCD collision) also reorders, given the steps
  // since the last reorder (this one counted; UINT64_MAX before the first).
  MESO_HD bool sort_due(uint64_t steps_since_sort) const { return reorder && steps_since_sort >= sort_every; }
};

}  // namespace meso

// Test hooks of the CUDA backend, kept out of the production interfaces.
// Nothing outside tests/ includes this header.
#pragma once

#include <cstdint>
#include <utility>
#include <vector>

#include "meso/ops/mpcd.hpp"
#include "meso/ops/neighbor_list.hpp"

namespace meso::cuda::testing {

// Forces a rebuild at the next step and, if cap > 0, first shrinks the
// per-particle capacity of the CUDA neighbor list `nlist` (a plan's
// nlist()) to cap, so that this in-graph rebuild overflows and exercises
// the recovery path. Throws std::invalid_argument for another backend's list.
void shrink_neighbor_capacity_for_test(NeighborListOp& nlist, uint32_t cap);
// Dynamic pruning: shrinks the pruned rows' capacity to cap and refreshes
// them at the next step, so that the refresh overflows and exercises the
// recovery path. Throws std::invalid_argument for a list that does not prune.
void shrink_pruned_capacity_for_test(NeighborListOp& nlist, uint32_t cap);

// The MPCD cell list of the last collision of a CUDA collide operation (a
// Simulation's solvent()->collide_op()): the solvent members of each cell as
// tags in stored order (rows are empty before the first collision and after a sort, which
// reuses the memory), and the cell index cached in each particle's vel.w as
// (tag, cell) pairs sorted by tag. Throws std::invalid_argument for another
// backend's operation.
struct MpcdCellsForTest {
  std::vector<std::vector<uint32_t>> members;
  std::vector<std::pair<uint32_t, uint32_t>> cell_by_tag;
};
MpcdCellsForTest mpcd_cells_for_test(MpcdCollideOp& op);

}  // namespace meso::cuda::testing

// Test hooks of the CUDA backend, kept out of the production interfaces.
// Nothing outside tests/ includes this header.
#pragma once

#include <cstdint>

#include "meso/ops/neighbor_list.hpp"

namespace meso::cuda::testing {

// Forces a rebuild at the next step and, if cap > 0, first shrinks the
// per-particle capacity of the CUDA neighbor list `nlist` (a plan's
// nlist()) to cap, so that this in-graph rebuild overflows and exercises
// the recovery path. Throws std::invalid_argument for another backend's list.
void shrink_neighbor_capacity_for_test(NeighborListOp& nlist, uint32_t cap);

}  // namespace meso::cuda::testing

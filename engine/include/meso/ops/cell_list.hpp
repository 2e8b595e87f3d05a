// Cell list: bins the particles into a regular grid of cells at least r_c +
// skin on a side (the largest cutoff of the pair style plus the Verlet skin),
// for the neighbor-list build and for reordering.
#pragma once

#include "meso/ops/operation.hpp"

namespace meso {

class CellListOp : public Operation {
 public:
  virtual void build() = 0;
};

}  // namespace meso

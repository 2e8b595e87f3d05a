// Reordering: puts particles in a space-filling-curve or cell order so that
// neighbors are near in memory (the `reorder` variant axis, every `sort`
// steps). Tags travel with the particles, so results in tag order do not
// depend on it. The StepPlan applies it at a neighbor-list rebuild at least
// `sort` steps after the previous one, before the cell list is rebuilt.
#pragma once

#include "meso/ops/operation.hpp"

namespace meso {

class ReorderOp : public Operation {
 public:
  virtual void apply() = 0;
};

}  // namespace meso

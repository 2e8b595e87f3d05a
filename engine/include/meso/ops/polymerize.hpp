// Chain-growth polymerization between steps (GALAMOST's stochastic reaction
// model, meso/core/polymerization.hpp): the StepPlan calls apply() after every
// step numbered a multiple of the system's Polymerization::period. New
// bonds join the backend's topology, so its "bonded" force sees them from
// the next compute on; reacted monomers take their new type in place.
#pragma once

#include <cstdint>
#include <vector>

#include "meso/ops/operation.hpp"
#include "meso/core/polymerization.hpp"
#include "meso/core/topology.hpp"

namespace meso {

class PolymerizeOp : public Operation {
 public:
  // One attempt of every active end at the positions after step `step`
  // (the step keys the draws).
  virtual void apply(uint64_t step) = 0;
  virtual PolymerizationStats stats() const = 0;
  // The bonds formed so far (end, monomer, bond type), in the order they
  // formed: by attempt, and within one by the end's tag.
  virtual const std::vector<Bond>& formed() const = 0;
};

}  // namespace meso

// A force: adds its contribution to the net force on every local particle
// (HOOMD-blue's ForceCompute). The pair forces (DPD, Lennard-Jones) are one
// templated operation over the evaluators of meso/physics; the bonded force
// ("bonded") and the MD-SCF field ("field/mdscf", field.hpp) are further
// ForceOps of the same plan.
#pragma once

#include <cstdint>

#include "meso/ops/operation.hpp"
#include "meso/analysis/thermo.hpp"

namespace meso {

// Which particles' forces a request computes. On several ranks a step may
// split them: `interior` (no ghost among their neighbours, so they need no
// ghost update) while the update is in flight, then `edge`. Only a force
// whose takes_rows() says so is asked for a part.
enum class RowSet : uint8_t { all, interior, edge };

struct ForceRequest {
  uint64_t step = 0;     // keys the pair noise
  bool sums = false;     // also accumulate energy and virial
  bool initial = false;  // the forces of t = 0: from v(0), never predicted or fused
  RowSet rows = RowSet::all;
};

class ForceOp : public Operation {
 public:
  virtual void compute(const ForceRequest& r) = 0;
  // Energy and virial of the last compute() with sums.
  virtual PairSums sums() const = 0;
  // The StepPlan's configuration of this force, set once before the first
  // compute(): the first force of a plan writes the net force and the others
  // add to it; a force that finishes the step also performs the second
  // half-step with the force still in registers (fuse=on; only offered when
  // it is the last force and the method allows it).
  void set_first(bool first) { first_ = first; }
  bool first() const { return first_; }
  virtual bool can_finish_step() const { return false; }
  // Whether it runs on several ranks, reading the ghosts a rank holds (the
  // pair forces do; a force that finds particles by tag must look among
  // the ghosts too).
  virtual bool decomposable() const { return true; }
  void set_finishes_step(bool f) { finishes_step_ = f; }
  bool finishes_step() const { return finishes_step_; }

 private:
  bool first_ = true;
  bool finishes_step_ = false;
};

}  // namespace meso

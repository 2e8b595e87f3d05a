// The MPCD solvent's stage of a StepPlan (HOOMD-blue's mpcd::Integrator,
// which holds a StreamingMethod, a CollisionMethod and a Sorter): once every
// collision period of `period` plan steps, the solvent streams dt_c at the
// start of the period, and at its end is sorted when due and collides with
// itself and the MD particles of its embed_types at their new positions.
// The operations come from the backend by name (meso/ops/mpcd.hpp).
//
//   begin_period:  stream dt_c; on several ranks the solvent migrates
//   (the period's MD steps)
//   end_period:    sort when due; collide (numbered 1, 2, ...)
//
// With no MD particles a period is one plan step: the plan steps are the
// collisions.
#pragma once

#include <cstdint>
#include <memory>

#include "meso/core/mpcd.hpp"
#include "meso/ops/mpcd.hpp"
#include "meso/run/step_rules.hpp"

namespace meso {

class Backend;
class Communicator;

class SolventStage {
 public:
  // The stage of the solvent the backend holds (after Backend::set_mpcd,
  // which validates it). With variant reorder=cell and sort=N (on a backend
  // that honours them) the solvent is sorted into cell order every N
  // collisions; another reorder is refused, naming it.
  SolventStage(Backend& backend, const MpcdSystem& sys, uint64_t period);

  // Several ranks: the solvent migrates after streaming and the collision
  // combines the cells that ranks share through `comm` (bitwise the
  // one-rank collision). InputError where the backend cannot.
  void attach(Communicator& comm, Backend& backend);

  // MD steps (plan steps) per collision: 1 without MD.
  uint64_t period() const { return period_; }
  // Begins the period of the collision numbered `collision`.
  void begin_period(uint64_t collision);
  // Ends the period of the collision numbered `collision`.
  void end_period(uint64_t collision);
  // After a run of periods (several ranks: Communicator::settle_solvent).
  void end_run();

  MpcdStreamOp& stream_op() { return *stream_; }
  MpcdCollideOp& collide_op() { return *collide_; }
  const MpcdCollideOp& collide_op() const { return *collide_; }
  MpcdSortOp* sort_op() { return sort_.get(); }  // null without sorting

 private:
  uint64_t period_;
  double shear_rate_;  // Lees-Edwards: refused on several ranks (attach)
  std::unique_ptr<MpcdStreamOp> stream_;
  std::unique_ptr<MpcdCollideOp> collide_;
  std::unique_ptr<MpcdSortOp> sort_;
  Communicator* comm_ = nullptr;  // several ranks only
  StepRules rules_;               // when a collision sorts (meso/run/step_rules.hpp)
};

}  // namespace meso

#include "meso/step_plan.hpp"

#include <string>

#include "meso/backend.hpp"
#include "meso/error.hpp"

namespace meso {
namespace {

// The bonded force of a system with a topology, or an InputError saying
// that the backend has none (the CUDA backend does not provide it yet).
std::unique_ptr<ForceOp> create_bonded(Backend& b, const System& sys) {
  try {
    return b.create_as<ForceOp>("bonded");
  } catch (const InputError& e) {
    throw_input_error("bonded forces are not provided by the ", b.name(), " backend yet (the system has ",
                      sys.topology.bonds.size(), " bonds and ", sys.topology.angles.size(),
                      " angles; run it with --backend cpu): ", e.what());
  }
}

}  // namespace

std::unique_ptr<StepPlan> StepPlan::build(Backend& b, const System& sys, const RunParams& rp) {
  auto plan = std::make_unique<StepPlan>();
  const Variant& v = b.variant();
  plan->method_ = b.create_as<IntegrationMethodOp>(std::string("integrate/") + to_string(rp.integrator));
  if (b.honours("reorder") && v.reorder != ReorderKind::none) {
    plan->reorder_ = b.create_as<ReorderOp>("reorder");
    plan->sort_every_ = v.sort;
  }
  plan->cells_ = b.create_as<CellListOp>("cell_list");
  plan->nlist_ = b.create_as<NeighborListOp>("neighbor_list");
  plan->forces_.push_back(
      b.create_as<ForceOp>(sys.pair_style == PairStyle::lj ? "pair_force/lj" : "pair_force/dpd"));
  // Bonded forces add to the net force the pair force wrote.
  if (!sys.topology.empty()) plan->forces_.push_back(create_bonded(b, sys));
  for (std::size_t k = 0; k < plan->forces_.size(); ++k) plan->forces_[k]->set_first(k == 0);
  plan->comm_ = std::make_unique<SingleRankCommunicator>(sys.box, sys.max_rcut() + rp.skin);

  if (b.honours("fuse") && v.fuse) {
    ForceOp& last = *plan->forces_.back();
    if (!plan->method_->second_half_fusable())
      throw_input_error("variant fuse=on is only provided with the vv, nve and gw integrators, not ",
                        to_string(rp.integrator));
    // The fused half-step needs the total force in the pair kernel's
    // registers; the bonded force runs after it and cannot finish the step.
    if (!sys.topology.empty())
      throw_input_error("variant fuse=on is not provided with bonded forces (the system has a topology): "
                        "the fused second half-step needs the total force, and the bonded force adds "
                        "to it after the pair force; use fuse=off");
    if (!last.can_finish_step())
      throw_input_error("variant fuse=on needs a last force that can finish the step; '",
                        last.name(), "' cannot");
    last.set_finishes_step(true);
    plan->method_->set_second_half_fused(true);
    plan->fused_ = true;
  }
  return plan;
}

void StepPlan::rebuild() {
  if (reorder_ && steps_since_sort_ >= sort_every_) {
    reorder_->apply();
    steps_since_sort_ = 0;
  }
  build_lists();
}

void StepPlan::build_lists() {
  comm_->migrate();
  comm_->exchange_ghosts();
  cells_->build();
  nlist_->build();
}

void StepPlan::prepare_restart(uint32_t steps_since_sort) {
  build_lists();
  steps_since_sort_ = steps_since_sort == UINT32_MAX ? UINT64_MAX : steps_since_sort;
}

void StepPlan::prepare() {
  rebuild();
  ForceRequest r;
  r.step = 0;
  r.sums = true;
  r.initial = true;  // at t = 0 there is no force to predict with: forces use v(0) itself
  for (auto& f : forces_) f->compute(r);
}

void StepPlan::run_step(uint64_t step, bool sums) {
  method_->first_half(step);
  if (reorder_) ++steps_since_sort_;
  if (nlist_->stale())
    rebuild();
  else
    comm_->update_ghosts();
  ForceRequest r;
  r.step = step;
  r.sums = sums;
  for (auto& f : forces_) f->compute(r);
  if (!fused_) method_->second_half(step);
}

PairSums StepPlan::sums() const {
  PairSums s;
  for (const auto& f : forces_) {
    const PairSums p = f->sums();
    s.energy += p.energy;
    s.virial += p.virial;
  }
  return s;
}

}  // namespace meso

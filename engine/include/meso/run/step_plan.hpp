// The composition of a time step (HOOMD-blue's IntegratorTwoStep): which
// operations run, in which order, and what may be fused. The engine builds
// the plan from the System and RunParams out of the operations a backend
// registered; backends never compose steps themselves. The generic loop
// (run_step) is what the CPU reference runs; the CUDA backend compiles the
// same plan into a conditional CUDA graph (kernels/core/cuda_step_graph.cu).
//
//   first half:   method.first_half
//   list update:  if nlist.stale(rules()) on any rank, or a collision with
//                 embedded solutes ends the step on several ranks:
//                   comm.migrate()
//                   [reorder.apply() when sort is due]
//                   comm.exchange_ghosts()
//                   cells.build(); nlist.build()
//                 else comm.update_ghosts()
//   forces:       forces[0] writes the net force, the others add to it
//   second half:  method.second_half, unless the last force finishes the
//                 step (fuse=on, where the method allows it)
//
// Bonded forces and the MD-SCF field are further entries of forces(); with
// pair style none they are the only ones and the plan has no cells, list or
// reorder.
//
// An MPCD solvent is the plan's last stage (meso/run/solvent_stage.hpp), with the
// MD steps between two collisions as its cadence:
//
//   step of a period's start:  solvent.begin_period (stream, migrate)
//   each step:                 the MD step above (when the plan has MD)
//   step of a period's end:    solvent.end_period (sort when due, collide)
//
// A plan of the solvent alone has no MD part: its steps are the collisions.
// A polymerizing system's reactions (meso/ops/polymerize.hpp) are a stage
// too: after every step numbered a multiple of their period.
// advance() interleaves the stage with the backend's MD steps; a backend
// only ever advances whole runs of MD steps. A multi-rank run hands the plan
// its Communicator (scaling/: MpiCommunicator); the single-rank one is the
// default.
#pragma once

#include <cstdint>
#include <memory>
#include <vector>

#include "meso/ops/cell_list.hpp"
#include "meso/ops/communicator.hpp"
#include "meso/ops/force.hpp"
#include "meso/ops/integration_method.hpp"
#include "meso/ops/neighbor_list.hpp"
#include "meso/ops/polymerize.hpp"
#include "meso/ops/reorder.hpp"
#include "meso/run/solvent_stage.hpp"
#include "meso/run/step_rules.hpp"
#include "meso/core/system.hpp"
#include "meso/analysis/thermo.hpp"

namespace meso {

class Backend;
struct RunParams;

class StepPlan {
 public:
  // The plan of a pair-potential step for sys and params, from the
  // operations of `backend` (after its set_system). Throws InputError for
  // a combination the plan cannot honour (fuse=on with nvt or langevin).
  // `comm` (null: the single rank) is attached to the backend's storage; a
  // multi-rank plan refuses what it cannot decompose yet (bonded forces, the
  // MD-SCF field, integrators that say so), naming it.
  static std::unique_ptr<StepPlan> build(Backend& backend, const System& sys, const RunParams& rp,
                                         std::unique_ptr<Communicator> comm = nullptr);
  // The plan of an MPCD solvent alone (after the backend's set_mpcd), one
  // collision a step; on several ranks `comm` holds the domain of `sys`.
  static std::unique_ptr<StepPlan> build_solvent(Backend& backend, const MpcdSystem& sys,
                                                 std::unique_ptr<Communicator> comm = nullptr);
  // Adds the stage of the solvent the backend holds to an MD plan: a
  // collision every `period` MD steps. On several ranks (`sys`: the
  // domain's solvent) the solvent migrates after streaming and, with
  // embed_types, the MD particles at the step of every collision
  // (StepRules::migrate_every), so that each rank's solutes join its
  // domain's cells; InputError for domains under two cells.
  void add_solvent(Backend& backend, const MpcdSystem& sys, uint64_t period);

  // Runs the plan's steps first .. first + n - 1: the backend advances the
  // MD steps (Backend::advance, sums on the last step of each call when
  // `sums_on_last`) and the solvent stage falls between them on its cadence.
  void advance(Backend& backend, uint64_t first, uint64_t n, bool sums_on_last);

  // Before the first step: reorder (if any), cells, list, and the forces of
  // t = 0 with sums.
  void prepare();
  // Instead of prepare() when continuing a checkpoint exactly: cells and
  // list from the positions the backend holds (those of the last build
  // before the checkpoint), no reorder and no forces (the checkpoint has
  // them); the sort counter continues from steps_since_sort.
  void prepare_restart(uint32_t steps_since_sort);
  // Steps since the last reorder (UINT32_MAX before the first), as the
  // generic loop counts them; a device loop keeps its own count.
  uint32_t steps_since_sort() const {
    return steps_since_sort_ > UINT32_MAX ? UINT32_MAX : static_cast<uint32_t>(steps_since_sort_);
  }
  // One whole step numbered `step`, composed generically from the operations.
  void run_step(uint64_t step, bool sums);

  // Energy and virial over the forces, from their last compute with sums.
  PairSums sums() const;

  // Whether the plan moves MD particles (not for a solvent alone);
  // method() and forces() are only meaningful when it does.
  bool has_md() const { return method_ != nullptr; }
  IntegrationMethodOp& method() { return *method_; }
  const IntegrationMethodOp& method() const { return *method_; }
  ReorderOp* reorder() { return reorder_.get(); }  // null without reordering
  // Whether the plan keeps cells and a neighbor list (not with pair style
  // none); cells() and nlist() are only valid when it does.
  bool has_lists() const { return nlist_ != nullptr; }
  CellListOp& cells() { return *cells_; }
  NeighborListOp& nlist() { return *nlist_; }
  const NeighborListOp& nlist() const { return *nlist_; }
  const std::vector<std::unique_ptr<ForceOp>>& forces() { return forces_; }
  Communicator& comm() { return *comm_; }
  const Communicator& comm() const { return *comm_; }
  // When the list is rebuilt and a rebuild reorders (meso/run/step_rules.hpp):
  // the one policy the host loop and a backend's device loop both follow.
  const StepRules& rules() const { return rules_; }
  // The MPCD solvent's stage; null without a solvent.
  SolventStage* solvent() { return solvent_.get(); }
  const SolventStage* solvent() const { return solvent_.get(); }
  // The chain-growth reactions; null unless the system polymerizes.
  PolymerizeOp* polymerize() { return polymerize_.get(); }
  const PolymerizeOp* polymerize() const { return polymerize_.get(); }
  // The last force performs the second half-step (fuse=on).
  bool second_half_fused() const { return fused_; }

 private:
  std::unique_ptr<IntegrationMethodOp> method_;
  std::unique_ptr<ReorderOp> reorder_;
  std::unique_ptr<CellListOp> cells_;
  std::unique_ptr<NeighborListOp> nlist_;
  std::vector<std::unique_ptr<ForceOp>> forces_;
  std::unique_ptr<Communicator> comm_;
  std::unique_ptr<SolventStage> solvent_;
  std::unique_ptr<PolymerizeOp> polymerize_;
  uint64_t reaction_period_ = 0;
  StepRules rules_;
  bool fused_ = false;
  uint64_t steps_since_sort_ = UINT64_MAX;  // sort before the first list
  void rebuild();
  void build_lists(bool migrate);
};

}  // namespace meso

// The run loop of an MPCD solvent (the srd-fluid workload and the SRD
// validation cases), on its own or coupled to MD solute (HOOMD-blue's
// mpcd::Integrator): per collision period dt_c, the solvent streams dt_c,
// the MD runs dt_c / dt_md steps, the solvent is sorted when due, and the
// collision acts on the solvent and the embedded MD particles
// (MpcdParams::embed_types) at their new positions. The operations come from
// the backend by name (meso/ops/mpcd.hpp).
#pragma once

#include <cstdint>
#include <functional>
#include <memory>

#include "meso/backend.hpp"
#include "meso/mpcd.hpp"
#include "meso/ops/communicator.hpp"
#include "meso/ops/mpcd.hpp"
#include "meso/simulation.hpp"
#include "meso/step_rules.hpp"

namespace meso {

class MpcdSimulation {
 public:
  // Loads the solvent into the backend and creates its operations; with
  // variant reorder=cell and sort=N > 0 (on a backend that honours them) the
  // solvent is sorted into cell order every N collisions.
  MpcdSimulation(std::unique_ptr<Backend> backend, const MpcdSystem& sys);
  // Solute coupling: the solvent joins the MD simulation's backend, and each
  // collision period runs dt_c / dt_md MD steps (an integer, or an
  // InputError naming both). The boxes must agree when embed_types is set.
  MpcdSimulation(std::unique_ptr<Simulation> md, const MpcdSystem& sys);
  // The solvent alone over ranks (make_comm: MpiCommunicator::factory):
  // each rank loads the particles its domain owns; domains are at least two
  // cells wide. After streaming the solvent migrates to its new owners, and
  // the collision combines the cells that ranks share (bitwise the one-rank
  // collision). thermo() is global; particles() is gathered on rank 0.
  MpcdSimulation(std::unique_ptr<Backend> backend, const MpcdSystem& sys, CommunicatorFactory make_comm);
  ~MpcdSimulation();
  int ranks() const;
  // The ranks' communicator (its times and reductions); null on one rank.
  const Communicator* communicator() const { return comm_.get(); }
  // This rank's solvent particles.
  std::size_t local_size() const;

  // Advances ncollisions collision periods; calls on_sample every
  // sample_every collisions when sample_every > 0.
  void run(uint64_t ncollisions, uint64_t sample_every = 0,
           const std::function<void(const MpcdThermo&)>& on_sample = {});

  uint64_t step() const { return step_; }
  // Continuing from a checkpoint (the solvent came in with the system): the
  // collisions done. Nothing else needs restoring: the grid shift, the
  // rotation axes and the sort schedule are keyed by the step, and the cell
  // sums are exact fixed-point sums, independent of the particle order.
  void restart_at(uint64_t step) { step_ = step; }
  // The system it was built from; on several ranks without its particles
  // (they are the backend's: particles() gathers them on rank 0).
  const MpcdSystem& system() const { return sys_; }
  Backend& backend() { return *be_; }
  Simulation* md() { return md_.get(); }  // null without solute
  uint64_t md_steps_per_collision() const { return md_period_; }
  MpcdParticles particles() const;  // tag order
  MpcdThermo thermo() const;

  MpcdStreamOp& stream_op() { return *stream_; }
  MpcdCollideOp& collide_op() { return *collide_; }
  MpcdSortOp* sort_op() { return sort_.get(); }  // null without sorting

 private:
  void create_operations();

  std::unique_ptr<Backend> backend_;  // owned here without solute
  std::unique_ptr<Simulation> md_;    // owns the backend with solute
  Backend* be_ = nullptr;
  uint64_t md_period_ = 0;
  MpcdSystem sys_;
  std::unique_ptr<MpcdStreamOp> stream_;
  std::unique_ptr<MpcdCollideOp> collide_;
  std::unique_ptr<MpcdSortOp> sort_;
  std::unique_ptr<Communicator> comm_;  // several ranks only
  uint64_t n_global_ = 0;
  StepRules rules_;  // when a collision sorts the solvent (meso/step_rules.hpp)
  uint64_t step_ = 0;
  // Frames for an installed io::FrameSink (validate --trajectory).
  uint64_t serial_ = 0;
  uint64_t last_frame_ = UINT64_MAX;
  void emit_frame();
};

}  // namespace meso

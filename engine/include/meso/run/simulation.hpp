// The run loop: a backend, the StepPlan composed from its operations
// (step_plan.hpp), and thermo sampling, for MD particles, an MPCD solvent, or
// both (HOOMD-blue's mpcd::Integrator: the solvent is a stage of the plan).
// It owns the step counter that keys the pair noise and the collisions, so a
// trajectory depends only on (system, params, seed).
#pragma once

#include <array>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>

#include "meso/run/backend.hpp"
#include "meso/core/mpcd.hpp"
#include "meso/run/step_plan.hpp"

namespace meso {

// What one Simulation runs: MD particles with their run parameters, an MPCD
// solvent, or both. With both, the solvent collides every dt_c / dt MD steps
// (a whole number) and its collisions act on the MD particles of its
// embed_types; the boxes agree (require_embeddable). A step of the
// simulation is an MD step, or one collision period for a solvent alone.
//
// The MD particles come whole in md->particles, or, with `md_owned`, each
// rank builds only those its domain owns: md->particles stays empty,
// md_count says how many there are in all, and md_owned is called once
// on every rank with its domain and the ranks' sum (a collective), as
// place_stratified and the over-ranks draw_maxwell_boltzmann allow. Set-up
// memory and time then scale with the rank, not the system.
struct SimulationSetup {
  using OwnedParticles =
      std::function<ParticleData<double>(const Domain&, const std::function<double(double)>& sum)>;
  std::optional<System> md;
  RunParams run;  // the MD particles' dynamics
  std::optional<MpcdSystem> solvent;
  OwnedParticles md_owned = {};
  uint64_t md_count = 0;
  // The same for a solvent alone: solvent->particles stays empty, and each
  // rank's own come from solvent_owned (position, velocity, tag).
  OwnedParticles solvent_owned = {};
  uint64_t solvent_count = 0;

  // Particles of both kinds.
  uint64_t size() const {
    return (md ? (md_owned ? md_count : md->particles.n_local) : 0) +
           (solvent ? (solvent_owned ? solvent_count : solvent->particles.size()) : 0);
  }
  const Box& box() const { return md ? md->box : solvent->box; }
  double step_time() const { return md ? run.dt : solvent->params.dt; }  // dt, or dt_c of a solvent alone
  // How far a domain must see into its neighbours' (several ranks): r_c +
  // skin for MD, two cells for a solvent alone (a domain holds whole
  // shifted cells).
  double ghost_width() const { return md ? md->max_rcut() + run.skin : 2.0 * solvent->params.cell_size; }
  // Slit walls normal to z: the rank grid keeps z whole (docs/walls.md).
  bool slit_walls() const { return md ? md->wall.active() : solvent->params.wall.active(); }
};

// Everything needed to continue a run exactly: the step counter (it keys the
// noise), the particles with their forces, the thermostat variables and the
// backend's list state (storage order, positions at the last list build,
// sort and build counters). With `lists` filled (Simulation::checkpoint
// does) the continued run is bitwise identical to the uninterrupted one: the
// forces of the last step are reused rather than recomputed (DPD forces
// depend on v(t - dt/2), gone after the step), and the lists are rebuilt
// from the positions of their last build so pairs are summed in the same
// order and later rebuilds and reorders fall on the same steps
// (tests/io/restart_test.cpp, tests/kernels/cuda_restart_test.cpp).
// Without `lists` (the JSON form of validation/checkpoint_json.cpp, which
// keeps no forces) the lists are rebuilt and the forces recomputed from
// v(t), as HOOMD-blue does at the start of a run: exact for conservative
// pair styles (LJ) on the CPU reference, not for DPD.
// A solvent alone needs only its particles: the grid shifts, the rotation
// axes and the sort schedule are keyed by the step, and the cell sums are
// exact fixed-point sums, independent of the particle order, so it
// continues on any number of ranks, bitwise.
// On several ranks a checkpoint is gathered on rank 0: the particles in tag
// order as on one rank, and the list state of every rank one after the
// other (`rank_counts`: how many particles each rank held, in rank order,
// on the rank grid `grid`). MD particles continue bitwise on the same grid
// only, each rank taking back the particles it held in its storage order:
// on another grid the lists, hence the order of the force sums, differ.
struct Checkpoint {
  uint64_t step = 0;
  ParticleData<double> particles;  // in tag order, forces included
  IntegratorState integrator;
  ListRestartState lists;
  MpcdParticles solvent;  // a solvent alone, in tag order
  std::vector<uint64_t> rank_counts;  // MD particles on several ranks; empty: one rank
  std::array<int, 3> grid{1, 1, 1};
  bool exact() const { return !lists.order.empty(); }
  int ranks() const { return rank_counts.empty() ? 1 : int(rank_counts.size()); }
};

class Simulation {
 public:
  // `make_comm` (null: one rank) decomposes the run over ranks; it makes the
  // communicator once the ghost width is known (scaling/:
  // MpiCommunicator::factory). Every rank passes the same whole setup; each
  // loads the particles its domain owns. particles() and checkpoints gather
  // on rank 0; thermo() is global on every rank. `from` continues a
  // checkpoint: the setup supplies the box and parameters, the checkpoint
  // the particles, the step, the thermostat and list state.
  Simulation(std::unique_ptr<Backend> backend, SimulationSetup setup, CommunicatorFactory make_comm = {},
             const Checkpoint* from = nullptr);
  // MD particles.
  Simulation(std::unique_ptr<Backend> backend, const System& sys, const RunParams& params);
  Simulation(std::unique_ptr<Backend> backend, const System& sys, const RunParams& params,
             CommunicatorFactory make_comm);
  Simulation(std::unique_ptr<Backend> backend, const System& sys, const RunParams& params,
             const Checkpoint& from);
  // An MPCD solvent alone (over ranks: domains at least two cells wide; the
  // solvent migrates after streaming and the collision combines the cells
  // that ranks share, bitwise the one-rank collision).
  Simulation(std::unique_ptr<Backend> backend, const MpcdSystem& solvent, CommunicatorFactory make_comm = {});
  // MD particles in an MPCD solvent, on one rank.
  Simulation(std::unique_ptr<Backend> backend, const System& sys, const RunParams& params,
             const MpcdSystem& solvent);

  // Advances nsteps (MD steps, or collisions of a solvent alone). If
  // sample_every > 0, calls on_sample with a thermo sample every
  // sample_every steps (energies and virial are only accumulated then).
  void run(uint64_t nsteps, uint64_t sample_every = 0,
           const std::function<void(const ThermoSample&)>& on_sample = {});

  uint64_t step() const { return step_; }
  Backend& backend() { return *backend_; }
  const Backend& backend() const { return *backend_; }
  StepPlan& plan() { return *plan_; }
  const StepPlan& plan() const { return *plan_; }
  // Zero without lists (pair style none).
  NeighborStats neighbor_stats() const { return plan_->has_lists() ? plan_->nlist().stats() : NeighborStats{}; }
  IntegratorState integrator_state() const { return plan_->has_md() ? plan_->method().state() : IntegratorState{}; }
  void set_integrator_state(const IntegratorState& s) { plan_->method().set_state(s); }
  // The MD system it was built from (empty for a solvent alone).
  const System& system() const { return system_; }
  const RunParams& params() const { return params_; }
  bool has_md() const { return plan_->has_md(); }
  // The solvent's stage of the plan and the system it was built from (box
  // and parameters; on several ranks without its particles, which
  // solvent_particles() gathers); null without a solvent.
  SolventStage* solvent() { return plan_->solvent(); }
  const MpcdSystem* solvent_system() const { return solvent_sys_ ? &*solvent_sys_ : nullptr; }
  // MD steps per collision (1 for a solvent alone; 0 without a solvent).
  uint64_t steps_per_collision() const { return plan_->solvent() ? plan_->solvent()->period() : 0; }

  // Current MD particles (copied out of the backend; on several ranks
  // gathered on rank 0, in tag order, and empty elsewhere).
  ParticleData<double> particles() const;
  // This rank's own MD particles, in tag order (all of them on one rank).
  ParticleData<double> local_particles() const;
  // The solvent in tag order, gathered as particles() is.
  MpcdParticles solvent_particles() const;
  // This rank's particles of both kinds.
  uint64_t local_size() const;
  // Ranks of the run (1 without a communicator factory).
  int ranks() const { return plan_->comm().size(); }
  // The run's communicator (its counts of exchanges).
  const Communicator& communicator() const { return plan_->comm(); }
  // The communicator's times, with the host-device copies of the cells that
  // the solvent's collision shares between ranks among the copies.
  CommTimes comm_times() const;
  // Thermo at the current state: of the MD particles when there are any
  // (energy and virial from the forces of the last step, which every run()
  // call accumulates), else of the solvent (no potential energy, pressure
  // 0: thermo_sample of solvent_thermo()).
  ThermoSample thermo() const;
  // The solvent's momentum, kinetic energy and temperature (global).
  MpcdThermo solvent_thermo() const;
  // A checkpoint of MD particles or of a solvent alone (not of both yet);
  // on several ranks a collective, whose result rank 0 holds (the other
  // ranks' is empty).
  Checkpoint checkpoint() const;

 private:
  std::unique_ptr<Backend> backend_;
  std::unique_ptr<StepPlan> plan_;
  CommunicatorFactory make_comm_;
  System system_;  // parameters and the initial state; positions live in the backend
  RunParams params_;
  std::optional<MpcdSystem> solvent_sys_;
  uint64_t n_solvent_ = 0;  // the whole solvent's particles (thermo on several ranks)
  SimulationSetup::OwnedParticles md_owned_, solvent_owned_;  // each rank builds its own (SimulationSetup)
  uint64_t n_md_ = 0;                                          // the whole system's MD particles
  uint64_t step_ = 0;
  // Frames for an installed io::FrameSink (validate --trajectory): one run
  // serial for the MD particles, one for the solvent.
  uint64_t serial_ = 0, solvent_serial_ = 0;
  uint64_t last_frame_ = UINT64_MAX;
  void emit_frame();
  // Loads the setup (MD particles when `md`, the solvent when there is
  // one) into the backend and prepares the plan (from a checkpoint when
  // `from` is given).
  void start(const Checkpoint* from, bool md);
  void start_md(const Checkpoint* from);
  void continue_on_ranks(const Checkpoint& from, std::unique_ptr<Communicator> comm);
  void start_solvent();
};

}  // namespace meso

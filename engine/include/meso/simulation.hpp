// The run loop: a backend, the StepPlan composed from its operations
// (step_plan.hpp), and thermo sampling. It owns the timestep counter that keys the
// pair noise, so a trajectory depends only on (system, params, seed).
#pragma once

#include <cstdint>
#include <functional>
#include <memory>

#include "meso/backend.hpp"
#include "meso/step_plan.hpp"

namespace meso {

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
struct Checkpoint {
  uint64_t step = 0;
  ParticleData<double> particles;  // in tag order, forces included
  IntegratorState integrator;
  ListRestartState lists;
  bool exact() const { return !lists.order.empty(); }
};

class Simulation {
 public:
  Simulation(std::unique_ptr<Backend> backend, const System& sys, const RunParams& params);
  // A run decomposed over ranks: `make_comm` makes the communicator once the
  // ghost width is known (scaling/: MpiCommunicator::factory). Every rank
  // passes the same whole system; each loads the particles its domain owns.
  // particles() and checkpoints gather on rank 0; thermo() is global on
  // every rank.
  Simulation(std::unique_ptr<Backend> backend, const System& sys, const RunParams& params,
             CommunicatorFactory make_comm);
  // Continues from a checkpoint: sys supplies the box and parameters, the
  // checkpoint the particles, the step, the thermostat and list state.
  Simulation(std::unique_ptr<Backend> backend, const System& sys, const RunParams& params,
             const Checkpoint& from);

  // Advances nsteps. If sample_every > 0, calls on_sample with a thermo sample
  // every sample_every steps (energies and virial are only accumulated then).
  void run(uint64_t nsteps, uint64_t sample_every = 0,
           const std::function<void(const ThermoSample&)>& on_sample = {});

  uint64_t step() const { return step_; }
  Backend& backend() { return *backend_; }
  const Backend& backend() const { return *backend_; }
  StepPlan& plan() { return *plan_; }
  const StepPlan& plan() const { return *plan_; }
  // Zero without lists (pair style none).
  NeighborStats neighbor_stats() const { return plan_->has_lists() ? plan_->nlist().stats() : NeighborStats{}; }
  IntegratorState integrator_state() const { return plan_->method().state(); }
  void set_integrator_state(const IntegratorState& s) { plan_->method().set_state(s); }
  const System& system() const { return system_; }
  const RunParams& params() const { return params_; }

  // Current particle state (copied out of the backend; on several ranks
  // gathered on rank 0, in tag order, and empty elsewhere).
  ParticleData<double> particles() const;
  // This rank's own particles, in tag order (all of them on one rank).
  ParticleData<double> local_particles() const;
  // Ranks of the run (1 without a communicator factory).
  int ranks() const { return plan_->comm().size(); }
  // The run's communicator (its times and counts of exchanges).
  const Communicator& communicator() const { return plan_->comm(); }
  // Thermo at the current state (energy and virial from the forces of the
  // last step, which every run() call accumulates).
  ThermoSample thermo() const;
  Checkpoint checkpoint() const;

 private:
  std::unique_ptr<Backend> backend_;
  std::unique_ptr<StepPlan> plan_;
  CommunicatorFactory make_comm_;
  System system_;  // parameters and the initial state; positions live in the backend
  RunParams params_;
  uint64_t step_ = 0;
  // Frames for an installed io::FrameSink (validate --trajectory).
  uint64_t serial_ = 0;
  uint64_t last_frame_ = UINT64_MAX;
  void emit_frame();
  // Loads system_ into the backend and prepares the plan (from a checkpoint
  // when `from` is given).
  void start(const Checkpoint* from);
};

}  // namespace meso

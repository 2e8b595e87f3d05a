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
// noise), the particles and the thermostat variables. For conservative pair
// styles (LJ) a run continued from a checkpoint is bitwise identical to the
// uninterrupted run, whatever the integrator (tests/reference/
// lj_dynamics_test.cpp); DPD forces are recomputed from v(t) at the restart
// rather than from v(t - dt/2), as HOOMD-blue does at the start of a run.
struct Checkpoint {
  uint64_t step = 0;
  ParticleData<double> particles;  // in tag order
  IntegratorState integrator;
};

class Simulation {
 public:
  Simulation(std::unique_ptr<Backend> backend, const System& sys, const RunParams& params);
  // Continues from a checkpoint: sys supplies the box and parameters, the
  // checkpoint the particles, the step and the thermostat state.
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
  NeighborStats neighbor_stats() const { return plan_->nlist().stats(); }
  IntegratorState integrator_state() const { return plan_->method().state(); }
  void set_integrator_state(const IntegratorState& s) { plan_->method().set_state(s); }
  const System& system() const { return system_; }
  const RunParams& params() const { return params_; }

  // Current particle state (copied out of the backend).
  ParticleData<double> particles() const;
  // Thermo at the current state (energy and virial from the forces of the
  // last step, which every run() call accumulates).
  ThermoSample thermo() const;
  Checkpoint checkpoint() const;

 private:
  std::unique_ptr<Backend> backend_;
  std::unique_ptr<StepPlan> plan_;
  System system_;  // parameters and the initial state; positions live in the backend
  RunParams params_;
  uint64_t step_ = 0;
};

}  // namespace meso

#include "meso/simulation.hpp"

#include <algorithm>

#include "meso/error.hpp"

namespace meso {

Simulation::Simulation(std::unique_ptr<Backend> backend, const System& sys, const RunParams& params)
    : backend_(std::move(backend)), system_(sys), params_(params) {
  params_.validate();
  system_.validate(params_.skin);
  backend_->set_system(system_, params_);
  plan_ = StepPlan::build(*backend_, system_, params_);
  plan_->prepare();
}

namespace {
System with_particles(System sys, const ParticleData<double>& p) {
  sys.particles = p;
  return sys;
}
}  // namespace

Simulation::Simulation(std::unique_ptr<Backend> backend, const System& sys, const RunParams& params,
                       const Checkpoint& from)
    : Simulation(std::move(backend), with_particles(sys, from.particles), params) {
  step_ = from.step;
  plan_->method().set_state(from.integrator);
}

Checkpoint Simulation::checkpoint() const {
  return {step_, particles(), plan_->method().state()};
}

void Simulation::run(uint64_t nsteps, uint64_t sample_every,
                     const std::function<void(const ThermoSample&)>& on_sample) {
  Backend& b = *backend_;
  const uint64_t end = step_ + nsteps;
  while (step_ < end) {
    // Run up to the next sample (or the end) in one backend call. The last
    // step of each call accumulates energy and virial, so thermo() afterwards
    // is exact without re-evaluating forces (which for velocity Verlet would
    // need v(t + dt/2), no longer available).
    uint64_t stop = end;
    if (sample_every > 0) stop = std::min(end, (step_ / sample_every + 1) * sample_every);
    b.advance(*plan_, step_ + 1, stop - step_, true);
    step_ = stop;
    if (sample_every > 0 && step_ % sample_every == 0 && on_sample) on_sample(thermo());
  }
}

ParticleData<double> Simulation::particles() const {
  ParticleData<double> p;
  backend_->get_particles(p);
  return p;
}

ThermoSample Simulation::thermo() const {
  ThermoSample t = backend_->thermo(step_, plan_->sums());
  t.thermostat_energy = plan_->method().thermostat_energy();
  return t;
}

}  // namespace meso

#include "meso/simulation.hpp"

#include "meso/error.hpp"

namespace meso {

Simulation::Simulation(std::unique_ptr<Backend> backend, const System& sys, const RunParams& params)
    : backend_(std::move(backend)), system_(sys), params_(params) {
  params_.validate();
  system_.validate(params_.skin);
  backend_->set_system(system_, params_);
}

void Simulation::run(uint64_t nsteps, uint64_t sample_every,
                     const std::function<void(const ThermoSample&)>& on_sample) {
  Backend& b = *backend_;
  for (uint64_t k = 0; k < nsteps; ++k) {
    b.integrate_first_half();
    if (b.neighbor_list_stale()) {
      b.build_cells();
      b.build_neighbor_list();
    }
    ++step_;
    const bool sample = sample_every > 0 && step_ % sample_every == 0;
    b.compute_forces(step_, sample);
    b.integrate_second_half();
    sums_current_ = sample;
    if (sample && on_sample) on_sample(b.thermo(step_));
  }
}

ParticleData<double> Simulation::particles() const {
  ParticleData<double> p;
  backend_->get_particles(p);
  return p;
}

ThermoSample Simulation::thermo() {
  if (!sums_current_) {
    // Same timestep key as the last force evaluation: the forces (and so the
    // trajectory) are unchanged, only the energy and virial sums are added.
    backend_->compute_forces(step_, true);
    sums_current_ = true;
  }
  return backend_->thermo(step_);
}

}  // namespace meso

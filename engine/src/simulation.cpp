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
    // The last step of a call also accumulates energy and virial, so thermo()
    // afterwards is exact without re-evaluating forces (which for velocity
    // Verlet would need v(t + dt/2), no longer available).
    b.compute_forces(step_, sample || k + 1 == nsteps);
    b.integrate_second_half();
    if (sample && on_sample) on_sample(b.thermo(step_));
  }
}

ParticleData<double> Simulation::particles() const {
  ParticleData<double> p;
  backend_->get_particles(p);
  return p;
}

ThermoSample Simulation::thermo() const { return backend_->thermo(step_); }

}  // namespace meso

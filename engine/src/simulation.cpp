#include "meso/simulation.hpp"

#include <algorithm>
#include <vector>

#include "meso/error.hpp"
#include "meso/io/frame_sink.hpp"
#include "meso/progress.hpp"

namespace meso {

namespace {

// The checkpoint's particles in the backend's storage order, at the
// positions of the last list build: what set_system loads so that the
// lists come out as they were.
System at_last_build(System sys, const Checkpoint& cp) {
  const ParticleData<double>& p = cp.particles;
  const ListRestartState& l = cp.lists;
  const std::size_t n = p.n_local;
  if (l.order.size() != n || l.build_position.size() != n)
    throw_input_error("checkpoint list state has ", l.order.size(), " tags and ", l.build_position.size(),
                      " build positions for N = ", n);
  // cp.particles are in tag order: a binary search finds each tag of the storage order.
  const auto tags_begin = p.tag.begin(), tags_end = p.tag.begin() + n;
  std::vector<bool> placed(n, false);
  ParticleData<double> q;
  q.resize(n);
  for (std::size_t k = 0; k < n; ++k) {
    const auto it = std::lower_bound(tags_begin, tags_end, l.order[k]);
    if (it == tags_end || *it != l.order[k])
      throw_input_error("checkpoint list state names tag ", l.order[k], ", which no particle has");
    const auto i = static_cast<std::size_t>(it - tags_begin);
    if (placed[i]) throw_input_error("checkpoint list state names tag ", l.order[k], " twice");
    placed[i] = true;
    q.copy_slot(k, p, i);
    q.position[k] = l.build_position[k];
  }
  sys.particles = std::move(q);
  return sys;
}

// The particles of sys that `d` owns (their wrapped positions in [lo, hi)).
System owned_part(const System& sys, const Domain& d) {
  System mine = sys;
  const ParticleData<double>& all = sys.particles;
  ParticleData<double>& p = mine.particles;
  std::size_t k = 0;
  for (std::size_t i = 0; i < all.n_local; ++i)
    if (d.owns(all.position[i])) p.copy_slot(k++, all, i);
  p.resize(k);
  return mine;
}

}  // namespace

Simulation::Simulation(std::unique_ptr<Backend> backend, const System& sys, const RunParams& params)
    : backend_(std::move(backend)), system_(sys), params_(params), serial_(io::next_run_serial()) {
  start(nullptr);
}

Simulation::Simulation(std::unique_ptr<Backend> backend, const System& sys, const RunParams& params,
                       CommunicatorFactory make_comm)
    : backend_(std::move(backend)), make_comm_(std::move(make_comm)), system_(sys), params_(params),
      serial_(io::next_run_serial()) {
  start(nullptr);
}

void Simulation::start(const Checkpoint* from) {
  params_.validate();
  system_.validate(params_.skin);
  std::unique_ptr<Communicator> comm;
  if (make_comm_) comm = make_comm_(system_.box, system_.max_rcut() + params_.skin);
  if (comm && comm->size() > 1) {
    if (from)
      throw_input_error("continuing a checkpoint on ", comm->size(), " ranks is not provided yet: restart on one rank");
    const System mine = owned_part(system_, comm->domain());
    backend_->set_system(mine, params_);
    plan_ = StepPlan::build(*backend_, mine, params_, std::move(comm));
    plan_->prepare();
    return;
  }
  if (from && from->exact()) {
    backend_->set_system(at_last_build(system_, *from), params_);
    plan_ = StepPlan::build(*backend_, system_, params_, std::move(comm));
    plan_->prepare_restart(from->lists.steps_since_sort);
    backend_->restore_list_state(*plan_, from->lists, from->particles);
  } else {
    // A fresh start, or a checkpoint without forces and list state: the
    // lists are built and the forces computed from v (see Checkpoint).
    backend_->set_system(system_, params_);
    plan_ = StepPlan::build(*backend_, system_, params_, std::move(comm));
    plan_->prepare();
  }
  if (from) plan_->method().set_state(from->integrator);
}

Simulation::Simulation(std::unique_ptr<Backend> backend, const System& sys, const RunParams& params,
                       const Checkpoint& from)
    : backend_(std::move(backend)), system_(sys), params_(params), step_(from.step),
      serial_(io::next_run_serial()) {
  system_.particles = from.particles;  // validated by start() as the run will see them
  start(&from);
}

Checkpoint Simulation::checkpoint() const {
  if (ranks() > 1)
    throw_input_error("checkpoints of a run on ", ranks(), " ranks are not provided yet: checkpoint on one rank");
  Checkpoint c{step_, particles(), plan_->method().state(), {}};
  // Without lists (pair style none) there is no list state to continue: the
  // checkpoint is not exact (the CPU backend once wrote its tag order with
  // no build positions, and the writer read past them).
  if (plan_->has_lists()) backend_->list_state(*plan_, c.lists);
  return c;
}

void Simulation::run(uint64_t nsteps, uint64_t sample_every,
                     const std::function<void(const ThermoSample&)>& on_sample) {
  Backend& b = *backend_;
  const uint64_t end = step_ + nsteps;
  emit_frame();
  while (step_ < end) {
    // Run up to the next sample (or the end) in one backend call. The last
    // step of each call accumulates energy and virial, so thermo() afterwards
    // is exact without re-evaluating forces (which for velocity Verlet would
    // need v(t + dt/2), no longer available).
    uint64_t stop = end;
    if (sample_every > 0) stop = std::min(end, (step_ / sample_every + 1) * sample_every);
    // With a progress sink installed, a long call is split so a report can
    // come about once a second; the steps and their keys do not change.
    stop = step_ + progress::chunk(io::frame_stop(step_, stop) - step_);
    b.advance(*plan_, step_ + 1, stop - step_, true);
    progress::advanced(stop - step_);
    step_ = stop;
    emit_frame();
    if (sample_every > 0 && step_ % sample_every == 0 && on_sample) on_sample(thermo());
  }
}

void Simulation::emit_frame() {
  io::FrameSink* sink = io::frame_sink();
  if (!sink || sink->every() == 0 || step_ % sink->every() != 0 || last_frame_ == step_) return;
  last_frame_ = step_;
  const ParticleData<double> p = particles();
  sink->frame(serial_, system_.box,
              {step_, static_cast<double>(step_) * params_.dt, &p.position, &p.velocity, &p.image, &p.type});
}

ParticleData<double> Simulation::local_particles() const {
  ParticleData<double> p;
  backend_->get_particles(p);
  return p;
}

ParticleData<double> Simulation::particles() const {
  ParticleData<double> mine = local_particles();
  if (ranks() == 1) return mine;
  ParticleData<double> all;
  plan_->comm().gather(mine, all);
  return all;
}

ThermoSample Simulation::thermo() const {
  ThermoSample t = backend_->thermo(step_, plan_->sums());
  const Communicator& c = plan_->comm();
  if (c.size() > 1) {
    // Sums of the ranks' parts; pressure = (2 KE + W) / 3V is a sum too,
    // and T = 2 KE / (3N - 3) needs the global N.
    t.kinetic_energy = c.sum(t.kinetic_energy);
    t.potential_energy = c.sum(t.potential_energy);
    t.pressure = c.sum(t.pressure);
    t.momentum = {c.sum(t.momentum.x), c.sum(t.momentum.y), c.sum(t.momentum.z)};
    const double n = static_cast<double>(system_.particles.n_local);
    t.temperature = n > 1 ? 2.0 * t.kinetic_energy / (3.0 * n - 3.0) : 0.0;
  }
  t.thermostat_energy = plan_->method().thermostat_energy();
  return t;
}

}  // namespace meso

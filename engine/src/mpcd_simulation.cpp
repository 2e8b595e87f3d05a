#include "meso/mpcd_simulation.hpp"

#include <cmath>
#include <string>

#include "meso/error.hpp"
#include "meso/io/frame_sink.hpp"
#include "meso/progress.hpp"

namespace meso {

MpcdSimulation::MpcdSimulation(std::unique_ptr<Backend> backend, const MpcdSystem& sys)
    : backend_(std::move(backend)), be_(backend_.get()), sys_(sys), serial_(io::next_run_serial()) {
  if (sys_.params.embed_types != 0)
    throw_input_error("MPCD embed_types = ", sys_.params.embed_types,
                      " needs MD solute: construct the MpcdSimulation from an MD Simulation");
  create_operations();
}

MpcdSimulation::MpcdSimulation(std::unique_ptr<Simulation> md, const MpcdSystem& sys)
    : md_(std::move(md)), be_(&md_->backend()), sys_(sys), serial_(io::next_run_serial()) {
  const double dt_md = md_->params().dt, dt_c = sys_.params.dt;
  const double ratio = dt_c / dt_md;
  md_period_ = static_cast<uint64_t>(std::llround(ratio));
  if (md_period_ < 1 || std::fabs(ratio - double(md_period_)) > 1e-9 * ratio)
    throw_input_error("MPCD collision period dt = ", dt_c, " is not a whole number of MD steps dt = ", dt_md);
  require_embeddable(sys_.box, sys_.params, md_->system(), "MpcdSimulation");
  create_operations();
}

namespace {

// The solvent particles a domain owns (positions are wrapped).
MpcdSystem owned_solvent(const MpcdSystem& sys, const Domain& d) {
  MpcdSystem mine = sys;
  MpcdParticles& p = mine.particles;
  p.resize(0);
  const MpcdParticles& all = sys.particles;
  for (std::size_t i = 0; i < all.size(); ++i) {
    if (!d.owns(all.position[i])) continue;
    p.position.push_back(all.position[i]);
    p.velocity.push_back(all.velocity[i]);
    p.type.push_back(all.type[i]);
    p.tag.push_back(all.tag[i]);
    p.image.push_back(all.image[i]);
  }
  return mine;
}

}  // namespace

MpcdSimulation::MpcdSimulation(std::unique_ptr<Backend> backend, const MpcdSystem& sys, CommunicatorFactory make_comm)
    : backend_(std::move(backend)), be_(backend_.get()), sys_{sys.box, sys.params, {}},
      serial_(io::next_run_serial()) {
  // sys_ starts without the particles: on several ranks it never holds the
  // global solvent (one copy of it per rank, the caller's, is enough).
  if (sys.params.embed_types != 0)
    throw_input_error("MPCD embed_types = ", sys.params.embed_types,
                      " needs MD solute: construct the MpcdSimulation from an MD Simulation");
  sys.validate();
  n_global_ = sys.particles.size();
  if (make_comm) comm_ = make_comm(sys.box, 2.0 * sys.params.cell_size);
  if (!comm_ || comm_->size() == 1) {
    comm_.reset();
    sys_.particles = sys.particles;
    create_operations();
    return;
  }
  sys_ = owned_solvent(sys, comm_->domain());
  create_operations();
  collide_->set_communicator(comm_.get());  // refused where the collision is not decomposed
  try {
    comm_->attach_solvent(*be_);
  } catch (const InputError& e) {
    throw_input_error("the ", be_->name(), " backend does not decompose the MPCD solvent over ranks yet (", e.what(),
                      "): use --backend cpu, or one rank");
  }
  // system() keeps the box and params (thermo, frames); the particles are
  // the backend's (particles() gathers them on rank 0).
  sys_.particles = MpcdParticles{};
}

MpcdSimulation::~MpcdSimulation() = default;

int MpcdSimulation::ranks() const { return comm_ ? comm_->size() : 1; }

std::size_t MpcdSimulation::local_size() const {
  MpcdParticles p;
  be_->get_mpcd(p);
  return p.size();
}

void MpcdSimulation::create_operations() {
  be_->set_mpcd(sys_);  // validates (Backend::set_mpcd)
  stream_ = be_->create_as<MpcdStreamOp>("mpcd/stream");
  collide_ = be_->create_as<MpcdCollideOp>(std::string("mpcd/collide/") + to_string(sys_.params.rule));
  const Variant& v = be_->variant();
  if (be_->honours("reorder") && v.reorder != ReorderKind::none) {
    if (v.reorder != ReorderKind::cell)
      throw_input_error("variant reorder=", to_string(v.reorder),
                        " is not provided for the MPCD solvent: it is sorted by cell (reorder=cell)");
    sort_ = be_->create_as<MpcdSortOp>("mpcd/sort");
    rules_.reorder = true;
    rules_.sort_every = v.sort;
  }
}

void MpcdSimulation::run(uint64_t ncollisions, uint64_t sample_every,
                         const std::function<void(const MpcdThermo&)>& on_sample) {
  emit_frame();
  for (uint64_t k = 0; k < ncollisions; ++k) {
    ++step_;
    stream_->stream();
    if (comm_) comm_->migrate_solvent();
    if (md_) md_->run(md_period_);
    // Sorting before the collision puts the particles of a cell next to each
    // other when the cell properties are summed (HOOMD-blue sorts then).
    // The cell list is rebuilt every collision, so sort=N sorts on the
    // collisions numbered N, 2N, ... (sort=0: every one): the collisions
    // since the last sort follow from the number, and a restart needs no
    // counter of its own.
    const uint64_t since_sort = rules_.sort_every ? (step_ - 1) % rules_.sort_every + 1 : 1;
    if (sort_ && rules_.sort_due(since_sort)) sort_->sort();
    collide_->collide(step_);
    // With embedded MD the MD steps report themselves; else one per collision
    // (the sink reads its clock only about twice a second).
    if (!md_) progress::advanced(1);
    if (sample_every > 0 && step_ % sample_every == 0 && on_sample) on_sample(thermo());
    emit_frame();
  }
}

void MpcdSimulation::emit_frame() {
  io::FrameSink* sink = io::frame_sink();
  if (!sink || sink->every() == 0 || step_ % sink->every() != 0 || last_frame_ == step_) return;
  last_frame_ = step_;
  const MpcdParticles p = particles();
  sink->frame(serial_, sys_.box,
              {step_, static_cast<double>(step_) * sys_.params.dt, &p.position, &p.velocity, &p.image, &p.type});
}

MpcdParticles MpcdSimulation::particles() const {
  MpcdParticles p;
  be_->get_mpcd(p);
  if (!comm_) return p;
  // Gathered on rank 0 through the MD particles' gather (tag order).
  ParticleData<double> mine, all;
  mine.resize(p.size());
  for (std::size_t i = 0; i < p.size(); ++i) {
    mine.position[i] = p.position[i];
    mine.velocity[i] = p.velocity[i];
    mine.type[i] = p.type[i];
    mine.tag[i] = p.tag[i];
    mine.image[i] = p.image[i];
  }
  comm_->gather(mine, all);
  MpcdParticles out;
  out.resize(all.n_local);
  for (std::size_t i = 0; i < all.n_local; ++i) {
    out.position[i] = all.position[i];
    out.velocity[i] = all.velocity[i];
    out.type[i] = all.type[i];
    out.tag[i] = all.tag[i];
    out.image[i] = all.image[i];
  }
  return out;
}

MpcdThermo MpcdSimulation::thermo() const {
  if (!comm_) return mpcd_thermo(particles(), sys_.params.mass, step_);
  MpcdParticles p;
  be_->get_mpcd(p);
  MpcdThermo t = mpcd_thermo(p, sys_.params.mass, step_);
  // Sums of the ranks' parts; T = 2 K / (3 (N - 1)) with the global N.
  t.momentum = {comm_->sum(t.momentum.x), comm_->sum(t.momentum.y), comm_->sum(t.momentum.z)};
  t.kinetic_energy = comm_->sum(t.kinetic_energy);
  const double n = double(n_global_);
  t.temperature = n > 1 ? 2.0 * t.kinetic_energy / (3.0 * (n - 1.0)) : 0.0;
  return t;
}

}  // namespace meso

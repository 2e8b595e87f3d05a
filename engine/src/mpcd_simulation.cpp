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

void MpcdSimulation::create_operations() {
  be_->set_mpcd(sys_);  // validates (Backend::set_mpcd)
  stream_ = be_->create_as<MpcdStreamOp>("mpcd/stream");
  collide_ = be_->create_as<MpcdCollideOp>(std::string("mpcd/collide/") + to_string(sys_.params.rule));
  const Variant& v = be_->variant();
  if (be_->honours("reorder") && v.reorder != ReorderKind::none && v.sort > 0) {
    if (v.reorder != ReorderKind::cell)
      throw_input_error("variant reorder=", to_string(v.reorder),
                        " is not provided for the MPCD solvent: it is sorted by cell (reorder=cell)");
    sort_ = be_->create_as<MpcdSortOp>("mpcd/sort");
    sort_every_ = v.sort;
  }
}

void MpcdSimulation::run(uint64_t ncollisions, uint64_t sample_every,
                         const std::function<void(const MpcdThermo&)>& on_sample) {
  emit_frame();
  for (uint64_t k = 0; k < ncollisions; ++k) {
    ++step_;
    stream_->stream();
    if (md_) md_->run(md_period_);
    // Sorting before the collision puts the particles of a cell next to each
    // other when the cell properties are summed (HOOMD-blue sorts then).
    if (sort_ && step_ % sort_every_ == 0) sort_->sort();
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
  return p;
}

MpcdThermo MpcdSimulation::thermo() const {
  return mpcd_thermo(particles(), sys_.params.mass, step_);
}

}  // namespace meso

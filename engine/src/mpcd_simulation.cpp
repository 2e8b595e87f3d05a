#include "meso/mpcd_simulation.hpp"

#include <string>

#include "meso/error.hpp"

namespace meso {

MpcdSimulation::MpcdSimulation(std::unique_ptr<Backend> backend, const MpcdSystem& sys)
    : backend_(std::move(backend)), sys_(sys) {
  backend_->set_mpcd(sys_);  // validates (Backend::set_mpcd)
  stream_ = backend_->create_as<MpcdStreamOp>("mpcd/stream");
  collide_ = backend_->create_as<MpcdCollideOp>(std::string("mpcd/collide/") + to_string(sys_.params.rule));
  const Variant& v = backend_->variant();
  if (backend_->honours("reorder") && v.reorder != ReorderKind::none && v.sort > 0) {
    if (v.reorder != ReorderKind::cell)
      throw_input_error("variant reorder=", to_string(v.reorder),
                        " is not provided for the MPCD solvent: it is sorted by cell (reorder=cell)");
    sort_ = backend_->create_as<MpcdSortOp>("mpcd/sort");
    sort_every_ = v.sort;
  }
}

void MpcdSimulation::run(uint64_t ncollisions, uint64_t sample_every,
                         const std::function<void(const MpcdThermo&)>& on_sample) {
  for (uint64_t k = 0; k < ncollisions; ++k) {
    ++step_;
    stream_->stream();
    // Sorting before the collision puts the particles of a cell next to each
    // other when the cell properties are summed (HOOMD-blue sorts then).
    if (sort_ && step_ % sort_every_ == 0) sort_->sort();
    collide_->collide(step_);
    if (sample_every > 0 && step_ % sample_every == 0 && on_sample) on_sample(thermo());
  }
}

MpcdParticles MpcdSimulation::particles() const {
  MpcdParticles p;
  backend_->get_mpcd(p);
  return p;
}

MpcdThermo MpcdSimulation::thermo() const {
  return mpcd_thermo(particles(), sys_.params.mass, step_);
}

}  // namespace meso

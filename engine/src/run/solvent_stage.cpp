#include "meso/run/solvent_stage.hpp"

#include <string>

#include "meso/run/backend.hpp"
#include "meso/core/error.hpp"
#include "meso/ops/communicator.hpp"

namespace meso {

SolventStage::SolventStage(Backend& b, const MpcdSystem& sys, uint64_t period)
    : period_(period), shear_rate_(sys.params.shear.rate) {
  stream_ = b.create_as<MpcdStreamOp>("mpcd/stream");
  collide_ = b.create_as<MpcdCollideOp>(std::string("mpcd/collide/") + to_string(sys.params.rule));
  const Variant& v = b.variant();
  if (b.honours("reorder") && v.reorder != ReorderKind::none) {
    if (v.reorder != ReorderKind::cell)
      throw_input_error("variant reorder=", to_string(v.reorder),
                        " is not provided for the MPCD solvent: it is sorted by cell (reorder=cell)");
    sort_ = b.create_as<MpcdSortOp>("mpcd/sort");
    rules_.reorder = true;
    rules_.sort_every = v.sort;
  }
}

void SolventStage::attach(Communicator& comm, Backend& b) {
  if (shear_rate_ != 0.0)
    throw_input_error("MPCD shear_rate = ", shear_rate_,
                      " (Lees-Edwards) is not decomposed over ranks yet: run it on one rank");
  collide_->set_communicator(&comm);  // refused where the collision is not decomposed
  try {
    comm.attach_solvent(b);
  } catch (const InputError& e) {
    throw_input_error("the ", b.name(), " backend does not decompose the MPCD solvent over ranks yet (", e.what(),
                      "): use --backend cpu, or one rank");
  }
  comm_ = &comm;
}

void SolventStage::begin_period(uint64_t collision) {
  stream_->stream(collision);
  if (comm_) comm_->migrate_solvent();
}

void SolventStage::end_period(uint64_t collision) {
  // Sorting before the collision puts the particles of a cell next to each
  // other when the cell properties are summed (HOOMD-blue sorts then). The
  // cell list is rebuilt every collision, so sort=N sorts on the collisions
  // numbered N, 2N, ... (sort=0: every one): the collisions since the last
  // sort follow from the number, and a restart needs no counter of its own.
  const uint64_t since_sort = rules_.sort_every ? (collision - 1) % rules_.sort_every + 1 : 1;
  if (sort_ && rules_.sort_due(since_sort)) sort_->sort();
  collide_->collide(collision);
}

void SolventStage::end_run() {
  if (comm_) comm_->settle_solvent();
}

}  // namespace meso

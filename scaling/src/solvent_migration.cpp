// The MPCD solvent's migration between ranks (Communicator::attach_solvent,
// migrate_solvent, settle_solvent): the plan's side; the transport moves
// the records (through the host as the MD particles, or with --transport
// nccl in messages of an agreed capacity whose counts stay on the device:
// nccl_transport.cpp).
#include <stdexcept>

#include "meso/run/backend.hpp"
#include "meso/scaling/mpi_communicator.hpp"
#include "mpi_links.hpp"
#include "transport.hpp"

namespace meso::scaling {

void MpiCommunicator::attach_solvent(Backend& b) {
  solvent_ = b.create_as<MpcdDomainOp>("mpcd/domain");
  if (!msg_) msg_ = std::make_unique<MessageBuffers>(solvent_->message_memory());
  make_transport_for(b, solvent_->device_records());
  transport_->attach_solvent(*solvent_, *msg_);
}

void MpiCommunicator::settle_solvent() {
  if (size_ > 1 && transport_) transport_->settle_solvent(axes_);
}

void MpiCommunicator::migrate_solvent() {
  if (size_ == 1) return;
  if (!solvent_) throw std::logic_error("MpiCommunicator::migrate_solvent before attach_solvent");
  transport_->migrate_solvent(axes_);
  ++migrations_;
}

}  // namespace meso::scaling

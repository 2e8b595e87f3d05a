// The MPCD solvent's migration between ranks (Communicator::attach_solvent,
// migrate_solvent, settle_solvent): through the host (migrate_through, as
// the MD particles), or with --transport nccl in messages of an agreed
// capacity whose counts stay on the device (MpcdDomainOp::pack_messages),
// faults and the capacity agreed over the ranks from late reports.
#include <algorithm>
#include <string>

#include "meso/backend.hpp"
#include "meso/error.hpp"
#include "meso/scaling/mpi_communicator.hpp"
#include "mpi_links.hpp"

namespace meso::scaling {

void MpiCommunicator::attach_solvent(Backend& b) {
  solvent_ = b.create_as<MpcdDomainOp>("mpcd/domain");
  solvent_fixed_capacity_ = b.variant().solvent_capacity;  // 0: agreed (parsed up to 2^26)
  if (!msg_) msg_ = std::make_unique<MessageBuffers>(solvent_->message_memory());
  connect_nccl(b, solvent_->device_records());
}

void MpiCommunicator::settle_solvent() {
  if (size_ > 1 && nccl_ && solvent_ && solvent_capacity_ != 0) agree_solvent(true);
}

void MpiCommunicator::take_solvent_reports(bool wait) {
  MpiTimer t{solvent_pack_s_};
  const MpcdDomainOp::MigrationReport r = solvent_->migration_report(wait);
  solvent_most_ = std::max(solvent_most_, r.most);
  solvent_strays_ += r.strays;
  solvent_overflow_ += r.overflow;
}

// A fault (a particle that moved more than a domain, or leavers beyond a
// message's capacity, which stay on the wrong rank) stops every rank here
// at once. The capacity is twice the most leavers of one message reported
// since the last agreement, plus 256 (at least 1024), so that a message
// holds what a face passes in a period with room for fluctuations (the
// count of a face is about Poisson: at 1000 a period, twice is 30 standard
// deviations) and a change of flow; the first is set the same way from the
// first migration's leavers, counted on every rank before it (the one wait
// for the device's counts). Messages are sent whole: a larger factor costs
// bandwidth every period, and the solvent's arrays hold the bound it sets.
void MpiCommunicator::agree_solvent(bool wait) {
  if (wait) take_solvent_reports(true);
  if (solvent_capacity_ == 0) {  // the first: from the leavers of the first migration, counted
    MpiTimer t{solvent_pack_s_};
    for (int a = 0; a < 3; ++a)
      if (d_.grid[a] > 1) solvent_most_ = std::max(solvent_most_, solvent_->probe_leavers(slab(a)));
  }
  MpiTimer t{mpi_s_};
  const unsigned long long mine[3] = {solvent_most_, solvent_strays_, solvent_overflow_};
  unsigned long long all[3] = {0, 0, 0};
  MPI_Allreduce(mine, all, 3, MPI_UNSIGNED_LONG_LONG, MPI_MAX, cart_);
  if (all[1] != 0 || all[2] != 0) {
    // An overflow leaves leavers behind, and they may stray next: both named.
    std::string why;
    if (all[2] != 0)
      why = "more solvent particles had to leave a rank across one face in a collision period than a migration "
            "message holds (up to " + std::to_string(all[2]) + " on one rank, " + std::to_string(solvent_capacity_) +
            " a message)";
    if (all[1] != 0)
      why += (why.empty() ? "" : "; ") + std::string("solvent particles moved more than one domain in a collision ") +
             "period (up to " + std::to_string(all[1]) + " on one rank: use fewer ranks or a shorter period)";
    throw_input_error("MPCD: ", why, ". They stayed on the wrong rank, and the run is stopped");
  }
  if (solvent_fixed_capacity_ != 0)
    solvent_capacity_ = solvent_fixed_capacity_;
  else if (solvent_capacity_ == 0 || all[0] != 0)
    solvent_capacity_ = std::max<unsigned long long>(2 * all[0] + 256, 1024);
  solvent_most_ = 0;
}

void MpiCommunicator::migrate_solvent() {
  if (size_ == 1) return;
  if (!solvent_) throw std::logic_error("MpiCommunicator::migrate_solvent before attach_solvent");
  if (nccl_) {
    migrate_solvent_device();
    return;
  }
  migrate_through(*solvent_, MpiTag::solvent_migrate, solvent_pack_s_);
}

// The solvent's migration with nothing waiting for the device: each axis
// sends both neighbours a message of the agreed capacity whose header
// holds its count. What the device found comes back a few migrations later
// (MpcdDomainOp::migration_report) and is agreed over the ranks every
// kCapacityEvery migrations and after every run of steps (agree_solvent).
void MpiCommunicator::migrate_solvent_device() {
  take_solvent_reports(false);
  if (solvent_capacity_ == 0 || solvent_migrations_ % kCapacityEvery == 0) agree_solvent(false);
  ++solvent_migrations_;
  const std::size_t c = solvent_capacity_, bytes = MpcdDomainOp::message_bytes(c);
  for (int a = 0; a < 3; ++a) {
    if (d_.grid[a] == 1) continue;
    MpiTimer t{solvent_pack_s_};
    const double* out = solvent_->pack_messages(slab(a), c);
    double* in = solvent_->arrivals(c);
    const std::size_t half = bytes / sizeof(double);
    nccl_->exchange(a, {out, out + half}, {bytes, bytes}, {in, in + half}, {bytes, bytes}, solvent_->device_stream());
    solvent_->add_arrivals(c);
  }
  solvent_->end_migration();
  ++migrations_;
}

}  // namespace meso::scaling

// NcclTransport (transport.hpp): every record on the device, moved by the
// backend's DeviceLinks (--transport nccl). The MD particles' migration and
// ghosts wait only for the counts that size their messages; the solvent
// migrates in messages of an agreed capacity whose counts stay on the
// device (MpcdDomainOp::pack_messages), faults and the capacity agreed over
// the ranks from late reports.
#include <algorithm>
#include <string>

#include "meso/core/error.hpp"
#include "transport.hpp"

namespace meso::scaling {

void NcclTransport::attach(DomainStorageOp& storage, MessageBuffers&) {
  storage_ = &storage;
  records_ = storage.device_records();
  if (!records_) throw_input_error("--transport nccl moves device buffers: it needs --backend cuda");
  ghosts_ = std::make_unique<DeviceGhostTransport>(storage, *records_, *links_, mpi_s_);
}

void NcclTransport::attach_solvent(MpcdDomainOp& solvent, MessageBuffers&) {
  if (!solvent.device_records()) throw_input_error("--transport nccl moves device buffers: it needs --backend cuda");
  solvent_ = &solvent;
}

// As the host's migration, with the MD particles' records left on the
// device (the storage's DeviceRecordsOp): the leavers' counts are the one
// host wait of an axis (they size the messages), a note of two counts goes
// to each neighbour through MPI, and the records cross by DeviceLinks on
// the storage's stream, where they are unpacked.
void NcclTransport::migrate(const SplitAxes& axes) {
  constexpr std::size_t record = DomainStorageOp::kMigrateRecord;
  double timed_by_the_storage = 0.0;  // DomainStorageOp::pack_seconds
  for (const SplitAxis& ax : axes) {
    const int a = ax.links.axis;
    DeviceLeavers out;
    {
      MpiTimer t{timed_by_the_storage};
      out = records_->take_leavers_device(ax.slab);
    }
    const std::array<std::size_t, 2> in =
        exchange_counts(ax.links, out.count, tag_of(MpiTag::device_notes, a, 2), mpi_s_);
    MpiTimer t{timed_by_the_storage};
    double* arrivals = records_->arrivals(in[0] + in[1], record);
    const std::size_t b = record * sizeof(double);
    links_->exchange(a, {out.records, out.records + out.count[0] * record}, {out.count[0] * b, out.count[1] * b},
                     {arrivals, arrivals + in[0] * record}, {in[0] * b, in[1] * b}, records_->device_stream());
    records_->add_locals_device(in[0] + in[1]);
  }
}

// Every split axis GPU to GPU, the first exchange too.
bool NcclTransport::exchange_ghosts(const SplitAxes& axes, std::array<std::size_t, 6>& received) {
  exchange_each_axis(*ghosts_, axes, received);
  return true;
}

// Enqueued whole, axis after axis (later axes forward what earlier ones refresh).
bool NcclTransport::update_ghosts(const SplitAxes& axes, const std::array<std::size_t, 6>& received) {
  update_each_axis(*ghosts_, axes, received);
  return true;
}

void NcclTransport::settle_solvent(const SplitAxes& axes) {
  if (solvent_ && solvent_capacity_ != 0) agree_solvent(axes, true);
}

void NcclTransport::take_solvent_reports(bool wait) {
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
void NcclTransport::agree_solvent(const SplitAxes& axes, bool wait) {
  if (wait) take_solvent_reports(true);
  if (solvent_capacity_ == 0) {  // the first: from the leavers of the first migration, counted
    MpiTimer t{solvent_pack_s_};
    for (const SplitAxis& ax : axes) solvent_most_ = std::max(solvent_most_, solvent_->probe_leavers(ax.slab));
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

// The solvent's migration with nothing waiting for the device: each axis
// sends both neighbours a message of the agreed capacity whose header
// holds its count. What the device found comes back a few migrations later
// (MpcdDomainOp::migration_report) and is agreed over the ranks every
// kCapacityEvery migrations and after every run of steps (agree_solvent).
void NcclTransport::migrate_solvent(const SplitAxes& axes) {
  take_solvent_reports(false);
  if (solvent_capacity_ == 0 || solvent_migrations_ % kCapacityEvery == 0) agree_solvent(axes, false);
  ++solvent_migrations_;
  const std::size_t c = solvent_capacity_, bytes = MpcdDomainOp::message_bytes(c);
  for (const SplitAxis& ax : axes) {
    MpiTimer t{solvent_pack_s_};
    const double* out = solvent_->pack_messages(ax.slab, c);
    double* in = solvent_->arrivals(c);
    const std::size_t half = bytes / sizeof(double);
    links_->exchange(ax.links.axis, {out, out + half}, {bytes, bytes}, {in, in + half}, {bytes, bytes},
                     solvent_->device_stream());
    solvent_->add_arrivals(c);
  }
  solvent_->end_migration();
}

}  // namespace meso::scaling
